//! Reads a top-level JSON object's envelope members as borrowed raw text.
//!
//! Only the members that matter to JSON-RPC are recorded (`jsonrpc`, `id`, `method`,
//! `params`, `result`, `error`); every member value, known or not, is validated by the
//! non-recursive scanner and never parsed into a tree. Keys are compared after JSON
//! unescaping, so `"\u0069d"` is the `id` member, and a repeated member is recorded as
//! [`Field::Duplicated`].
//!
//! ```
//! use mcpwire::envelope::{read_object, Field};
//!
//! let text = r#"{"jsonrpc":"2.0","\u0069d":7,"method":"m","params":[[[]]],"x":{}}"#;
//! let (envelope, end) = read_object(text, 0).unwrap();
//! assert_eq!(end, text.len());
//! assert_eq!(envelope.id.once().unwrap().text, "7");
//! assert_eq!(envelope.params.once().unwrap().depth, 3);
//! assert!(envelope.result.is_absent());
//! ```

use crate::scan::{self, ScanError};

/// One member value as raw JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawMember<'a> {
    /// The value's exact JSON text.
    pub text: &'a str,
    /// Container nesting depth of the value (0 for scalars), saturating at `u32::MAX`.
    pub depth: u32,
    /// For a string value: whether it contains backslash escapes.
    pub has_escapes: bool,
}

impl<'a> RawMember<'a> {
    /// The first byte of the value, which tells its JSON type (`None` for empty text).
    pub fn first_byte(&self) -> Option<u8> {
        self.text.as_bytes().first().copied()
    }

    /// Whether the value is a JSON string.
    pub fn is_string(&self) -> bool {
        self.first_byte() == Some(b'"')
    }

    /// Whether the value is a JSON object.
    pub fn is_object(&self) -> bool {
        self.first_byte() == Some(b'{')
    }

    /// Whether the value is a JSON array.
    pub fn is_array(&self) -> bool {
        self.first_byte() == Some(b'[')
    }

    /// For a string value, its decoded contents (borrowed when escape-free); `None` when
    /// the text is not a quoted string.
    pub fn string_value(&self) -> Option<std::borrow::Cow<'a, str>> {
        let inner = self.text.strip_prefix('"')?.strip_suffix('"')?;
        Some(if self.has_escapes {
            std::borrow::Cow::Owned(scan::unescape(self.text))
        } else {
            std::borrow::Cow::Borrowed(inner)
        })
    }
}

/// How often an envelope member occurred.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Field<'a> {
    /// Not present.
    #[default]
    Absent,
    /// Present exactly once.
    Once(RawMember<'a>),
    /// Present more than once (the values are not kept).
    Duplicated,
}

impl<'a> Field<'a> {
    /// The member when it is present exactly once.
    pub fn once(&self) -> Option<RawMember<'a>> {
        match self {
            Field::Once(member) => Some(*member),
            _ => None,
        }
    }

    /// Whether the member is absent.
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// Whether the member is present (once or more).
    pub fn is_present(&self) -> bool {
        !self.is_absent()
    }

    fn record(&mut self, member: RawMember<'a>) {
        *self = match self {
            Field::Absent => Field::Once(member),
            _ => Field::Duplicated,
        };
    }
}

/// The JSON-RPC members of one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Envelope<'a> {
    /// The `jsonrpc` member.
    pub jsonrpc: Field<'a>,
    /// The `id` member.
    pub id: Field<'a>,
    /// The `method` member.
    pub method: Field<'a>,
    /// The `params` member.
    pub params: Field<'a>,
    /// The `result` member.
    pub result: Field<'a>,
    /// The `error` member.
    pub error: Field<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
}

fn key_of(name: &[u8]) -> Option<Key> {
    Some(match name {
        b"jsonrpc" => Key::Jsonrpc,
        b"id" => Key::Id,
        b"method" => Key::Method,
        b"params" => Key::Params,
        b"result" => Key::Result,
        b"error" => Key::Error,
        _ => return None,
    })
}

/// Identifies a member key given its raw text (quotes included).
#[inline]
fn known_key(raw: &str, has_escapes: bool) -> Option<Key> {
    if !has_escapes {
        return key_of(&raw.as_bytes()[1..raw.len() - 1]);
    }
    // The longest known key is 7 characters; each escape takes at most 12 bytes of text.
    if raw.len() > 2 + 7 * 12 {
        return None;
    }
    key_of(scan::unescape(raw).as_bytes())
}

/// An envelope key spelled plainly (no escapes), recognised by its bytes at `pos` (the
/// opening quote): the key and the offset just past its closing quote. Any other key, and any
/// escaped spelling, goes through the scanner and [`known_key`].
#[inline]
fn plain_envelope_key(bytes: &[u8], pos: usize) -> Option<(Key, usize)> {
    let rest = bytes.get(pos + 1..)?;
    let (key, len) = match rest.first()? {
        b'j' if rest.starts_with(b"jsonrpc\"") => (Key::Jsonrpc, 7),
        b'i' if rest.starts_with(b"id\"") => (Key::Id, 2),
        b'm' if rest.starts_with(b"method\"") => (Key::Method, 6),
        b'p' if rest.starts_with(b"params\"") => (Key::Params, 6),
        b'r' if rest.starts_with(b"result\"") => (Key::Result, 6),
        b'e' if rest.starts_with(b"error\"") => (Key::Error, 5),
        _ => return None,
    };
    Some((key, pos + len + 2))
}

/// The one `jsonrpc` value a valid message has, taken without scanning.
const JSONRPC_2_0: &[u8] = b"\"2.0\"";

impl<'a> Envelope<'a> {
    fn slot(&mut self, key: Key) -> &mut Field<'a> {
        match key {
            Key::Jsonrpc => &mut self.jsonrpc,
            Key::Id => &mut self.id,
            Key::Method => &mut self.method,
            Key::Params => &mut self.params,
            Key::Result => &mut self.result,
            Key::Error => &mut self.error,
        }
    }
}

/// Scans one member value starting at `pos` (its first byte).
#[inline]
pub(crate) fn scan_member(text: &str, pos: usize) -> Result<RawMember<'_>, ScanError> {
    let bytes = text.as_bytes();
    let (end, depth, has_escapes) = match bytes.get(pos) {
        Some(b'"') => {
            let info = scan::scan_string(bytes, pos)?;
            (info.end, 0, info.has_escapes)
        }
        Some(b'-' | b'0'..=b'9') => (scan::scan_number(bytes, pos)?, 0, false),
        _ => {
            let info = scan::scan_value(bytes, pos)?;
            (
                info.end,
                u32::try_from(info.depth).unwrap_or(u32::MAX),
                false,
            )
        }
    };
    Ok(RawMember {
        text: &text[pos..end],
        depth,
        has_escapes,
    })
}

/// Reads the object starting at `start` (which must be `{`), validating it completely.
/// Returns the envelope and the offset just past the closing brace.
pub fn read_object(text: &str, start: usize) -> Result<(Envelope<'_>, usize), ScanError> {
    let mut envelope = Envelope::default();
    let end = read_object_into(text, start, &mut envelope)?;
    Ok((envelope, end))
}

/// Like [`read_object`], filling `envelope` (which should start as the default) in place.
/// Returns the offset just past the closing brace.
#[inline]
pub fn read_object_into<'a>(
    text: &'a str,
    start: usize,
    envelope: &mut Envelope<'a>,
) -> Result<usize, ScanError> {
    read_members(
        text,
        start,
        plain_envelope_key,
        known_key,
        scan_member,
        envelope,
    )
}

/// Like [`read_object_into`], the params' members the HTTP routing headers repeat recorded
/// into `routed` by the same scan (see `routed.rs`).
#[cfg(feature = "http")]
pub(crate) fn read_object_routed<'a>(
    text: &'a str,
    start: usize,
    envelope: &mut Envelope<'a>,
    routed: &mut crate::routed::Routed<'a>,
) -> Result<usize, ScanError> {
    let params = |text: &'a str, pos| crate::routed::read_params(text, pos, routed);
    read_members(text, start, plain_envelope_key, known_key, params, envelope)
}

/// How nearly every sender opens a message: `{"jsonrpc":"2.0",` with no whitespace. The
/// reader takes these 17 bytes as the `jsonrpc` member in one comparison.
const COMPACT_OPENING: &[u8] = br#"{"jsonrpc":"2.0","#;

/// Scans a key that is not a plainly spelled envelope key. Out of line, so that the one
/// inlined copy of the string scanner is the one in [`scan_member`], on the hot path.
#[inline(never)]
pub(crate) fn other_key(bytes: &[u8], pos: usize) -> Result<scan::StringInfo, ScanError> {
    scan::scan_string(bytes, pos)
}

/// The offset of `byte` at `pos` or after JSON whitespace there; the whitespace is only looked
/// for when `byte` is not at `pos` (compact text has none).
#[inline(always)]
fn expect_byte(bytes: &[u8], pos: usize, byte: u8) -> Result<usize, ScanError> {
    if bytes.get(pos) == Some(&byte) {
        return Ok(pos);
    }
    let pos = scan::skip_whitespace(bytes, pos);
    if bytes.get(pos) == Some(&byte) {
        Ok(pos)
    } else {
        Err(scan::unexpected(bytes, pos))
    }
}

/// The member [`JSONRPC_2_0`] found at `at` in `text`.
#[inline(always)]
fn jsonrpc_2_0_at(text: &str, at: usize) -> RawMember<'_> {
    RawMember {
        text: &text[at..at + JSONRPC_2_0.len()],
        depth: 0,
        has_escapes: false,
    }
}

/// Generic member reader: `plain` recognises common keys by their bytes (the hot path);
/// `classify` maps any other key's raw text to a slot; `params` scans the `params` slot's
/// value (elsewhere [`scan_member`]).
///
/// Written for compact text: an object opening with [`COMPACT_OPENING`] records its
/// `jsonrpc` member without looking at it byte by byte, and whitespace is only looked for
/// where the expected byte is not found. (The error-object reader never reads the `jsonrpc`
/// slot, so what the opening records there is ignored.)
#[inline(always)]
fn read_members<'a>(
    text: &'a str,
    start: usize,
    plain: impl Fn(&[u8], usize) -> Option<(Key, usize)>,
    classify: impl Fn(&str, bool) -> Option<Key>,
    mut params: impl FnMut(&'a str, usize) -> Result<RawMember<'a>, ScanError>,
    envelope: &mut Envelope<'a>,
) -> Result<usize, ScanError> {
    let bytes = text.as_bytes();
    let compact = bytes
        .get(start..)
        .is_some_and(|rest| rest.starts_with(COMPACT_OPENING));
    let mut pos = if compact {
        let after_opening = start + COMPACT_OPENING.len();
        let jsonrpc_at = after_opening - 1 - JSONRPC_2_0.len();
        envelope.jsonrpc.record(jsonrpc_2_0_at(text, jsonrpc_at));
        after_opening
    } else {
        if bytes.get(start) != Some(&b'{') {
            return Err(scan::unexpected(bytes, start));
        }
        let pos = scan::skip_whitespace(bytes, start + 1);
        if bytes.get(pos) == Some(&b'}') {
            return Ok(pos + 1);
        }
        pos
    };
    loop {
        pos = expect_byte(bytes, pos, b'"')?;
        let (slot, key_end) = match plain(bytes, pos) {
            Some((key, end)) => (Some(key), end),
            None => {
                let key = other_key(bytes, pos)?;
                (
                    classify(&text[key.start..key.end], key.has_escapes),
                    key.end,
                )
            }
        };
        pos = scan::skip_whitespace(bytes, expect_byte(bytes, key_end, b':')? + 1);
        let member = if slot == Some(Key::Jsonrpc)
            && bytes.get(pos..pos + JSONRPC_2_0.len()) == Some(JSONRPC_2_0)
        {
            jsonrpc_2_0_at(text, pos)
        } else if slot == Some(Key::Params) {
            params(text, pos)?
        } else {
            scan_member(text, pos)?
        };
        pos += member.text.len();
        if let Some(slot) = slot {
            envelope.slot(slot).record(member);
        }
        pos = scan::skip_whitespace(bytes, pos);
        match bytes.get(pos) {
            Some(b',') => pos += 1,
            Some(b'}') => return Ok(pos + 1),
            _ => return Err(scan::unexpected(bytes, pos)),
        }
    }
}

/// The members of a JSON-RPC error object (`code`, `message`, `data`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ErrorMembers<'a> {
    /// The `code` member.
    pub code: Field<'a>,
    /// The `message` member.
    pub message: Field<'a>,
    /// The `data` member.
    pub data: Field<'a>,
}

/// Reads the members of an error object (JSON text starting with `{`; anything else is an
/// error).
pub fn read_error_object(text: &str) -> Result<ErrorMembers<'_>, ScanError> {
    // Reuse the envelope reader with a different key map: code → Id slot, message →
    // Method slot, data → Params slot.
    let classify = |raw: &str, has_escapes: bool| {
        let name = if has_escapes {
            std::borrow::Cow::Owned(scan::unescape(raw))
        } else {
            std::borrow::Cow::Borrowed(&raw[1..raw.len() - 1])
        };
        match &*name {
            "code" => Some(Key::Id),
            "message" => Some(Key::Method),
            "data" => Some(Key::Params),
            _ => None,
        }
    };
    let mut envelope = Envelope::default();
    read_members(text, 0, |_, _| None, classify, scan_member, &mut envelope)?;
    Ok(ErrorMembers {
        code: envelope.id,
        message: envelope.method,
        data: envelope.params,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_members_and_detects_duplicates() {
        let text = r#" {"id":1,"method":"a","id":2,"params":{"id":3},"result":null} "#;
        let (env, end) = read_object(text, 1).unwrap();
        assert_eq!(&text[end..], " ");
        assert_eq!(env.id, Field::Duplicated);
        assert_eq!(env.method.once().unwrap().text, "\"a\"");
        assert_eq!(env.params.once().unwrap().text, r#"{"id":3}"#);
        assert_eq!(env.result.once().unwrap().text, "null");
        assert!(env.jsonrpc.is_absent() && env.error.is_absent());
    }

    #[test]
    fn keys_are_compared_after_unescaping_and_case_sensitively() {
        let text = r#"{"\u0069d":"x","m\u0065thod":"\u0072pc.a","ID":5,"Method":1}"#;
        let (env, _) = read_object(text, 0).unwrap();
        assert_eq!(env.id.once().unwrap().text, "\"x\"");
        let method = env.method.once().unwrap();
        assert!(method.has_escapes);
        assert_eq!(method.string_value().unwrap(), "rpc.a");
        let dup = r#"{"id":1,"\u0069\u0064":2}"#;
        assert_eq!(read_object(dup, 0).unwrap().0.id, Field::Duplicated);
    }

    #[test]
    fn the_compact_opening_reads_like_any_other_spelling() {
        let spellings = [
            r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#,
            r#"{ "jsonrpc":"2.0","id":1,"method":"m"}"#,
            r#"{"jsonrpc" : "2.0" , "id" :1 ,"method": "m" }"#,
            r#"{"jsonr\u0070c":"2.0","id":1,"method":"m"}"#,
        ];
        for text in spellings {
            let (env, end) = read_object(text, 0).unwrap();
            assert_eq!(end, text.len(), "{text}");
            assert_eq!(env.jsonrpc.once().unwrap().text, r#""2.0""#, "{text}");
            assert_eq!(env.id.once().unwrap().text, "1", "{text}");
            assert_eq!(env.method.once().unwrap().text, r#""m""#, "{text}");
        }
        let twice = r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1}"#;
        assert_eq!(read_object(twice, 0).unwrap().0.jsonrpc, Field::Duplicated);
        let (env, _) = read_object(r#"{"jsonrpc":"2.0","x":[1]}"#, 0).unwrap();
        assert!(env.id.is_absent() && env.jsonrpc.is_present());
        for (bad, at) in [
            (r#"{"jsonrpc":"2.0",}"#, 17),
            (r#"{"jsonrpc":"2.0","#, 17),
            (r#"{"jsonrpc":"2.0",1}"#, 17),
            (r#"{"jsonrpc":"2.0", "id" 1}"#, 23),
        ] {
            assert_eq!(read_object(bad, 0).unwrap_err().offset, at, "{bad}");
        }
    }

    #[test]
    fn deep_values_are_skipped_without_recursion() {
        let n = 100_000;
        let text = format!(
            r#"{{"params":{}{},"id":"after"}}"#,
            "[".repeat(n),
            "]".repeat(n)
        );
        let (env, _) = read_object(&text, 0).unwrap();
        assert_eq!(env.id.once().unwrap().text, "\"after\"");
        assert_eq!(env.params.once().unwrap().depth as usize, n);
    }

    #[test]
    fn malformed_objects_are_scan_errors() {
        for bad in [
            r#"{"id":1,}"#,
            r#"{"id" 1}"#,
            r#"{"id":1"#,
            r#"{id:1}"#,
            r#"{"id":01}"#,
        ] {
            assert!(read_object(bad, 0).is_err(), "{bad}");
        }
    }

    #[test]
    fn error_objects_are_read_by_member() {
        let members = read_error_object(r#"{"message":"m","code":-1,"data":[1]}"#).unwrap();
        assert_eq!(members.code.once().unwrap().text, "-1");
        assert_eq!(members.message.once().unwrap().text, "\"m\"");
        assert_eq!(members.data.once().unwrap().text, "[1]");
    }
}
