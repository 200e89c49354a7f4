//! Errors of the command-line tool and the exit codes they map to.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

/// What went wrong, and therefore which exit code the process ends with.
#[derive(Debug)]
pub enum CliError {
    /// Bad input (a file that does not parse, a value out of range): exit code 1.
    /// The message is printed as is; when it is about a place in a file it
    /// already starts with `FILE:LINE:COL: error:`.
    Input(String),
    /// Bad usage that clap could not catch (conflicting options): exit code 2.
    Usage(String),
    /// Writing the output failed. A closed pipe (`shadersim ... | head`) is not an error.
    Io(std::io::Error),
}

impl CliError {
    /// Shorthand for an input error built from anything printable.
    pub fn input(msg: impl fmt::Display) -> Self {
        CliError::Input(msg.to_string())
    }

    /// The message alone, as a `batch` line's `error` carries it.
    pub fn message(&self) -> String {
        match self {
            CliError::Input(m) | CliError::Usage(m) => m.clone(),
            CliError::Io(e) => e.to_string(),
        }
    }

    /// What [`CliError::report`] prints on standard error: the message (with `error: ` in
    /// front unless it has a place or the prefix), the source snippet under a place, then
    /// the notes. Empty for a closed pipe, which is no error.
    pub fn rendered(&self) -> String {
        match self {
            CliError::Input(msg) => {
                // Notes a caller added (`\nnote: ...`) go after the snippet
                // of the place the error is about, as rustc prints them.
                let (error, notes) = match msg.find("\nnote: ") {
                    Some(i) => (&msg[..i], &msg[i + 1..]),
                    None => (msg.as_str(), ""),
                };
                let mut out = with_error_prefix(error) + "\n";
                if let Some(snippet) = crate::diagnostic::source_snippet(error) {
                    out += &snippet;
                }
                if !notes.is_empty() {
                    out += notes;
                    out += "\n";
                }
                out
            }
            CliError::Usage(msg) => format!("error: {msg}\n"),
            CliError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => String::new(),
            CliError::Io(e) => format!("error: {e}\n"),
        }
    }

    /// Print the error on stderr and return the exit code for it.
    pub fn report(self) -> ExitCode {
        let _ = write!(std::io::stderr().lock(), "{}", self.rendered());
        match self {
            CliError::Input(_) => ExitCode::from(1),
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            CliError::Io(_) => ExitCode::from(1),
        }
    }
}

/// Why a file could not be read, in the one wording every command uses:
/// `no such file` for a missing file (not the platform's "No such file or
/// directory (os error 2)", which one path printed and others did not),
/// else the system's reason without its error number.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = e.to_string();
            let text = match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            // Lower case, as the other reasons and messages are.
            let mut c = text.chars();
            c.next().map_or(String::new(), |f| {
                f.to_lowercase().collect::<String>() + c.as_str()
            })
        }
    }
}

/// `PATH: error: cannot read: REASON`, the error for a file that could not
/// be read ([`io_reason`]).
pub fn cannot_read(path: &str, e: &std::io::Error) -> CliError {
    CliError::Input(format!("{path}: error: cannot read: {}", io_reason(e)))
}

/// The same error when `path` does not exist, checked before handing it to
/// a library (a mesh reader, a model loader) that words it its own way.
pub fn require_file(path: &str) -> Result<(), CliError> {
    std::fs::metadata(path)
        .map(|_| ())
        .map_err(|e| cannot_read(path, &e))
}

/// Messages that already carry a position (`file:1:2: error: ...`) or an
/// `error:` prefix are printed unchanged; others get `error: ` in front.
fn with_error_prefix(msg: &str) -> String {
    if msg.contains("error:") {
        msg.to_string()
    } else {
        format!("error: {msg}")
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

/// Result of one command.
pub type CliResult = Result<(), CliError>;
