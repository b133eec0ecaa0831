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
    /// What is wrong: the JSON pointer of the member that does not decode and serde's
    /// message (`at "/tools/0/name": invalid type: …`), or the value the model cannot hold.
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

/// Decodes `text` as the generated type `T` (named `what` in errors) of `version`; the error
/// names the JSON pointer of the member that does not decode.
///
/// Text that decodes is read once, without tracking the path: `serde_path_to_error` copies
/// every member name it passes, which costs as much as the decode on a large listing.
/// Decoding is deterministic, so text that fails is decoded a second time, with the path,
/// only to name where.
pub(crate) fn decode<T: DeserializeOwned>(
    text: &str,
    what: &'static str,
    version: Version,
) -> Result<T, ReadError> {
    serde_json::from_str(text).map_err(|plain: serde_json::Error| {
        match decode_with_path::<T>(text, what, version) {
            Err(error) => error,
            // Never, as both passes are the same decode; the plain error then.
            Ok(_) => ReadError::new(what, version, plain.to_string()),
        }
    })
}

/// [`decode`] tracking the path, for the error.
fn decode_with_path<T: DeserializeOwned>(
    text: &str,
    what: &'static str,
    version: Version,
) -> Result<T, ReadError> {
    let mut decoder = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut decoder).map_err(|e| {
        let at = json_pointer(e.path());
        ReadError::new(what, version, format!("at \"{at}\": {}", e.inner()))
    })?;
    decoder
        .end()
        .map_err(|e| ReadError::new(what, version, e.to_string()))?;
    Ok(value)
}

/// A serde path (from `serde_path_to_error`) as a JSON pointer (RFC 6901).
pub fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        let token = match segment {
            Segment::Seq { index } => index.to_string(),
            Segment::Map { key } => key.replace('~', "~0").replace('/', "~1"),
            Segment::Enum { variant } => variant.clone(),
            Segment::Unknown => continue,
        };
        out.push('/');
        out.push_str(&token);
    }
    out
}
