//! `shadersim compile FILE --arch NAME [-o OUT.s]`: compile shader source
//! for a model's GPU and print (or save) the listing shadersim reads, so
//! hints can be written against its lines. `analyze`, `cfg` and `hints`
//! compile source files the same way before reading them (`input.rs`).
//!
//! Today OpenCL C (`.cl`) is compiled, through clang in a child process
//! with a time limit (a compiler crash or hang is an error, not a crash of
//! shadersim). GLSL and SPIR-V (through Mesa RADV on its null device) are
//! recognised and refused with what to do instead.

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
    /// Shader source: OpenCL C (`.cl`).
    pub file: String,
    /// GPU to compile for (gfx900, rdna3, a model name, ...).
    #[arg(long)]
    pub arch: String,
    /// Write the listing here instead of standard output.
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

/// The source language of `path` by its extension, or `None` for a listing.
pub fn source_kind(path: &str) -> Option<SourceKind> {
    let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "cl" => Some(SourceKind::OpenCl),
        "vert" | "frag" | "comp" | "geom" | "tesc" | "tese" | "spv" => Some(SourceKind::Vulkan),
        _ => None,
    }
}

/// Clang binaries tried in order: clang-22 knows gfx12's newest names,
/// clang-19 is Debian 12's.
const CLANGS: &[&str] = &["clang-22", "clang-19", "clang"];

/// How long a compiler may run before it is stopped.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// Compile `path` for `target`; the listing text.
pub fn compile_source(path: &str, target: &Target) -> Result<String, CliError> {
    match source_kind(path) {
        Some(SourceKind::OpenCl) => compile_opencl(path, target),
        Some(SourceKind::Vulkan) => Err(CliError::Input(format!(
            "{path}: error: compiling GLSL and SPIR-V in place (through Mesa RADV) is not implemented yet; \
             build the pipeline with RADV yourself (scripts/fixtures/radv_capture.c -a writes its listing, \
             RADV_FORCE_FAMILY needs no AMD GPU; Debian packages mesa-vulkan-drivers, glslang-tools) and pass the listing"
        ))),
        None => Err(CliError::Usage(format!(
            "{path}: not a source file shadersim compiles (.cl)"
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

enum RunError {
    NotFound,
    Failed(String),
    TimedOut,
}

/// Run `program args`, collecting its output, stopping it after
/// [`COMPILE_TIMEOUT`].
fn run_with_timeout(program: &str, args: &[&str]) -> Result<String, RunError> {
    let mut child = Command::new(program)
        .args(args)
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
        Err(RunError::Failed(stderr))
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
    let listing = compile_source(&args.file, &target)?;
    match &args.output {
        Some(out) => std::fs::write(out, listing)
            .map_err(|e| CliError::Input(format!("{out}: error: cannot write: {e}"))),
        None => std::io::stdout()
            .lock()
            .write_all(listing.as_bytes())
            .map_err(CliError::Io),
    }
}
