//! GLSL and SPIR-V through Mesa RADV on its null device: no AMD GPU needed.
//!
//! 1. GLSL becomes SPIR-V with `glslangValidator` (Khronos' reference
//!    compiler, Debian package glslang-tools).
//! 2. A fragment shader given alone gets a pass-through vertex shader, a
//!    vertex shader given alone a fragment shader reading every output
//!    (`shadersim_radv::passthrough`).
//! 3. shadersim runs itself as `shadersim radv-capture` in a child process
//!    with `RADV_FORCE_FAMILY` naming the chip and a time limit; the child
//!    builds the pipeline and prints the driver's listings and statistics.
//!    A driver crash or hang is then an error here, not a crash.
//! 4. The executable of the shader's stage gives the listing (ACO's
//!    disassembly, what RenderDoc shows) and the statistics (the
//!    `FILE.stats.toml` form, which feed the occupancy calculation).

use super::compiler::{
    run_with_timeout, run_with_timeout_env, Compiled, RunError, COMPILE_TIMEOUT,
};
use super::glsl_port;
use crate::error::CliError;
use shadersim_isa::Target;
use shadersim_radv::reflect::{reflect, words_from_bytes, ShaderStage};
use shadersim_radv::Capture;
use std::path::{Path, PathBuf};

/// Where Debian's mesa-vulkan-drivers installs RADV's loader manifest.
const RADV_ICD: &str = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json";

/// Compile `path` (GLSL or SPIR-V) for `target`. `port_es`: port OpenGL
/// ES GLSL older than 3.10 to 3.10 first (`compile --port-es`; see
/// `glsl_port.rs`); without it such a file is an error saying how to port it.
pub fn compile(
    path: &str,
    target: &Target,
    stage: Option<&str>,
    port_es: bool,
) -> Result<Compiled, CliError> {
    let bytes = std::fs::read(path).map_err(|e| crate::error::cannot_read(path, &e))?;
    let family = shadersim_radv::family_for(&target.name).ok_or_else(|| {
        CliError::input(format!(
            "{path}: error: Mesa RADV cannot compile for {} (it knows gfx6 to gfx11 chips); pick such a GPU with --arch, or compile OpenCL C with clang",
            target.name
        ))
    })?;
    let dir = tempfile::Builder::new()
        .prefix("shadersim-compile")
        .tempdir()
        .map_err(|e| CliError::input(format!("error: cannot make a temporary directory: {e}")))?;
    let is_spirv = Path::new(path).extension().is_some_and(|e| e == "spv")
        || bytes.len() >= 4
            && matches!(
                u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
                w if w == shadersim_radv::reflect::SPIRV_MAGIC
                    || w.swap_bytes() == shadersim_radv::reflect::SPIRV_MAGIC
            );
    let spirv_path = if is_spirv {
        PathBuf::from(path)
    } else {
        let stage = glsl_stage(path, stage, &bytes)?;
        let out = dir.path().join(format!("shader.{stage}.spv"));
        let text = String::from_utf8_lossy(&bytes);
        match glsl_port::old_es_version(&text) {
            None => glsl_to_spirv(path, stage, &out)?,
            Some((version, line)) if !port_es => {
                return Err(CliError::input(glsl_port::port_message(
                    path, version, line,
                )))
            }
            Some((version, _)) => {
                let ported = glsl_port::port(&text, stage, version).map_err(|why| {
                    CliError::input(format!("{path}: error: --port-es cannot port it: {why}"))
                })?;
                let ported_path = dir.path().join(format!("ported.{stage}"));
                std::fs::write(&ported_path, ported).map_err(|e| {
                    CliError::input(format!("error: cannot write a temporary file: {e}"))
                })?;
                // glslang's messages name the temporary file: name the
                // user's (the `#line` directive keeps the line numbers).
                let shown = ported_path.display().to_string();
                glsl_to_spirv(&shown, stage, &out).map_err(|e| match e {
                    CliError::Input(m) => CliError::Input(format!(
                        "{} (after --port-es respelled it as ES 3.10)",
                        m.replace(&shown, path)
                    )),
                    other => other,
                })?;
            }
        }
        out
    };
    let spirv = std::fs::read(&spirv_path)
        .map_err(|e| crate::error::cannot_read(&spirv_path.display().to_string(), &e))?;
    let words =
        words_from_bytes(&spirv).map_err(|e| CliError::input(format!("{path}: error: {e}")))?;
    let reflection = reflect(&words).map_err(|e| CliError::input(format!("{path}: error: {e}")))?;
    let mut modules: Vec<PathBuf> = Vec::new();
    if reflection.stage == ShaderStage::Fragment {
        let vs_src = dir.path().join("passthrough.vert");
        std::fs::write(
            &vs_src,
            shadersim_radv::passthrough::vertex_shader_for(&reflection.inputs),
        )
        .map_err(|e| CliError::input(format!("error: cannot write a temporary file: {e}")))?;
        let vs = dir.path().join("passthrough.vert.spv");
        glsl_to_spirv(&vs_src.display().to_string(), "vert", &vs)?;
        modules.push(vs);
    }
    modules.push(spirv_path);
    if reflection.stage == ShaderStage::Vertex {
        // A consumer of every output: without one the driver would remove
        // all of them but the position (nothing reads them).
        let fs_src = dir.path().join("consumer.frag");
        std::fs::write(
            &fs_src,
            shadersim_radv::passthrough::fragment_shader_for(&reflection.outputs),
        )
        .map_err(|e| CliError::input(format!("error: cannot write a temporary file: {e}")))?;
        let fs = dir.path().join("consumer.frag.spv");
        glsl_to_spirv(&fs_src.display().to_string(), "frag", &fs)?;
        modules.push(fs);
    }
    let capture = run_capture(path, family, &modules)?;
    let stage_name = reflection.stage.name();
    let exe = capture.executable_for(stage_name).ok_or_else(|| {
        CliError::input(format!(
            "{path}: error: RADV reported no {stage_name} executable (it reported {})",
            capture
                .executables
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let listing = exe.assembly.clone().ok_or_else(|| {
        CliError::input(format!(
            "{path}: error: RADV gave no \"Assembly\" representation of its {} ({})",
            exe.name, capture.device
        ))
    })?;
    Ok(Compiled {
        listing: with_header(
            &listing,
            &capture,
            &exe.name,
            &target.name,
            reflection.workgroup_size,
        ),
        statistics: Some(capture.statistics_toml("shadersim compile (Mesa RADV)")),
        workgroup_size: reflection.workgroup_size,
    })
}

/// The listing with comment lines naming where it came from: readers skip
/// them, users see what compiled it.
fn with_header(
    listing: &str,
    capture: &Capture,
    executable: &str,
    gpu: &str,
    workgroup: Option<[u32; 3]>,
) -> String {
    let mut out = format!(
        "; {executable} compiled by Mesa RADV {} for {gpu} ({})\n",
        capture.driver_info, capture.device
    );
    if let Some([x, y, z]) = workgroup {
        out.push_str(&format!("; workgroup size {x}x{y}x{z} (from the source)\n"));
    }
    out.push_str(listing);
    if !listing.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The stage of a GLSL file: its extension, else `--stage`, else a
/// `#pragma shader_stage(NAME)` line (the convention of shaderc).
fn glsl_stage(path: &str, stage: Option<&str>, bytes: &[u8]) -> Result<&'static str, CliError> {
    let by_name = |s: &str| match s {
        "vert" | "vertex" => Some("vert"),
        "frag" | "fragment" => Some("frag"),
        "comp" | "compute" => Some("comp"),
        _ => None,
    };
    if let Some(s) = stage {
        return by_name(s).ok_or_else(|| {
            CliError::Usage(format!(
                "--stage {s}: shadersim compiles vert, frag and comp shaders"
            ))
        });
    }
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    if let Some(s) = by_name(ext) {
        return Ok(s);
    }
    if matches!(ext, "geom" | "tesc" | "tese") {
        return Err(CliError::input(format!(
            "{path}: error: {ext} shaders are not compiled by shadersim (vertex, fragment and compute are)"
        )));
    }
    let text = String::from_utf8_lossy(bytes);
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("#pragma shader_stage(") {
            if let Some(s) = rest.split(')').next().and_then(by_name) {
                return Ok(s);
            }
        }
    }
    // `analyze`, `cfg` and the other commands that compile first take no
    // `--stage`: name the ways every command understands.
    Err(CliError::Usage(format!(
        "{path}: say which stage this GLSL is: name it .vert, .frag or .comp, or add a \
         `#pragma shader_stage(vert|frag|comp)` line (`shadersim compile` also takes --stage)"
    )))
}

/// GLSL to SPIR-V with glslangValidator. OpenGL GLSL compiles too:
/// `--auto-map-locations` gives inputs and outputs without a
/// `layout(location = N)` the next free location, `--auto-map-bindings`
/// samplers, images and blocks without a `binding` the next free binding,
/// and `-R` (relaxed Vulkan rules) puts loose uniforms (`uniform vec4 c;`)
/// into one uniform block. Explicit layouts are kept as written.
fn glsl_to_spirv(path: &str, stage: &str, out: &Path) -> Result<(), CliError> {
    let out_s = out.display().to_string();
    let args = [
        "-V",
        "-R",
        "--auto-map-locations",
        "--auto-map-bindings",
        "--target-env",
        "vulkan1.2",
        "-S",
        stage,
        path,
        "-o",
        &out_s,
    ];
    match run_with_timeout("glslangValidator", &args) {
        Ok(_) => Ok(()),
        Err(RunError::NotFound) => Err(CliError::input(format!(
            "{path}: error: compiling GLSL needs glslangValidator; install the Debian package glslang-tools"
        ))),
        // glslangValidator prints its diagnostics on standard output.
        Err(RunError::Failed(msg)) => Err(CliError::input(format!(
            "{path}: error: glslangValidator could not compile it:\n{}",
            msg.trim_end()
        ))),
        Err(RunError::TimedOut) => Err(CliError::input(format!(
            "{path}: error: glslangValidator did not finish within {} s; stopped",
            COMPILE_TIMEOUT.as_secs()
        ))),
    }
}

/// Run `shadersim radv-capture` on `modules` for `family`.
fn run_capture(path: &str, family: &str, modules: &[PathBuf]) -> Result<Capture, CliError> {
    let exe = std::env::current_exe().map_err(|e| {
        CliError::input(format!(
            "error: cannot find shadersim's own executable: {e}"
        ))
    })?;
    // The child is this binary's hidden `radv-capture`: a process that is not the shadersim
    // binary (Python running the library) has no such command to run.
    if !exe
        .file_stem()
        .is_some_and(|s| s.to_string_lossy().starts_with("shadersim"))
    {
        return Err(CliError::input(format!(
            "{path}: error: GLSL and SPIR-V are compiled by the shadersim binary in a child process, which this process ({}) is not; run `shadersim compile` and analyze its listing",
            exe.display()
        )));
    }
    let exe = exe.display().to_string();
    let mut args = vec!["radv-capture".to_string()];
    args.extend(modules.iter().map(|m| m.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut env = vec![("RADV_FORCE_FAMILY", family)];
    // Only RADV: another driver (lavapipe, a real GPU's) must not answer.
    if Path::new(RADV_ICD).is_file() {
        env.push(("VK_ICD_FILENAMES", RADV_ICD));
    }
    match run_with_timeout_env(&exe, &args, &env) {
        Ok(json) => serde_json::from_str(&json).map_err(|e| {
            CliError::input(format!(
                "{path}: error: the RADV child process printed something unreadable: {e}"
            ))
        }),
        Err(RunError::Failed(msg)) => {
            let msg = msg.trim_end();
            let msg = if msg.is_empty() {
                "the driver crashed (no message)".to_string()
            } else {
                msg.to_string()
            };
            Err(CliError::input(format!(
                "{path}: error: Mesa RADV ({family}) could not compile it: {msg}"
            )))
        }
        Err(RunError::NotFound) => Err(CliError::input(format!(
            "{path}: error: cannot run shadersim's own executable {exe}"
        ))),
        Err(RunError::TimedOut) => Err(CliError::input(format!(
            "{path}: error: Mesa RADV did not finish within {} s; stopped",
            COMPILE_TIMEOUT.as_secs()
        ))),
    }
}
