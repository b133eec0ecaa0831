//! Transport-independent decoding: one frame plus a profile → a classified message, a
//! batch of them, or a whole-frame rejection (wire rules 2–9).
//!
//! ```
//! use mcpwire::{decode, Decoded, Message, Profile};
//!
//! let frame = br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#;
//! let Decoded::Single(Message::Request { id, method, params }) = decode(frame, &Profile::latest_mcp())
//! else { panic!("a request") };
//! assert_eq!((id.raw(), &*method, params), ("18446744073709551616", "ping", None));
//!
//! // An invalid message comes with its exact reply.
//! let frame = br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#;
//! let Decoded::Single(invalid) = decode(frame, &Profile::latest_mcp()) else { panic!() };
//! let mut reply = Vec::new();
//! assert!(invalid.write_invalid_reply(&Profile::latest_mcp(), &mut reply));
//! assert_eq!(reply, br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}"#);
//!
//! // So does a rejected frame.
//! let Decoded::Rejected(rejection) = decode(b"[1,", &Profile::latest_mcp()) else { panic!() };
//! assert_eq!(rejection.reply(&Profile::latest_mcp()), br#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#);
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::envelope::{self, Envelope, Field, RawMember};
use crate::id::{Id, IdKind};
use crate::params::RawParams;
use crate::profile::Profile;
use crate::reply::{self, RpcError};
use crate::scan::{self, ScanError, ScanErrorKind};

/// The result of decoding one frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded<'a> {
    /// The whole frame is rejected; it is answered with [`Rejection::error`] and no id.
    Rejected(Rejection),
    /// One message.
    Single(Message<'a>),
    /// A batch (never empty), in input order.
    Batch(Vec<Message<'a>>),
}

/// Why a whole frame is rejected. Always answered once, without an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// Not exactly one valid JSON value in UTF-8 (rule 2): -32700.
    Parse(ScanError),
    /// The top level is not an object, and not an array the profile accepts as a batch
    /// (rule 3): -32600.
    NotAnObject,
    /// An empty batch `[]` (rule 9): -32600.
    EmptyBatch,
    /// A batch longer than the profile's limit (rule 9): -32600.
    BatchTooLarge {
        /// Elements in the batch.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A frame longer than the profile's limit (rule 1): -32600.
    FrameTooLarge {
        /// Frame length in bytes (at least this much; a discarded line may be longer).
        len: usize,
        /// The limit.
        max: usize,
    },
}

impl Rejection {
    /// The error to answer with.
    pub fn error(&self) -> RpcError {
        match self {
            Rejection::Parse(_) => RpcError::parse_error(),
            _ => RpcError::invalid_request(),
        }
    }

    /// Appends the exact reply under `profile` (no id, spelled per
    /// [`Profile::missing_id`]; with a reason when [`Profile::error_details`] is on).
    pub fn write_reply(&self, profile: &Profile, out: &mut Vec<u8>) {
        let error = with_details(self.error(), self, profile);
        reply::write_error(out, None, &error, profile.missing_id());
    }

    /// The exact reply under `profile`, as bytes (see [`Rejection::write_reply`]).
    pub fn reply(&self, profile: &Profile) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_reply(profile, &mut out);
        out
    }
}

/// Adds `"data":{"reason":...}` when the profile asks for error details.
fn with_details(error: RpcError, reason: &dyn fmt::Display, profile: &Profile) -> RpcError {
    if !profile.error_details() {
        return error;
    }
    #[derive(serde::Serialize)]
    struct Reason {
        reason: String,
    }
    error.with_data(&Reason {
        reason: reason.to_string(),
    })
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Parse(e) => write!(f, "not valid JSON: {e}"),
            Rejection::NotAnObject => {
                f.write_str("the top level is not an object (or an allowed batch)")
            }
            Rejection::EmptyBatch => f.write_str("empty batch"),
            Rejection::BatchTooLarge { len, max } => {
                write!(f, "batch of {len} exceeds the limit {max}")
            }
            Rejection::FrameTooLarge { len, max } => {
                write!(f, "frame of {len} bytes exceeds the limit {max}")
            }
        }
    }
}

/// One classified message.
///
/// The first of three layers of "what came in", each for its own reader: a `Message` is what
/// one frame says, with no state (no pending requests, no answer rights), borrowed from the
/// frame; [`peer::Event`](crate::peer::Event) is what it means to this side of a conversation
/// (a request with the [`Call`](crate::peer::Call) that answers it once, a response matched to
/// a pending request and decoded); [`ProtocolEvent`](crate::ProtocolEvent) is the owned,
/// answer-less part of the latter that outlives the frame for
/// [`Router::on_event`](crate::Router::on_event). Folding any two together would put state
/// into the stateless decoder or frame borrows into handlers that run later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message<'a> {
    /// A valid request: must be answered with the id.
    Request {
        /// The request id, original text.
        id: Id<'a>,
        /// The method name (borrowed unless it contained escapes).
        method: Cow<'a, str>,
        /// The params, if present (an object, or an array where the profile allows it).
        params: Option<RawParams<'a>>,
    },
    /// A valid notification: never answered.
    Notification(RawNotification<'a>),
    /// A response-shaped message (well-formed or not): never answered.
    Response(Response<'a>),
    /// An invalid message: answered -32600 with `id` (or without an id when `None`).
    Invalid {
        /// The recovered id, when there is one.
        id: Option<Id<'a>>,
        /// What is wrong.
        reason: InvalidReason,
    },
}

/// A notification as its frame spells it: the same in a [`Message`] and in the
/// [`peer::Event`](crate::peer::Event) made of it, which adds nothing to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawNotification<'a> {
    /// The method name (borrowed unless it contained escapes).
    pub method: Cow<'a, str>,
    /// The params, if present (an object, or an array where the profile allows it).
    pub params: Option<RawParams<'a>>,
}

impl Message<'_> {
    /// Whether this message must be answered.
    pub fn needs_reply(&self) -> bool {
        matches!(self, Message::Request { .. } | Message::Invalid { .. })
    }

    /// For an invalid message, appends its exact -32600 reply under `profile` and returns
    /// `true`; other messages write nothing and return `false` (a request's reply depends
    /// on its handler, notifications and responses get none).
    pub fn write_invalid_reply(&self, profile: &Profile, out: &mut Vec<u8>) -> bool {
        let Message::Invalid { id, reason } = self else {
            return false;
        };
        let error = with_details(reason.error(), reason, profile);
        reply::write_error(out, id.as_ref(), &error, profile.missing_id());
        true
    }
}

/// Why an id cannot be recovered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdProblem {
    /// The `id` member occurs more than once.
    Duplicated,
    /// The id's JSON type is not admitted by the profile (`true`, `[1]`, `1.5` under MCP).
    ForbiddenType(JsonType),
    /// The id breaks the profile's [`IdPolicy`](crate::IdPolicy).
    RejectedByPolicy,
    /// A string id with a `\u` escape of an unpaired UTF-16 surrogate (`"\ud800"`): valid
    /// JSON text that names no Unicode string, which many receivers cannot read back
    /// (RFC 8259 §8.2, RFC 7493 §2.1). Unrecoverable in every profile.
    UnpairedSurrogate,
}

/// A JSON value's type, with integers told apart from other numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number with no fractional part.
    Integer,
    /// A number with a fractional part.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    pub(crate) fn of(member: &RawMember<'_>) -> Self {
        match member.first_byte() {
            Some(b'n') => JsonType::Null,
            Some(b't' | b'f') => JsonType::Boolean,
            Some(b'"') => JsonType::String,
            Some(b'[') => JsonType::Array,
            Some(b'{') => JsonType::Object,
            _ if crate::id::scanned_number_is_integer(member.text) => JsonType::Integer,
            _ => JsonType::Number,
        }
    }
}

/// Why a message is invalid (all answered -32600).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidReason {
    /// The id is present but unrecoverable.
    Id(IdProblem),
    /// No `jsonrpc` member.
    JsonrpcMissing,
    /// `jsonrpc` is not exactly the string `"2.0"`, or occurs twice.
    JsonrpcNot20,
    /// `method` is not a string, or occurs twice.
    MethodNotString,
    /// `method` starts with the reserved prefix `rpc.`.
    MethodReserved,
    /// `params` has a type the profile does not admit, or occurs twice.
    ParamsType(JsonType),
    /// A call also carries `result` or `error`.
    CallWithResultOrError,
    /// Neither `method` nor `result` nor `error` is present.
    NotACallOrResponse,
    /// A batch element that is not an object (a nested array included).
    BatchElementNotObject(JsonType),
}

impl InvalidReason {
    /// The error to answer with (-32600).
    pub fn error(&self) -> RpcError {
        RpcError::invalid_request()
    }
}

impl fmt::Display for InvalidReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidReason::Id(IdProblem::Duplicated) => f.write_str("the id member occurs twice"),
            InvalidReason::Id(IdProblem::ForbiddenType(t)) => {
                write!(f, "id of type {t:?} is not allowed")
            }
            InvalidReason::Id(IdProblem::RejectedByPolicy) => {
                f.write_str("id rejected by the id policy")
            }
            InvalidReason::Id(IdProblem::UnpairedSurrogate) => {
                f.write_str("string id holds an unpaired UTF-16 surrogate escape")
            }
            InvalidReason::JsonrpcMissing => f.write_str("missing jsonrpc member"),
            InvalidReason::JsonrpcNot20 => f.write_str("jsonrpc must be exactly \"2.0\""),
            InvalidReason::MethodNotString => f.write_str("method must be a string"),
            InvalidReason::MethodReserved => {
                f.write_str("method names starting with rpc. are reserved")
            }
            InvalidReason::ParamsType(t) => write!(f, "params of type {t:?} is not allowed"),
            InvalidReason::CallWithResultOrError => {
                f.write_str("a call must not carry result or error")
            }
            InvalidReason::NotACallOrResponse => f.write_str("no method, result or error member"),
            InvalidReason::BatchElementNotObject(t) => {
                write!(f, "batch element of type {t:?} is not an object")
            }
        }
    }
}

/// A response-shaped message: has `result` or `error` and no `method`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response<'a> {
    /// The id, when recovered (for error responses it may legitimately be absent or null).
    pub id: Option<Id<'a>>,
    /// The outcome.
    pub body: ResponseBody<'a>,
}

/// What a response carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseBody<'a> {
    /// A success: the raw `result` JSON text.
    Result(&'a str),
    /// An error response with a well-formed error object.
    Error {
        /// The error code.
        code: i64,
        /// The message.
        message: Cow<'a, str>,
        /// The raw `data` JSON text, if any.
        data: Option<&'a str>,
    },
    /// A malformed response.
    Malformed(ResponseDefect),
}

/// What is wrong with a malformed response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseDefect {
    /// `jsonrpc` missing or not exactly `"2.0"`.
    Jsonrpc,
    /// The id is missing or unrecoverable where one is required.
    Id,
    /// Both `result` and `error`, or one of them twice.
    ResultAndError,
    /// `error` is not an object with an integer `code` and a string `message`.
    ErrorObject,
}

impl fmt::Display for ResponseDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResponseDefect::Jsonrpc => "jsonrpc missing or not \"2.0\"",
            ResponseDefect::Id => "id missing or unrecoverable",
            ResponseDefect::ResultAndError => "needs exactly one of result and error",
            ResponseDefect::ErrorObject => {
                "error is not an object with an integer code and a string message"
            }
        })
    }
}

enum IdState<'a> {
    Absent,
    Recovered(Id<'a>),
    Unrecoverable(IdProblem),
}

fn resolve_id<'a>(field: &Field<'a>, profile: &Profile) -> IdState<'a> {
    let member = match field {
        Field::Absent => return IdState::Absent,
        Field::Duplicated => return IdState::Unrecoverable(IdProblem::Duplicated),
        Field::Once(member) => member,
    };
    let Some(id) = Id::from_scanned(member.text) else {
        return IdState::Unrecoverable(IdProblem::ForbiddenType(JsonType::of(member)));
    };
    let types = &profile.facts().id_types;
    let allowed = match id.kind() {
        IdKind::String => types.string,
        IdKind::Integer => types.integer || types.number,
        IdKind::Number => types.number,
        IdKind::Null => types.null,
    };
    if !allowed {
        return IdState::Unrecoverable(IdProblem::ForbiddenType(JsonType::of(member)));
    }
    if member.has_escapes && scan::has_unpaired_surrogate(member.text) {
        return IdState::Unrecoverable(IdProblem::UnpairedSurrogate);
    }
    if !profile.id_policy().allows(&id) {
        return IdState::Unrecoverable(IdProblem::RejectedByPolicy);
    }
    IdState::Recovered(id)
}

#[inline]
fn jsonrpc_is_20(field: &Field<'_>) -> Result<(), InvalidReason> {
    match field {
        Field::Absent => Err(InvalidReason::JsonrpcMissing),
        Field::Duplicated => Err(InvalidReason::JsonrpcNot20),
        Field::Once(member) => {
            if member.text == "\"2.0\"" || member.string_value().as_deref() == Some("2.0") {
                Ok(())
            } else {
                Err(InvalidReason::JsonrpcNot20)
            }
        }
    }
}

/// Classifies one top-level (or batch element) object (rules 4–8).
pub fn classify<'a>(envelope: &Envelope<'a>, profile: &Profile) -> Message<'a> {
    let id = resolve_id(&envelope.id, profile);
    if envelope.method.is_present() {
        return classify_call(envelope, id, profile);
    }
    if envelope.result.is_present() || envelope.error.is_present() {
        return Message::Response(classify_response(envelope, id, profile));
    }
    match id {
        IdState::Unrecoverable(problem) => Message::Invalid {
            id: None,
            reason: InvalidReason::Id(problem),
        },
        IdState::Recovered(id) => Message::Invalid {
            id: Some(id),
            reason: InvalidReason::NotACallOrResponse,
        },
        IdState::Absent => Message::Invalid {
            id: None,
            reason: InvalidReason::NotACallOrResponse,
        },
    }
}

fn classify_call<'a>(envelope: &Envelope<'a>, id: IdState<'a>, profile: &Profile) -> Message<'a> {
    let id = match id {
        IdState::Unrecoverable(problem) => {
            return Message::Invalid {
                id: None,
                reason: InvalidReason::Id(problem),
            };
        }
        IdState::Recovered(id) => Some(id),
        IdState::Absent => None,
    };
    let invalid = |reason| Message::Invalid { id, reason };
    if let Err(reason) = jsonrpc_is_20(&envelope.jsonrpc) {
        return invalid(reason);
    }
    let method = match envelope.method.once().and_then(|m| m.string_value()) {
        Some(method) => method,
        None => return invalid(InvalidReason::MethodNotString),
    };
    if method.starts_with("rpc.") {
        return invalid(InvalidReason::MethodReserved);
    }
    let params = match envelope.params {
        Field::Absent => None,
        Field::Duplicated => return invalid(InvalidReason::ParamsType(JsonType::Object)),
        Field::Once(member) => {
            let types = &profile.facts().params_types;
            let allowed =
                (member.is_object() && types.object) || (member.is_array() && types.array);
            if !allowed {
                return invalid(InvalidReason::ParamsType(JsonType::of(&member)));
            }
            Some(RawParams::new(member.text, member.depth as usize))
        }
    };
    if envelope.result.is_present() || envelope.error.is_present() {
        return invalid(InvalidReason::CallWithResultOrError);
    }
    match id {
        Some(id) => Message::Request { id, method, params },
        None => Message::Notification(RawNotification { method, params }),
    }
}

fn classify_response<'a>(
    envelope: &Envelope<'a>,
    id: IdState<'a>,
    profile: &Profile,
) -> Response<'a> {
    let malformed = |id, defect| Response {
        id,
        body: ResponseBody::Malformed(defect),
    };
    let recovered = match &id {
        IdState::Recovered(id) => Some(*id),
        _ => None,
    };
    if jsonrpc_is_20(&envelope.jsonrpc).is_err() {
        return malformed(recovered, ResponseDefect::Jsonrpc);
    }
    match (envelope.result, envelope.error) {
        (Field::Once(result), Field::Absent) => match id {
            IdState::Recovered(id) => Response {
                id: Some(id),
                body: ResponseBody::Result(result.text),
            },
            _ => malformed(None, ResponseDefect::Id),
        },
        (Field::Absent, Field::Once(error)) => {
            let id_ok = match &id {
                IdState::Recovered(_) => true,
                // `null` is how a sender spells "no id" where the schema requires the member.
                IdState::Unrecoverable(IdProblem::ForbiddenType(JsonType::Null)) => true,
                IdState::Absent => !profile.facts().error_response_requires_id,
                IdState::Unrecoverable(_) => false,
            };
            if !id_ok {
                return malformed(recovered, ResponseDefect::Id);
            }
            match error_body(error) {
                Some(body) => Response {
                    id: recovered,
                    body,
                },
                None => malformed(recovered, ResponseDefect::ErrorObject),
            }
        }
        _ => malformed(recovered, ResponseDefect::ResultAndError),
    }
}

fn error_body<'a>(error: RawMember<'a>) -> Option<ResponseBody<'a>> {
    if !error.is_object() {
        return None;
    }
    let members = envelope::read_error_object(error.text).ok()?;
    let code_text = members.code.once()?.text;
    if !crate::id::number_is_integer(code_text) {
        return None;
    }
    let code = code_text.parse::<i64>().ok().or_else(|| {
        let value = code_text.parse::<f64>().ok()?;
        (value.abs() < 9.2e18).then_some(value as i64)
    })?;
    let message = members.message.once()?.string_value()?;
    let data = match members.data {
        Field::Absent => None,
        Field::Once(data) => Some(data.text),
        Field::Duplicated => return None,
    };
    Some(ResponseBody::Error {
        code,
        message,
        data,
    })
}

/// The UTF-8 byte order mark a frame may open with (ignored).
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes one frame under `profile`.
///
/// The frame is one JSON text (a leading UTF-8 byte order mark is ignored); ids, method
/// names and params borrow from it.
pub fn decode<'a>(frame: &'a [u8], profile: &Profile) -> Decoded<'a> {
    let max = profile.limits().max_frame_bytes;
    if frame.len() > max {
        return Decoded::Rejected(Rejection::FrameTooLarge {
            len: frame.len(),
            max,
        });
    }
    crate::split::trace_read(crate::split::Read::Scan, frame.len());
    let (skipped, body) = match frame.strip_prefix(BOM) {
        Some(rest) => (BOM.len(), rest),
        None => (0, frame),
    };
    let text = match scan::utf8(body) {
        Ok(text) => text,
        Err(mut e) => {
            e.offset += skipped;
            return Decoded::Rejected(Rejection::Parse(e));
        }
    };
    decode_text(text, profile).unwrap_or_else(|mut e| {
        e.offset += skipped;
        Decoded::Rejected(Rejection::Parse(e))
    })
}

pub(crate) fn expect_end(text: &str, pos: usize) -> Result<(), ScanError> {
    let rest = scan::skip_whitespace(text.as_bytes(), pos);
    if rest == text.len() {
        Ok(())
    } else {
        Err(ScanError {
            kind: ScanErrorKind::TrailingCharacters,
            offset: rest,
        })
    }
}

fn decode_text<'a>(text: &'a str, profile: &Profile) -> Result<Decoded<'a>, ScanError> {
    let bytes = text.as_bytes();
    let start = scan::skip_whitespace(bytes, 0);
    match bytes.get(start) {
        Some(b'{') => {
            let mut envelope = Envelope::default();
            let end = envelope::read_object_into(text, start, &mut envelope)?;
            expect_end(text, end)?;
            Ok(Decoded::Single(classify(&envelope, profile)))
        }
        Some(b'[') if profile.facts().batches => decode_batch(text, start, profile),
        _ => {
            let info = scan::scan_value(bytes, start)?;
            expect_end(text, info.end)?;
            Ok(Decoded::Rejected(Rejection::NotAnObject))
        }
    }
}

fn decode_batch<'a>(
    text: &'a str,
    start: usize,
    profile: &Profile,
) -> Result<Decoded<'a>, ScanError> {
    let max_len = profile.limits().max_batch_len;
    let mut messages = Vec::new();
    let len = scan_batch(text, start, |position, element| {
        if max_len.is_none_or(|max| position <= max) {
            messages.push(element.classify(profile));
        }
    })?;
    Ok(batch_decoded(len, max_len, || messages))
}

/// One element of a batch, as its scan found it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BatchElement<'a> {
    /// An object: its envelope.
    Object(Envelope<'a>),
    /// Any other value: its type.
    Other(JsonType),
}

impl<'a> BatchElement<'a> {
    /// The message this element is under `profile`.
    pub(crate) fn classify(&self, profile: &Profile) -> Message<'a> {
        match self {
            BatchElement::Object(envelope) => classify(envelope, profile),
            BatchElement::Other(json_type) => Message::Invalid {
                id: None,
                reason: InvalidReason::BatchElementNotObject(*json_type),
            },
        }
    }
}

/// Scans the batch whose `[` is at `start`, to the end of `text`, handing each element to
/// `each` with its position (from 1); the batch's length (0 for `[]`).
pub(crate) fn scan_batch<'a>(
    text: &'a str,
    start: usize,
    mut each: impl FnMut(usize, BatchElement<'a>),
) -> Result<usize, ScanError> {
    let bytes = text.as_bytes();
    let mut len = 0usize;
    let mut pos = scan::skip_whitespace(bytes, start + 1);
    if bytes.get(pos) == Some(&b']') {
        expect_end(text, pos + 1)?;
        return Ok(0);
    }
    loop {
        len += 1;
        if bytes.get(pos) == Some(&b'{') {
            let mut envelope = Envelope::default();
            pos = envelope::read_object_into(text, pos, &mut envelope)?;
            each(len, BatchElement::Object(envelope));
        } else {
            let member = envelope::scan_member(text, pos)?;
            each(len, BatchElement::Other(JsonType::of(&member)));
            pos += member.text.len();
        }
        pos = scan::skip_whitespace(bytes, pos);
        match bytes.get(pos) {
            Some(b',') => pos = scan::skip_whitespace(bytes, pos + 1),
            Some(b']') => break,
            Some(_) => {
                return Err(ScanError {
                    kind: ScanErrorKind::UnexpectedByte,
                    offset: pos,
                });
            }
            None => {
                return Err(ScanError {
                    kind: ScanErrorKind::UnexpectedEnd,
                    offset: pos,
                });
            }
        }
    }
    expect_end(text, pos + 1)?;
    Ok(len)
}

/// A scanned batch of `len` elements under the limit `max`: refused when empty or too long,
/// else the messages `messages` gives.
pub(crate) fn batch_decoded<'a>(
    len: usize,
    max: Option<usize>,
    messages: impl FnOnce() -> Vec<Message<'a>>,
) -> Decoded<'a> {
    if len == 0 {
        return Decoded::Rejected(Rejection::EmptyBatch);
    }
    if let Some(max) = max.filter(|&max| len > max) {
        return Decoded::Rejected(Rejection::BatchTooLarge { len, max });
    }
    Decoded::Batch(messages())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{mutate, xorshift};

    fn single(frame: &str, profile: &Profile) -> Message<'static> {
        let frame: &'static str = Box::leak(frame.to_owned().into_boxed_str());
        match decode(frame.as_bytes(), profile) {
            Decoded::Single(message) => message,
            other => panic!("{frame}: {other:?}"),
        }
    }

    #[test]
    fn ids_are_recovered_per_profile() {
        let plain = Profile::jsonrpc_2_0();
        let mcp = Profile::latest_mcp();
        let request = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
        for id in ["1", "\"s\"", "1.5", "null", "1e3", "-0", "9007199254740993"] {
            match single(&request(id), &plain) {
                Message::Request { id: got, .. } => assert_eq!(got.raw(), id),
                other => panic!("{id}: {other:?}"),
            }
        }
        for id in ["1", "\"s\"", "1e3", "2.0", "-0"] {
            assert!(
                matches!(single(&request(id), &mcp), Message::Request { .. }),
                "{id}"
            );
        }
        for id in ["1.5", "null", "true", "[1]", "{}"] {
            assert!(
                matches!(
                    single(&request(id), &mcp),
                    Message::Invalid {
                        id: None,
                        reason: InvalidReason::Id(_)
                    }
                ),
                "{id}"
            );
        }
    }

    #[test]
    fn calls_are_validated_with_the_id_kept() {
        let p = Profile::jsonrpc_2_0();
        let cases = [
            (
                r#"{"jsonrpc":"1.0","id":3,"method":"m"}"#,
                InvalidReason::JsonrpcNot20,
            ),
            (r#"{"id":4,"method":"m"}"#, InvalidReason::JsonrpcMissing),
            (
                r#"{"jsonrpc":"2.0","id":8,"method":8}"#,
                InvalidReason::MethodNotString,
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"rpc.x"}"#,
                InvalidReason::MethodReserved,
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"m","params":1}"#,
                InvalidReason::ParamsType(JsonType::Integer),
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"m","result":1}"#,
                InvalidReason::CallWithResultOrError,
            ),
            (
                r#"{"jsonrpc":"2.0","id":9}"#,
                InvalidReason::NotACallOrResponse,
            ),
        ];
        for (frame, reason) in cases {
            match single(frame, &p) {
                Message::Invalid {
                    id: Some(_),
                    reason: got,
                } => assert_eq!(got, reason, "{frame}"),
                other => panic!("{frame}: {other:?}"),
            }
        }
    }

    #[test]
    fn responses_are_recognised() {
        let p = Profile::jsonrpc_2_0();
        let ok = single(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#, &p);
        assert!(matches!(
            ok,
            Message::Response(Response {
                body: ResponseBody::Result(r#"{"a":1}"#),
                ..
            })
        ));
        let err = single(
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#,
            &p,
        );
        assert!(matches!(
            err,
            Message::Response(Response {
                body: ResponseBody::Error { code: -32600, .. },
                ..
            })
        ));
        let bad = single(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"x"}}"#,
            &p,
        );
        assert!(matches!(
            bad,
            Message::Response(Response {
                body: ResponseBody::Malformed(ResponseDefect::ErrorObject),
                ..
            })
        ));
    }

    #[test]
    fn whole_frame_rejections() {
        let p = Profile::jsonrpc_2_0();
        let mcp = Profile::latest_mcp();
        assert!(matches!(
            decode(b"{", &p),
            Decoded::Rejected(Rejection::Parse(_))
        ));
        assert!(matches!(
            decode(b"[]", &p),
            Decoded::Rejected(Rejection::EmptyBatch)
        ));
        assert!(matches!(
            decode(b"[1]", &mcp),
            Decoded::Rejected(Rejection::NotAnObject)
        ));
        assert!(matches!(
            decode(b"[1,]", &mcp),
            Decoded::Rejected(Rejection::Parse(_))
        ));
        assert!(matches!(
            decode(b"\"x\"", &p),
            Decoded::Rejected(Rejection::NotAnObject)
        ));
        let small = p.clone().with_max_frame_bytes(4);
        assert!(matches!(
            decode(b"{ }  ", &small),
            Decoded::Rejected(Rejection::FrameTooLarge { len: 5, max: 4 })
        ));
        let short = p.clone().with_max_batch_len(Some(1));
        assert!(matches!(
            decode(b"[1,2]", &short),
            Decoded::Rejected(Rejection::BatchTooLarge { len: 2, max: 1 })
        ));
        assert!(matches!(decode(b"[1]", &short), Decoded::Batch(_)));
        assert!(matches!(decode(b"\xEF\xBB\xBF[1]", &p), Decoded::Batch(_)));
        assert!(matches!(
            decode(b"{\"a\":\"\xff\"}", &p),
            Decoded::Rejected(Rejection::Parse(ScanError {
                kind: ScanErrorKind::InvalidUtf8,
                offset: 6
            }))
        ));
    }

    #[test]
    fn jsonrpc_may_be_spelled_with_escapes() {
        let p = Profile::jsonrpc_2_0();
        for version in [r#""2.0""#, r#""2\u002e0""#, r#""\u0032.0""#] {
            let frame = format!(r#"{{"jsonrpc":{version},"id":1,"method":"m"}}"#);
            assert!(
                matches!(single(&frame, &p), Message::Request { .. }),
                "{frame}"
            );
        }
        for version in [r#""2.00""#, r#""2""#, "2.0", r#""2.0 ""#] {
            let frame = format!(r#"{{"jsonrpc":{version},"id":1,"method":"m"}}"#);
            assert!(
                matches!(
                    single(&frame, &p),
                    Message::Invalid {
                        reason: InvalidReason::JsonrpcNot20,
                        ..
                    }
                ),
                "{frame}"
            );
        }
    }

    #[test]
    fn json_types_are_named_in_the_reason() {
        // Forbidden id types under MCP, and non-object batch elements in plain JSON-RPC.
        let mcp = Profile::latest_mcp();
        for (id, json_type) in [
            ("null", JsonType::Null),
            ("true", JsonType::Boolean),
            ("false", JsonType::Boolean),
            ("1.5", JsonType::Number),
            ("[1]", JsonType::Array),
            ("{}", JsonType::Object),
        ] {
            let frame = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            match single(&frame, &mcp) {
                Message::Invalid {
                    id: None,
                    reason: InvalidReason::Id(IdProblem::ForbiddenType(got)),
                } => assert_eq!(got, json_type, "{id}"),
                other => panic!("{id}: {other:?}"),
            }
        }
        let p = Profile::jsonrpc_2_0();
        let Decoded::Batch(messages) = decode(br#"[null,true,"s",[],1,1.5,-2e3]"#, &p) else {
            panic!("not a batch");
        };
        let types: Vec<_> = messages
            .iter()
            .map(|m| match m {
                Message::Invalid {
                    id: None,
                    reason: InvalidReason::BatchElementNotObject(t),
                } => *t,
                other => panic!("{other:?}"),
            })
            .collect();
        use JsonType::*;
        assert_eq!(
            types,
            [Null, Boolean, String, Array, Integer, Number, Integer]
        );
    }

    #[test]
    fn error_responses_keep_their_id_and_check_the_error_object() {
        let p = Profile::jsonrpc_2_0();
        let error = |id: &str, error: &str| {
            single(
                &format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#),
                &p,
            )
        };
        match error("7", r#"{"code":1e3,"message":"m","data":[1]}"#) {
            Message::Response(Response {
                id: Some(id),
                body:
                    ResponseBody::Error {
                        code: 1000,
                        message,
                        data: Some("[1]"),
                    },
            }) => {
                assert_eq!(id.raw(), "7");
                assert_eq!(message, "m");
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            r#"{"code":1.5,"message":"m"}"#,
            r#"{"code":1e19,"message":"m"}"#,
            r#"{"code":"1","message":"m"}"#,
            r#"{"code":1,"message":2}"#,
            r#"{"code":1}"#,
            r#"{"code":1,"message":"m","data":1,"data":2}"#,
            r#"[1]"#,
        ] {
            match error("8", bad) {
                Message::Response(Response {
                    id: Some(id),
                    body: ResponseBody::Malformed(ResponseDefect::ErrorObject),
                }) => assert_eq!(id.raw(), "8", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        // A malformed response still reports the id it carries.
        match single(r#"{"jsonrpc":"1.0","id":9,"result":1}"#, &p) {
            Message::Response(Response {
                id: Some(id),
                body: ResponseBody::Malformed(ResponseDefect::Jsonrpc),
            }) => assert_eq!(id.raw(), "9"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_error_response_without_id_is_malformed_only_where_the_schema_requires_the_id() {
        let frame = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
        let (mut required, mut optional) = (0, 0);
        for profile in Profile::all() {
            let message = single(frame, &profile);
            let requires_id = profile.facts().error_response_requires_id;
            if requires_id {
                required += 1;
            } else {
                optional += 1;
            }
            let malformed = matches!(
                message,
                Message::Response(Response {
                    id: None,
                    body: ResponseBody::Malformed(ResponseDefect::Id)
                })
            );
            let accepted = matches!(
                message,
                Message::Response(Response {
                    id: None,
                    body: ResponseBody::Error { code: -32700, .. }
                })
            );
            assert_eq!(
                (malformed, accepted),
                (requires_id, !requires_id),
                "{}: {message:?}",
                profile.name()
            );
        }
        assert!(required > 0 && optional > 0, "both kinds of profile exist");
    }

    #[test]
    fn only_requests_and_invalid_messages_need_a_reply() {
        let p = Profile::jsonrpc_2_0();
        for (frame, needs) in [
            (r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#, true),
            (r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, true),
            (r#"{"jsonrpc":"2.0","method":"m"}"#, false),
            (r#"{"jsonrpc":"2.0","id":1,"result":1}"#, false),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#,
                false,
            ),
        ] {
            assert_eq!(single(frame, &p).needs_reply(), needs, "{frame}");
        }
    }

    #[test]
    fn limits_are_inclusive_and_offsets_count_the_byte_order_mark() {
        let p = Profile::jsonrpc_2_0();
        let frame = br#"{"jsonrpc":"2.0","method":"m"}"#;
        let exact = p.clone().with_max_frame_bytes(frame.len());
        assert!(matches!(decode(frame, &exact), Decoded::Single(_)));
        let two = p.clone().with_max_batch_len(Some(2));
        let Decoded::Batch(messages) = decode(br#"[{"jsonrpc":"2.0","method":"m"},1]"#, &two)
        else {
            panic!("a batch of the limit's length is decoded");
        };
        assert_eq!(messages.len(), 2);
        assert!(matches!(messages[0], Message::Notification { .. }));
        assert!(matches!(
            decode(b"\xEF\xBB\xBF{\"a\":}", &p),
            Decoded::Rejected(Rejection::Parse(ScanError {
                kind: ScanErrorKind::UnexpectedByte,
                offset: 8
            }))
        ));
        for trailing in [
            &br#"{"jsonrpc":"2.0","method":"m"} x"#[..],
            b"\"s\" 1",
            b"[1] ]",
        ] {
            assert!(
                matches!(
                    decode(trailing, &p),
                    Decoded::Rejected(Rejection::Parse(ScanError {
                        kind: ScanErrorKind::TrailingCharacters,
                        ..
                    }))
                ),
                "{}",
                String::from_utf8_lossy(trailing)
            );
        }
    }

    #[test]
    fn every_reason_reads_differently() {
        let reasons = [
            InvalidReason::Id(IdProblem::Duplicated),
            InvalidReason::Id(IdProblem::ForbiddenType(JsonType::Boolean)),
            InvalidReason::Id(IdProblem::RejectedByPolicy),
            InvalidReason::JsonrpcMissing,
            InvalidReason::JsonrpcNot20,
            InvalidReason::MethodNotString,
            InvalidReason::MethodReserved,
            InvalidReason::ParamsType(JsonType::String),
            InvalidReason::CallWithResultOrError,
            InvalidReason::NotACallOrResponse,
            InvalidReason::BatchElementNotObject(JsonType::Null),
        ]
        .map(|r| r.to_string());
        let defects = [
            ResponseDefect::Jsonrpc,
            ResponseDefect::Id,
            ResponseDefect::ResultAndError,
            ResponseDefect::ErrorObject,
        ]
        .map(|d| d.to_string());
        let rejections = [
            Rejection::Parse(ScanError {
                kind: ScanErrorKind::UnexpectedEnd,
                offset: 3,
            }),
            Rejection::NotAnObject,
            Rejection::EmptyBatch,
            Rejection::BatchTooLarge { len: 3, max: 2 },
            Rejection::FrameTooLarge { len: 9, max: 8 },
        ]
        .map(|r| r.to_string());
        let all: Vec<&String> = reasons.iter().chain(&defects).chain(&rejections).collect();
        for (i, text) in all.iter().enumerate() {
            assert!(text.len() > 8, "{text:?} says too little");
            assert!(!all[..i].contains(text), "{text:?} is said twice");
        }
        assert!(reasons[1].contains("Boolean") && reasons[7].contains("String"));
        assert!(rejections[0].contains('3') && rejections[3].contains('2'));
        assert!(rejections[4].contains('9') && rejections[4].contains('8'));
    }

    #[test]
    fn only_the_exact_envelope_keys_are_envelope_members() {
        let p = Profile::jsonrpc_2_0();
        for key in ["jsonrpc", "id", "method", "params", "result", "error"] {
            let near = [
                format!("{key}x"),
                key[..key.len() - 1].to_owned(),
                key.to_uppercase(),
                format!("{key} "),
            ];
            for near in near {
                // Any value a misread key would object to, or be read as.
                let frame = format!(r#"{{"{near}":"1.0","jsonrpc":"2.0","method":"m"}}"#);
                match single(&frame, &p) {
                    Message::Notification(RawNotification {
                        method,
                        params: None,
                    }) => assert_eq!(method, "m", "{frame}"),
                    other => panic!("{frame}: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn envelope_keys_spelled_with_escapes_are_recognised() {
        let p = Profile::jsonrpc_2_0();
        let request = r#"{"\u006asonrpc":"2.0","\u0069d":1,"m\u0065thod":"m","p\u0061rams":[1]}"#;
        match single(request, &p) {
            Message::Request { id, method, params } => {
                assert_eq!((id.raw(), &*method), ("1", "m"));
                assert_eq!(params.map(|p| p.get()), Some("[1]"));
            }
            other => panic!("{other:?}"),
        }
        let result = single(r#"{"jsonrpc":"2.0","id":2,"r\u0065sult":3}"#, &p);
        assert!(
            matches!(
                result,
                Message::Response(Response {
                    body: ResponseBody::Result("3"),
                    ..
                })
            ),
            "{result:?}"
        );
        let error = single(
            r#"{"jsonrpc":"2.0","id":2,"\u0065rror":{"code":4,"message":"m"}}"#,
            &p,
        );
        assert!(
            matches!(
                error,
                Message::Response(Response {
                    body: ResponseBody::Error { code: 4, .. },
                    ..
                })
            ),
            "{error:?}"
        );
    }

    #[test]
    fn an_empty_object_is_an_invalid_message_not_a_parse_error() {
        let p = Profile::jsonrpc_2_0();
        for frame in ["{}", "{ }", " {}\n"] {
            assert!(
                matches!(
                    single(frame, &p),
                    Message::Invalid {
                        id: None,
                        reason: InvalidReason::NotACallOrResponse
                    }
                ),
                "{frame:?}"
            );
        }
        let Decoded::Batch(messages) = decode(b"[{},{ }]", &p) else {
            panic!("[{{}},{{ }}] is a batch");
        };
        assert_eq!(messages.len(), 2);
    }

    /// Mutated frames never panic, and whatever is classified as a reply-needing message
    /// carries an id that is a verbatim slice of the frame.
    #[test]
    fn mutated_frames_never_panic_and_ids_are_slices_of_the_frame() {
        let seeds: [&[u8]; 4] = [
            br#"{"jsonrpc":"2.0","id":"a\"b","method":"m","params":{"x":[1,{"y":null}]}}"#,
            br#"[{"jsonrpc":"2.0","id":1e3,"method":"m"},{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","method":"n"}]"#,
            br#"{"jsonrpc":"2.0","id":-0,"error":{"code":-32600,"message":"m","data":[1]}}"#,
            b"\xEF\xBB\xBF{\"\\u0069d\":7,\"jsonrpc\":\"2.0\",\"method\":\"rpc.x\"}",
        ];
        let alphabet = b"{}[],:\"\\ -.019eidmethodjsonrpcresultparamserror\xff\xc3\xa9";
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let profiles = Profile::all();
        for round in 0..20_000 {
            let mut frame = seeds[round % seeds.len()].to_vec();
            mutate(&mut frame, alphabet, 3, &mut next);
            let profile = &profiles[round % profiles.len()];
            let messages = match decode(&frame, profile) {
                Decoded::Rejected(_) => continue,
                Decoded::Single(message) => vec![message],
                Decoded::Batch(messages) => messages,
            };
            let range = frame.as_ptr_range();
            for message in messages {
                let id = match message {
                    Message::Request { id, .. } | Message::Invalid { id: Some(id), .. } => id,
                    _ => continue,
                };
                assert!(
                    range.contains(&id.raw().as_ptr()),
                    "id {} not borrowed",
                    id.raw()
                );
                assert!(Id::parse(id.raw()).is_some());
            }
        }
    }
}
