//! Running a compiler in a child process with a time limit, and what a
//! compile gives: shared by `compile` (OpenCL C through clang) and
//! `compile_vulkan` (GLSL and SPIR-V through RADV).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// How long a compiler may run before it is stopped.
pub(crate) const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

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
