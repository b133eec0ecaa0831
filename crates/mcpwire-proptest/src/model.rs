//! The checker's own, independent model of the wire rules: from an input frame to
//! what a correct server must send back. It never calls the runtime under test.

use mcpwire_types::ProfileFacts;

use crate::batch_cancel::mark_cancelled;
use crate::expected::{Cause, Expected, ExpectedReply, Outcome, ReplyId, Silence, codes};
use crate::ids::{IdKind, id_kind_admitted};
use crate::json::{Frame, JsonKind, Member, array_elements, object_members, read_frame};
use crate::methods::Methods;

/// The UTF-8 byte order mark, skipped at the start of a frame (rule 1).
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Derives what a correct server must send back for `frame` under `profile`, by the
/// crate's own reading of the wire rules.
///
/// ```
/// use mcpwire_proptest::{Expected, Methods, ReplyId, derive_expected};
/// use mcpwire_proptest::facts::MCP_LATEST;
///
/// let frame = br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#;
/// let Expected::Reply(reply) = derive_expected(&MCP_LATEST, frame, Methods::Unspecified) else {
///     panic!("an invalid request gets a reply");
/// };
/// assert_eq!(reply.id, ReplyId::Echo("3".into()));
/// ```
pub fn derive_expected(profile: &ProfileFacts, frame: &[u8], methods: Methods<'_>) -> Expected {
    let frame = strip_line_end(frame.strip_prefix(BOM).unwrap_or(frame));
    match read_frame(frame) {
        Frame::Blank => Expected::NoReply(Silence::BlankLine),
        Frame::NotUtf8 | Frame::NotJson(_) => {
            Expected::error_without_id(codes::PARSE_ERROR, Cause::ParseError)
        }
        Frame::Value {
            text,
            kind: JsonKind::Object,
        } => message(profile, text, methods),
        Frame::Value {
            text,
            kind: JsonKind::Array,
        } if profile.batches => batch(profile, text, methods),
        Frame::Value { .. } => {
            Expected::error_without_id(codes::INVALID_REQUEST, Cause::NotAnObject)
        }
    }
}

fn strip_line_end(frame: &[u8]) -> &[u8] {
    let frame = frame.strip_suffix(b"\n").unwrap_or(frame);
    frame.strip_suffix(b"\r").unwrap_or(frame)
}

fn batch(profile: &ProfileFacts, text: &str, methods: Methods<'_>) -> Expected {
    let elements = array_elements(text);
    if elements.is_empty() {
        return Expected::error_without_id(codes::INVALID_REQUEST, Cause::EmptyBatch);
    }
    let expected = elements
        .iter()
        .map(
            |element| match JsonKind::of_first_byte(element.as_bytes()[0]) {
                JsonKind::Object => message(profile, element, methods),
                _ => Expected::error_without_id(
                    codes::INVALID_REQUEST,
                    Cause::BatchElementNotAnObject,
                ),
            },
        )
        .collect();
    Expected::Batch(mark_cancelled(profile, &elements, expected))
}

/// The id of a message as the rules read it (rule 4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdReading {
    /// No `id` member.
    Missing,
    /// Present once, with an admitted type: its exact text.
    Recovered(String),
    /// Duplicated, or of a type the profile forbids.
    Unrecoverable,
}

/// Reads the `id` of an object's members per rule 4.
pub fn read_id(profile: &ProfileFacts, members: &[Member<'_>]) -> IdReading {
    let mut ids = members.iter().filter(|m| m.key == "id");
    match (ids.next(), ids.next()) {
        (None, _) => IdReading::Missing,
        (Some(id), None) if id_kind_admitted(profile, IdKind::of_json(id.kind, id.value)) => {
            IdReading::Recovered(id.value.to_owned())
        }
        _ => IdReading::Unrecoverable,
    }
}

fn message(profile: &ProfileFacts, object: &str, methods: Methods<'_>) -> Expected {
    let members = object_members(object);
    let all = |key: &str| {
        members
            .iter()
            .filter(move |m| m.key == key)
            .collect::<Vec<_>>()
    };
    let (jsonrpc, method, params) = (all("jsonrpc"), all("method"), all("params"));
    let has = |key: &str| members.iter().any(|m| m.key == key);
    let id = read_id(profile, &members);
    let reply_id = match &id {
        IdReading::Recovered(text) => ReplyId::Echo(text.clone()),
        _ => ReplyId::Absent,
    };
    let invalid = |cause| {
        Expected::Reply(ExpectedReply {
            id: reply_id.clone(),
            outcome: Outcome::Error(vec![codes::INVALID_REQUEST]),
            cause,
        })
    };
    if method.is_empty() {
        if has("result") || has("error") {
            return Expected::NoReply(Silence::Response);
        }
        return invalid(Cause::NeitherCallNorResponse);
    }
    let jsonrpc_ok = matches!(jsonrpc.as_slice(), [m] if m.kind == JsonKind::String && crate::json::unescape(m.value) == "2.0");
    let method_name = match method.as_slice() {
        [m] if m.kind == JsonKind::String => Some(crate::json::unescape(m.value)),
        _ => None,
    };
    let method_ok = method_name
        .as_ref()
        .is_some_and(|name| !name.starts_with("rpc."));
    let params_ok = match params.as_slice() {
        [] => true,
        [p] => match p.kind {
            JsonKind::Object => profile.params_types.object,
            JsonKind::Array => profile.params_types.array,
            _ => false,
        },
        _ => false,
    };
    let body_ok = !has("result") && !has("error");
    if id == IdReading::Unrecoverable {
        return invalid(Cause::UnreadableId);
    }
    if !(jsonrpc_ok && method_ok && params_ok && body_ok) {
        return invalid(Cause::InvalidCall);
    }
    match id {
        IdReading::Recovered(text) => Expected::Reply(ExpectedReply {
            id: ReplyId::Echo(text),
            outcome: methods.outcome_for(method_name.as_deref().unwrap_or_default()),
            cause: Cause::Request,
        }),
        _ => Expected::NoReply(Silence::Notification),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpwire_types::facts::{JSONRPC_2_0, MCP_2025_03_26, MCP_2025_11_25, MCP_LATEST};

    fn derive(profile: &ProfileFacts, frame: &str) -> Expected {
        derive_expected(profile, frame.as_bytes(), Methods::Known(&["ping"]))
    }

    fn reply(id: Option<&str>, code: i64, cause: Cause) -> Expected {
        Expected::Reply(ExpectedReply {
            id: id.map_or(ReplyId::Absent, |t| ReplyId::Echo(t.into())),
            outcome: Outcome::Error(vec![code]),
            cause,
        })
    }

    #[test]
    fn upstream_fix_inputs() {
        let p = &MCP_LATEST;
        assert_eq!(
            derive(p, r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#),
            reply(Some("3"), -32600, Cause::InvalidCall)
        );
        assert_eq!(
            derive(p, r#"{"id":4,"method":"ping"}"#),
            reply(Some("4"), -32600, Cause::InvalidCall)
        );
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","id":8,"method":8}"#),
            reply(Some("8"), -32600, Cause::InvalidCall)
        );
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","id":5,"method":"rpc.x"}"#),
            reply(Some("5"), -32600, Cause::InvalidCall)
        );
        for bad in ["true", "[1]", "null", "1.5", "{}"] {
            let frame = format!(r#"{{"jsonrpc":"2.0","id":{bad},"method":"ping"}}"#);
            assert_eq!(
                derive(p, &frame),
                reply(None, -32600, Cause::UnreadableId),
                "{frame}"
            );
        }
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","id":0,"method":"nope"}"#),
            reply(Some("0"), -32601, Cause::Request)
        );
    }

    #[test]
    fn ids_keep_their_text_and_escaped_keys_count() {
        let frame = r#"{"jsonrpc":"2.0","\u0069d":1.5e1,"method":"ping"}"#;
        let Expected::Reply(r) = derive(&MCP_LATEST, frame) else {
            panic!()
        };
        assert_eq!(r.id, ReplyId::Echo("1.5e1".into()));
        let dup = r#"{"jsonrpc":"2.0","id":1,"id":1,"method":"ping"}"#;
        assert_eq!(
            derive(&MCP_LATEST, dup),
            reply(None, -32600, Cause::UnreadableId)
        );
        let null_id = r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
        assert!(
            matches!(derive(&JSONRPC_2_0, null_id), Expected::Reply(ExpectedReply { id: ReplyId::Echo(t), .. }) if t == "null")
        );
    }

    #[test]
    fn silence_and_parse_errors() {
        let p = &MCP_2025_11_25;
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","method":"nope"}"#),
            Expected::NoReply(Silence::Notification)
        );
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Expected::NoReply(Silence::Response)
        );
        assert_eq!(
            derive(p, r#"{"id":1,"result":{},"error":5}"#),
            Expected::NoReply(Silence::Response)
        );
        assert_eq!(derive(p, "  \r\n"), Expected::NoReply(Silence::BlankLine));
        assert_eq!(
            derive(p, r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#),
            reply(None, -32700, Cause::ParseError)
        );
        assert_eq!(
            derive_expected(p, b"{\"a\":\"\xff\"}", Methods::Unspecified),
            reply(None, -32700, Cause::ParseError)
        );
        assert_eq!(derive(p, "[]"), reply(None, -32600, Cause::NotAnObject));
        assert_eq!(
            derive(p, r#"{"id":7}"#),
            reply(Some("7"), -32600, Cause::NeitherCallNorResponse)
        );
    }

    #[test]
    fn batches_where_allowed() {
        let p = &MCP_2025_03_26;
        assert_eq!(derive(p, "[]"), reply(None, -32600, Cause::EmptyBatch));
        let mixed =
            r#"[1,{"jsonrpc":"2.0","method":"n"},[],{"jsonrpc":"2.0","id":"a","method":"ping"}]"#;
        let Expected::Batch(elements) = derive(p, mixed) else {
            panic!()
        };
        assert_eq!(elements.len(), 4);
        assert_eq!(
            elements[0],
            reply(None, -32600, Cause::BatchElementNotAnObject)
        );
        assert_eq!(elements[1], Expected::NoReply(Silence::Notification));
        assert!(
            matches!(&elements[3], Expected::Reply(r) if r.id == ReplyId::Echo("\"a\"".into()))
        );
    }

    #[test]
    fn params_types_per_profile() {
        let frame = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#;
        assert_eq!(
            derive(&MCP_LATEST, frame),
            reply(Some("1"), -32600, Cause::InvalidCall)
        );
        assert!(matches!(
            derive(&JSONRPC_2_0, frame),
            Expected::Reply(ExpectedReply {
                cause: Cause::Request,
                ..
            })
        ));
        let scalar = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#;
        assert_eq!(
            derive(&JSONRPC_2_0, scalar),
            reply(Some("1"), -32600, Cause::InvalidCall)
        );
    }

    #[test]
    fn deep_nesting_keeps_the_id() {
        let depth = 100_000;
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let frame =
            format!(r#"{{"jsonrpc":"2.0","params":{{"a":{deep}}},"id":"x","method":"nope"}}"#);
        assert_eq!(
            derive(&MCP_LATEST, &frame),
            reply(Some("\"x\""), -32601, Cause::Request)
        );
    }
}
