//! A reply with what its writer knows about it: whether it is one success, one error (and its
//! code) or a batch's array, and for `initialize` the version its result names. A transport
//! that maps replies to statuses (Streamable HTTP) reads these facts, never the reply's bytes.

use std::ops::Deref;

/// What one reply is, as the side that wrote it knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplyFacts {
    /// What the reply holds.
    pub kind: ReplyKind,
    /// For a success reply to `initialize`: the `protocolVersion` its result names, when it
    /// names one as a string.
    pub agreed_version: Option<Box<str>>,
}

/// The shape of one reply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReplyKind {
    /// One success response (a `result` member at the top level).
    Result,
    /// One error response, with its code.
    Error(i64),
    /// A batch's array (its elements stand on their own).
    #[default]
    Batch,
}

impl ReplyFacts {
    /// A success reply (`agreed_version` is set by the peer for `initialize`).
    pub(crate) fn result() -> ReplyFacts {
        ReplyFacts {
            kind: ReplyKind::Result,
            agreed_version: None,
        }
    }

    /// One error response with `code`.
    pub(crate) fn error(code: i64) -> ReplyFacts {
        ReplyFacts {
            kind: ReplyKind::Error(code),
            agreed_version: None,
        }
    }

    /// A batch's array.
    pub(crate) fn batch() -> ReplyFacts {
        ReplyFacts::default()
    }

    /// The code of a reply that is one error response; `None` for a success or a batch.
    pub fn error_code(&self) -> Option<i64> {
        match self.kind {
            ReplyKind::Error(code) => Some(code),
            ReplyKind::Result | ReplyKind::Batch => None,
        }
    }

    /// Whether the reply is one success response.
    pub fn is_result(&self) -> bool {
        self.kind == ReplyKind::Result
    }
}

/// A reply's bytes (one line of JSON, without its terminator) and its [`ReplyFacts`].
/// Dereferences to the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyFrame {
    bytes: Vec<u8>,
    facts: ReplyFacts,
}

impl ReplyFrame {
    /// `bytes`, which are what `facts` say.
    pub fn new(bytes: Vec<u8>, facts: ReplyFacts) -> ReplyFrame {
        ReplyFrame { bytes, facts }
    }

    /// What the reply is.
    pub fn facts(&self) -> &ReplyFacts {
        &self.facts
    }

    /// The reply's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The reply's bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The bytes and the facts, apart.
    pub fn into_parts(self) -> (Vec<u8>, ReplyFacts) {
        (self.bytes, self.facts)
    }
}

impl Deref for ReplyFrame {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// The `protocolVersion` an `initialize` result names (a string), read from the result's own
/// text where the peer writes the reply: once per session, from the handler's output, so that
/// no transport reads the reply again to learn what was agreed.
pub(crate) fn agreed_version(result: &str) -> Option<Box<str>> {
    #[derive(serde::Deserialize)]
    struct Agreed<'a> {
        #[serde(rename = "protocolVersion", borrow, default)]
        protocol_version: Option<&'a serde_json::value::RawValue>,
    }
    let agreed: Agreed<'_> = serde_json::from_str(result).ok()?;
    serde_json::from_str::<String>(agreed.protocol_version?.get())
        .ok()
        .map(String::into_boxed_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agreed_version_is_a_string_member_of_the_result() {
        let named = r#"{"capabilities":{},"protocolVersion":"2025-11-25"}"#;
        assert_eq!(agreed_version(named).as_deref(), Some("2025-11-25"));
        assert_eq!(agreed_version(r#"{"protocolVersion":7}"#), None);
        assert_eq!(agreed_version(r#"{}"#), None);
        assert_eq!(agreed_version("[1]"), None);
    }
}
