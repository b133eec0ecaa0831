//! The invariant checker: does a server's output for one input frame obey the wire rules?

use mcpwire_types::ProfileFacts;

use crate::expected::{Cause, Expected, ExpectedReply, ReplyId, Silence};
use crate::json::{
    Frame, JsonKind, Member, array_elements, is_integer, object_members, read_frame, unescape,
};
use crate::methods::Methods;
use crate::model::derive_expected;
use crate::violation::{SeenId, Violation, shorten};

/// Checks the frames a server wrote for one input frame against the wire rules, deriving
/// the expectation from the input by the crate's own analysis. Nothing is assumed about
/// which methods the server implements (see [`check_with`]).
///
/// Each reply frame is one line as written, with or without its line ending. Empty frames
/// are ignored.
///
/// ```
/// use mcpwire_proptest::{check, ViolationKind};
/// use mcpwire_proptest::facts::MCP_LATEST;
///
/// let input = br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#;
/// let good: &[u8] = br#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#;
/// assert!(check(&MCP_LATEST, input, &[good]).is_ok());
///
/// let rounded: &[u8] = br#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#;
/// let violations = check(&MCP_LATEST, input, &[rounded]).unwrap_err();
/// assert_eq!(violations[0].kind(), ViolationKind::IdTypeOrPrecisionChanged);
/// ```
pub fn check(
    profile: &ProfileFacts,
    input_frame: &[u8],
    reply_frames: &[&[u8]],
) -> Result<(), Vec<Violation>> {
    check_with(profile, Methods::Unspecified, input_frame, reply_frames)
}

/// Like [`check`], knowing which methods the server implements, so an unknown method
/// must get exactly -32601.
pub fn check_with(
    profile: &ProfileFacts,
    methods: Methods<'_>,
    input_frame: &[u8],
    reply_frames: &[&[u8]],
) -> Result<(), Vec<Violation>> {
    check_expected(
        profile,
        &derive_expected(profile, input_frame, methods),
        reply_frames,
    )
    .map_err(|mut violations| {
        name_echoed_ids(input_frame, &mut violations);
        violations
    })
}

/// The `id` members of the input (of each element of a batch), as JSON text, `null` left
/// out: a reply that carries one of them answers this input, even when none is owed.
///
/// ```
/// use mcpwire_proptest::input_ids;
/// assert_eq!(input_ids(br#"{"jsonrpc":"2.0","id":1e3,"result":{}}"#), ["1e3"]);
/// assert_eq!(input_ids(br#"[{"id":"a"},{"method":"m"},{"id":null}]"#), [r#""a""#]);
/// assert!(input_ids(b"NaN").is_empty());
/// ```
pub fn input_ids(frame: &[u8]) -> Vec<String> {
    let frame = frame.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(frame);
    let ids_of = |object: &str| -> Vec<String> {
        object_members(object)
            .into_iter()
            .filter(|m| m.key == "id" && m.value != "null")
            .map(|m| m.value.to_owned())
            .collect()
    };
    match read_frame(frame) {
        Frame::Value {
            text,
            kind: JsonKind::Object,
        } => ids_of(text),
        Frame::Value {
            text,
            kind: JsonKind::Array,
        } => array_elements(text)
            .into_iter()
            .filter(|e| e.starts_with('{'))
            .flat_map(ids_of)
            .collect(),
        _ => Vec::new(),
    }
}

/// Renames [`Violation::FabricatedId`] to [`Violation::ForbiddenIdEchoed`] where the reply's id
/// is one of the input's own `id` members (of the top-level object, or of a batch's elements):
/// the server echoed an id it could not read, it did not invent one.
///
/// ```
/// use mcpwire_proptest::{Violation, name_echoed_ids};
/// let mut found = vec![Violation::FabricatedId { got: "1.5".into() }];
/// name_echoed_ids(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, &mut found);
/// assert_eq!(found, [Violation::ForbiddenIdEchoed { got: "1.5".into() }]);
/// let mut invented = vec![Violation::FabricatedId { got: "0".into() }];
/// name_echoed_ids(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, &mut invented);
/// assert_eq!(invented, [Violation::FabricatedId { got: "0".into() }]);
/// ```
pub fn name_echoed_ids(input_frame: &[u8], violations: &mut [Violation]) {
    let ids = input_ids(input_frame);
    for violation in violations {
        if let Violation::FabricatedId { got } = violation
            && ids.iter().any(|id| crate::findings::related(id, got))
        {
            *violation = Violation::ForbiddenIdEchoed { got: got.clone() };
        }
    }
}

/// Checks reply frames against a given expectation (a generated case's oracle).
pub fn check_expected(
    profile: &ProfileFacts,
    expected: &Expected,
    reply_frames: &[&[u8]],
) -> Result<(), Vec<Violation>> {
    let frames: Vec<&[u8]> = reply_frames
        .iter()
        .copied()
        .filter(|f| !f.is_empty())
        .collect();
    let mut violations = Vec::new();
    match expected {
        Expected::NoReply(silence) if !frames.is_empty() => violations.push(match silence {
            Silence::Notification => Violation::ReplyToNotification,
            Silence::Response => Violation::ReplyToResponse,
            Silence::BlankLine => Violation::ReplyToBlankLine,
        }),
        Expected::NoReply(_) => {}
        Expected::Reply(reply) => check_single(profile, reply, &frames, &mut violations),
        Expected::ReplyOptional(_) if frames.is_empty() => {}
        Expected::ReplyOptional(reply) => check_single(profile, reply, &frames, &mut violations),
        Expected::Batch(elements) => check_batch(profile, elements, &frames, &mut violations),
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// A frame for a message: lossily decoded, shortened, line breaks escaped.
fn lossy(frame: &[u8]) -> String {
    shorten(&String::from_utf8_lossy(frame))
        .escape_debug()
        .to_string()
}

/// Reads one reply frame as one JSON value on one line.
fn read_reply<'a>(frame: &'a [u8], violations: &mut Vec<Violation>) -> Option<(&'a str, JsonKind)> {
    let line = frame.strip_suffix(b"\n").unwrap_or(frame);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.contains(&b'\n') {
        violations.push(Violation::ReplyNotOneLine {
            frame: lossy(frame),
        });
        return None;
    }
    match read_frame(line) {
        Frame::Value { text, kind } => Some((text, kind)),
        _ => {
            violations.push(Violation::ReplyNotJson {
                frame: lossy(frame),
            });
            None
        }
    }
}

fn check_single(
    profile: &ProfileFacts,
    expected: &ExpectedReply,
    frames: &[&[u8]],
    violations: &mut Vec<Violation>,
) {
    let Some(first) = frames.first() else {
        violations.push(missing(&[expected]));
        return;
    };
    if frames.len() > 1 {
        violations.push(Violation::MoreThanOneReply {
            count: frames.len(),
        });
    }
    match read_reply(first, violations) {
        Some((_, JsonKind::Array)) => violations.push(Violation::ArrayReplyToSingleMessage),
        Some((text, JsonKind::Object)) => check_object(profile, expected, text, violations),
        Some((text, _)) => violations.push(Violation::ReplyNotAnObject {
            reply: shorten(text),
        }),
        None => {}
    }
}

/// The violation of replies owed and not sent: [`Violation::MissingReply`] when one of them
/// carries a readable id (a client waits on it), else
/// [`Violation::UnreadableInputUnanswered`].
fn missing(owed: &[&ExpectedReply]) -> Violation {
    match owed.iter().find(|r| matches!(r.id, ReplyId::Echo(_))) {
        Some(reply) => Violation::MissingReply { cause: reply.cause },
        None => Violation::UnreadableInputUnanswered {
            cause: owed.first().map_or(Cause::ParseError, |r| r.cause),
        },
    }
}

fn check_batch(
    profile: &ProfileFacts,
    elements: &[Expected],
    frames: &[&[u8]],
    violations: &mut Vec<Violation>,
) {
    // Owed replies first, then those a same-batch cancel made optional, so a reply pairs
    // with an owed expectation before an optional one with the same id.
    let owed: Vec<&ExpectedReply> = elements
        .iter()
        .filter_map(|e| match e {
            Expected::Reply(reply) => Some(reply),
            _ => None,
        })
        .collect();
    let replying: Vec<&ExpectedReply> = owed
        .iter()
        .copied()
        .chain(elements.iter().filter_map(|e| match e {
            Expected::ReplyOptional(reply) => Some(reply),
            _ => None,
        }))
        .collect();
    if replying.is_empty() {
        if !frames.is_empty() {
            violations.push(Violation::ReplyToBatchWithoutRequests);
        }
        return;
    }
    match frames {
        [] if owed.is_empty() => return,
        [] => return violations.push(missing(&owed)),
        [_] => {}
        _ => {
            return violations.push(Violation::BatchRepliesAsLines {
                lines: frames.len(),
            });
        }
    }
    let Some((text, kind)) = read_reply(frames[0], violations) else {
        return;
    };
    if kind != JsonKind::Array {
        return violations.push(Violation::BatchReplyNotArray);
    }
    let replies = array_elements(text);
    // An array that is sent holds at least one reply (JSON-RPC 2.0 never sends `[]`).
    let fewest = owed.len().max(1);
    if replies.len() < fewest || replies.len() > replying.len() {
        violations.push(Violation::BatchCountMismatch {
            expected: if replies.len() < fewest {
                fewest
            } else {
                replying.len()
            },
            got: replies.len(),
        });
    }
    // Pair replies with expectations by id: first where the body fits too, then by id
    // alone, then whatever is left in order (so a wrong id is reported as such).
    let objects: Vec<&str> = replies
        .into_iter()
        .filter(|reply| {
            let is_object = JsonKind::of_first_byte(reply.as_bytes()[0]) == JsonKind::Object;
            if !is_object {
                violations.push(Violation::ReplyNotAnObject {
                    reply: shorten(reply),
                });
            }
            is_object
        })
        .collect();
    let mut open: Vec<bool> = vec![true; replying.len()];
    let mut pairs: Vec<Option<usize>> = vec![None; objects.len()];
    for body_must_fit in [true, false] {
        for (r, reply) in objects.iter().enumerate() {
            if pairs[r].is_some() {
                continue;
            }
            let members = object_members(reply);
            let (seen, code) = (seen_id(&members), outcome_code(&members));
            let fits = |i: usize| {
                open[i]
                    && id_matches(&replying[i].id, &seen)
                    && (!body_must_fit || code.is_some_and(|got| replying[i].outcome.allows(got)))
            };
            if let Some(i) = (0..replying.len()).find(|&i| fits(i)) {
                open[i] = false;
                pairs[r] = Some(i);
            }
        }
    }
    for (r, reply) in objects.iter().enumerate() {
        let paired = pairs[r].or_else(|| {
            // No id matches: pair with an open expectation the body fits, else the first.
            let code = outcome_code(&object_members(reply));
            let fits =
                |i: &usize| open[*i] && code.is_some_and(|got| replying[*i].outcome.allows(got));
            let i = (0..replying.len())
                .find(fits)
                .or_else(|| (0..replying.len()).find(|&i| open[i]))?;
            open[i] = false;
            Some(i)
        });
        // An extra reply with nothing left to pair is counted by BatchCountMismatch.
        if let Some(i) = paired {
            check_object(profile, replying[i], reply, violations);
        }
    }
    // Enough replies, but one answers an optional request while an owed one has none.
    let unanswered: Vec<&ExpectedReply> = (0..owed.len())
        .filter(|&i| open[i])
        .map(|i| replying[i])
        .collect();
    if !unanswered.is_empty() && objects.len() >= owed.len() {
        violations.push(missing(&unanswered));
    }
}

fn seen_id(members: &[Member<'_>]) -> SeenId {
    members
        .iter()
        .find(|m| m.key == "id")
        .map_or(SeenId::Omitted, |m| SeenId::Text(m.value.to_owned()))
}

fn id_matches(expected: &ReplyId, seen: &SeenId) -> bool {
    match (expected, seen) {
        (ReplyId::Echo(text), SeenId::Text(got)) => same_id(text, got),
        (ReplyId::Absent, SeenId::Omitted) => true,
        (ReplyId::Absent, SeenId::Text(got)) => got == "null",
        (ReplyId::Echo(_), SeenId::Omitted) => false,
    }
}

/// Whether a reply's id text is the request's id: strings by their value, everything
/// else by exact text (numbers keep their spelling).
pub(crate) fn same_id(expected: &str, got: &str) -> bool {
    let is_string = |t: &str| t.starts_with('"');
    if is_string(expected) && is_string(got) {
        unescape(expected) == unescape(got)
    } else {
        expected == got
    }
}

/// Whether `got` is `expected` with its type or number text changed, rather than another id.
fn type_or_precision_changed(expected: &str, got: &str) -> bool {
    let as_number = |t: &str| -> Option<f64> {
        if t.starts_with('"') {
            unescape(t).trim().parse().ok()
        } else {
            t.parse().ok()
        }
    };
    let (Some(a), Some(b)) = (as_number(expected), as_number(got)) else {
        return false;
    };
    let both_numbers = !expected.starts_with('"') && !got.starts_with('"');
    let close = a == b || a.trunc() == b.trunc() || (a - b).abs() <= a.abs().max(b.abs()) * 1e-9;
    close && (both_numbers || expected.starts_with('"') != got.starts_with('"'))
}

/// The error code of a reply (`Some(Some(code))`), `Some(None)` for a result, `None`
/// when unreadable.
fn outcome_code(members: &[Member<'_>]) -> Option<Option<i64>> {
    let has_result = members.iter().any(|m| m.key == "result");
    let error = members.iter().find(|m| m.key == "error");
    match (has_result, error) {
        (true, None) => Some(None),
        (false, Some(error)) if error.kind == JsonKind::Object => {
            let inner = object_members(error.value);
            let code = inner.iter().find(|m| m.key == "code")?;
            if code.kind != JsonKind::Number || !is_integer(code.value) {
                return None;
            }
            integer_value(code.value).map(Some)
        }
        _ => None,
    }
}

fn integer_value(text: &str) -> Option<i64> {
    text.parse().ok().or_else(|| {
        text.parse::<f64>()
            .ok()
            .filter(|f| f.abs() < 9.0e18)
            .map(|f| f as i64)
    })
}

fn check_object(
    profile: &ProfileFacts,
    expected: &ExpectedReply,
    text: &str,
    violations: &mut Vec<Violation>,
) {
    let members = object_members(text);
    let all = |key: &str| members.iter().filter(|m| m.key == key).collect::<Vec<_>>();

    let jsonrpc = all("jsonrpc");
    match jsonrpc.as_slice() {
        [m] if m.kind == JsonKind::String && unescape(m.value) == "2.0" => {}
        [] => violations.push(Violation::JsonrpcMissingOrWrong { got: None }),
        [m, ..] => violations.push(Violation::JsonrpcMissingOrWrong {
            got: Some(m.value.to_owned()),
        }),
    }

    let (has_result, error) = (!all("result").is_empty(), all("error"));
    let has_error = !error.is_empty();
    if has_result == has_error {
        violations.push(Violation::ResultAndErrorNotExclusive {
            has_result,
            has_error: !error.is_empty(),
        });
    } else if let Some(error) = error.first()
        && let Some(problem) = error_object_problem(error)
    {
        violations.push(Violation::ErrorObjectMalformed {
            error: shorten(error.value),
            problem,
        });
    }
    if let Some(got) = outcome_code(&members)
        && !expected.outcome.allows(got)
    {
        violations.push(Violation::UnexpectedCode {
            expected: expected.outcome.clone(),
            got,
            cause: expected.cause,
        });
    }

    let ids = all("id");
    if ids.len() > 1 {
        violations.push(Violation::DuplicateIdInReply);
    }
    check_id(profile, &expected.id, &seen_id(&members), violations);
}

fn error_object_problem(error: &Member<'_>) -> Option<&'static str> {
    if error.kind != JsonKind::Object {
        return Some("not an object");
    }
    let inner = object_members(error.value);
    let codes: Vec<_> = inner.iter().filter(|m| m.key == "code").collect();
    let messages: Vec<_> = inner.iter().filter(|m| m.key == "message").collect();
    match (codes.as_slice(), messages.as_slice()) {
        ([], _) => Some("no code"),
        ([code], _) if code.kind != JsonKind::Number || !is_integer(code.value) => {
            Some("code is not an integer")
        }
        ([_], []) => Some("no message"),
        ([_], [message]) if message.kind != JsonKind::String => Some("message is not a string"),
        ([_], [_]) => None,
        _ => Some("duplicated code or message"),
    }
}

fn check_id(
    profile: &ProfileFacts,
    expected: &ReplyId,
    seen: &SeenId,
    violations: &mut Vec<Violation>,
) {
    let null_required = profile.error_response_requires_id;
    match (expected, seen) {
        (ReplyId::Echo(want), SeenId::Text(got)) if same_id(want, got) => {}
        (ReplyId::Echo(want), SeenId::Omitted) => {
            violations.push(Violation::IdLostAlthoughRecoverable {
                expected: want.clone(),
                got: seen.clone(),
            })
        }
        (ReplyId::Echo(want), SeenId::Text(got)) if got == "null" => {
            violations.push(Violation::IdLostAlthoughRecoverable {
                expected: want.clone(),
                got: seen.clone(),
            })
        }
        (ReplyId::Echo(want), SeenId::Text(got)) if type_or_precision_changed(want, got) => {
            violations.push(Violation::IdTypeOrPrecisionChanged {
                expected: want.clone(),
                got: got.clone(),
            })
        }
        (ReplyId::Echo(want), SeenId::Text(_)) => violations.push(Violation::IdNotEchoed {
            expected: want.clone(),
            got: seen.clone(),
        }),
        (ReplyId::Absent, SeenId::Omitted) if null_required => {
            violations.push(Violation::NoIdSpelledWrong { null_required })
        }
        (ReplyId::Absent, SeenId::Omitted) => {}
        (ReplyId::Absent, SeenId::Text(got)) if got == "null" => {
            if !null_required {
                violations.push(Violation::NoIdSpelledWrong { null_required });
            }
        }
        (ReplyId::Absent, SeenId::Text(got)) => {
            violations.push(Violation::FabricatedId { got: got.clone() })
        }
    }
}
