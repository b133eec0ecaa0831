//! What the transport needs to know about a POST body, whatever server is behind it: whether it
//! is an `initialize` request (which opens a session), its method (checked against
//! `Mcp-Method`), and whether it is readable at all (an id-less error reply to unreadable input
//! is a 400; one to a readable request is a 200).

use crate::decode::{Decoded, Message, decode};
use crate::profile::Profile;

/// What a POST body is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyKind {
    /// Not JSON-RPC at all: not JSON, not an object or array, an empty batch, or a message
    /// without a readable id that is neither a request, a notification nor a response.
    pub(crate) unreadable: bool,
    /// The method of a single request or notification.
    pub(crate) method: Option<String>,
    /// A single request carrying an id.
    pub(crate) is_request: bool,
}

impl BodyKind {
    /// Classifies `body` by the JSON-RPC 2.0 envelope rules (the shape every MCP version
    /// shares), without limits of its own: the body limit has been applied already.
    pub(crate) fn of(body: &[u8]) -> BodyKind {
        let profile = Profile::jsonrpc_2_0()
            .with_max_frame_bytes(usize::MAX)
            .with_max_batch_len(None);
        match decode(body, &profile) {
            Decoded::Rejected(_) | Decoded::Single(Message::Invalid { id: None, .. }) => BodyKind {
                unreadable: true,
                method: None,
                is_request: false,
            },
            Decoded::Single(Message::Request { method, .. }) => BodyKind {
                unreadable: false,
                method: Some(method.into_owned()),
                is_request: true,
            },
            Decoded::Single(Message::Notification { method, .. }) => BodyKind {
                unreadable: false,
                method: Some(method.into_owned()),
                is_request: false,
            },
            _ => BodyKind {
                unreadable: false,
                method: None,
                is_request: false,
            },
        }
    }

    /// Whether the body is an `initialize` request.
    pub(crate) fn is_initialize(&self) -> bool {
        self.is_request && self.method.as_deref() == Some("initialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        let init = BodyKind::of(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#);
        assert!(init.is_initialize() && !init.unreadable);
        let note = BodyKind::of(br#"{"jsonrpc":"2.0","method":"initialize"}"#);
        assert!(!note.is_initialize());
        assert_eq!(note.method.as_deref(), Some("initialize"));
        assert!(BodyKind::of(b"{").unreadable);
        assert!(BodyKind::of(b"[]").unreadable);
        assert!(BodyKind::of(br#"{"jsonrpc":"1.0","method":"x"}"#).unreadable);
        assert!(!BodyKind::of(br#"{"jsonrpc":"1.0","id":3,"method":"x"}"#).unreadable);
        assert!(!BodyKind::of(br#"[{"jsonrpc":"2.0","id":3,"method":"x"}]"#).unreadable);
    }
}
