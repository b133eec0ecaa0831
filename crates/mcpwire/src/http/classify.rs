//! What the transport needs to know about a POST body, whatever server is behind it: whether it
//! is an `initialize` request (which opens a session), its id (which the transport's own error
//! answers echo), its method, target and `_meta` version (checked against `Mcp-Method`,
//! `Mcp-Name` and `MCP-Protocol-Version`), whether it is readable at all (an id-less error
//! reply to unreadable input is a 400), and whether it is a batch longer than the endpoint
//! accepts.

use hyper::body::Bytes;

use crate::decode::{Decoded, Message, RawNotification, Rejection, decode};
use crate::profile::Profile;
use crate::routed::Routed;
use crate::split::FrameSplit;

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
    /// The id of a single message whose id could be read (a request, or an invalid message
    /// with a readable id), as sent.
    pub(crate) id: Option<String>,
    /// What `Mcp-Name` must repeat (MCP 2026-07-28): `params.name` of `tools/call` and
    /// `prompts/get`, `params.uri` of `resources/read`, `params.taskId` of the Tasks
    /// extension's `tasks/get`, `tasks/update` and `tasks/cancel`, when the body has it as a
    /// string.
    pub(crate) target: Option<String>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]` of a single request or
    /// notification, when it is a string (MCP 2026-07-28).
    pub(crate) meta_version: Option<String>,
    /// A batch longer than the limit: its length and the limit.
    pub(crate) batch_too_long: Option<(usize, usize)>,
    /// The scan of a body that is one object, which the session's peer classifies under its
    /// own profile instead of scanning the body again.
    pub(crate) split: Option<Box<FrameSplit>>,
}

impl BodyKind {
    /// Classifies `body` by the JSON-RPC 2.0 envelope rules (the shape every MCP version
    /// shares), with `max_batch_len` as the batch limit (a longer batch is scanned but none
    /// of its messages is kept); the body limit has been applied already.
    pub(crate) fn of(body: &Bytes, max_batch_len: Option<usize>) -> BodyKind {
        let profile = Profile::jsonrpc_2_0()
            .with_max_frame_bytes(usize::MAX)
            .with_max_batch_len(max_batch_len);
        let plain = |unreadable| BodyKind {
            unreadable,
            method: None,
            is_request: false,
            id: None,
            target: None,
            meta_version: None,
            batch_too_long: None,
            split: None,
        };
        // One scan, kept for the peer: the UTF-8 check, the envelope (a batch's, element by
        // element) and the params' routed members; nothing reads the body again.
        let (split, routed) = FrameSplit::read(body, max_batch_len);
        let kind = {
            let decoded = split
                .decode_text(&profile)
                .unwrap_or_else(|| decode(body, &profile));
            let routed = split.routed(&routed);
            match decoded {
                Decoded::Rejected(Rejection::BatchTooLarge { len, max }) => BodyKind {
                    batch_too_long: Some((len, max)),
                    ..plain(true)
                },
                Decoded::Rejected(_) | Decoded::Single(Message::Invalid { id: None, .. }) => {
                    plain(true)
                }
                Decoded::Single(Message::Invalid { id: Some(id), .. }) => BodyKind {
                    id: Some(id.raw().to_owned()),
                    ..plain(false)
                },
                Decoded::Single(Message::Request { id, method, .. }) => BodyKind {
                    id: Some(id.raw().to_owned()),
                    is_request: true,
                    ..BodyKind::with_params(&method, &routed, plain(false))
                },
                Decoded::Single(Message::Notification(RawNotification { method, .. })) => {
                    BodyKind::with_params(&method, &routed, plain(false))
                }
                _ => plain(false),
            }
        };
        BodyKind {
            split: Some(Box::new(split)),
            ..kind
        }
    }

    /// `kind` with the method and what the routing headers repeat of the params (as the scan
    /// recorded them: nothing reads the params here).
    fn with_params(method: &str, routed: &Routed<'_>, kind: BodyKind) -> BodyKind {
        let target = match method {
            "tools/call" | "prompts/get" => routed.name(),
            "resources/read" => routed.uri(),
            // The Tasks extension (SEP-2663, "Streamable HTTP: Routing Headers").
            "tasks/get" | "tasks/update" | "tasks/cancel" => routed.task_id(),
            _ => None,
        };
        BodyKind {
            method: Some(method.to_owned()),
            target,
            meta_version: routed.version(),
            ..kind
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
    use crate::decode::decode;
    use crate::params::RawParams;
    use crate::test_support::{mutate, xorshift};

    fn kind_of(body: &[u8], max_batch_len: Option<usize>) -> BodyKind {
        BodyKind::of(&Bytes::copy_from_slice(body), max_batch_len)
    }

    /// What the routing headers were read as before the scan recorded them: a serde pass
    /// over the params' text (the reference the recorded members are held to).
    fn serde_pass(method: &str, params: Option<RawParams<'_>>) -> (Option<String>, Option<String>) {
        use serde::Deserialize;
        use serde_json::value::RawValue;
        #[derive(Deserialize, Default)]
        struct Routed<'a> {
            #[serde(borrow, default)]
            name: Option<&'a RawValue>,
            #[serde(borrow, default)]
            uri: Option<&'a RawValue>,
            #[serde(rename = "taskId", borrow, default)]
            task_id: Option<&'a RawValue>,
            #[serde(rename = "_meta", borrow, default)]
            meta: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Meta {
            #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
            version: Option<serde_json::Value>,
        }
        let routed: Routed<'_> = params
            .and_then(|p| serde_json::from_str(p.get()).ok())
            .unwrap_or_default();
        let string =
            |raw: Option<&RawValue>| raw.and_then(|r| serde_json::from_str::<String>(r.get()).ok());
        let target = match method {
            "tools/call" | "prompts/get" => string(routed.name),
            "resources/read" => string(routed.uri),
            "tasks/get" | "tasks/update" | "tasks/cancel" => string(routed.task_id),
            _ => None,
        };
        let meta_version = routed
            .meta
            .and_then(|m| serde_json::from_str::<Meta>(m.get()).ok())
            .and_then(|m| m.version)
            .and_then(|v| v.as_str().map(str::to_owned));
        (target, meta_version)
    }

    /// Over mutated bodies, the members the scan records give the routing headers and the era
    /// exactly what a serde pass over the params gave, and the body is classified as a full
    /// decode classifies it.
    #[test]
    fn the_recorded_members_read_as_the_serde_pass_did() {
        let seeds: [&[u8]; 8] = [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":[1,{"name":2}]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","a":{}}}}"#,
            br#"{"jsonrpc":"2.0","id":"a","method":"resources/read","params":{"uri":"a://\u00e9","name":"n","uri":"b"}}"#,
            br#"{"jsonrpc":"2.0","method":"tasks/get","params":{"t\u0061skId":"t1","_meta":{"io.modelcontextprotocol\/protocolVersion":"v","io.modelcontextprotocol/protocolVersion":"w"}}}"#,
            br#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":["p","u","t",{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}]}"#,
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\ud800","_meta":["v"],"\udc00":1}}"#,
            br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":["n",null,null,["v",1],5]}"#,
            br#" {"params" : { "name" : "x" , "_meta" : { "io.modelcontextprotocol/protocolVersion" : "2025-11-25" } } , "method":"tasks/cancel","jsonrpc":"2.0","id":5} "#,
            br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"_meta":null,"name":7,"taskId":"\"q\""}}"#,
        ];
        let alphabet = b"{}[],:\"\\ -.019namuritaskId_metaud800\xff\xc3\xa9";
        let mut next = xorshift(0x5DEE_CE66_D1CE_4E5B);
        let profile = Profile::jsonrpc_2_0().with_max_frame_bytes(usize::MAX);
        let (mut targets, mut versions) = (0, 0);
        for round in 0..30_000 {
            let mut body = seeds[round % seeds.len()].to_vec();
            if round >= seeds.len() {
                mutate(&mut body, alphabet, 2, &mut next);
            }
            let kind = kind_of(&body, None);
            let full = decode(&body, &profile);
            let (method, params, unreadable) = match &full {
                Decoded::Single(Message::Request { method, params, .. }) => {
                    (Some(method.clone()), *params, false)
                }
                Decoded::Single(Message::Notification(RawNotification { method, params })) => {
                    (Some(method.clone()), *params, false)
                }
                Decoded::Rejected(_) | Decoded::Single(Message::Invalid { id: None, .. }) => {
                    (None, None, true)
                }
                _ => (None, None, false),
            };
            let shown = String::from_utf8_lossy(&body);
            assert_eq!(kind.unreadable, unreadable, "{shown}");
            assert_eq!(kind.method.as_deref(), method.as_deref(), "{shown}");
            let (target, version) = match &method {
                Some(method) => serde_pass(method, params),
                None => (None, None),
            };
            assert_eq!(kind.target, target, "{shown}");
            assert_eq!(kind.meta_version, version, "{shown}");
            targets += usize::from(target.is_some());
            versions += usize::from(version.is_some());
        }
        assert!(
            targets > 2_000 && versions > 1_000,
            "{targets} targets, {versions} versions"
        );
    }

    #[test]
    fn kinds() {
        let init = kind_of(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#, None);
        assert!(init.is_initialize() && !init.unreadable);
        assert!(
            init.split.is_some(),
            "one object: its scan goes to the peer"
        );
        let batch = kind_of(br#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#, None);
        assert!(batch.split.is_some(), "a batch: its scan goes to the peer");
        let note = kind_of(br#"{"jsonrpc":"2.0","method":"initialize"}"#, None);
        assert!(!note.is_initialize());
        assert_eq!(note.method.as_deref(), Some("initialize"));
        assert!(kind_of(b"{", None).unreadable);
        assert!(kind_of(b"[]", None).unreadable);
        assert!(kind_of(br#"{"jsonrpc":"1.0","method":"x"}"#, None).unreadable);
        assert!(!kind_of(br#"{"jsonrpc":"1.0","id":3,"method":"x"}"#, None).unreadable);
        assert!(!kind_of(br#"[{"jsonrpc":"2.0","id":3,"method":"x"}]"#, None).unreadable);
        let call = kind_of(
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
            None,
        );
        assert_eq!(call.id.as_deref(), Some(r#""a""#));
        assert_eq!(call.target.as_deref(), Some("t"));
        assert_eq!(call.meta_version.as_deref(), Some("2026-07-28"));
        let read = kind_of(
            br#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"a://b","name":"x"}}"#,
            None,
        );
        assert_eq!(
            (read.id.as_deref(), read.target.as_deref()),
            (Some("7"), Some("a://b"))
        );
        assert_eq!(read.meta_version, None);
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":8,"method":"{method}","params":{{"taskId":"t1","name":"n"}}}}"#
            );
            let task = kind_of(body.as_bytes(), None);
            assert_eq!(task.target.as_deref(), Some("t1"), "{method}");
        }
        let other = br#"{"jsonrpc":"2.0","id":8,"method":"tasks/list","params":{"taskId":"t1"}}"#;
        assert_eq!(kind_of(other, None).target, None);
        let invalid = kind_of(br#"{"jsonrpc":"2.0","id":1.5e3,"method":7}"#, None);
        assert_eq!(invalid.id.as_deref(), Some("1.5e3"));
        let two = br#"[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","method":"x"}]"#;
        assert_eq!(kind_of(two, Some(2)).batch_too_long, None);
        let refused = kind_of(two, Some(1));
        assert!(refused.unreadable);
        assert_eq!(refused.batch_too_long, Some((2, 1)));
    }
}
