//! Errors of the code-object reader: the file and the byte offset they are about.

use std::fmt;

/// A code object that cannot be read: which file, where in it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeObjError {
    /// The file name as the caller gave it.
    pub file: String,
    /// Byte offset in the file the problem is at, when it is about a place.
    pub offset: Option<u64>,
    /// What is wrong, in words.
    pub message: String,
}

impl CodeObjError {
    /// An error about `file` at byte `offset`.
    pub fn at(file: &str, offset: u64, message: impl Into<String>) -> Self {
        CodeObjError {
            file: file.to_string(),
            offset: Some(offset),
            message: message.into(),
        }
    }

    /// An error about `file` as a whole.
    pub fn whole(file: &str, message: impl Into<String>) -> Self {
        CodeObjError {
            file: file.to_string(),
            offset: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for CodeObjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{}: offset 0x{o:x}: error: {}", self.file, self.message),
            None => write!(f, "{}: error: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for CodeObjError {}
