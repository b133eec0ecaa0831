//! What the server did wrong on the wire: a [`Violation`] names the [`Rule`] it broke.
//!
//! A violation that names a pending call fails that call with
//! [`ClientError::Protocol`](crate::ClientError::Protocol); one that names none (a frame that
//! is not JSON, a response to an id the client never sent) is handed to the
//! [`on_violation`](crate::ClientBuilder::on_violation) callback. Either way the reader goes
//! on: invalid frames never end the connection.

use std::fmt;

use mcpwire::ResponseDefect;

/// A wire rule the server's frames must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// A frame is exactly one JSON value in UTF-8 (JSON-RPC: parse error otherwise).
    Json,
    /// A frame is a JSON-RPC message: an object (or a batch where the version has them)
    /// with the members its kind requires.
    Message,
    /// A response echoes its request's id with the same JSON type and text.
    ResponseIdEcho,
    /// A response answers a request the client sent.
    ResponseToKnownRequest,
    /// A request gets exactly one response.
    OneResponse,
    /// A response has `"jsonrpc":"2.0"`, a usable id, and exactly one of `result` and a
    /// well-formed `error`.
    ResponseShape(ResponseDefect),
    /// A result has the shape the negotiated version's schema gives the method's result.
    ResultShape,
    /// A notification's params have the shape its method requires.
    NotificationShape,
    /// The server sends only the methods the negotiated version defines for it.
    MethodInVersion,
    /// The server's handshake answer names a version the client offered or supports.
    NegotiatedVersion,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Json => f.write_str("a frame is one JSON value"),
            Rule::Message => f.write_str("a frame is a JSON-RPC message"),
            Rule::ResponseIdEcho => {
                f.write_str("a response echoes its request's id with the same JSON type")
            }
            Rule::ResponseToKnownRequest => f.write_str("a response answers a request sent"),
            Rule::OneResponse => f.write_str("a request gets exactly one response"),
            Rule::ResponseShape(defect) => write!(f, "response shape: {defect}"),
            Rule::ResultShape => f.write_str("a result has its method's schema shape"),
            Rule::NotificationShape => f.write_str("a notification has its method's shape"),
            Rule::MethodInVersion => f.write_str("the method exists in the negotiated version"),
            Rule::NegotiatedVersion => f.write_str("the negotiated version is one supported"),
        }
    }
}

/// One breach of a [`Rule`] by the server, with what was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// What was seen (a JSON pointer and reason, the id, the start of the frame).
    pub detail: String,
}

impl Violation {
    /// A violation of `rule`, described by `detail`.
    pub fn new(rule: Rule, detail: impl Into<String>) -> Self {
        Self {
            rule,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the server broke the rule \"{}\": {}",
            self.rule, self.detail
        )
    }
}

impl std::error::Error for Violation {}

/// The start of a frame, for a violation's detail (at most 80 characters, lossy UTF-8).
pub(crate) fn excerpt(frame: &[u8]) -> String {
    let text = String::from_utf8_lossy(&frame[..frame.len().min(80)]);
    if frame.len() > 80 {
        format!("{text}…")
    } else {
        text.into_owned()
    }
}
