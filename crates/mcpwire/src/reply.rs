//! JSON-RPC error objects and the writers that produce exact reply bytes.
//!
//! Every reply is one line of JSON with the members in a fixed order: `"jsonrpc":"2.0"`,
//! then `"id"` (the request id's original text; `null` or left out when the id is
//! unrecoverable, see [`MissingId`]), then `"result"` or `"error"`.
//!
//! ```
//! use mcpwire::{Id, MissingId, RpcError, reply};
//!
//! let id = Id::parse("9007199254740993").unwrap();
//! let mut out = Vec::new();
//! reply::write_success(&mut out, &id, "19");
//! assert_eq!(out, br#"{"jsonrpc":"2.0","id":9007199254740993,"result":19}"#);
//!
//! out.clear();
//! reply::write_error(&mut out, None, &RpcError::invalid_request(), MissingId::Omit);
//! assert_eq!(out, br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#);
//! ```

use std::fmt;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::{Id, MissingId};

/// The standard JSON-RPC 2.0 error codes.
pub mod code {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON sent is not a valid Request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// A request inside a batch whose reply did not fit the batch reply budget
    /// ([`Limits::max_batch_reply_bytes`](crate::Limits::max_batch_reply_bytes)). In the
    /// range JSON-RPC 2.0 §5.1 reserves for implementation-defined server errors.
    pub const BATCH_REPLY_TOO_LARGE: i64 = -32003;
}

/// A JSON-RPC error object: an integer code, a message and optional raw `data`.
///
/// Handlers return it to answer a request with an error.
///
/// ```
/// use mcpwire::RpcError;
///
/// let error = RpcError::new(-32001, "quota exceeded").with_data(&serde_json::json!({"retry": 5}));
/// assert_eq!(error.data().unwrap().get(), r#"{"retry":5}"#);
/// ```
#[derive(Debug, Clone)]
pub struct RpcError {
    code: i64,
    message: String,
    data: Option<Box<RawValue>>,
}

impl PartialEq for RpcError {
    fn eq(&self, other: &Self) -> bool {
        self.code == other.code
            && self.message == other.message
            && self.data.as_ref().map(|d| d.get()) == other.data.as_ref().map(|d| d.get())
    }
}

impl Eq for RpcError {}

impl RpcError {
    /// An error with a code and message and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// -32700 `Parse error`.
    pub fn parse_error() -> Self {
        Self::new(code::PARSE_ERROR, "Parse error")
    }

    /// -32600 `Invalid Request`.
    pub fn invalid_request() -> Self {
        Self::new(code::INVALID_REQUEST, "Invalid Request")
    }

    /// -32601 `Method not found`.
    pub fn method_not_found() -> Self {
        Self::new(code::METHOD_NOT_FOUND, "Method not found")
    }

    /// -32602 `Invalid params`.
    pub fn invalid_params() -> Self {
        Self::new(code::INVALID_PARAMS, "Invalid params")
    }

    /// -32603 `Internal error`.
    pub fn internal_error() -> Self {
        Self::new(code::INTERNAL_ERROR, "Internal error")
    }

    /// -32003 `Batch reply too large` (see [`code::BATCH_REPLY_TOO_LARGE`]).
    pub fn batch_reply_too_large() -> Self {
        Self::new(code::BATCH_REPLY_TOO_LARGE, "Batch reply too large")
    }

    /// Attaches `data`, serialized to JSON. A value that fails to serialize (a map with
    /// non-string keys) is recorded as its error message string.
    pub fn with_data<T: Serialize + ?Sized>(mut self, data: &T) -> Self {
        let raw = serde_json::value::to_raw_value(data).unwrap_or_else(|e| {
            serde_json::value::to_raw_value(&e.to_string()).expect("a string serializes")
        });
        self.data = Some(raw);
        self
    }

    /// Attaches already-serialized `data`.
    pub fn with_raw_data(mut self, data: Box<RawValue>) -> Self {
        self.data = Some(data);
        self
    }

    /// The error code.
    pub fn code(&self) -> i64 {
        self.code
    }

    /// The error message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The raw `data` member, if any.
    pub fn data(&self) -> Option<&RawValue> {
        self.data.as_deref()
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}

fn write_head(out: &mut Vec<u8>, id: Option<&Id<'_>>, missing_id: MissingId) {
    out.extend_from_slice(br#"{"jsonrpc":"2.0""#);
    match (id, missing_id) {
        (Some(id), _) => {
            out.extend_from_slice(br#","id":"#);
            out.extend_from_slice(id.raw().as_bytes());
        }
        (None, MissingId::Null) => out.extend_from_slice(br#","id":null"#),
        (None, MissingId::Omit) => {}
    }
}

/// Appends valid JSON text, turning line breaks (which valid JSON can only hold as
/// whitespace between tokens) into spaces so the reply stays on one line.
fn push_json_single_line(out: &mut Vec<u8>, json: &str) {
    let start = out.len();
    out.extend_from_slice(json.as_bytes());
    single_line(&mut out[start..]);
}

/// Turns the line breaks of valid JSON text written in place into spaces (see
/// [`push_json_single_line`]).
pub(crate) fn single_line(json: &mut [u8]) {
    let mut from = 0;
    while let Some(at) = memchr::memchr2(b'\n', b'\r', &json[from..]) {
        json[from + at] = b' ';
        from += at + 1;
    }
}

/// The bytes a reply to `id` with a result of `result_len` bytes (0 for an error) needs, with
/// room for a line end: what a buffer built for it once should hold.
pub(crate) fn reply_capacity(id: &Id<'_>, result_len: usize) -> usize {
    const ENVELOPE: usize = r#"{"jsonrpc":"2.0","id":,"result":}"#.len() + 1;
    const SMALL_ERROR: usize = 96;
    ENVELOPE + id.raw().len() + result_len.max(SMALL_ERROR)
}

/// Appends a success reply to `out`. `result_json` must be valid JSON text; it is written
/// verbatim except that line breaks between tokens become spaces. `out` grows once, to hold
/// the whole reply and a line end.
pub fn write_success(out: &mut Vec<u8>, id: &Id<'_>, result_json: &str) {
    out.reserve(reply_capacity(id, result_json.len()));
    let start = open_success(out, id);
    out.extend_from_slice(result_json.as_bytes());
    close_success(out, start);
}

/// Appends a success reply's head up to `"result":`; returns where the result starts.
pub(crate) fn open_success(out: &mut Vec<u8>, id: &Id<'_>) -> usize {
    write_head(out, Some(id), MissingId::Null);
    out.extend_from_slice(br#","result":"#);
    out.len()
}

/// Ends a success reply whose result was appended from `start`: its line breaks become
/// spaces (see [`push_json_single_line`]), then the closing brace.
fn close_success(out: &mut Vec<u8>, start: usize) {
    single_line(&mut out[start..]);
    out.push(b'}');
}

/// Appends an error reply to `out`. `id` is `None` when the request id is unrecoverable;
/// `missing_id` then decides between `"id":null` and leaving the member out.
pub fn write_error(
    out: &mut Vec<u8>,
    id: Option<&Id<'_>>,
    error: &RpcError,
    missing_id: MissingId,
) {
    write_head(out, id, missing_id);
    out.extend_from_slice(br#","error":{"code":"#);
    serde_json::to_writer(&mut *out, &error.code).expect("writing an integer to a Vec cannot fail");
    out.extend_from_slice(br#","message":"#);
    serde_json::to_writer(&mut *out, &error.message)
        .expect("writing a string to a Vec cannot fail");
    if let Some(data) = &error.data {
        out.extend_from_slice(br#","data":"#);
        push_json_single_line(out, data.get());
    }
    out.extend_from_slice(b"}}");
}

/// A success reply as bytes, serializing `result` straight into the reply's buffer.
///
/// The same bytes as [`write_success`] with `result`'s JSON text. A `result` that holds raw
/// JSON with line breaks (a [`RawValue`], say) still gives one line.
pub fn success_reply<T: Serialize + ?Sized>(
    id: &Id<'_>,
    result: &T,
) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(reply_capacity(id, 0));
    let start = open_success(&mut out, id);
    serde_json::to_writer(&mut out, result)?;
    close_success(&mut out, start);
    Ok(out)
}

/// An error reply as bytes.
pub fn error_reply(id: Option<&Id<'_>>, error: &RpcError, missing_id: MissingId) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    write_error(&mut out, id, error, missing_id);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_replies_escape_messages_and_keep_data_verbatim() {
        let id = Id::parse(r#""a\u0062""#).unwrap();
        let error = RpcError::new(-1, "bad \"thing\"\n")
            .with_raw_data(RawValue::from_string("{\r\n \"k\" :\n1 }".into()).unwrap());
        assert_eq!(
            String::from_utf8(error_reply(Some(&id), &error, MissingId::Omit)).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a\u0062","error":{"code":-1,"message":"bad \"thing\"\n","data":{   "k" : 1 }}}"#
        );
        assert_eq!(
            String::from_utf8(error_reply(None, &RpcError::parse_error(), MissingId::Null))
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
    }

    #[test]
    fn success_reply_serializes_the_result() {
        let id = Id::parse("-0").unwrap();
        let bytes = success_reply(&id, &["hello", "world"]).unwrap();
        assert_eq!(
            bytes,
            br#"{"jsonrpc":"2.0","id":-0,"result":["hello","world"]}"#
        );
    }

    #[test]
    fn success_reply_keeps_one_line_and_matches_write_success() {
        let id = Id::parse("9007199254740993").unwrap();
        let text = "{\r\n \"k\" :\n[1,\r2] , \"s\": \"a\\nb\" }";
        let raw = RawValue::from_string(text.to_owned()).unwrap();
        let typed = success_reply(&id, &raw).unwrap();
        let mut written = Vec::new();
        write_success(&mut written, &id, text);
        assert_eq!(typed, written);
        assert_eq!(
            String::from_utf8(typed).unwrap(),
            r#"{"jsonrpc":"2.0","id":9007199254740993,"result":{   "k" : [1, 2] , "s": "a\nb" }}"#
        );
        let long = "x".repeat(10_000);
        let mut written = Vec::new();
        write_success(&mut written, &id, &serde_json::to_string(&long).unwrap());
        assert_eq!(success_reply(&id, &long).unwrap(), written);
    }

    #[test]
    fn success_reply_reports_a_result_that_cannot_serialize() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1u8], 1);
        let error = success_reply(&Id::parse("1").unwrap(), &map).unwrap_err();
        assert!(
            error.to_string().contains("key must be a string"),
            "{error}"
        );
    }

    #[test]
    fn with_data_survives_unserializable_values() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1u8], 1);
        let error = RpcError::internal_error().with_data(&map);
        assert!(error.data().unwrap().get().starts_with('"'));
    }
}
