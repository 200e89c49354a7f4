//! `shadersim compile FILE --arch NAME [-o OUT.s]`: compile shader source
//! for a model's GPU and print (or save) the listing shadersim reads, so
//! hints can be written against its lines. `analyze`, `cfg` and `hints`
//! compile source files the same way before reading them (`input.rs`).
//!
//! OpenCL C (`.cl`) is compiled through clang, GLSL and SPIR-V through
//! Mesa's RADV driver on its null device (`compile_vulkan.rs`); every
//! compiler runs in a child process with a time limit, so a compiler crash
//! or hang is an error, not a crash of shadersim.

use crate::error::{CliError, CliResult};
use crate::input::target_for_arch;
use shadersim_isa::Target;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Arguments of `shadersim compile`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Shader source: OpenCL C (`.cl`), GLSL (`.vert`, `.frag`, `.comp`, or
    /// any name with --stage) or SPIR-V (`.spv`).
    pub file: String,
    /// Stage of a GLSL file whose extension does not say (vert, frag, comp).
    #[arg(long)]
    pub stage: Option<String>,
    /// GPU to compile for (gfx900, rdna3, a model name, ...).
    #[arg(long)]
    pub arch: String,
    /// Write the listing here instead of standard output (and, for GLSL
    /// and SPIR-V, the driver's statistics beside it as OUT.stats.toml,
    /// where `analyze OUT` finds them).
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
}

/// Source languages shadersim can be handed instead of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// OpenCL C, compiled by clang.
    OpenCl,
    /// GLSL (`.vert`, `.frag`, `.comp`, ...) or SPIR-V (`.spv`).
    Vulkan,
}

/// The source language of `path` by its extension (or, for a file with
/// another name, the SPIR-V magic number), or `None` for a listing.
pub fn source_kind(path: &str) -> Option<SourceKind> {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("cl") => Some(SourceKind::OpenCl),
        Some("vert" | "frag" | "comp" | "geom" | "tesc" | "tese" | "glsl" | "spv") => {
            Some(SourceKind::Vulkan)
        }
        _ => is_spirv_file(path).then_some(SourceKind::Vulkan),
    }
}

/// Whether the file starts with SPIR-V's magic number (either byte order).
fn is_spirv_file(path: &str) -> bool {
    let mut magic = [0u8; 4];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    if f.read_exact(&mut magic).is_err() {
        return false;
    }
    let w = u32::from_le_bytes(magic);
    w == shadersim_radv::reflect::SPIRV_MAGIC
        || w.swap_bytes() == shadersim_radv::reflect::SPIRV_MAGIC
}

/// A compiled listing and, when the compiler reports them, its statistics
/// (the `FILE.stats.toml` form shadersim reads beside a listing).
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The listing text.
    pub listing: String,
    /// The driver's statistics (GLSL and SPIR-V through RADV).
    pub statistics: Option<String>,
    /// The workgroup size the source declares, which a bare listing does
    /// not carry (GLSL and SPIR-V compute shaders).
    pub workgroup_size: Option<[u32; 3]>,
}

/// Clang binaries tried in order: clang-22 knows gfx12's newest names,
/// clang-19 is Debian 12's.
const CLANGS: &[&str] = &["clang-22", "clang-19", "clang"];

/// How long a compiler may run before it is stopped.
pub(crate) const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// Compile `path` for `target`; `stage` names a GLSL file's stage when its
/// extension does not.
pub fn compile_source(
    path: &str,
    target: &Target,
    stage: Option<&str>,
) -> Result<Compiled, CliError> {
    match source_kind(path) {
        Some(SourceKind::OpenCl) => Ok(Compiled {
            listing: compile_opencl(path, target)?,
            statistics: None,
            workgroup_size: None,
        }),
        Some(SourceKind::Vulkan) => super::compile_vulkan::compile(path, target, stage),
        None => Err(CliError::Usage(format!(
            "{path}: not a source file shadersim compiles (.cl, .vert, .frag, .comp, .glsl with --stage, .spv)"
        ))),
    }
}

/// OpenCL C through clang: `clang -S -O2 -nogpulib -target
/// amdgcn-amd-amdhsa -mcpu=GFX -x cl -cl-std=CL2.0 FILE -o -`, the way
/// the fixtures are made. Without a device library, OpenCL's library
/// functions (`get_global_id`, ...) stay calls, which the reader names in
/// warnings.
fn compile_opencl(path: &str, target: &Target) -> Result<String, CliError> {
    if !Path::new(path).is_file() {
        return Err(CliError::Input(format!(
            "{path}: error: cannot read: no such file"
        )));
    }
    let args = [
        "-S",
        "-O2",
        "-nogpulib",
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={}", target.name),
        "-x",
        "cl",
        "-cl-std=CL2.0",
        path,
        "-o",
        "-",
    ];
    for clang in CLANGS {
        match run_with_timeout(clang, &args) {
            Ok(listing) => return Ok(listing),
            Err(RunError::NotFound) => continue,
            Err(RunError::Failed(stderr)) => {
                return Err(CliError::Input(format!(
                    "{path}: error: {clang} could not compile it for {}:\n{}",
                    target.name,
                    stderr.trim_end()
                )))
            }
            Err(RunError::TimedOut) => {
                return Err(CliError::Input(format!(
                    "{path}: error: {clang} did not finish within {} s; stopped",
                    COMPILE_TIMEOUT.as_secs()
                )))
            }
        }
    }
    Err(CliError::Input(format!(
        "{path}: error: compiling OpenCL C needs clang ({} not found); install the Debian package clang-19 (or clang-22 for gfx12's newest names)",
        CLANGS.join(", ")
    )))
}

/// Why a child process gave no output.
pub(crate) enum RunError {
    /// The program is not installed.
    NotFound,
    /// It failed; its standard error.
    Failed(String),
    /// It ran past [`COMPILE_TIMEOUT`] and was stopped.
    TimedOut,
}

/// Run `program args`, collecting its output, stopping it after
/// [`COMPILE_TIMEOUT`].
pub(crate) fn run_with_timeout(program: &str, args: &[&str]) -> Result<String, RunError> {
    run_with_timeout_env(program, args, &[])
}

/// [`run_with_timeout`] with extra environment variables.
pub(crate) fn run_with_timeout_env(
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<String, RunError> {
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => RunError::NotFound,
            _ => RunError::Failed(e.to_string()),
        })?;
    // Read both pipes on threads so a chatty compiler cannot block on a
    // full pipe while we wait for it.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > COMPILE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(RunError::Failed(e.to_string())),
        }
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if status.success() {
        Ok(stdout)
    } else {
        // Some compilers (glslangValidator) print their errors on stdout.
        Err(RunError::Failed(if stderr.trim().is_empty() {
            stdout
        } else {
            stderr
        }))
    }
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let target = target_for_arch(&args.arch).ok_or_else(|| {
        CliError::Usage(format!(
            "`{}` is not a GPU target (use a gfx name such as gfx900 or a family such as rdna3)",
            args.arch
        ))
    })?;
    let compiled = compile_source(&args.file, &target, args.stage.as_deref())?;
    match &args.output {
        Some(out) => {
            std::fs::write(out, &compiled.listing)
                .map_err(|e| CliError::Input(format!("{out}: error: cannot write: {e}")))?;
            if let Some(stats) = &compiled.statistics {
                let stats_path = statistics_path(out);
                std::fs::write(&stats_path, stats).map_err(|e| {
                    CliError::Input(format!("{stats_path}: error: cannot write: {e}"))
                })?;
                eprintln!("{out}: note: the driver's statistics are in {stats_path}");
            }
            Ok(())
        }
        None => std::io::stdout()
            .lock()
            .write_all(compiled.listing.as_bytes())
            .map_err(CliError::Io),
    }
}

/// Where `compile -o OUT` saves the statistics: `OUT` without its last
/// extension, plus `.stats.toml` (the first name `analyze OUT` looks for).
fn statistics_path(out: &str) -> String {
    let p = Path::new(out);
    match (p.file_stem(), p.extension()) {
        (Some(stem), Some(_)) => p
            .with_file_name(format!("{}.stats.toml", stem.to_string_lossy()))
            .display()
            .to_string(),
        _ => format!("{out}.stats.toml"),
    }
}
