//! The external tools and system data files some tests need (clang, Mesa
//! RADV with glslang, python3, chromium; Debian's glmark2-data bunny). A
//! test asks before it uses one: when it is missing the test is skipped
//! with a note on standard error, except when the environment variable `CI`
//! is set (`.ci/run` exports `CI=1` after installing every package): there a
//! missing tool or file fails the test, so nothing CI is meant to run can
//! silently skip.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `CI` is set: a missing tool is a failure, not a skip.
pub fn on_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Whether a test needing `what` may run, given whether it is `present`.
/// Missing: panics on CI (naming the Debian package `.ci/run` installs,
/// `package`), else notes the skip on standard error and returns false.
pub fn require(present: bool, what: &str, package: &str) -> bool {
    require_given(on_ci(), present, what, package)
}

/// [`require`] with whether this is CI given, so that both outcomes can be
/// tested on any machine.
fn require_given(ci: bool, present: bool, what: &str, package: &str) -> bool {
    if !present {
        assert!(
            !ci,
            "{what} is missing on CI: .ci/run installs the Debian package {package}"
        );
        // Straight to the process's standard error: the test harness captures `eprintln!`
        // of a passing test, so a skip would leave no note in `cargo test`'s output.
        let _ = writeln!(
            std::io::stderr(),
            "skipped: no {what} (Debian package {package})"
        );
    }
    present
}

/// Where Debian's `glmark2-data` installs the Stanford bunny (69,666
/// triangles), the real mesh the ray-tracing tests traverse.
pub const GLMARK2_BUNNY: &str = "/usr/share/glmark2/models/bunny.obj";

/// The Stanford bunny of Debian's `glmark2-data` ([`GLMARK2_BUNNY`]) when it
/// is installed; see [`require`] for the missing case.
pub fn glmark2_bunny() -> Option<PathBuf> {
    data_file(GLMARK2_BUNNY, "glmark2-data")
}

/// The system data file at `path`, which the Debian package `package`
/// installs, when it is there; see [`require`] for the missing case.
pub fn data_file(path: &str, package: &str) -> Option<PathBuf> {
    data_file_given(on_ci(), path, package)
}

/// [`data_file`] with whether this is CI given.
fn data_file_given(ci: bool, path: &str, package: &str) -> Option<PathBuf> {
    let path = PathBuf::from(path);
    let present = path.is_file();
    require_given(ci, present, &path.display().to_string(), package).then_some(path)
}

/// `program --version` runs and succeeds.
pub fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// clang (clang-22, clang-19 or plain clang, the names `shadersim compile`
/// tries) is installed; see [`require`] for the missing case.
pub fn have_clang() -> bool {
    let present = ["clang-22", "clang-19", "clang"].into_iter().any(runs);
    require(present, "clang", "clang-22")
}

/// clang-22 itself is installed (tests of what only LLVM 22 compiles:
/// gfx12, the RDNA 4 ray tracing builtins); see [`require`].
pub fn have_clang_22() -> bool {
    require(runs("clang-22"), "clang-22", "clang-22")
}

/// Mesa RADV (its loader manifest and driver library, [`radv_driver`]) and
/// glslangValidator are installed, which `shadersim compile` needs for GLSL;
/// see [`require`].
pub fn have_radv() -> bool {
    let present = radv_driver().is_some() && runs("glslangValidator");
    require(
        present,
        "RADV or glslang",
        "mesa-vulkan-drivers, glslang-tools",
    )
}

/// python3 is installed (the ISA table generators' `--check`); see
/// [`require`].
pub fn have_python3() -> bool {
    require(runs("python3"), "python3", "python3")
}

/// The first headless-capable browser installed (chromium under one of its
/// names), or None; see [`require`].
pub fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| runs(b));
    require(found.is_some(), "chromium", "chromium");
    found
}

/// The Vulkan loader manifest (ICD json) of Mesa's RADV whose driver
/// library is installed, found where the Vulkan loader looks on Linux: the
/// files or directories of `VK_DRIVER_FILES` / `VK_ICD_FILENAMES` when set,
/// else `vulkan/icd.d` under `$XDG_CONFIG_HOME`, `$XDG_CONFIG_DIRS`
/// (`/etc/xdg`), `/etc`, `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`
/// (`/usr/local/share:/usr/share`). A manifest is RADV's when its
/// `ICD.library_path` names `libvulkan_radeon`; Mesa names the file per
/// machine (`radeon_icd.x86_64.json`, `radeon_icd.aarch64.json`, ...), so
/// no machine is assumed.
pub fn radv_driver() -> Option<PathBuf> {
    let over = std::env::var("VK_DRIVER_FILES")
        .or_else(|_| std::env::var("VK_ICD_FILENAMES"))
        .ok();
    let places: Vec<PathBuf> = match over {
        Some(list) => std::env::split_paths(&list).collect(),
        None => loader_dirs(),
    };
    radv_manifest_in(&places)
}

/// The first RADV manifest at `places` (files or directories) whose driver
/// library is present.
fn radv_manifest_in(places: &[PathBuf]) -> Option<PathBuf> {
    places
        .iter()
        .flat_map(|p| manifests(p))
        .find(|m| radv_library(m).is_some_and(|lib| library_present(&lib, m)))
}

/// The loader's default search directories for driver manifests.
fn loader_dirs() -> Vec<PathBuf> {
    let var = |name: &str, default: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| default.to_string())
    };
    let home = std::env::var("HOME").unwrap_or_default();
    let mut bases = Vec::new();
    bases.push(PathBuf::from(var(
        "XDG_CONFIG_HOME",
        &format!("{home}/.config"),
    )));
    bases.extend(std::env::split_paths(&var("XDG_CONFIG_DIRS", "/etc/xdg")));
    bases.push(PathBuf::from("/etc"));
    bases.push(PathBuf::from(var(
        "XDG_DATA_HOME",
        &format!("{home}/.local/share"),
    )));
    bases.extend(std::env::split_paths(&var(
        "XDG_DATA_DIRS",
        "/usr/local/share:/usr/share",
    )));
    bases.into_iter().map(|b| b.join("vulkan/icd.d")).collect()
}

/// The `.json` manifests at `place`: the file itself, or a directory's.
fn manifests(place: &Path) -> Vec<PathBuf> {
    if place.is_file() {
        return vec![place.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(place) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The manifest's `ICD.library_path` when it names RADV's library.
fn radv_library(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let lib = json["ICD"]["library_path"].as_str()?;
    lib.contains("libvulkan_radeon").then(|| lib.to_string())
}

/// The library a manifest names exists: an absolute path as is, a relative
/// path with a `/` from the manifest's directory (the loader's rule), a bare
/// name in the dynamic linker's usual directories.
fn library_present(lib: &str, manifest: &Path) -> bool {
    let path = Path::new(lib);
    if path.is_absolute() {
        return path.is_file();
    }
    if lib.contains('/') {
        return manifest
            .parent()
            .is_some_and(|dir| dir.join(path).is_file());
    }
    let mut dirs: Vec<PathBuf> = std::env::var("LD_LIBRARY_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    for base in ["/usr/lib", "/usr/lib64", "/usr/local/lib", "/lib"] {
        dirs.push(PathBuf::from(base));
        // Debian's multiarch directories (x86_64-linux-gnu, aarch64-linux-gnu, ...).
        if let Ok(entries) = std::fs::read_dir(base) {
            dirs.extend(entries.flatten().map(|e| e.path()).filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with("-linux-gnu"))
            }));
        }
    }
    dirs.iter().any(|d| d.join(lib).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MISSING: &str = "/nonexistent/shadersim/glmark2/models/bunny.obj";

    /// Outside CI a missing data file is a skip (None, with a note); a
    /// present one is handed back.
    #[test]
    fn a_missing_data_file_skips_outside_ci() {
        assert_eq!(data_file_given(false, MISSING, "glmark2-data"), None);
        let here = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert_eq!(
            data_file_given(false, here, "glmark2-data"),
            Some(PathBuf::from(here))
        );
        assert!(!require_given(false, false, "clang", "clang-22"));
        assert!(require_given(true, true, "clang", "clang-22"));
    }

    /// On CI a missing data file fails the test, naming the package.
    #[test]
    #[should_panic(expected = "missing on CI: .ci/run installs the Debian package glmark2-data")]
    fn a_missing_data_file_fails_on_ci() {
        data_file_given(true, MISSING, "glmark2-data");
    }

    /// A manifest counts when it names RADV's library and the library is
    /// there (absolute, or relative to the manifest); another driver's
    /// manifest, or RADV's with its library missing, does not.
    #[test]
    fn a_radv_manifest_counts_only_with_its_library() {
        let dir =
            std::env::temp_dir().join(format!("shadersim-testkit-icd-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        let manifest = |name: &str, lib: &str| {
            let path = dir.join(name);
            let json = format!(
                r#"{{"ICD": {{"api_version": "1.3.0", "library_path": "{lib}"}}, "file_format_version": "1.0.0"}}"#
            );
            std::fs::write(&path, json).unwrap();
            path
        };
        let lvp = manifest("lvp_icd.riscv64.json", "libvulkan_lvp.so");
        let gone = manifest(
            "radeon_icd.riscv64.json",
            "/nonexistent/libvulkan_radeon.so",
        );
        assert_eq!(radv_manifest_in(&[lvp.clone(), gone.clone()]), None);
        std::fs::write(dir.join("lib/libvulkan_radeon.so"), b"").unwrap();
        let here = manifest("radeon_icd.aarch64.json", "./lib/libvulkan_radeon.so");
        assert_eq!(
            radv_manifest_in(&[lvp, gone, here.clone()]),
            Some(here.clone())
        );
        // A directory is searched for its .json files.
        assert_eq!(radv_manifest_in(std::slice::from_ref(&dir)), Some(here));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
