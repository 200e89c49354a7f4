//! Running the `shadersim` binary from a test.
//!
//! Only an integration test of the CLI crate knows where cargo put the
//! binary (`env!("CARGO_BIN_EXE_shadersim")` is set for those alone), so a
//! [`Run`] starts from that path; the CLI's tests wrap it once (their
//! `shadersim()` in `crates/cli/tests/cli/main.rs`).

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// One run of the binary: its arguments, working directory (the
/// repository root unless [`Run::dir`] changes it), environment and
/// standard input.
pub struct Run {
    command: Command,
    stdin: Option<Vec<u8>>,
}

impl Run {
    /// A run of the binary at `bin` in the repository root, with no
    /// arguments yet and an empty standard input.
    pub fn new(bin: impl AsRef<OsStr>) -> Run {
        let mut command = Command::new(bin);
        command.current_dir(crate::repo_root());
        Run {
            command,
            stdin: None,
        }
    }

    /// Add `args` to the command line.
    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Run {
        self.command.args(args);
        self
    }

    /// Run in `dir` instead of the repository root.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Run {
        self.command.current_dir(dir);
        self
    }

    /// Set the environment variable `key` to `value` for the run.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Run {
        self.command.env(key, value);
        self
    }

    /// Feed `bytes` to the binary's standard input.
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Run {
        self.stdin = Some(bytes.into());
        self
    }

    /// Run to the end; the exit status and both outputs. Panics only when
    /// the binary cannot be started.
    pub fn output(mut self) -> Output {
        // A closed, empty standard input unless the test gives one: a
        // command that reads stdin by mistake ends instead of hanging.
        self.command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self.command.spawn().expect("shadersim starts");
        let input = child.stdin.take().expect("piped stdin");
        let bytes = self.stdin.unwrap_or_default();
        // Write from a thread: a large input and a large output could
        // otherwise fill both pipes and wait on each other.
        let writer = std::thread::spawn(move || {
            let mut input = input;
            // The binary may exit without reading its input (a usage
            // error): a broken pipe is not the test's failure.
            let _ = input.write_all(&bytes);
        });
        let output = child.wait_with_output().expect("shadersim finishes");
        writer.join().expect("stdin writer");
        output
    }

    /// Run with a time bound: the exit status and both outputs, or `None`
    /// when the run took longer than `bound` (it is then killed). For
    /// harnesses whose inputs might make the binary hang.
    pub fn output_within(mut self, bound: Duration) -> Option<Output> {
        self.command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self.command.spawn().expect("shadersim starts");
        // Drain both pipes from threads while the run goes on: a report
        // larger than a pipe's buffer would otherwise block the binary and
        // look like a hang.
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = drain(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = drain(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("waiting on shadersim") {
                break status;
            }
            if start.elapsed() > bound {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        Some(Output {
            status,
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        })
    }

    /// Run to the end; the exit code (-1 when a signal ended it) and both
    /// outputs as text (invalid UTF-8 replaced).
    pub fn code_and_text(self) -> (i32, String, String) {
        let out = self.output();
        (
            out.status.code().unwrap_or(-1),
            text(&out.stdout),
            text(&out.stderr),
        )
    }
}

/// `bytes` as text, invalid UTF-8 replaced (for messages and `contains`).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A run's standard output as text; panics when it is not UTF-8 (the
/// binary writes UTF-8, so that is a bug the test should show).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("standard output is UTF-8")
}

/// A successful run's standard output as text; panics with its standard error when the run
/// failed.
pub fn success_stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", text(&o.stderr));
    stdout(o)
}

/// A run's standard error as text; panics when it is not UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("standard error is UTF-8")
}

/// A successful run's standard output parsed as JSON; panics with its
/// standard error when the run failed.
pub fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("standard output is JSON")
}
