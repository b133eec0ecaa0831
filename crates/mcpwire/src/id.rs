//! Request ids kept as their original JSON text.
//!
//! An id is echoed byte for byte: `2^53+1`, `18446744073709551616`, `1e3` and `-0` are never
//! converted to a machine number. Whether a number is a JSON Schema `integer` (no fractional
//! part) is decided on its decimal text.
//!
//! ```
//! use mcpwire::{Id, IdKind};
//!
//! let id = Id::parse("1.5e1").unwrap();
//! assert_eq!(id.kind(), IdKind::Integer); // 15
//! assert_eq!(id.raw(), "1.5e1"); // echoed as written
//! assert_eq!(Id::parse("1e-3").unwrap().kind(), IdKind::Number);
//! assert_eq!(Id::parse(r#""a\u0062""#).unwrap().as_string().as_deref(), Some("ab"));
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::scan;

/// The JSON type of an id value, with integers told apart from other numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// A JSON string.
    String,
    /// A JSON number with no fractional part (`7`, `-0`, `1e3`, `2.0`).
    Integer,
    /// A JSON number with a fractional part (`1.5`, `1e-3`).
    Number,
    /// JSON `null`.
    Null,
}

/// A request id borrowed from the frame: its exact JSON text plus its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Id<'a> {
    raw: &'a str,
    kind: IdKind,
}

impl<'a> Id<'a> {
    /// Builds an id from JSON text that is a string, number or `null` (surrounding
    /// whitespace not allowed). Returns `None` for anything else, including invalid JSON.
    pub fn parse(raw: &'a str) -> Option<Self> {
        let info = scan::validate(raw.as_bytes()).ok()?;
        if info.start != 0 || info.end != raw.len() {
            return None;
        }
        Self::from_scanned(raw)
    }

    /// Builds an id from text the scanner already validated as one JSON value.
    pub(crate) fn from_scanned(raw: &'a str) -> Option<Self> {
        let kind = match raw.as_bytes().first()? {
            b'"' => IdKind::String,
            b'n' => IdKind::Null,
            b'-' | b'0'..=b'9' => {
                if scanned_number_is_integer(raw) {
                    IdKind::Integer
                } else {
                    IdKind::Number
                }
            }
            _ => return None,
        };
        Some(Self { raw, kind })
    }

    /// An id of `kind` whose text is `raw`, as read before (an [`OwnedId`]'s parts).
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn from_parts(raw: &'a str, kind: IdKind) -> Self {
        Self { raw, kind }
    }

    /// The id's original JSON text, exactly as received (quotes and escapes included).
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// The id's JSON type.
    pub fn kind(&self) -> IdKind {
        self.kind
    }

    /// For a string id, its decoded value (borrowed when it has no escapes).
    pub fn as_string(&self) -> Option<Cow<'a, str>> {
        if self.kind != IdKind::String {
            return None;
        }
        let inner = self.raw.strip_prefix('"')?.strip_suffix('"')?;
        if inner.contains('\\') {
            Some(Cow::Owned(scan::unescape(self.raw)))
        } else {
            Some(Cow::Borrowed(inner))
        }
    }

    /// Copies the id into an owned value, for storage past the frame's lifetime.
    pub fn to_owned_id(&self) -> OwnedId {
        OwnedId {
            raw: self.raw.into(),
            kind: self.kind,
        }
    }
}

impl fmt::Display for Id<'_> {
    /// Writes the id's original JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.raw)
    }
}

/// An owned request id: the original JSON text plus its kind.
///
/// Equality and hashing compare the JSON text, so `1` and `1.0` are different ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnedId {
    raw: Box<str>,
    kind: IdKind,
}

impl OwnedId {
    /// Parses JSON text as an id (see [`Id::parse`]).
    pub fn parse(raw: &str) -> Option<Self> {
        Id::parse(raw).map(|id| id.to_owned_id())
    }

    /// An integer id.
    pub fn from_integer(value: i64) -> Self {
        Self {
            raw: value.to_string().into(),
            kind: IdKind::Integer,
        }
    }

    /// A string id; the value is JSON-escaped.
    pub fn from_string(value: &str) -> Self {
        let raw = serde_json::to_string(value).expect("a string always serializes");
        Self {
            raw: raw.into(),
            kind: IdKind::String,
        }
    }

    /// The `null` id.
    pub fn null() -> Self {
        Self {
            raw: "null".into(),
            kind: IdKind::Null,
        }
    }

    /// Borrows the id.
    pub fn as_id(&self) -> Id<'_> {
        Id {
            raw: &self.raw,
            kind: self.kind,
        }
    }

    /// The id's JSON text.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The id's JSON type.
    pub fn kind(&self) -> IdKind {
        self.kind
    }
}

impl fmt::Display for OwnedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl From<Id<'_>> for OwnedId {
    fn from(id: Id<'_>) -> Self {
        id.to_owned_id()
    }
}

/// Whether JSON number text denotes a mathematical integer; `false` for text that is not
/// exactly one JSON number.
///
/// Works on the decimal digits only: the significand's digits (integer and fraction part,
/// trailing zeros dropped) are an integer when the exponent covers every remaining fraction
/// digit. Exponents saturate, so `1e99999999999999999999` is an integer and
/// `1e-99999999999999999999` is not, without overflow.
pub fn number_is_integer(text: &str) -> bool {
    scan::scan_number(text.as_bytes(), 0).is_ok_and(|end| end == text.len())
        && scanned_number_is_integer(text)
}

/// [`number_is_integer`] for text the scanner has validated as one JSON number.
pub(crate) fn scanned_number_is_integer(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let int_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = &bytes[int_start..i];
    let mut frac_digits: &[u8] = &[];
    if bytes.get(i) == Some(&b'.') {
        let start = i + 1;
        i = start;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = &bytes[start..i];
    }
    let mut exponent: i64 = 0;
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        let negative = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        for &d in bytes.get(i..).unwrap_or_default() {
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(d.wrapping_sub(b'0') % 10));
        }
        if negative {
            exponent = -exponent;
        }
    }
    // Zero is an integer whatever its spelling.
    if int_digits.iter().chain(frac_digits).all(|&d| d == b'0') {
        return true;
    }
    // Count the fraction digits that remain once trailing zeros are removed.
    let significant_frac = frac_digits
        .iter()
        .rposition(|&d| d != b'0')
        .map_or(0, |p| p + 1);
    if significant_frac > 0 {
        return exponent >= significant_frac as i64;
    }
    // No significant fraction digits: the integer part's trailing zeros absorb a negative
    // exponent.
    if exponent >= 0 {
        return true;
    }
    let trailing_zeros = int_digits.iter().rev().take_while(|&&d| d == b'0').count() as i64;
    -exponent <= trailing_zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ness_is_decided_on_the_text() {
        for text in [
            "0",
            "-0",
            "7",
            "1e3",
            "1E+3",
            "2.0",
            "2.000",
            "1.5e1",
            "1.25e2",
            "100e-2",
            "0.0",
            "0e-7",
            "-0.0e-99999999999999999999999",
            "9007199254740993",
            "18446744073709551616",
            "123456789012345678901234567890",
            "1e99999999999999999999999",
            "12.5e99999999999999999999999",
        ] {
            assert!(number_is_integer(text), "{text} is an integer");
        }
        for text in [
            "1.5",
            "-1.5",
            "1e-3",
            "0.1",
            "1.25e1",
            "10e-2",
            "1e-99999999999999999999999",
            "123.000001",
        ] {
            assert!(!number_is_integer(text), "{text} is not an integer");
        }
    }

    #[test]
    fn parse_keeps_text_and_kind() {
        let cases = [
            ("\"abc\"", IdKind::String),
            ("null", IdKind::Null),
            ("1e3", IdKind::Integer),
            ("-0", IdKind::Integer),
            ("1.5", IdKind::Number),
        ];
        for (raw, kind) in cases {
            let id = Id::parse(raw).unwrap();
            assert_eq!((id.raw(), id.kind()), (raw, kind));
            assert_eq!(id.to_string(), raw);
            assert_eq!(id.to_owned_id().as_id(), id);
        }
        for raw in ["true", "[1]", "{}", " 1", "1 ", "01", ""] {
            assert_eq!(Id::parse(raw), None, "{raw:?}");
        }
    }

    #[test]
    fn string_ids_decode_escapes() {
        let id = Id::parse(r#""x\ny""#).unwrap();
        assert_eq!(id.as_string().unwrap(), "x\ny");
        assert!(matches!(
            Id::parse("\"plain\"").unwrap().as_string(),
            Some(Cow::Borrowed("plain"))
        ));
        assert_eq!(Id::parse("5").unwrap().as_string(), None);
        assert_eq!(OwnedId::from_string("a\"b").raw(), r#""a\"b""#);
        assert_eq!(OwnedId::from_integer(-4).raw(), "-4");
        assert_eq!(OwnedId::null().kind(), IdKind::Null);
    }
}
