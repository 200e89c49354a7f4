//! The files `shadersim batch` reads: the command-line paths expanded, a
//! directory walked for its program files. Every file a walk meets is read
//! or counted in a note: a corpus where files are left out without a word
//! (damaged magic, an unknown extension) reads as complete when it is not.

use crate::error::CliError;
use std::path::{Path, PathBuf};

/// File extensions a directory walk picks up: LLVM assembly (`.s`, `.asm`),
/// `llvm-objdump -d` output (`.dis`) and RADV shader dumps (`.txt`). Files
/// named explicitly on the command line are read whatever their extension.
/// AMDGPU code objects and offload bundles are picked up by their magic or
/// their extension; every other file a walk meets is counted in a note.
pub const PROGRAM_EXTENSIONS: &[&str] = &["s", "asm", "dis", "txt"];

/// One file to analyze and the directory it was found under (for hints).
pub(super) struct Job {
    /// The file.
    pub(super) path: PathBuf,
    /// The command-line path it was found under (hints are looked up below it).
    pub(super) root: PathBuf,
}

/// Extensions only device code objects take (`.co`, `.hsaco`): a walk reads
/// a file named so even when its magic is damaged, so it gets an error line
/// instead of a skip. (A `.o` may be a host object without device code: by
/// its magic only, else counted in the skip note.)
const CODE_OBJECT_EXTENSIONS: &[&str] = &["co", "hsaco"];

/// Names a skip note lists before it says "and N more".
const LISTED_SKIPS: usize = 5;

/// Expand the command-line paths into files, in order: a file as given, a
/// directory as its program files in sorted order. Each directory is walked
/// once (a symbolic link back to a directory already walked is not followed
/// again: links can form loops), and only regular files are read: a FIFO, a
/// socket or a device could block the run or never end, so each is skipped
/// with a note on standard error. A path that does not exist, or `-`
/// (batch reads files, not standard input), is an error before anything runs.
pub(super) fn collect_jobs(paths: &[PathBuf]) -> Result<Vec<Job>, CliError> {
    let mut jobs = Vec::new();
    let mut visited = std::collections::HashSet::new();
    for root in paths {
        if root.as_os_str() == "-" {
            return Err(CliError::Usage(
                "batch reads files and directories, not standard input (`-`); analyze reads one program from it".into(),
            ));
        }
        let meta = std::fs::metadata(root)
            .map_err(|e| crate::error::cannot_read(&root.display().to_string(), &e))?;
        if meta.is_dir() {
            let mut files = Vec::new();
            let mut skipped = Vec::new();
            walk(root, &mut files, &mut skipped, &mut visited);
            files.sort();
            if let Some(note) = skipped_files_note(root, &mut skipped) {
                eprintln!("{note}");
            }
            jobs.extend(files.into_iter().map(|path| Job {
                path,
                root: root.clone(),
            }));
        } else if meta.is_file() {
            jobs.push(Job {
                path: root.clone(),
                root: root.parent().map(Path::to_path_buf).unwrap_or_default(),
            });
        } else {
            eprintln!("{}", skipped_note(root, &meta));
        }
    }
    Ok(jobs)
}

/// The note for a path that is neither a directory nor a regular file.
fn skipped_note(path: &Path, meta: &std::fs::Metadata) -> String {
    #[cfg(unix)]
    let kind = {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            "a FIFO"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_block_device() || t.is_char_device() {
            "a device"
        } else {
            "not a regular file"
        }
    };
    #[cfg(not(unix))]
    let kind = {
        let _ = meta;
        "not a regular file"
    };
    format!(
        "{}: note: skipped: {kind}, not a regular file (reading it could block the batch)",
        path.display()
    )
}

/// The program files below `dir` (unsorted), each directory once: `visited`
/// holds the canonical paths of the directories walked so far. Files that
/// are neither go to `skipped`, with why.
fn walk(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    skipped: &mut Vec<(PathBuf, &'static str)>,
    visited: &mut std::collections::HashSet<PathBuf>,
) {
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !visited.insert(canonical) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        skipped.push((dir.to_path_buf(), "a directory that could not be read"));
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        // Follows links: a link to a directory is walked (once), a link to
        // a file is read.
        let Ok(meta) = std::fs::metadata(&path) else {
            skipped.push((path, "a broken link or a file that could not be read"));
            continue;
        };
        let extension = path.extension().and_then(|e| e.to_str());
        let is_program = extension.is_some_and(|e| {
            PROGRAM_EXTENSIONS.contains(&e) || CODE_OBJECT_EXTENSIONS.contains(&e)
        }) || (meta.is_file() && is_device_code_object(&path));
        if meta.is_dir() {
            walk(&path, files, skipped, visited);
        } else if is_program && meta.is_file() {
            files.push(path);
        } else if is_program {
            eprintln!("{}", skipped_note(&path, &meta));
        } else {
            skipped.push((
                path,
                "neither a listing (.s, .asm, .dis, .txt) nor a code object (no AMDGPU ELF or bundle magic)",
            ));
        }
    }
}

/// Whether `path` starts as an AMDGPU code object (ELF with e_machine
/// EM_AMDGPU) or a clang offload bundle does: a walk picks these up whatever
/// their extension (`.co`, `.hsaco`, Triton's cache files). Host binaries
/// that embed bundles are read when named, not collected by a walk.
fn is_device_code_object(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 24];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    if f.read_exact(&mut head).is_err() {
        return false;
    }
    head.starts_with(shadersim_codeobj::BUNDLE_MAGIC)
        || (head.starts_with(b"\x7fELF") && u16::from_le_bytes([head[18], head[19]]) == 224)
}

/// The note for the files a walk of `root` skipped, grouped by why: `ROOT:
/// note: skipped 2 files: neither a listing ... nor a code object ...: a.bin,
/// b.dat` (the first few names, then how many more). `None` when it skipped
/// nothing.
fn skipped_files_note(root: &Path, skipped: &mut [(PathBuf, &'static str)]) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    skipped.sort();
    let mut reasons: Vec<&'static str> = skipped.iter().map(|(_, r)| *r).collect();
    reasons.sort_unstable();
    reasons.dedup();
    let groups: Vec<String> = reasons
        .iter()
        .map(|reason| {
            let paths: Vec<String> = skipped
                .iter()
                .filter(|(_, r)| r == reason)
                .map(|(p, _)| p.strip_prefix(root).unwrap_or(p).display().to_string())
                .collect();
            let more = match paths.len() > LISTED_SKIPS {
                true => format!(" and {} more", paths.len() - LISTED_SKIPS),
                false => String::new(),
            };
            format!(
                "{} {}: {}{more}",
                paths.len(),
                reason,
                paths
                    .iter()
                    .take(LISTED_SKIPS)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    Some(format!(
        "{}: note: skipped {} file{} the walk met: {}",
        root.display(),
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
        groups.join("; ")
    ))
}
