//! Why what a server sent cannot be read into the model: it does not decode as the
//! version's generated type, or it holds a value the model has no place for.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::version::Version;

/// Why a reply of some version cannot be read into the version-neutral model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The generated type the text was read as, e.g. `CallToolResult`.
    pub what: &'static str,
    /// The version in force.
    pub version: Version,
    /// What is wrong: serde's message (with its line and column), or the value the model
    /// cannot hold.
    pub reason: String,
}

impl ReadError {
    pub(crate) fn new(what: &'static str, version: Version, reason: impl Into<String>) -> Self {
        Self {
            what,
            version,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a {} of MCP {}: {}",
            self.what, self.version, self.reason
        )
    }
}

impl std::error::Error for ReadError {}

/// Decodes `text` as the generated type `T` (named `what` in errors) of `version`.
pub(crate) fn decode<T: DeserializeOwned>(
    text: &str,
    what: &'static str,
    version: Version,
) -> Result<T, ReadError> {
    serde_json::from_str(text).map_err(|e| ReadError::new(what, version, e.to_string()))
}
