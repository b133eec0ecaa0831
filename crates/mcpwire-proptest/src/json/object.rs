//! Reading a whole frame, the members of an object and the elements of an array as
//! borrowed raw text.

use super::scan::{JsonKind, ScanError, skip_whitespace, string_end, value_end};
use super::text::unescape;

/// What one frame (one line, without its line ending) holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame<'a> {
    /// Nothing but JSON whitespace.
    Blank,
    /// The bytes are not UTF-8.
    NotUtf8,
    /// The text is not exactly one JSON value.
    NotJson(ScanError),
    /// Exactly one JSON value, surrounded by optional whitespace.
    Value {
        /// The value's text, whitespace trimmed.
        text: &'a str,
        /// Its type.
        kind: JsonKind,
    },
}

/// Reads a frame as exactly one JSON value.
///
/// ```
/// use mcpwire_proptest::json::{Frame, JsonKind, read_frame};
/// assert!(matches!(read_frame(b" {} "), Frame::Value { kind: JsonKind::Object, .. }));
/// assert!(matches!(read_frame(b"{} x"), Frame::NotJson(_)));
/// ```
pub fn read_frame(bytes: &[u8]) -> Frame<'_> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Frame::NotUtf8;
    };
    let start = skip_whitespace(bytes, 0);
    if start == bytes.len() {
        return Frame::Blank;
    }
    let end = match value_end(bytes, start) {
        Ok(end) => end,
        Err(error) => return Frame::NotJson(error),
    };
    let rest = skip_whitespace(bytes, end);
    if rest != bytes.len() {
        return Frame::NotJson(ScanError {
            offset: rest,
            what: "trailing bytes after the value",
        });
    }
    Frame::Value {
        text: &text[start..end],
        kind: JsonKind::of_first_byte(bytes[start]),
    }
}

/// One member of a JSON object, as raw text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member<'a> {
    /// The key after unescaping (`"\u0069d"` reads as `id`).
    pub key: String,
    /// The value's exact text.
    pub value: &'a str,
    /// The value's type.
    pub kind: JsonKind,
}

/// The members of a validated JSON object text, in order, duplicates kept.
///
/// ```
/// use mcpwire_proptest::json::object_members;
/// let members = object_members(r#"{"id":1,"\u0069d":2}"#);
/// assert_eq!(members.len(), 2);
/// assert_eq!(members[1].key, "id");
/// assert_eq!(members[1].value, "2");
/// ```
pub fn object_members(object: &str) -> Vec<Member<'_>> {
    let bytes = object.as_bytes();
    let mut members = Vec::new();
    let mut i = skip_whitespace(bytes, 1);
    if bytes.get(i) == Some(&b'}') {
        return members;
    }
    loop {
        let Ok(key_end) = string_end(bytes, i) else {
            return members;
        };
        let key = unescape(&object[i..key_end]);
        i = skip_whitespace(bytes, key_end) + 1; // past ':'
        i = skip_whitespace(bytes, i);
        let Ok(end) = value_end(bytes, i) else {
            return members;
        };
        members.push(Member {
            key,
            value: &object[i..end],
            kind: JsonKind::of_first_byte(bytes[i]),
        });
        i = skip_whitespace(bytes, end);
        if bytes.get(i) != Some(&b',') {
            return members;
        }
        i = skip_whitespace(bytes, i + 1);
    }
}

/// The elements of a validated JSON array text, as raw text, in order.
///
/// ```
/// use mcpwire_proptest::json::array_elements;
/// assert_eq!(array_elements("[1, [2], {}]"), vec!["1", "[2]", "{}"]);
/// ```
pub fn array_elements(array: &str) -> Vec<&str> {
    let bytes = array.as_bytes();
    let mut elements = Vec::new();
    let mut i = skip_whitespace(bytes, 1);
    if bytes.get(i) == Some(&b']') {
        return elements;
    }
    loop {
        let Ok(end) = value_end(bytes, i) else {
            return elements;
        };
        elements.push(&array[i..end]);
        i = skip_whitespace(bytes, end);
        if bytes.get(i) != Some(&b',') {
            return elements;
        }
        i = skip_whitespace(bytes, i + 1);
    }
}
