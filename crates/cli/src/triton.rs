//! Triton cache entries as input: a kernel's code object (`K.hsaco`) with the launch metadata
//! Triton keeps beside it (`K.json`). The code object alone gets the launch wrong: Triton
//! allocates its shared memory at launch (the json's `shared`; the code object declares 0
//! bytes of LDS) and launches `num_warps x warp_size` work-items per program, which the code
//! object does not state. The json's keys are those of Triton's `KernelMetadata`
//! (`python/triton/compiler/compiler.py`, the AMD backend's `HIPOptions`): `name`,
//! `num_warps`, `warp_size`, `shared`, `target` (`{backend, arch, warp_size}`) and `arch`.

use crate::error::CliError;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Triton's default `num_warps` (`HIPOptions.num_warps`), for a json that gives none.
const DEFAULT_NUM_WARPS: u32 = 4;

/// The most work-items a workgroup holds on AMD GPUs.
const MAX_BLOCK: u64 = 1024;

/// The most LDS bytes a workgroup has on any AMD GPU (gfx950's 160 KiB).
const MAX_SHARED: u64 = 163_840;

/// What a Triton cache entry's json says about the launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TritonLaunch {
    /// The json read (as given, for messages).
    pub json: String,
    /// The kernel (`name`), or the code object's file stem when the json names none.
    pub kernel: String,
    /// The target processor (`target.arch` or `arch`), when given.
    pub arch: Option<String>,
    /// Work-items per workgroup: `num_warps x warp_size`.
    pub block: u32,
    /// Dynamic LDS bytes per workgroup (`shared`).
    pub shared: u32,
    /// What came from the json and what is a default, one note each, for the report.
    pub notes: Vec<String>,
}

/// The code object to read for `path` and the Triton json beside it: a directory holding one
/// `K.hsaco` with `K.json` beside it (a Triton cache entry), or a `.hsaco` whose `.json`
/// is beside it. `None` when `path` is neither (an ordinary file).
pub fn entry(path: &str) -> Result<Option<(String, PathBuf)>, CliError> {
    let p = Path::new(path);
    if p.is_dir() {
        let listing = std::fs::read_dir(p)
            .map_err(|e| CliError::input(format!("{path}: error: cannot read: {e}")))?;
        let mut found: Vec<(PathBuf, PathBuf)> = listing
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.extension().is_some_and(|x| x == "hsaco"))
            .filter_map(|f| json_beside(&f).map(|j| (f, j)))
            .collect();
        found.sort();
        return match found.len() {
            1 => {
                let (hsaco, json) = found.remove(0);
                Ok(Some((hsaco.display().to_string(), json)))
            }
            0 => Err(CliError::input(format!(
                "{path}: error: a directory is read as a Triton cache entry, and this one holds no `K.hsaco` with `K.json` beside it"
            ))),
            n => Err(CliError::input(format!(
                "{path}: error: the directory holds {n} Triton kernels ({}); name one `.hsaco`, or use `shadersim batch` for all",
                found
                    .iter()
                    .filter_map(|(h, _)| h.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        };
    }
    if p.extension().is_some_and(|x| x == "hsaco") {
        return Ok(json_beside(p).map(|j| (path.to_string(), j)));
    }
    Ok(None)
}

/// `dir/K.json` for `dir/K.hsaco`, when it is a file (only `.hsaco`, Triton's name: another
/// code object's json is no Triton metadata).
pub fn json_beside(hsaco: &Path) -> Option<PathBuf> {
    if hsaco.extension().is_none_or(|x| x != "hsaco") {
        return None;
    }
    let json = hsaco.with_extension("json");
    json.is_file().then_some(json)
}

/// Read the json at `path`.
pub fn read_launch(path: &Path, hsaco: &Path) -> Result<TritonLaunch, CliError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{name}: error: cannot read: {e}")))?;
    let stem = hsaco
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    parse_launch(&name, &text, &stem)
}

/// The line (1-based) where `"key"` first appears in `text`, for messages about its value.
fn line_of(text: &str, key: &str) -> usize {
    let quoted = format!("\"{key}\"");
    text.find(&quoted)
        .map_or(1, |at| text[..at].matches('\n').count() + 1)
}

/// Parse a Triton metadata json (`name` for messages; `stem`, the code object's file stem,
/// names the kernel when the json does not).
pub fn parse_launch(name: &str, text: &str, stem: &str) -> Result<TritonLaunch, CliError> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        CliError::input(format!(
            "{name}:{}:{}: error: not Triton's metadata json: {e}",
            e.line(),
            e.column()
        ))
    })?;
    let Value::Object(map) = &v else {
        return Err(CliError::input(format!(
            "{name}:1:1: error: Triton's metadata json is an object; this is not"
        )));
    };
    let bad = |key: &str, why: String| {
        CliError::input(format!(
            "{name}:{}: error: `{key}`: {why}",
            line_of(text, key)
        ))
    };
    let whole = |key: &str, max: u64| -> Result<Option<u32>, CliError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => match x.as_u64() {
                Some(n) if n <= max => Ok(Some(n as u32)),
                _ => Err(bad(
                    key,
                    format!("{x} is not a whole number from 0 to {max}"),
                )),
            },
        }
    };
    let target = map.get("target");
    // `target` is `{backend, arch, warp_size}` (GPUTarget as JSON); older Triton wrote it as
    // the list `[backend, arch, warp_size]`.
    let target_field = |key: &str, index: usize| match target {
        Some(Value::Object(t)) => t.get(key),
        Some(Value::Array(a)) => a.get(index),
        _ => None,
    };
    let mut notes = Vec::new();
    let mut said = Vec::new();
    let kernel = match map.get("name").and_then(Value::as_str) {
        Some(k) => {
            said.push(format!("kernel `{k}` (name)"));
            k.to_string()
        }
        None => {
            notes.push(format!("{name}: no `name`; the kernel is the code object's first, as `{stem}` is the file's"));
            stem.to_string()
        }
    };
    let arch = target_field("arch", 1)
        .or_else(|| map.get("arch"))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(a) = &arch {
        said.push(format!("target {a}"));
    }
    let num_warps = whole("num_warps", MAX_BLOCK)?;
    let warp_key = ["warp_size", "threads_per_warp"]
        .into_iter()
        .find(|k| map.get(*k).is_some_and(|x| !x.is_null()));
    let warp = match warp_key {
        Some(k) => whole(k, 64)?.map(|w| (w, k.to_string())),
        None => target_field("warp_size", 2)
            .and_then(Value::as_u64)
            .filter(|w| (1..=64).contains(w))
            .map(|w| (w as u32, "target.warp_size".to_string())),
    };
    let (warp_size, warp_from) = match warp {
        Some((w, k)) if w > 0 => (w, k),
        Some((w, k)) => return Err(bad(&k, format!("{w} lanes per wave"))),
        None => {
            // Triton's defaults: wave64 on GCN/CDNA, wave32 where the ISA has it (RDNA).
            let wave32 = arch
                .as_deref()
                .and_then(|a| a.parse::<shadersim_isa::Target>().ok())
                .is_some_and(|t| t.gen.has_wave32());
            let w = if wave32 { 32 } else { 64 };
            notes.push(format!(
                "{name}: no `warp_size`; {w} lanes per wave (Triton's default for the target)"
            ));
            (w, "default".to_string())
        }
    };
    let warps = match num_warps {
        Some(0) => return Err(bad("num_warps", "0 warps launch no work-items".into())),
        Some(n) => n,
        None => {
            notes.push(format!(
                "{name}: no `num_warps`; {DEFAULT_NUM_WARPS} warps (Triton's default)"
            ));
            DEFAULT_NUM_WARPS
        }
    };
    let block = u64::from(warps) * u64::from(warp_size);
    if block > MAX_BLOCK {
        return Err(bad(
            "num_warps",
            format!("{warps} warps of {warp_size} lanes is {block} work-items; a workgroup holds at most {MAX_BLOCK}"),
        ));
    }
    said.push(format!(
        "block {block} work-items (num_warps {warps} x {warp_from} {warp_size})"
    ));
    let shared = match whole("shared", MAX_SHARED)? {
        Some(s) => {
            said.push(format!("{s} bytes of dynamic LDS (shared)"));
            s
        }
        None => {
            notes.push(format!("{name}: no `shared`; no dynamic LDS"));
            0
        }
    };
    notes.insert(
        0,
        format!(
            "{name}: Triton launch metadata: {}; the grid is --grid (Triton's programs per axis)",
            said.join(", ")
        ),
    );
    Ok(TritonLaunch {
        json: name.to_string(),
        kernel,
        arch,
        block: block as u32,
        shared,
        notes,
    })
}

impl TritonLaunch {
    /// Put the launch into the hints where they leave it open: the block (unless the hints
    /// give a block or a `workgroup_size`) and the dynamic LDS (unless they give `shared`).
    /// The values carry empty spans, as `--set` values do.
    pub fn apply(&self, hints: &mut shadersim_trace::Hints) {
        use toml::Spanned;
        if hints.launch.block.is_none() && hints.dispatch.workgroup_size.is_none() {
            hints.launch.block = Some(Spanned::new(
                0..0,
                shadersim_trace::Dims::Text(self.block.to_string()),
            ));
        }
        if hints.launch.shared.is_none() && self.shared > 0 {
            hints.launch.shared = Some(Spanned::new(0..0, i64::from(self.shared)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_launch;

    #[test]
    fn keys_of_triton_3() {
        let t = parse_launch(
            "k.json",
            r#"{"target": {"backend": "hip", "arch": "gfx942", "warp_size": 64},
                "num_warps": 8, "warp_size": 64, "shared": 32, "name": "softmax_kernel"}"#,
            "softmax_kernel",
        )
        .unwrap();
        // 8 warps x 64 lanes.
        assert_eq!((t.block, t.shared), (512, 32));
        assert_eq!(t.arch.as_deref(), Some("gfx942"));
        assert_eq!(t.notes.len(), 1, "{:?}", t.notes);
    }

    #[test]
    fn older_layouts_and_defaults() {
        // A list target and no top-level warp size: the list's third entry.
        let t = parse_launch("k.json", r#"{"target": ["hip", "gfx1100", 32]}"#, "k").unwrap();
        // Triton's default 4 warps x 32 lanes.
        assert_eq!((t.block, t.shared, t.kernel.as_str()), (128, 0, "k"));
        assert!(t.notes.iter().any(|n| n.contains("no `num_warps`")));
        // No warp size anywhere: gfx1100 (RDNA 3) runs wave32 by default, gfx90a wave64.
        let t = parse_launch("k.json", r#"{"arch": "gfx1100"}"#, "k").unwrap();
        assert_eq!(t.block, 4 * 32);
        let t = parse_launch("k.json", r#"{"arch": "gfx90a"}"#, "k").unwrap();
        assert_eq!(t.block, 4 * 64);
        let t = parse_launch("k.json", r#"{"threads_per_warp": 32, "num_warps": 2}"#, "k").unwrap();
        assert_eq!(t.block, 64);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_launch("k.json", "{\n \"num_warps\": 64,\n \"warp_size\": 64}", "k")
            .unwrap_err()
            .message();
        assert!(e.starts_with("k.json:2: error: `num_warps`"), "{e}");
        let e = parse_launch("k.json", "{\n \"shared\": -1}", "k")
            .unwrap_err()
            .message();
        assert!(e.starts_with("k.json:2: error: `shared`"), "{e}");
        let e = parse_launch("k.json", "{\n \"shared\": ", "k")
            .unwrap_err()
            .message();
        assert!(e.starts_with("k.json:2:"), "{e}");
    }
}
