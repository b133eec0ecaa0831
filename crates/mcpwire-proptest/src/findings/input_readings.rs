//! Whole other readings of an input that JSON-RPC 2.0 or RFC 8259 permit where the MCP schema
//! of the version (or mcpwire's policy) is stricter: bytes that are not UTF-8 decoded
//! leniently, `params` by position, a request with `result`/`error` members. Each part of the
//! reply (its presence, its code, its id) that is right under such a reading is excused as one
//! strict finding, and what is wrong under both readings stays a violation ([`apply_readings`]).

use mcpwire_types::ProfileFacts;

use super::readings::{BOM, Judged, input, without};
use super::table::Level;
use crate::expected::{Cause, Expected, codes};
use crate::json::{Frame, JsonKind, array_elements, read_frame};
use crate::methods::Methods;
use crate::model::derive_expected;

/// A reading of an input that JSON-RPC 2.0 or RFC 8259 permits where the MCP schema of the
/// version (or mcpwire's policy) is stricter: the strict kind a server that reads the input
/// so is reported under, and what such a server sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The strict kind (from [`KINDS`](super::KINDS)).
    pub kind: &'static str,
    /// The oracle under the reading.
    pub expected: Expected,
}

/// The permitted readings of `frame` under `facts` (none for most inputs):
///
/// - bytes that are not UTF-8, decoded with U+FFFD for each bad sequence (RFC 8259 §9: a
///   parser "MAY accept non-JSON forms or extensions"), when that gives JSON:
///   `non-json-accepted`;
/// - `params` given as an array where the MCP schema types it as an object (JSON-RPC 2.0
///   §4.2: "by-position through an Array"): `params-array-accepted`;
/// - a call that also carries `result` or `error`, read as the call (JSON-RPC 2.0 §4 lists
///   the members of a Request object and forbids no others; the MCP schema's `JSONRPCRequest`
///   does not set `additionalProperties: false`): `result-or-error-in-call-accepted`.
///
/// ```
/// use mcpwire_proptest::findings::readings;
/// use mcpwire_proptest::facts::MCP_2025_11_25;
/// use mcpwire_proptest::Methods;
/// let frame = br#"{"jsonrpc":"2.0","method":"ping","params":[]}"#;
/// let found = readings(&MCP_2025_11_25, frame, Methods::Known(&["ping"]));
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].kind, "params-array-accepted");
/// ```
pub fn readings(facts: &ProfileFacts, frame: &[u8], methods: Methods<'_>) -> Vec<Reading> {
    let mut out = Vec::new();
    let body = frame.strip_prefix(BOM).unwrap_or(frame);
    if std::str::from_utf8(body).is_err() {
        let decoded = String::from_utf8_lossy(body).into_owned().into_bytes();
        let expected = derive_expected(facts, &decoded, methods);
        let parse_error = matches!(&expected, Expected::Reply(r) if r.cause == Cause::ParseError);
        if !parse_error {
            out.push(Reading {
                kind: "non-json-accepted",
                expected,
            });
        }
        return out;
    }
    if facts.batches
        && let Frame::Value {
            text,
            kind: JsonKind::Array,
        } = read_frame(body)
    {
        return batch_readings(facts, text, methods);
    }
    let input = input(frame);
    let params = input.all("params");
    if !facts.params_types.array && matches!(params.as_slice(), [p] if p.kind == JsonKind::Array) {
        let by_position = ProfileFacts {
            params_types: mcpwire_types::ParamsTypes {
                array: true,
                ..facts.params_types
            },
            ..*facts
        };
        out.push(Reading {
            kind: "params-array-accepted",
            expected: derive_expected(&by_position, frame, methods),
        });
    }
    let call = !input.all("method").is_empty();
    if call && !(input.all("result").is_empty() && input.all("error").is_empty()) {
        out.push(Reading {
            kind: "result-or-error-in-call-accepted",
            expected: derive_expected(
                facts,
                &without(&input.members, &["result", "error"]),
                methods,
            ),
        });
    }
    out
}

/// Where the profile has batches, the readings of a batch: for each kind, the batch's oracle
/// with every element that has a reading of that kind read so (a notification that carries
/// `result` is silent under that reading in a batch as it is alone).
fn batch_readings(facts: &ProfileFacts, text: &str, methods: Methods<'_>) -> Vec<Reading> {
    let elements: Vec<(Expected, Vec<Reading>)> = array_elements(text)
        .into_iter()
        .map(|element| {
            let bytes = element.as_bytes();
            if element.starts_with('{') {
                (
                    derive_expected(facts, bytes, methods),
                    readings(facts, bytes, methods),
                )
            } else {
                let not_an_object = Expected::error_without_id(
                    codes::INVALID_REQUEST,
                    Cause::BatchElementNotAnObject,
                );
                (not_an_object, Vec::new())
            }
        })
        .collect();
    let mut kinds: Vec<&'static str> = elements
        .iter()
        .flat_map(|(_, own)| own.iter().map(|r| r.kind))
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
        .into_iter()
        .map(|kind| Reading {
            kind,
            expected: Expected::Batch(
                elements
                    .iter()
                    .map(|(expected, own)| {
                        own.iter()
                            .find(|r| r.kind == kind)
                            .map_or_else(|| expected.clone(), |r| r.expected.clone())
                    })
                    .collect(),
            ),
        })
        .collect()
}

/// Which part of a reply a finding is about: whether a reply came at all, its code, its id.
/// Findings about anything else (its shape: `jsonrpc`, the error object, one line) do not
/// depend on how the input is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aspect {
    Presence,
    Code,
    Id,
}

fn aspect(kind: &str) -> Option<Aspect> {
    match kind {
        "missing-reply"
        | "unreadable-input-unanswered"
        | "more-than-one-reply"
        | "reply-to-notification"
        | "reply-to-response"
        | "reply-to-blank-line"
        | "reply-to-batch-without-requests"
        | "batch-count-mismatch"
        | "array-reply-to-single-message"
        | "batch-replies-as-lines"
        | "batch-reply-not-array" => Some(Aspect::Presence),
        "unexpected-code" => Some(Aspect::Code),
        "id-not-echoed"
        | "id-value-changed"
        | "id-spelling-changed"
        | "id-lost-although-recoverable"
        | "fabricated-id"
        | "forbidden-id-echoed"
        | "no-id-spelled-wrong" => Some(Aspect::Id),
        _ => None,
    }
}

/// Applies the permitted readings of the input: a violation about a part of the reply that is
/// right under a reading is replaced by the reading's strict finding; a part that is wrong
/// under every reading keeps its violation, named as the stricter reading names it.
/// `judge_under` gives the findings of the replies under an oracle.
pub fn apply_readings<F: Judged>(
    readings: &[Reading],
    judge_under: &dyn Fn(&Expected) -> Vec<F>,
    findings: &mut Vec<F>,
) {
    for reading in readings {
        let wrong: Vec<Aspect> = judge_under(&reading.expected)
            .iter()
            .filter(|f| f.level() == Level::Violation)
            .filter_map(|f| aspect(f.kind()))
            .collect();
        // A reading under which a reply was wrongly sent or wrongly withheld does not describe
        // what the server did: -32700 to a notification with invalid UTF-8 is a rejection
        // (the first reading), not lenient decoding, however it spells "no id".
        if wrong.contains(&Aspect::Presence) {
            continue;
        }
        let excused = |f: &F| {
            f.level() == Level::Violation && aspect(f.kind()).is_some_and(|a| !wrong.contains(&a))
        };
        let Some(first) = findings.iter().find(|f| excused(f)) else {
            continue;
        };
        let rule = first.rule();
        findings.retain(|f| !excused(f));
        if !findings.iter().any(|f| f.kind() == reading.kind) {
            findings.push(F::strict(reading.kind, rule, reading_why(reading.kind)));
        }
    }
}

fn reading_why(kind: &str) -> &'static str {
    match kind {
        "non-json-accepted" => {
            "bytes that are not UTF-8 were decoded leniently (U+FFFD) and the message was handled as decoded: answered as that message is, or, a notification, left unanswered (RFC 8259 §9 permits a parser to accept non-JSON forms; mcpwire answers -32700 without an id)"
        }
        "params-array-accepted" => {
            "params given by position (an array) were read as JSON-RPC 2.0 §4.2 reads them; the MCP schema of the version types params as an object (mcpwire answers -32600)"
        }
        _ => {
            "a call that also carries result or error was read as the call: JSON-RPC 2.0 §4 and the MCP schema's JSONRPCRequest forbid no other members (mcpwire answers -32600)"
        }
    }
}
