//! What the transport needs to know about a POST body, whatever server is behind it: whether it
//! is an `initialize` request (which opens a session), its method (checked against
//! `Mcp-Method`), whether it is readable at all (an id-less error reply to unreadable input
//! is a 400), and whether it is a batch longer than the endpoint accepts.

use crate::decode::{Decoded, Message, Rejection, decode};
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
    /// A batch longer than the limit: its length and the limit.
    pub(crate) batch_too_long: Option<(usize, usize)>,
}

impl BodyKind {
    /// Classifies `body` by the JSON-RPC 2.0 envelope rules (the shape every MCP version
    /// shares), with `max_batch_len` as the batch limit (a longer batch is scanned but none
    /// of its messages is kept); the body limit has been applied already.
    pub(crate) fn of(body: &[u8], max_batch_len: Option<usize>) -> BodyKind {
        let profile = Profile::jsonrpc_2_0()
            .with_max_frame_bytes(usize::MAX)
            .with_max_batch_len(max_batch_len);
        let plain = |unreadable| BodyKind {
            unreadable,
            method: None,
            is_request: false,
            batch_too_long: None,
        };
        match decode(body, &profile) {
            Decoded::Rejected(Rejection::BatchTooLarge { len, max }) => BodyKind {
                batch_too_long: Some((len, max)),
                ..plain(true)
            },
            Decoded::Rejected(_) | Decoded::Single(Message::Invalid { id: None, .. }) => {
                plain(true)
            }
            Decoded::Single(Message::Request { method, .. }) => BodyKind {
                method: Some(method.into_owned()),
                is_request: true,
                ..plain(false)
            },
            Decoded::Single(Message::Notification { method, .. }) => BodyKind {
                method: Some(method.into_owned()),
                ..plain(false)
            },
            _ => plain(false),
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
        let init = BodyKind::of(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#, None);
        assert!(init.is_initialize() && !init.unreadable);
        let note = BodyKind::of(br#"{"jsonrpc":"2.0","method":"initialize"}"#, None);
        assert!(!note.is_initialize());
        assert_eq!(note.method.as_deref(), Some("initialize"));
        assert!(BodyKind::of(b"{", None).unreadable);
        assert!(BodyKind::of(b"[]", None).unreadable);
        assert!(BodyKind::of(br#"{"jsonrpc":"1.0","method":"x"}"#, None).unreadable);
        assert!(!BodyKind::of(br#"{"jsonrpc":"1.0","id":3,"method":"x"}"#, None).unreadable);
        assert!(!BodyKind::of(br#"[{"jsonrpc":"2.0","id":3,"method":"x"}]"#, None).unreadable);
        let two = br#"[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","method":"x"}]"#;
        assert_eq!(BodyKind::of(two, Some(2)).batch_too_long, None);
        let refused = BodyKind::of(two, Some(1));
        assert!(refused.unreadable);
        assert_eq!(refused.batch_too_long, Some((2, 1)));
    }
}
