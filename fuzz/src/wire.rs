//! `wire`: `Server::handle_frame` on any bytes, under every profile.
//!
//! The first input byte picks the profile (all six), error details (bit 6) and small batch
//! limits (bit 7: at most 3 elements, a 200-byte reply budget); the rest is the frame.
//! Oracles: at most one reply, on one line, valid JSON; every reply object is
//! `{"jsonrpc":"2.0",...}` with exactly one of `result`/`error`; -32700 exactly when
//! serde_json refuses the bytes; a readable id is echoed byte for byte and a reply never
//! carries an id the request did not have; responses are never answered.

use mcpwire::Profile;

use crate::json::{
    has_member, id_texts, member_texts, raw_elements, raw_members, serde_json_accepts,
};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Runs the oracles on one input.
pub fn check(data: &[u8]) {
    let Some((&selector, frame)) = data.split_first() else {
        return;
    };
    let all = Profile::all();
    let mut profile = all[usize::from(selector) % all.len()]
        .clone()
        .with_error_details(selector & 0x40 != 0);
    if selector & 0x80 != 0 {
        profile = profile
            .with_max_batch_len(Some(3))
            .with_max_batch_reply_bytes(200);
    }
    let batch_limit = profile.limits().max_batch_len;
    let plain = profile.facts().id_types.null;
    let batches = profile.facts().batches;
    let reply = crate::server(profile).handle_frame(frame);

    let body = frame.strip_prefix(BOM).unwrap_or(frame);
    if !serde_json_accepts(body) {
        let reply = reply.expect("a frame serde_json refuses is answered");
        let objects = reply_objects(&reply);
        assert_eq!(objects.len(), 1, "{}", show(&reply));
        assert_eq!(objects[0].code, Some(-32700), "{}", show(&reply));
        assert!(objects[0].id.as_deref().is_none_or(|id| id == "null"));
        return;
    }
    let text = std::str::from_utf8(body).expect("serde_json accepted it");
    let Some(reply) = reply else {
        return no_reply_allowed(text, batches);
    };
    let objects = reply_objects(&reply);
    for object in &objects {
        assert_ne!(object.code, Some(-32700), "{}", show(&reply));
    }
    let trimmed = text.trim_matches([' ', '\t', '\n', '\r']);
    if trimmed.starts_with('{') {
        assert!(reply.starts_with(b"{"), "{}", show(&reply));
        single_object_ids(trimmed, &reply, plain);
    } else if trimmed.starts_with('[') && batches {
        let elements = raw_elements(trimmed).expect("an array");
        let too_long = batch_limit.is_some_and(|max| elements.len() > max);
        if elements.is_empty() || too_long {
            assert_eq!(objects.len(), 1, "{}", show(&reply));
            assert!(reply.starts_with(b"{"), "{}", show(&reply));
            assert_eq!(objects[0].code, Some(-32600));
            return;
        }
        assert!(reply.starts_with(b"["), "{}", show(&reply));
        // Responses are never answered; an invalid call without an id is.
        let answerable = elements.iter().filter(|e| !is_response(e)).count();
        assert!(objects.len() <= answerable, "{}", show(&reply));
        for id in objects.iter().filter_map(|o| o.id.as_deref()) {
            if id != "null" {
                assert!(
                    elements.iter().any(|e| id_texts(e).contains(&id)),
                    "reply id {id} is no request's: {}",
                    show(&reply)
                );
            }
        }
    } else {
        assert_eq!(objects.len(), 1);
        assert_eq!(objects[0].code, Some(-32600), "{}", show(&reply));
    }
}

/// What the oracles look at in one reply object.
struct ReplyObject {
    /// The raw text of `id`, when present.
    id: Option<String>,
    /// The error code, for an error reply.
    code: Option<i64>,
}

/// Every reply object, after the line, JSON and envelope checks.
fn reply_objects(reply: &[u8]) -> Vec<ReplyObject> {
    assert!(
        !reply.iter().any(|&b| b == b'\n' || b == b'\r'),
        "reply spans lines: {}",
        show(reply)
    );
    assert!(
        serde_json_accepts(reply),
        "reply is not JSON: {}",
        show(reply)
    );
    let text = std::str::from_utf8(reply).expect("UTF-8");
    let objects = if text.starts_with('[') {
        assert!(text.starts_with("[{\"jsonrpc\":\"2.0\""), "{text}");
        let items = raw_elements(text).expect("an array");
        assert!(!items.is_empty(), "empty batch reply");
        items
    } else {
        assert!(text.starts_with("{\"jsonrpc\":\"2.0\""), "{text}");
        vec![text]
    };
    objects
        .into_iter()
        .map(|object| reply_object(object, text))
        .collect()
}

/// Checks one reply object: `jsonrpc` first and `"2.0"`, only the reply members, each once,
/// exactly one of `result` and `error`, an error with an integer code and a string message.
fn reply_object(object: &str, reply: &str) -> ReplyObject {
    let members = raw_members(object).expect("a reply is an object");
    assert_eq!(
        members.first().map(|(k, v)| (k.as_str(), *v)),
        Some(("jsonrpc", "\"2.0\"")),
        "{reply}"
    );
    let count = |key: &str| members.iter().filter(|(k, _)| k == key).count();
    assert!(
        members
            .iter()
            .all(|(k, _)| matches!(k.as_str(), "jsonrpc" | "id" | "result" | "error")),
        "{reply}"
    );
    assert!(count("id") <= 1 && count("jsonrpc") == 1, "{reply}");
    assert_eq!(
        count("result") + count("error"),
        1,
        "exactly one of result and error: {reply}"
    );
    let code = member_texts(object, "error").first().map(|error| {
        let code = member_texts(error, "code");
        let message = member_texts(error, "message");
        assert!(message.len() == 1 && message[0].starts_with('"'), "{reply}");
        code.first()
            .and_then(|c| c.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("error code is not an integer: {reply}"))
    });
    ReplyObject {
        id: member_texts(object, "id")
            .first()
            .map(|id| (*id).to_owned()),
        code,
    }
}

/// A frame the server did not answer must hold nothing that needs a reply.
fn no_reply_allowed(text: &str, batches: bool) {
    let trimmed = text.trim_matches([' ', '\t', '\n', '\r']);
    if trimmed.starts_with('[') && batches {
        for element in raw_elements(trimmed).expect("an array") {
            assert!(
                is_response_or_notification(element),
                "unanswered element {element}"
            );
        }
    } else {
        assert!(
            is_response_or_notification(trimmed),
            "unanswered frame {trimmed}"
        );
    }
}

/// A response: an object with `result` or `error` and no `method`.
fn is_response(text: &str) -> bool {
    raw_members(text).is_some_and(|members| {
        let has = |key: &str| members.iter().any(|(k, _)| k == key);
        !has("method") && (has("result") || has("error"))
    })
}

/// A response (no `method`, has `result` or `error`), or a call without an `id` member.
/// Only a valid notification goes unanswered, but the oracle does not re-implement validity.
fn is_response_or_notification(text: &str) -> bool {
    let Some(members) = raw_members(text) else {
        return false;
    };
    let has = |key: &str| members.iter().any(|(k, _)| k == key);
    if has("method") {
        !has("id")
    } else {
        has("result") || has("error")
    }
}

/// For a single object: a reply id is the request's single id, byte for byte; a readable id
/// (a string serde_json reads as a `String`, a plain integer, or under plain JSON-RPC any
/// number or `null`) is always echoed; a response is never answered.
fn single_object_ids(text: &str, reply: &[u8], plain: bool) {
    assert!(
        has_member(text, "method") || !(has_member(text, "result") || has_member(text, "error")),
        "a response was answered: {}",
        show(reply)
    );
    let ids = id_texts(text);
    let reply_text = std::str::from_utf8(reply).expect("UTF-8");
    let reply_ids = id_texts(reply_text);
    let echoed = reply_ids.first().copied().filter(|&id| id != "null");
    if let Some(id) = echoed {
        assert_eq!(ids, [id], "the reply's id is not the request's");
    }
    if let [id] = ids[..] {
        let readable_string = id.starts_with('"') && serde_json::from_str::<String>(id).is_ok();
        let digits = id.strip_prefix('-').unwrap_or(id);
        let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let number = id.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
        if readable_string || integer || (plain && (number || id == "null")) {
            assert_eq!(reply_ids, [id], "id not echoed: {}", show(reply));
        }
    }
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
