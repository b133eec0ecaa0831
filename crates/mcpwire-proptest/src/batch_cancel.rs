//! MCP cancellation inside one batch: a request that a later `notifications/cancelled` of
//! the same batch names may go unanswered.
//!
//! MCP 2025-03-26, the one MCP revision with batches, says under "Cancellation" that the
//! receiver of a cancellation "SHOULD ... Not send a response for the cancelled request",
//! and that it "MAY ignore cancellation notifications if ... Processing has already
//! completed". A batch's replies leave together, so both readings hold: a server may
//! drop the named request's reply or send it, and a reply it sends obeys every rule.
//! `initialize` "MUST NOT be cancelled", so its reply stays owed.
//!
//! The same section says that malformed cancellation notifications "SHOULD be ignored":
//! a SHOULD, like the one above, so a server that obeys a cancel with, say, a `reason`
//! that is not a string breaks no MUST, and the named request's reply is optional whether
//! or not the cancel is well formed. (mcpwire's runtime ignores such a cancel and answers.)
//!
//! Ids are compared as the checker compares a reply's id: strings by value, anything
//! else by exact text. That is looser than mcpwire's runtime, which cancels only a request
//! whose id has the cancel's exact text (`"a"` is not `"\u0061"` there): a server that
//! answers such a request anyway is within the rules either way.

use mcpwire_types::ProfileFacts;

use crate::check::same_id;
use crate::expected::{Cause, Expected, ReplyId, Silence};
use crate::json::{JsonKind, Member, object_members, unescape};

/// The method that cancels a request in MCP.
const CANCELLED: &str = "notifications/cancelled";

/// Turns each request of a batch that a later valid `notifications/cancelled` names into
/// [`Expected::ReplyOptional`]. `texts` are the batch's elements, `elements` their
/// expectations, in input order. Plain JSON-RPC has no cancellation: there the
/// expectations come back unchanged.
///
/// ```
/// use mcpwire_proptest::batch_cancel::mark_cancelled;
/// use mcpwire_proptest::facts::MCP_2025_03_26;
/// use mcpwire_proptest::{Expected, derive_expected, Methods};
///
/// let ping = r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#;
/// let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#;
/// let expected = [ping, cancel]
///     .map(|t| derive_expected(&MCP_2025_03_26, t.as_bytes(), Methods::Unspecified));
/// let marked = mark_cancelled(&MCP_2025_03_26, &[ping, cancel], expected.to_vec());
/// assert!(matches!(marked[0], Expected::ReplyOptional(_)));
/// ```
pub fn mark_cancelled(
    profile: &ProfileFacts,
    texts: &[&str],
    mut elements: Vec<Expected>,
) -> Vec<Expected> {
    if profile.protocol_version.is_none() {
        return elements;
    }
    let named: Vec<Option<&str>> = texts
        .iter()
        .zip(&elements)
        .map(|(text, expected)| match expected {
            Expected::NoReply(Silence::Notification) => cancelled_id(text),
            _ => None,
        })
        .collect();
    for (i, element) in elements.iter_mut().enumerate() {
        let Expected::Reply(reply) = element else {
            continue;
        };
        let ReplyId::Echo(id) = &reply.id else {
            continue;
        };
        let later_cancel = named[i + 1..]
            .iter()
            .flatten()
            .any(|named| same_id(id, named));
        if reply.cause == Cause::Request && later_cancel && !is_initialize(texts[i]) {
            *element = Expected::ReplyOptional(reply.clone());
        }
    }
    elements
}

/// The `requestId` text a `notifications/cancelled` object names, whatever else its params
/// hold. Its params are an object: every MCP profile refuses params by position, so a
/// cancel with an array is an invalid call, never a notification this reads.
fn cancelled_id(text: &str) -> Option<&str> {
    let members = object_members(text);
    if method(&members).as_deref() != Some(CANCELLED) {
        return None;
    }
    let params = single(&members, "params").filter(|p| p.kind == JsonKind::Object)?;
    single(&object_members(params.value), "requestId").map(|m| m.value)
}

fn is_initialize(text: &str) -> bool {
    method(&object_members(text)).as_deref() == Some("initialize")
}

fn method(members: &[Member<'_>]) -> Option<String> {
    single(members, "method")
        .filter(|m| m.kind == JsonKind::String)
        .map(|m| unescape(m.value))
}

fn single<'m, 'a>(members: &'m [Member<'a>], key: &str) -> Option<&'m Member<'a>> {
    let mut found = members.iter().filter(|m| m.key == key);
    match (found.next(), found.next()) {
        (Some(member), None) => Some(member),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use mcpwire_types::facts::{JSONRPC_2_0, MCP_2025_03_26};

    use super::*;
    use crate::{Methods, ViolationKind, check_with, derive_expected};

    /// A ping with id `""` (its key spelled `"\u0069d"`) and a cancel naming `requestId`.
    fn batch(method: &str, request_id: &str) -> String {
        format!(
            r#"[{{"jsonrpc":"2.0","\u0069d":"","method":"{method}"}},{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{request_id}}}}}]"#
        )
    }

    fn first(profile: &ProfileFacts, frame: &str) -> Expected {
        match derive_expected(profile, frame.as_bytes(), Methods::Unspecified) {
            Expected::Batch(elements) => elements[0].clone(),
            other => panic!("not a batch: {other:?}"),
        }
    }

    fn kinds(frame: &str, replies: &[&str]) -> Vec<ViolationKind> {
        let replies: Vec<&[u8]> = replies.iter().map(|r| r.as_bytes()).collect();
        let result = check_with(
            &MCP_2025_03_26,
            Methods::Unspecified,
            frame.as_bytes(),
            &replies,
        );
        result.map_or_else(
            |v| v.iter().map(crate::Violation::kind).collect(),
            |()| vec![],
        )
    }

    #[test]
    fn a_request_a_later_cancel_names_may_go_unanswered() {
        let p = &MCP_2025_03_26;
        assert!(matches!(
            first(p, &batch("ping", r#""""#)),
            Expected::ReplyOptional(_)
        ));
        // Strings compare by value: a cancel naming `"a"` names the id `"\u0061"`.
        let spelled = batch("ping", r#""""#).replace(r#""\u0069d":"""#, r#""id":"\u0061""#);
        assert!(matches!(
            first(
                p,
                &spelled.replace(r#"{"requestId":"""#, r#"{"requestId":"a""#)
            ),
            Expected::ReplyOptional(_)
        ));
        // Another id, initialize, plain JSON-RPC, or a cancel before the request: owed.
        assert!(matches!(
            first(p, &batch("ping", r#""x""#)),
            Expected::Reply(_)
        ));
        assert!(matches!(
            first(p, &batch("initialize", r#""""#)),
            Expected::Reply(_)
        ));
        assert!(matches!(
            first(&JSONRPC_2_0, &batch("ping", r#""""#)),
            Expected::Reply(_)
        ));
        let cancel_first = r#"[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}},{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
        let Expected::Batch(elements) =
            derive_expected(p, cancel_first.as_bytes(), Methods::Unspecified)
        else {
            panic!()
        };
        assert!(matches!(elements[1], Expected::Reply(_)));
    }

    #[test]
    fn the_optional_reply_is_checked_when_sent() {
        let frame = batch("ping", r#""""#);
        // Dropped, or answered with its id: both correct.
        assert_eq!(kinds(&frame, &[]), []);
        assert_eq!(
            kinds(&frame, &[r#"[{"jsonrpc":"2.0","id":"","result":{}}]"#]),
            []
        );
        // Answered with another id, twice, or as an empty array: wrong.
        assert_eq!(
            kinds(&frame, &[r#"[{"jsonrpc":"2.0","id":"b","result":{}}]"#]),
            [ViolationKind::IdNotEchoed]
        );
        let twice =
            r#"[{"jsonrpc":"2.0","id":"","result":{}},{"jsonrpc":"2.0","id":"","result":{}}]"#;
        assert!(kinds(&frame, &[twice]).contains(&ViolationKind::BatchCountMismatch));
        assert_eq!(kinds(&frame, &["[]"]), [ViolationKind::BatchCountMismatch]);
        // The request the cancel does not name is still owed.
        let owed = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}]"#;
        assert_eq!(kinds(owed, &[]), [ViolationKind::MissingReply]);
        assert_eq!(
            kinds(owed, &[r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#]),
            []
        );
        assert_eq!(
            kinds(owed, &[r#"[{"jsonrpc":"2.0","id":2,"result":{}}]"#]),
            [ViolationKind::MissingReply]
        );
    }
}
