//! The standard request headers of MCP 2026-07-28 (stateless mode): `Mcp-Method` names the
//! body's method, `Mcp-Name` repeats `params.name` (`tools/call`, `prompts/get`),
//! `params.uri` (`resources/read`) or `params.taskId` (the Tasks extension's `tasks/get`,
//! `tasks/update`, `tasks/cancel`), and `MCP-Protocol-Version` repeats the version the body
//! states in `_meta`. On a message that states its version in `_meta` (an MCP 2026-07-28
//! message) a header that is missing, differs from the body, or cannot be decoded is refused
//! with 400 and JSON-RPC error -32020 (HeaderMismatch); on other messages (plain JSON-RPC
//! behind a stateless endpoint) a header that is present must still agree with the body.
//!
//! Values are compared after the optional whitespace HTTP strips around a field value (RFC
//! 9110 §5.5), byte for byte (`TOOLS/LIST` is not `tools/list`). A value may be sent as
//! `=?base64?…?=` (how a client sends a value that is not plain visible ASCII): it is
//! decoded (standard alphabet, padded) before the comparison; a value that does not decode
//! is refused. Anything else is taken literally.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};

use super::classify::BodyKind;
use super::headers::names;

mod param_header;

pub use param_header::{
    PARAM_HEADER_PREFIX, ParamHeader, ParamHeaderError, param_header_text, param_headers,
};

/// The header that repeats a request's target (2026-07-28).
pub const NAME_HEADER: &str = "mcp-name";

/// JSON-RPC error code of MCP 2026-07-28 for headers that are missing, malformed or
/// contradict the body.
pub(crate) const HEADER_MISMATCH: i64 = -32020;

/// Checks the routing headers of a single message against its body: `Err` is the message of
/// the -32020 error.
pub(crate) fn check(headers: &HeaderMap, kind: &BodyKind) -> Result<(), String> {
    let Some(method) = kind.method.as_deref() else {
        return Ok(()); // a response, a batch, or unreadable input: nothing to repeat
    };
    let required = kind.meta_version.is_some();
    matches(headers, &names::METHOD, "Mcp-Method", method, required)?;
    if let Some(target) = kind.target.as_deref() {
        matches(headers, &names::NAME, "Mcp-Name", target, required)?;
    }
    if let Some(version) = kind.meta_version.as_deref() {
        matches(
            headers,
            &names::PROTOCOL_VERSION,
            "MCP-Protocol-Version",
            version,
            true,
        )?;
    }
    Ok(())
}

/// The header `name` (spelled `shown` in messages) must be present once (when `required`; at
/// most once otherwise) and decode to `body`.
fn matches(
    headers: &HeaderMap,
    name: &HeaderName,
    shown: &str,
    body: &str,
    required: bool,
) -> Result<(), String> {
    let mut values = headers.get_all(name).iter();
    let value = match (values.next(), values.next()) {
        (Some(value), None) => value,
        (None, _) if !required => return Ok(()),
        _ => {
            return Err(format!(
                "Header mismatch: the request needs exactly one {shown} header, with value {body:?}"
            ));
        }
    };
    let sent = decoded(value)
        .ok_or_else(|| format!("Header mismatch: the {shown} header value is not valid"))?;
    if sent == body {
        return Ok(());
    }
    Err(format!(
        "Header mismatch: {shown} header value {sent:?} does not match body value {body:?}"
    ))
}

/// A header value as MCP 2026-07-28 reads it: trimmed of optional whitespace, then either
/// `=?base64?…?=` decoded to UTF-8 or the visible ASCII text itself. `None` when it is
/// neither.
pub fn decode_value(value: &HeaderValue) -> Option<String> {
    decoded(value).map(Cow::into_owned)
}

/// [`decode_value`], borrowing the header's own text when it is not base64-encoded (the
/// routing headers of almost every request): no allocation to compare it with the body.
fn decoded(value: &HeaderValue) -> Option<Cow<'_, str>> {
    let text = value.to_str().ok()?.trim_matches([' ', '\t']);
    match text
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => String::from_utf8(decode_base64(encoded)?)
            .ok()
            .map(Cow::Owned),
        None => Some(Cow::Borrowed(text)),
    }
}

/// A header value as MCP 2026-07-28 spells one (the inverse of [`decode_value`]): visible
/// ASCII with inner spaces as it is; anything else (other bytes, leading or trailing
/// whitespace, the empty text, text that starts like an encoded value) as `=?base64?…?=` of
/// its UTF-8 bytes.
///
/// ```
/// use mcpwire::http::encode_header_value;
/// assert_eq!(encode_header_value("us west 1"), "us west 1");
/// assert_eq!(encode_header_value("p\u{e9}"), "=?base64?cMOp?=");
/// assert_eq!(encode_header_value(" padded"), "=?base64?IHBhZGRlZA==?=");
/// ```
pub fn encode_value(text: &str) -> String {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
        && !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.starts_with("=?");
    if plain {
        text.to_owned()
    } else {
        format!("=?base64?{}?=", encode_base64(text.as_bytes()))
    }
}

/// Standard, padded base64 (RFC 4648 §4).
fn encode_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Standard base64 (RFC 4648 §4) with its padding; `None` for any other character, a length
/// that is not a multiple of four, misplaced padding or non-zero trailing bits (the `base64`
/// crate's standard engine refuses each).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    STANDARD.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &'static str) -> HeaderValue {
        HeaderValue::from_static(text)
    }

    #[test]
    fn values_are_trimmed_and_base64_is_decoded_strictly() {
        assert_eq!(
            decode_value(&v("  tools/list\t")).as_deref(),
            Some("tools/list")
        );
        assert_eq!(
            decode_value(&v("=?base64?SGVsbG8=?=")).as_deref(),
            Some("Hello")
        );
        assert_eq!(decode_value(&v("=?base64?w6k=?=")).as_deref(), Some("é"));
        assert_eq!(
            decode_value(&v("=?base64?SGVsbG8?=")),
            None,
            "padding missing"
        );
        assert_eq!(
            decode_value(&v("=?base64?SGVs!!!bG8=?=")),
            None,
            "not the alphabet"
        );
        assert_eq!(
            decode_value(&v("=?base64?SGVsbG9=?=")),
            None,
            "trailing bits"
        );
        // Without the whole wrapper the value is literal.
        assert_eq!(decode_value(&v("SGVsbG8=")).as_deref(), Some("SGVsbG8="));
        assert_eq!(
            decode_value(&v("=?base64?SGVsbG8=")).as_deref(),
            Some("=?base64?SGVsbG8=")
        );
        assert_eq!(decode_base64(""), Some(Vec::new()));
        assert_eq!(decode_base64("YQ=="), Some(b"a".to_vec()));
        assert_eq!(decode_base64("YQ==YWJj"), None, "padding before the end");
    }

    #[test]
    fn encoded_values_decode_to_the_text() {
        for text in [
            "us-west1",
            "us west 1",
            "",
            " padded ",
            "line1\r\nline2",
            "\tindented",
            "Hello, \u{4e16}\u{754c}",
            "=?base64?x?=",
        ] {
            let encoded = encode_value(text);
            let value = HeaderValue::from_str(&encoded).expect("a valid header value");
            assert_eq!(decode_value(&value).as_deref(), Some(text), "{encoded}");
        }
        assert_eq!(encode_value("p\u{e9}"), "=?base64?cMOp?=");
        assert_eq!(encode_base64(b"ab"), "YWI=");
        assert_eq!(encode_base64(b"a"), "YQ==");
    }
}
