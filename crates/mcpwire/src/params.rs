//! Raw `params` and their typed decoding.
//!
//! Params stay raw JSON text until a handler asks for a type. The typed decode tries
//! `fast_json` first (the value serde_json gives, strings decoded faster); where that gives
//! up, it decodes through `serde_path_to_error`, so a -32602 reply names the JSON pointer
//! that failed.
//!
//! ```
//! use mcpwire::{RawParams, params::decode_params};
//!
//! #[derive(serde::Deserialize, Debug)]
//! struct Args { count: u32 }
//!
//! let raw = RawParams::parse(r#"{"count":"three"}"#).unwrap();
//! let error = decode_params::<Args>(Some(raw), 64).unwrap_err();
//! assert_eq!(error.code(), -32602);
//! assert!(error.data().unwrap().get().contains(r#""pointer":"/count""#));
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;

use mcpwire_types::support::{
    fast_json, json_pointer, missing_member, push_pointer_token, with_unbounded_depth,
};

use crate::reply::RpcError;
use crate::scan;

/// The raw text of a request's `params` (an object or an array), borrowed from the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawParams<'a> {
    text: &'a str,
    depth: usize,
}

impl<'a> RawParams<'a> {
    pub(crate) fn new(text: &'a str, depth: usize) -> Self {
        Self { text, depth }
    }

    /// Wraps JSON text that is one object or array (no surrounding whitespace).
    pub fn parse(text: &'a str) -> Option<Self> {
        let info = scan::validate(text.as_bytes()).ok()?;
        let container = matches!(text.as_bytes().first(), Some(b'{' | b'['));
        (container && info.end == text.len()).then_some(Self {
            text,
            depth: info.depth,
        })
    }

    /// The params' exact JSON text.
    pub fn get(&self) -> &'a str {
        self.text
    }

    /// Container nesting depth (`{}` is 1).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the params are an object (by-name).
    pub fn is_object(&self) -> bool {
        self.text.starts_with('{')
    }

    /// Whether the params are an array (by-position).
    pub fn is_array(&self) -> bool {
        self.text.starts_with('[')
    }

    /// Decodes the params as `T` (see [`decode_params`]).
    pub fn deserialize<T: DeserializeOwned>(&self, max_depth: usize) -> Result<T, RpcError> {
        decode_params(Some(*self), max_depth)
    }
}

/// The `data` member of a -32602 reply.
#[derive(Debug, Serialize)]
struct ParamsErrorData<'a> {
    /// JSON pointer (RFC 6901) into `params` where decoding failed; `""` for the whole value.
    pointer: &'a str,
    /// What went wrong.
    reason: &'a str,
}

/// Decodes params as `T`, answering a failure as -32602 whose `data` is
/// `{"pointer": <JSON pointer into params>, "reason": <message>}`.
///
/// - Params nested deeper than `max_depth` are refused before decoding (pointer `""`).
///   Within the limit, serde_json's own 128-level recursion limit is lifted and the decode
///   runs on a stack that grows on the heap as needed (`serde_stacker`), so any depth the
///   limit admits decodes without a stack overflow. (Dropping a very deep
///   `serde_json::Value` recurses too: handlers that keep such values should keep the
///   limit modest.)
/// - Absent params decode from `null` (for `()`, `Option<_>`, unit structs); when `T`
///   refuses `null`, from `{}` (for structs whose members are all optional).
pub fn decode_params<T: DeserializeOwned>(
    params: Option<RawParams<'_>>,
    max_depth: usize,
) -> Result<T, RpcError> {
    let Some(params) = params else {
        // `{}` explains a struct's refusal best (it names the missing member); for any other
        // refusal the `null` attempt's reason is the plainer one.
        return decode_text::<T>("null")
            .or_else(|first| {
                decode_text::<T>("{}").map_err(|second| {
                    if missing_member(&second.reason).is_some() {
                        second
                    } else {
                        first
                    }
                })
            })
            .map_err(ParamsFailure::into_error);
    };
    if params.depth > max_depth {
        let reason = format!(
            "params nested {} deep exceed the limit of {max_depth}",
            params.depth
        );
        return Err(invalid_params("", &reason));
    }
    crate::split::trace_read(crate::split::Read::Params, params.text.len());
    decode_text(params.text).map_err(ParamsFailure::into_error)
}

/// Why a JSON text did not decode ([`decode_text`]): where, and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamsFailure {
    /// JSON pointer (RFC 6901) into the text's value where decoding failed (a missing member
    /// is named by its own pointer); `""` for the whole value.
    pub pointer: String,
    /// What went wrong, without serde_json's line and column (the pointer says where).
    pub reason: String,
}

impl ParamsFailure {
    fn into_error(self) -> RpcError {
        invalid_params(&self.pointer, &self.reason)
    }
}

/// Decodes JSON text as `T`, naming the JSON pointer where it failed: the decode of
/// [`decode_params`] once the depth is bounded (no recursion limit, on a stack that grows as
/// needed), for a caller that bounded the text's depth itself or holds a member of params
/// (mcpwire-server decodes a tool's `arguments` with it).
///
/// A text the fast deserializer decodes (`mcpwire_types::support::fast_json`: the value
/// serde_json gives, its strings found and copied 64 bytes at a time) is decoded there; any
/// other (a failure, nesting beyond serde_json's 128 levels) is decoded again with
/// serde_json as described above, so a failure reads as it always did.
///
/// ```
/// use mcpwire::params::decode_text;
/// #[derive(Debug, serde::Deserialize)]
/// struct Add { a: i64, b: i64 }
/// let failure = decode_text::<Add>(r#"{"a": 1, "b": "x"}"#).unwrap_err();
/// assert_eq!(failure.pointer, "/b");
/// assert_eq!(failure.reason, "invalid type: string \"x\", expected i64");
/// assert_eq!(decode_text::<Add>(r#"{"a": 1}"#).unwrap_err().pointer, "/b");
/// ```
pub fn decode_text<T: DeserializeOwned>(text: &str) -> Result<T, ParamsFailure> {
    if let Some(value) = fast_json::try_from_str(text) {
        return Ok(value);
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The caller bounded the depth already (the scanner measured it without recursing).
    deserializer.disable_recursion_limit();
    let growing = serde_stacker::Deserializer::new(&mut deserializer);
    // The generated unions decode their captured text with a deserializer of their own: they
    // lift the limit and grow the stack too.
    let decoded = with_unbounded_depth(|| serde_path_to_error::deserialize(growing));
    let value = decoded.map_err(|error| {
        let reason = reason_without_position(error.inner());
        let mut pointer = json_pointer(error.path());
        if let Some(member) = missing_member(&reason) {
            push_pointer_token(&mut pointer, member);
        }
        ParamsFailure { pointer, reason }
    })?;
    deserializer.end().map_err(|e| ParamsFailure {
        pointer: String::new(),
        reason: reason_without_position(&e),
    })?;
    Ok(value)
}

fn invalid_params(pointer: &str, reason: &str) -> RpcError {
    RpcError::invalid_params().with_data(&ParamsErrorData { pointer, reason })
}

/// serde_json appends " at line L column C", which is meaningless to the sender.
fn reason_without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        count: u32,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        arguments: Inner,
        #[serde(default)]
        list: Vec<u8>,
    }

    #[derive(Debug, Deserialize, PartialEq, Default)]
    struct AllOptional {
        cursor: Option<String>,
    }

    fn data(error: RpcError) -> serde_json::Value {
        assert_eq!(error.code(), -32602);
        serde_json::from_str(error.data().unwrap().get()).unwrap()
    }

    #[test]
    fn errors_name_the_json_pointer() {
        let raw = RawParams::parse(r#"{"arguments":{"count":"x"}}"#).unwrap();
        assert_eq!(
            data(raw.deserialize::<Outer>(64).unwrap_err())["pointer"],
            "/arguments/count"
        );
        let raw = RawParams::parse(r#"{"arguments":{"count":1},"list":[1,300]}"#).unwrap();
        assert_eq!(
            data(raw.deserialize::<Outer>(64).unwrap_err())["pointer"],
            "/list/1"
        );
        let raw = RawParams::parse(r#"{"a/b~":{"count":1}}"#).unwrap();
        let map = raw
            .deserialize::<std::collections::BTreeMap<String, Inner>>(64)
            .unwrap();
        assert_eq!(map["a/b~"], Inner { count: 1 });
    }

    #[test]
    fn depth_limit_is_enforced_before_decoding() {
        let deep = format!("{}{}", "[".repeat(10), "]".repeat(10));
        let raw = RawParams::parse(&deep).unwrap();
        let error = data(raw.deserialize::<serde_json::Value>(9).unwrap_err());
        assert_eq!(error["pointer"], "");
        assert!(raw.deserialize::<serde_json::Value>(10).is_ok());
    }

    /// Nests `inner` in `depth - 1` single-element arrays.
    fn nested(depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", "[".repeat(depth - 1), "]".repeat(depth - 1))
    }

    #[test]
    fn depths_past_serde_json_limit_decode_when_the_limit_allows() {
        let deeper = nested(200, "[]");
        let raw = RawParams::parse(&deeper).unwrap();
        let value = raw.deserialize::<serde_json::Value>(200).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), deeper);
        // A type error at the bottom still names its pointer, 199 levels down.
        let wrong = nested(200, "[\"x\"]");
        let raw = RawParams::parse(&wrong).unwrap();
        let error = data(raw.deserialize::<Nested>(10_000).unwrap_err());
        assert_eq!(error["pointer"], "/0".repeat(200));
    }

    #[test]
    fn a_very_deep_decode_grows_the_stack_instead_of_overflowing() {
        // 100,000 levels decoded on a thread with a small stack: only a growing stack
        // survives this. The value fails at the bottom, so nothing deep is kept or dropped.
        let text = nested(100_000, "[\"x\"]");
        let outcome = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let raw = RawParams::parse(&text).unwrap();
                data(raw.deserialize::<Nested>(1_000_000).unwrap_err())["pointer"]
                    .as_str()
                    .map(str::len)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome, Some("/0".len() * 100_000));
    }

    #[test]
    fn free_form_params_of_a_generated_union_keep_any_depth_as_text() {
        // `params` of the JSON-RPC `Message` union admits any value: it is kept as its text
        // (`mcpwire_types::Json`), captured without recursion, so the depth bound is the
        // scanner's (checked before decoding), not serde_json's 128 levels.
        use mcpwire_types::jsonrpc::Message;
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let text = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"m","params":{deep}}}"#);
        let raw = RawParams::parse(&text).unwrap();
        let message = raw.deserialize::<Message>(256).unwrap();
        let params = format!(r#""params":{deep}"#);
        assert!(serde_json::to_string(&message).unwrap().contains(&params));
        let plain = serde_json::from_str::<Message>(&text).unwrap();
        assert!(serde_json::to_string(&plain).unwrap().contains(&params));
        // Past the profile's limit the scanner refuses it before any decode.
        assert!(raw.deserialize::<Message>(199).is_err());
    }

    /// Arrays of arrays: recursion as deep as the input, refusing any other value.
    #[derive(Debug, Deserialize)]
    struct Nested(#[allow(dead_code)] Vec<Nested>);

    #[test]
    fn absent_params_decode_from_null_or_empty_object() {
        assert_eq!(decode_params::<()>(None, 8).unwrap(), ());
        assert_eq!(decode_params::<Option<Inner>>(None, 8).unwrap(), None);
        assert_eq!(
            decode_params::<AllOptional>(None, 8).unwrap(),
            AllOptional::default()
        );
        // A missing member is named by the pointer, not its enclosing object.
        assert_eq!(
            data(decode_params::<Inner>(None, 8).unwrap_err())["pointer"],
            "/count"
        );
        let raw = RawParams::parse(r#"{"arguments":{}}"#).unwrap();
        assert_eq!(
            data(raw.deserialize::<Outer>(64).unwrap_err())["pointer"],
            "/arguments/count"
        );
    }
}
