//! Where a command writes its report: `-o PATH`, or standard output when no
//! path is given or the path is `-` (every command's `-o`, one rule).

use crate::error::CliError;
use std::io::Write;
use std::path::Path;

/// Whether an `-o` value means standard output.
fn is_stdout(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// A writer for `-o PATH` (created, truncated), or buffered standard output
/// for no path or `-`.
pub fn open(path: Option<&Path>) -> Result<Box<dyn Write>, CliError> {
    match path {
        Some(p) if !is_stdout(Some(p)) => {
            let f = std::fs::File::create(p).map_err(|e| {
                CliError::input(format!("{}: error: cannot write: {e}", p.display()))
            })?;
            Ok(Box::new(std::io::BufWriter::new(f)))
        }
        _ => Ok(Box::new(std::io::BufWriter::new(std::io::stdout().lock()))),
    }
}

/// Write a whole report to `-o PATH`, or standard output for no path or `-`.
pub fn write(path: Option<&str>, bytes: impl AsRef<[u8]>) -> Result<(), CliError> {
    let path = path.map(Path::new);
    if is_stdout(path) {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes.as_ref())?;
        out.flush()?;
        return Ok(());
    }
    let p = path.expect("not standard output");
    std::fs::write(p, bytes)
        .map_err(|e| CliError::input(format!("{}: error: cannot write: {e}", p.display())))
}
