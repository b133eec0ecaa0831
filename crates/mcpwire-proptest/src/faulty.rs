//! Reference defects: deliberately faulty reply functions, one per defect class seen in
//! real MCP SDKs, to prove the checker is not vacuous.
//!
//! Each is a [`ReplyFn`] built on [`reference_reply`], a correct server of the crate's
//! own (it answers from the checker's model, [`crate::derive_expected`], implementing the
//! methods of [`Vocabulary::DEFAULT`]), with exactly one defect injected.
//!
//! ```
//! use mcpwire_proptest::{check_with, faulty, ViolationKind, Vocabulary};
//! use mcpwire_proptest::facts::MCP_LATEST;
//!
//! let input = br#"{"jsonrpc":"2.0","id":1,"method":"no/such/method"}"#;
//! let methods = Vocabulary::DEFAULT.methods();
//! let good = faulty::reference_reply(&MCP_LATEST, input);
//! let good: Vec<&[u8]> = good.iter().map(Vec::as_slice).collect();
//! assert!(check_with(&MCP_LATEST, methods, input, &good).is_ok());
//!
//! let bad = faulty::invalid_params_for_unknown_methods(&MCP_LATEST, input);
//! let bad: Vec<&[u8]> = bad.iter().map(Vec::as_slice).collect();
//! let violations = check_with(&MCP_LATEST, methods, input, &bad).unwrap_err();
//! assert_eq!(violations[0].kind(), ViolationKind::UnexpectedCode);
//! ```

use mcpwire_types::ProfileFacts;

use crate::expected::{Cause, Expected, ExpectedReply, Outcome, ReplyId, Silence, codes};
use crate::methods::Vocabulary;
use crate::model::derive_expected;

/// A server's reply function: the frames (lines, without line endings) it writes for one
/// input frame.
pub type ReplyFn = fn(&ProfileFacts, &[u8]) -> Vec<Vec<u8>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    NoReplyToEnvelopeErrors,
    NullInsteadOfReadableId,
    InventedId,
    ParseErrorForValidJson,
    ReplyToNotifications,
    IdsThroughF64,
    IdsAsStrings,
    BadIdsAsNotifications,
    BatchRepliesAsLines,
    MissingJsonrpc,
    ErrorAsString,
    InvalidParamsForUnknownMethods,
    ReplyToResponses,
    IdAlwaysOmitted,
}

/// A correct reply function: answers every input as the wire rules say, with the smallest
/// result each known method of [`Vocabulary::DEFAULT`] admits (`{}`, `{"tools":[]}`) and the first allowed code for
/// errors.
pub fn reference_reply(profile: &ProfileFacts, frame: &[u8]) -> Vec<Vec<u8>> {
    respond(profile, frame, Defect::None)
}

macro_rules! defect {
    ($(#[$doc:meta])* $name:ident, $defect:ident) => {
        $(#[$doc])*
        pub fn $name(profile: &ProfileFacts, frame: &[u8]) -> Vec<Vec<u8>> {
            respond(profile, frame, Defect::$defect)
        }
    };
}

defect!(
    /// Drops input that fails the envelope rules (-32700/-32600) without a reply.
    no_reply_to_envelope_errors, NoReplyToEnvelopeErrors);
defect!(
    /// Answers invalid requests with `"id":null` although their id was readable.
    null_instead_of_readable_id, NullInsteadOfReadableId);
defect!(
    /// Writes `"id":"server-error"` when the id is unrecoverable.
    invented_id, InventedId);
defect!(
    /// Answers valid JSON that breaks an envelope rule with -32700 instead of -32600.
    parse_error_for_valid_json, ParseErrorForValidJson);
defect!(
    /// Answers notifications (with a result, or -32601 for unknown methods).
    reply_to_notifications, ReplyToNotifications);
defect!(
    /// Echoes numeric ids after a round trip through `f64` (`2^53+1` → `2^53`, `1e3` → `1000`).
    ids_through_f64, IdsThroughF64);
defect!(
    /// Echoes numeric ids as strings (`1` → `"1"`).
    ids_as_strings, IdsAsStrings);
defect!(
    /// Treats calls whose id is duplicated or of a forbidden type as notifications.
    bad_ids_as_notifications, BadIdsAsNotifications);
defect!(
    /// Writes a batch's replies as separate lines instead of one array.
    batch_replies_as_lines, BatchRepliesAsLines);
defect!(
    /// Leaves `"jsonrpc":"2.0"` out of every reply.
    missing_jsonrpc, MissingJsonrpc);
defect!(
    /// Writes `"error"` as a string message instead of an error object.
    error_as_string, ErrorAsString);
defect!(
    /// Answers unknown methods with -32602 instead of -32601.
    invalid_params_for_unknown_methods, InvalidParamsForUnknownMethods);
defect!(
    /// Answers responses with -32600.
    reply_to_responses, ReplyToResponses);
defect!(
    /// Never writes an id, even when it was readable.
    id_always_omitted, IdAlwaysOmitted);

/// Every reference defect by name.
pub const DEFECTS: &[(&str, ReplyFn)] = &[
    ("no_reply_to_envelope_errors", no_reply_to_envelope_errors),
    ("null_instead_of_readable_id", null_instead_of_readable_id),
    ("invented_id", invented_id),
    ("parse_error_for_valid_json", parse_error_for_valid_json),
    ("reply_to_notifications", reply_to_notifications),
    ("ids_through_f64", ids_through_f64),
    ("ids_as_strings", ids_as_strings),
    ("bad_ids_as_notifications", bad_ids_as_notifications),
    ("batch_replies_as_lines", batch_replies_as_lines),
    ("missing_jsonrpc", missing_jsonrpc),
    ("error_as_string", error_as_string),
    (
        "invalid_params_for_unknown_methods",
        invalid_params_for_unknown_methods,
    ),
    ("reply_to_responses", reply_to_responses),
    ("id_always_omitted", id_always_omitted),
];

fn respond(profile: &ProfileFacts, frame: &[u8], defect: Defect) -> Vec<Vec<u8>> {
    let expected = derive_expected(profile, frame, Vocabulary::DEFAULT.methods());
    match expected {
        Expected::Batch(elements) => {
            let methods = batch_methods(frame);
            let replies: Vec<String> = elements
                .iter()
                .enumerate()
                .filter_map(|(i, e)| {
                    let method = methods.get(i).and_then(Option::as_deref);
                    reply_text(profile, e, defect, method)
                })
                .collect();
            if replies.is_empty() {
                Vec::new()
            } else if defect == Defect::BatchRepliesAsLines {
                replies.into_iter().map(String::into_bytes).collect()
            } else {
                vec![format!("[{}]", replies.join(",")).into_bytes()]
            }
        }
        single => {
            let method = method_of(&serde_json::from_slice(frame).unwrap_or_default());
            reply_text(profile, &single, defect, method.as_deref())
                .map(String::into_bytes)
                .into_iter()
                .collect()
        }
    }
}

/// The `method` a message names, if it is an object with a string `method` (read as the
/// checker reads it, through `serde_json::Value`).
fn method_of(message: &serde_json::Value) -> Option<String> {
    message.get("method")?.as_str().map(str::to_owned)
}

/// The method of each element of a batch frame, in order.
fn batch_methods(frame: &[u8]) -> Vec<Option<String>> {
    serde_json::from_slice::<Vec<serde_json::Value>>(frame)
        .map(|elements| elements.iter().map(method_of).collect())
        .unwrap_or_default()
}

/// The result of a known method: the smallest its result type admits (`tools/list` requires
/// `tools`; `ping`'s is empty).
fn result_of(method: Option<&str>) -> &'static str {
    match method {
        Some("tools/list") => r#"{"tools":[]}"#,
        _ => "{}",
    }
}

fn reply_text(
    profile: &ProfileFacts,
    expected: &Expected,
    defect: Defect,
    method: Option<&str>,
) -> Option<String> {
    let reply = match expected {
        // An optional reply is sent, as a server that ignores the cancel sends it: its defect
        // shows there too, and the checker must see it.
        Expected::Reply(reply) | Expected::ReplyOptional(reply) => reply.clone(),
        Expected::NoReply(Silence::Notification) if defect == Defect::ReplyToNotifications => {
            ExpectedReply {
                id: ReplyId::Absent,
                outcome: Outcome::ResultOrErrorExcept(vec![]),
                cause: Cause::Request,
            }
        }
        Expected::NoReply(Silence::Response) if defect == Defect::ReplyToResponses => {
            ExpectedReply {
                id: ReplyId::Absent,
                outcome: Outcome::Error(vec![codes::INVALID_REQUEST]),
                cause: Cause::NeitherCallNorResponse,
            }
        }
        _ => return None,
    };
    let mut code = match &reply.outcome {
        Outcome::Error(codes) => Some(codes[0]),
        Outcome::ResultOrErrorExcept(_) => None,
    };
    let envelope_error = matches!(code, Some(codes::PARSE_ERROR | codes::INVALID_REQUEST));
    match defect {
        Defect::NoReplyToEnvelopeErrors if envelope_error => return None,
        Defect::BadIdsAsNotifications if reply.cause == Cause::UnreadableId => return None,
        Defect::ParseErrorForValidJson if code == Some(codes::INVALID_REQUEST) => {
            code = Some(codes::PARSE_ERROR)
        }
        Defect::InvalidParamsForUnknownMethods if code == Some(codes::METHOD_NOT_FOUND) => {
            code = Some(codes::INVALID_PARAMS)
        }
        _ => {}
    }
    let id = match (&reply.id, defect) {
        (_, Defect::IdAlwaysOmitted) => None,
        (ReplyId::Echo(_), Defect::NullInsteadOfReadableId)
            if code == Some(codes::INVALID_REQUEST) =>
        {
            Some("null".to_owned())
        }
        (ReplyId::Echo(text), Defect::IdsThroughF64) if is_number(text) => Some(through_f64(text)),
        (ReplyId::Echo(text), Defect::IdsAsStrings) if is_number(text) => {
            Some(format!("\"{text}\""))
        }
        (ReplyId::Echo(text), _) => Some(text.clone()),
        (ReplyId::Absent, Defect::InventedId) => Some("\"server-error\"".to_owned()),
        (ReplyId::Absent, _) if profile.error_response_requires_id => Some("null".to_owned()),
        (ReplyId::Absent, _) => None,
    };
    let mut members = Vec::new();
    if defect != Defect::MissingJsonrpc {
        members.push(r#""jsonrpc":"2.0""#.to_owned());
    }
    if let Some(id) = id {
        members.push(format!(r#""id":{id}"#));
    }
    members.push(match code {
        None => format!(r#""result":{}"#, result_of(method)),
        Some(code) if defect == Defect::ErrorAsString => format!(r#""error":"error {code}""#),
        Some(code) => format!(r#""error":{{"code":{code},"message":"{}"}}"#, message(code)),
    });
    Some(format!("{{{}}}", members.join(",")))
}

fn message(code: i64) -> &'static str {
    match code {
        codes::PARSE_ERROR => "Parse error",
        codes::INVALID_REQUEST => "Invalid Request",
        codes::METHOD_NOT_FOUND => "Method not found",
        codes::INVALID_PARAMS => "Invalid params",
        _ => "Error",
    }
}

fn is_number(text: &str) -> bool {
    matches!(text.as_bytes().first(), Some(b'-' | b'0'..=b'9'))
}

/// What a JavaScript-style server writes after parsing the id as a double.
fn through_f64(text: &str) -> String {
    let value: f64 = text.parse().unwrap_or(0.0);
    if value.fract() == 0.0 && value.abs() < 1e21 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}
