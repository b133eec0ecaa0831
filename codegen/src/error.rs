//! The one error type of the generator: a message plus the JSON pointer it is about.

use std::fmt;

/// A generation failure, naming the JSON pointer of the construct that caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenError {
    /// The input file the pointer refers to (relative to its root), when known.
    pub file: Option<String>,
    /// JSON pointer (RFC 6901, with a leading `#`) of the offending construct.
    pub pointer: String,
    /// What is wrong with it.
    pub message: String,
}

impl CodegenError {
    /// An error about the construct at `pointer`.
    pub fn at(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: None,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The same error, attributed to `file`.
    pub fn in_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_owned());
        self
    }
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{file}: {}: {}", self.pointer, self.message),
            None => write!(f, "{}: {}", self.pointer, self.message),
        }
    }
}

impl std::error::Error for CodegenError {}

/// Result alias used throughout the generator.
pub type Result<T> = std::result::Result<T, CodegenError>;
