//! A strict, non-recursive RFC 8259 validator over bytes.
//!
//! The scanner never uses the call stack for nesting: containers are tracked with a bit
//! stack (one bit per level, the first 64 levels inline), so a value nested 100,000 deep
//! costs a few kilobytes and no recursion. It rejects everything RFC 8259 rejects: `NaN`,
//! `Infinity`, leading zeros, trailing commas, raw control characters and bad escapes in
//! strings, invalid UTF-8, and (for [`validate`]) trailing non-whitespace.
//!
//! ```
//! use mcpwire::scan::{validate, ScanErrorKind};
//!
//! let info = validate(br#" {"a": [1, 2, {"b": null}]} "#).unwrap();
//! assert_eq!(info.depth, 3);
//! assert_eq!(validate(b"[1,]").unwrap_err().kind, ScanErrorKind::UnexpectedByte);
//! assert_eq!(validate(b"01").unwrap_err().kind, ScanErrorKind::LeadingZero);
//! ```

use std::fmt;

/// Why a byte sequence is not one JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScanErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEnd,
    /// A byte that cannot start or continue a value here (this covers trailing commas,
    /// `NaN`, `Infinity`, missing colons and unbalanced brackets).
    UnexpectedByte,
    /// A number with a superfluous leading zero, such as `01`.
    LeadingZero,
    /// A number whose fraction or exponent has no digits, such as `1.` or `1e`.
    BadNumber,
    /// A raw control character (below U+0020) inside a string.
    ControlCharacter,
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    BadEscape,
    /// Bytes inside a string that are not valid UTF-8.
    InvalidUtf8,
    /// Non-whitespace after the value.
    TrailingCharacters,
}

impl ScanErrorKind {
    /// A short human-readable description.
    pub fn describe(self) -> &'static str {
        match self {
            Self::UnexpectedEnd => "unexpected end of input",
            Self::UnexpectedByte => "unexpected character",
            Self::LeadingZero => "number with a leading zero",
            Self::BadNumber => "malformed number",
            Self::ControlCharacter => "raw control character in string",
            Self::BadEscape => "invalid escape in string",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::TrailingCharacters => "trailing characters after the value",
        }
    }
}

/// A scan failure: what went wrong and the byte offset where it was noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScanError {
    /// What went wrong.
    pub kind: ScanErrorKind,
    /// Byte offset into the scanned input.
    pub offset: usize,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.describe(), self.offset)
    }
}

impl std::error::Error for ScanError {}

/// The extent of one scanned value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueInfo {
    /// Offset of the value's first byte.
    pub start: usize,
    /// Offset just past the value's last byte.
    pub end: usize,
    /// Deepest container nesting inside the value: 0 for a scalar, 1 for `{}` or `[1]`.
    pub depth: usize,
}

/// The extent of one scanned string, quotes included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StringInfo {
    /// Offset of the opening quote.
    pub start: usize,
    /// Offset just past the closing quote.
    pub end: usize,
    /// Whether the string contains at least one backslash escape.
    pub has_escapes: bool,
}

#[inline]
fn err(kind: ScanErrorKind, offset: usize) -> ScanError {
    ScanError { kind, offset }
}

/// Returns the offset of the first byte at or after `pos` that is not JSON whitespace.
#[inline]
pub fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(&b) = bytes.get(pos) {
        if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            break;
        }
        pos += 1;
    }
    pos
}

/// Validates that `bytes` is UTF-8 and exactly one JSON value surrounded by optional
/// whitespace.
pub fn validate(bytes: &[u8]) -> Result<ValueInfo, ScanError> {
    if let Err(e) = std::str::from_utf8(bytes) {
        return Err(err(ScanErrorKind::InvalidUtf8, e.valid_up_to()));
    }
    let start = skip_whitespace(bytes, 0);
    let info = scan_value(bytes, start)?;
    let rest = skip_whitespace(bytes, info.end);
    if rest != bytes.len() {
        return Err(err(ScanErrorKind::TrailingCharacters, rest));
    }
    Ok(info)
}

/// One bit per nesting level: set for an object, clear for an array.
struct BitStack {
    inline: u64,
    spill: Vec<u64>,
}

impl BitStack {
    #[inline]
    fn new() -> Self {
        Self {
            inline: 0,
            spill: Vec::new(),
        }
    }

    /// Records the container kind of level `depth` (1-based).
    #[inline]
    fn set(&mut self, depth: usize, is_object: bool) {
        let index = depth - 1;
        if index < 64 {
            let bit = 1u64 << index;
            if is_object {
                self.inline |= bit;
            } else {
                self.inline &= !bit;
            }
        } else {
            let word = (index - 64) / 64;
            let bit = 1u64 << ((index - 64) % 64);
            if word >= self.spill.len() {
                self.spill.resize(word + 1, 0);
            }
            if is_object {
                self.spill[word] |= bit;
            } else {
                self.spill[word] &= !bit;
            }
        }
    }

    /// Whether level `depth` (1-based) is an object.
    #[inline]
    fn is_object(&self, depth: usize) -> bool {
        let index = depth - 1;
        if index < 64 {
            self.inline & (1u64 << index) != 0
        } else {
            self.spill[(index - 64) / 64] & (1u64 << ((index - 64) % 64)) != 0
        }
    }
}

/// Scans one JSON value starting exactly at `start` (no leading whitespace) and returns
/// its extent and nesting depth. Bytes after the value are not examined.
///
/// UTF-8 is not checked here: bytes of 0x80 and above are accepted inside strings (and
/// rejected elsewhere as unexpected). Pass the bytes of a `&str`, or use [`validate`],
/// which checks UTF-8 first. Keeping the two apart means a frame is UTF-8-checked once.
pub fn scan_value(bytes: &[u8], start: usize) -> Result<ValueInfo, ScanError> {
    let mut pos = start;
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    let mut stack = BitStack::new();

    'value: loop {
        // Expect a value at `pos`.
        let Some(&b) = bytes.get(pos) else {
            return Err(err(ScanErrorKind::UnexpectedEnd, pos));
        };
        match b {
            b'{' => {
                depth += 1;
                max_depth = max_depth.max(depth);
                stack.set(depth, true);
                pos = skip_whitespace(bytes, pos + 1);
                match bytes.get(pos) {
                    Some(b'}') => {
                        depth -= 1;
                        pos += 1;
                    }
                    Some(b'"') => {
                        pos = scan_key_and_colon(bytes, pos)?;
                        continue 'value;
                    }
                    Some(_) => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
                    None => return Err(err(ScanErrorKind::UnexpectedEnd, pos)),
                }
            }
            b'[' => {
                depth += 1;
                max_depth = max_depth.max(depth);
                stack.set(depth, false);
                pos = skip_whitespace(bytes, pos + 1);
                if bytes.get(pos) == Some(&b']') {
                    depth -= 1;
                    pos += 1;
                } else {
                    continue 'value;
                }
            }
            b'"' => pos = scan_string(bytes, pos)?.end,
            b'-' | b'0'..=b'9' => pos = scan_number(bytes, pos)?,
            b't' => pos = scan_literal(bytes, pos, b"true")?,
            b'f' => pos = scan_literal(bytes, pos, b"false")?,
            b'n' => pos = scan_literal(bytes, pos, b"null")?,
            _ => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
        }

        // A value just ended at `pos`: close containers until one continues.
        loop {
            if depth == 0 {
                return Ok(ValueInfo {
                    start,
                    end: pos,
                    depth: max_depth,
                });
            }
            pos = skip_whitespace(bytes, pos);
            let Some(&b) = bytes.get(pos) else {
                return Err(err(ScanErrorKind::UnexpectedEnd, pos));
            };
            let in_object = stack.is_object(depth);
            match b {
                b',' => {
                    pos = skip_whitespace(bytes, pos + 1);
                    if in_object {
                        if bytes.get(pos) != Some(&b'"') {
                            return Err(unexpected(bytes, pos));
                        }
                        pos = scan_key_and_colon(bytes, pos)?;
                    }
                    continue 'value;
                }
                b'}' if in_object => {
                    depth -= 1;
                    pos += 1;
                }
                b']' if !in_object => {
                    depth -= 1;
                    pos += 1;
                }
                _ => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
            }
        }
    }
}

/// The error for a byte that cannot stand at `pos`: `UnexpectedEnd` past the end of input,
/// else `UnexpectedByte`.
#[inline]
pub(crate) fn unexpected(bytes: &[u8], pos: usize) -> ScanError {
    if pos >= bytes.len() {
        err(ScanErrorKind::UnexpectedEnd, pos)
    } else {
        err(ScanErrorKind::UnexpectedByte, pos)
    }
}

/// Scans `"key" ws : ws` starting at the opening quote; returns the offset of the value.
#[inline]
fn scan_key_and_colon(bytes: &[u8], pos: usize) -> Result<usize, ScanError> {
    let key = scan_string(bytes, pos)?;
    let pos = skip_whitespace(bytes, key.end);
    if bytes.get(pos) != Some(&b':') {
        return Err(unexpected(bytes, pos));
    }
    Ok(skip_whitespace(bytes, pos + 1))
}

#[inline]
fn scan_literal(bytes: &[u8], pos: usize, literal: &[u8]) -> Result<usize, ScanError> {
    let end = pos + literal.len();
    match bytes.get(pos..end) {
        Some(found) if found == literal => Ok(end),
        _ => {
            // Report the first differing byte (or the end of input).
            let mut i = pos;
            while i < end && bytes.get(i) == literal.get(i - pos) {
                i += 1;
            }
            Err(unexpected(bytes, i))
        }
    }
}

/// Scans a number starting at `pos` and returns the offset just past it.
#[inline]
pub fn scan_number(bytes: &[u8], mut pos: usize) -> Result<usize, ScanError> {
    if bytes.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match bytes.get(pos) {
        Some(b'0') => {
            pos += 1;
            if matches!(bytes.get(pos), Some(b'0'..=b'9')) {
                return Err(err(ScanErrorKind::LeadingZero, pos - 1));
            }
        }
        Some(b'1'..=b'9') => {
            pos += 1;
            while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
                pos += 1;
            }
        }
        _ => return Err(unexpected(bytes, pos)),
    }
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        if !matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            return Err(err(ScanErrorKind::BadNumber, pos));
        }
        while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    if matches!(bytes.get(pos), Some(b'e' | b'E')) {
        pos += 1;
        if matches!(bytes.get(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        if !matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            return Err(err(ScanErrorKind::BadNumber, pos));
        }
        while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    Ok(pos)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bit mask with the high bit set in every byte of `word` that is `"`, `\` or below 0x20
/// (exact for the lowest such byte; higher bytes may be false positives).
#[inline]
fn special_bytes(word: u64) -> u64 {
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let has_quote = quote.wrapping_sub(ONES) & !quote;
    let has_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let has_control = word.wrapping_sub(ONES * 0x20) & !word;
    (has_quote | has_backslash | has_control) & HIGHS
}

/// Returns the offset of the first byte at or after `i` that is `"`, `\\` or a control
/// character (or the input's length when there is none), skipping ordinary bytes a word at
/// a time. Short strings are served by one eight-byte step; long runs go sixteen bytes per
/// step; the last seven bytes of the input are looked at one by one.
#[inline]
fn skip_ordinary(bytes: &[u8], mut i: usize) -> usize {
    let word_at = |i: usize| {
        bytes
            .get(i..i + 8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("eight bytes")))
    };
    let lowest = |i: usize, special: u64| i + (special.trailing_zeros() / 8) as usize;
    let Some(first) = word_at(i) else {
        return skip_ordinary_tail(bytes, i);
    };
    let special = special_bytes(first);
    if special != 0 {
        return lowest(i, special);
    }
    i += 8;
    while let (Some(low), Some(high)) = (word_at(i), word_at(i + 8)) {
        if special_bytes(low) | special_bytes(high) != 0 {
            break;
        }
        i += 16;
    }
    while let Some(word) = word_at(i) {
        let special = special_bytes(word);
        if special != 0 {
            return lowest(i, special);
        }
        i += 8;
    }
    skip_ordinary_tail(bytes, i)
}

/// [`skip_ordinary`] over fewer than eight bytes, one at a time.
#[inline]
fn skip_ordinary_tail(bytes: &[u8], i: usize) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    i + rest
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | 0x00..=0x1f))
        .unwrap_or(rest.len())
}

/// Scans a string starting at its opening quote at `pos`.
///
/// Bytes of 0x80 and above are skipped without a UTF-8 check (see [`scan_value`]).
#[inline]
pub fn scan_string(bytes: &[u8], pos: usize) -> Result<StringInfo, ScanError> {
    if bytes.get(pos) != Some(&b'"') {
        return Err(unexpected(bytes, pos));
    }
    let start = pos;
    let mut i = pos + 1;
    let mut has_escapes = false;
    loop {
        i = skip_ordinary(bytes, i);
        let Some(&b) = bytes.get(i) else {
            return Err(err(ScanErrorKind::UnexpectedEnd, i));
        };
        match b {
            b'"' => {
                return Ok(StringInfo {
                    start,
                    end: i + 1,
                    has_escapes,
                });
            }
            b'\\' => {
                has_escapes = true;
                match bytes.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                    Some(b'u') => {
                        for k in 0..4 {
                            match bytes.get(i + 2 + k) {
                                Some(h) if h.is_ascii_hexdigit() => {}
                                Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                                None => return Err(err(ScanErrorKind::UnexpectedEnd, i + 2 + k)),
                            }
                        }
                        i += 6;
                    }
                    Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                    None => return Err(err(ScanErrorKind::UnexpectedEnd, i + 1)),
                }
            }
            // `skip_ordinary` stops only at `"`, `\` and control characters.
            _ => return Err(err(ScanErrorKind::ControlCharacter, i)),
        }
    }
}

/// Decodes the contents of a JSON string literal (quotes included in `raw`), normally one
/// the scanner has already validated. Lone surrogate escapes become U+FFFD.
///
/// Total on any input: text without the surrounding quotes is decoded as it stands, and a
/// malformed `\u` escape becomes U+FFFD.
pub fn unescape(raw: &str) -> String {
    let inner = raw
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(raw);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((at, e)) = chars.next() else { break };
        match e {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '/' => out.push('/'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let Some(unit) = inner.get(at + 1..at + 5).and_then(hex4) else {
                    out.push('\u{FFFD}');
                    continue;
                };
                for _ in 0..4 {
                    chars.next();
                }
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate: combine with a following low surrogate escape.
                    let rest = chars.as_str();
                    if let Some(low) = rest
                        .strip_prefix("\\u")
                        .and_then(|r| r.get(..4))
                        .and_then(hex4)
                        && (0xDC00..0xE000).contains(&low)
                    {
                        let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        for _ in 0..6 {
                            chars.next();
                        }
                        continue;
                    }
                    out.push('\u{FFFD}');
                } else {
                    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                }
            }
            _ => out.push(e),
        }
    }
    out
}

/// Four hex digits as a UTF-16 code unit.
fn hex4(digits: &str) -> Option<u32> {
    if digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        u32::from_str_radix(digits, 16).ok()
    } else {
        None
    }
}

/// Whether a JSON string literal (quotes included) holds a `\u` escape of a UTF-16
/// surrogate that is not part of a high-low pair, such as `"\ud800"`. Such a string is
/// valid JSON text but names no Unicode characters (RFC 8259 §8.2). Never allocates.
pub fn has_unpaired_surrogate(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let unit_at = |i: usize| {
        let digits = bytes.get(i..i + 6)?;
        if !digits.starts_with(b"\\u") {
            return None;
        }
        std::str::from_utf8(&digits[2..]).ok().and_then(hex4)
    };
    let mut i = 0;
    while let Some(offset) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\\'))
    {
        i += offset;
        match unit_at(i) {
            Some(0xD800..=0xDBFF) => match unit_at(i + 6) {
                Some(0xDC00..=0xDFFF) => i += 12,
                _ => return true,
            },
            Some(0xDC00..=0xDFFF) => return true,
            Some(_) => i += 6,
            // `\\`, `\"` and the other two-character escapes.
            None => i += 2,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpaired_surrogates_are_told_from_pairs_and_other_escapes() {
        for lone in [
            r#""\ud800""#,
            r#""\uDBFF""#,
            r#""\udc00""#,
            r#""a\ud800\u0041""#,
            r#""\ude00\ud83d""#,
            r#""\ud83d\ude00\ud800""#,
            r#""\\\ud800""#,
        ] {
            assert!(has_unpaired_surrogate(lone), "{lone}");
        }
        for fine in [
            r#""\ud83d\ude00""#,
            r#""\\ud800""#,
            r#""\uFFFD\u0041""#,
            r#""plain""#,
            r#""\n\"\/""#,
            r#""\ud8"#,
            "",
        ] {
            assert!(!has_unpaired_surrogate(fine), "{fine}");
        }
    }

    #[test]
    fn unescape_is_total_on_text_the_scanner_never_saw() {
        assert_eq!(unescape("\""), "\"", "a lone quote is not a quoted string");
        assert_eq!(unescape(""), "");
        assert_eq!(unescape(r#""\u12""#), "\u{FFFD}12");
        assert_eq!(unescape(r#""\u00é9""#), "\u{FFFD}00é9");
        assert_eq!(unescape(r#""\ud83d\ude""#), "\u{FFFD}\u{FFFD}de");
        assert_eq!(unescape(r#""\ud83d\ude00""#), "\u{1F600}");
        assert_eq!(unescape("no quotes"), "no quotes");
    }
    use crate::test_support::{mutate, xorshift};

    fn kind(input: &str) -> ScanErrorKind {
        validate(input.as_bytes()).unwrap_err().kind
    }

    #[test]
    fn accepts_every_json_type_and_reports_depth() {
        for (input, depth) in [
            ("0", 0),
            ("-0.5e+10", 0),
            ("\"a\\u00e9\\n\"", 0),
            ("true", 0),
            ("null", 0),
            ("{}", 1),
            ("[]", 1),
            (" [ 1 , { \"a\" : [ ] } ] ", 3),
            ("{\"a\":{\"b\":{\"c\":[[]]}}}", 5),
            ("\"ünïcødé ✓ 😀\"", 0),
        ] {
            let info = validate(input.as_bytes()).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(info.depth, depth, "{input}");
        }
    }

    #[test]
    fn rejects_what_rfc_8259_rejects() {
        assert_eq!(kind("NaN"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("Infinity"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("-Infinity"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("01"), ScanErrorKind::LeadingZero);
        assert_eq!(kind("-01"), ScanErrorKind::LeadingZero);
        assert_eq!(kind("1."), ScanErrorKind::BadNumber);
        assert_eq!(kind("1e"), ScanErrorKind::BadNumber);
        assert_eq!(kind(".5"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("+1"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("[1,]"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("{\"a\":1,}"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("{\"a\" 1}"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("{1:1}"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("[1 2]"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("[1}"), ScanErrorKind::UnexpectedByte);
        assert_eq!(kind("\"a\tb\""), ScanErrorKind::ControlCharacter);
        assert_eq!(kind("\"\\x\""), ScanErrorKind::BadEscape);
        assert_eq!(kind("\"\\u12g4\""), ScanErrorKind::BadEscape);
        assert_eq!(kind("{} x"), ScanErrorKind::TrailingCharacters);
        assert_eq!(kind("1 2"), ScanErrorKind::TrailingCharacters);
        assert_eq!(kind(""), ScanErrorKind::UnexpectedEnd);
        assert_eq!(kind("[[[1]]"), ScanErrorKind::UnexpectedEnd);
        assert_eq!(kind("\"abc"), ScanErrorKind::UnexpectedEnd);
        assert_eq!(kind("tru"), ScanErrorKind::UnexpectedEnd);
        assert_eq!(kind("trux"), ScanErrorKind::UnexpectedByte);
        assert_eq!(
            validate(b"\"ab\xff\xfecd\"").unwrap_err(),
            ScanError {
                kind: ScanErrorKind::InvalidUtf8,
                offset: 3
            }
        );
        assert_eq!(kind("\u{feff}{}"), ScanErrorKind::UnexpectedByte);
    }

    #[test]
    fn invalid_utf8_is_found_by_validate_anywhere() {
        let mut long = b"\"0123456789abcdef".to_vec();
        long.extend_from_slice(b"\xc3\x28");
        long.extend_from_slice(b"0123456789\"");
        assert_eq!(
            validate(&long).unwrap_err().kind,
            ScanErrorKind::InvalidUtf8
        );
        assert_eq!(
            validate(b"[\xc3\xa9]").unwrap_err().kind,
            ScanErrorKind::UnexpectedByte
        );
    }

    #[test]
    fn specials_in_every_chunk_position_are_found() {
        for at in 0..20 {
            let mut s = String::from("\"");
            s.push_str(&"a".repeat(at));
            s.push('\u{1}');
            s.push_str("bbbbbbbbbbbb\"");
            assert_eq!(kind(&s), ScanErrorKind::ControlCharacter, "control at {at}");
            let mut ok = String::from("\"");
            ok.push_str(&"é".repeat(at));
            ok.push_str("\\\"x\"");
            let info = scan_string(ok.as_bytes(), 0).unwrap();
            assert_eq!(info.end, ok.len(), "escape at {at}");
            assert!(info.has_escapes);
        }
    }

    #[test]
    fn every_error_kind_is_described_differently() {
        use ScanErrorKind::*;
        let kinds = [
            UnexpectedEnd,
            UnexpectedByte,
            LeadingZero,
            BadNumber,
            ControlCharacter,
            BadEscape,
            InvalidUtf8,
            TrailingCharacters,
        ];
        let texts: Vec<&str> = kinds.iter().map(|k| k.describe()).collect();
        for (i, text) in texts.iter().enumerate() {
            assert!(text.len() > 8, "{:?} says too little: {text:?}", kinds[i]);
            assert!(!texts[..i].contains(text), "{text:?} is said twice");
        }
        let error = ScanError {
            kind: BadEscape,
            offset: 17,
        };
        assert_eq!(
            error.to_string(),
            format!("{} at byte 17", BadEscape.describe())
        );
    }

    #[test]
    fn errors_point_at_the_offending_byte() {
        for (input, kind, offset) in [
            ("trux", ScanErrorKind::UnexpectedByte, 3),
            ("[fals]", ScanErrorKind::UnexpectedByte, 5),
            ("nul", ScanErrorKind::UnexpectedEnd, 3),
            ("01", ScanErrorKind::LeadingZero, 0),
            ("-01", ScanErrorKind::LeadingZero, 1),
            ("[1,00]", ScanErrorKind::LeadingZero, 3),
            ("\"\\", ScanErrorKind::UnexpectedEnd, 2),
            ("\"ab\\u12", ScanErrorKind::UnexpectedEnd, 7),
            ("\"ab\\u1", ScanErrorKind::UnexpectedEnd, 6),
            ("\"ab\\u12x4\"", ScanErrorKind::BadEscape, 3),
            ("[1] 2", ScanErrorKind::TrailingCharacters, 4),
        ] {
            assert_eq!(
                validate(input.as_bytes()),
                Err(ScanError { kind, offset }),
                "{input}"
            );
        }
    }

    #[test]
    fn long_runs_find_the_first_special_byte_at_every_position() {
        for len in [0, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 257] {
            for at in 0..=len {
                for special in [b'"', b'\\', 0x00, 0x1f] {
                    let mut bytes = vec![b'a'; len];
                    bytes.extend_from_slice(b"tail");
                    if at < len {
                        bytes[at] = special;
                    }
                    // Word at a time against the byte-at-a-time tail scan over all of it.
                    for from in [0, 1, at.saturating_sub(9)] {
                        assert_eq!(
                            skip_ordinary(&bytes, from),
                            skip_ordinary_tail(&bytes, from),
                            "len {len}, special {special} at {at}, from {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn irregular_deep_nesting_closes_each_level_with_its_own_bracket() {
        // Container kinds from a pseudo-random sequence, so no block of 64 levels repeats.
        let n = 3_000;
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let kinds: Vec<bool> = (0..n).map(|_| next() & 1 == 1).collect();
        let mut open = String::new();
        for &is_object in &kinds {
            open.push_str(if is_object { "{\"k\":" } else { "[" });
        }
        let closers: Vec<u8> = kinds
            .iter()
            .rev()
            .map(|&is_object| if is_object { b'}' } else { b']' })
            .collect();
        let mut doc = open.clone().into_bytes();
        doc.push(b'0');
        doc.extend_from_slice(&closers);
        assert_eq!(validate(&doc).unwrap().depth, n);
        for level in [0, 63, 64, 65, 127, 128, 1000, n - 1] {
            // Close `level` (counted from the innermost) with the other bracket.
            let at = open.len() + 1 + level;
            let mut wrong = doc.clone();
            wrong[at] = if wrong[at] == b'}' { b']' } else { b'}' };
            assert_eq!(
                validate(&wrong),
                Err(ScanError {
                    kind: ScanErrorKind::UnexpectedByte,
                    offset: at
                }),
                "level {level}"
            );
        }
    }

    #[test]
    fn nesting_is_not_limited_by_the_call_stack() {
        let n = 100_000;
        let mut deep = "[".repeat(n);
        deep.push_str(&"]".repeat(n));
        assert_eq!(validate(deep.as_bytes()).unwrap().depth, n);
        let mut mixed = String::new();
        for _ in 0..n / 2 {
            mixed.push_str("{\"k\":[");
        }
        mixed.push('0');
        for _ in 0..n / 2 {
            mixed.push_str("]}");
        }
        assert_eq!(validate(mixed.as_bytes()).unwrap().depth, n);
        let unbalanced = &deep[..deep.len() - 1];
        assert_eq!(kind(unbalanced), ScanErrorKind::UnexpectedEnd);
    }

    #[test]
    fn scan_value_stops_at_the_value_end() {
        let input = br#"{"a":[1,{"b":"}"}]} ,rest"#;
        let info = scan_value(input, 0).unwrap();
        assert_eq!(&input[info.end..], b" ,rest");
    }

    #[test]
    fn a_high_surrogate_pairs_only_with_a_following_low_surrogate_escape() {
        assert_eq!(unescape(r#""\ud83d\ude00""#), "\u{1F600}");
        assert_eq!(unescape(r#""\ud83dxxde00""#), "\u{FFFD}xxde00");
        assert_eq!(unescape(r#""\ud83d\u0041""#), "\u{FFFD}A");
        assert_eq!(unescape(r#""\ud83d""#), "\u{FFFD}");
        assert_eq!(unescape(r#""\"\\\/""#), "\"\\/");
    }

    #[test]
    fn unescape_handles_every_escape_and_surrogates() {
        assert_eq!(unescape(r#""\u0069d""#), "id");
        assert_eq!(
            unescape(r#""a\"\\\/\b\f\n\r\tz""#),
            "a\"\\/\u{8}\u{c}\n\r\tz"
        );
        assert_eq!(unescape(r#""\ud83d\ude00""#), "😀");
        assert_eq!(unescape(r#""\ud83dx""#), "\u{FFFD}x");
        assert_eq!(unescape(r#""\ude00""#), "\u{FFFD}");
        assert_eq!(unescape(r#""é\u00e9""#), "éé");
    }

    /// Differential check against serde_json (plus a UTF-8 check, which serde_json skips for
    /// ignored strings): random mutations of valid documents must be accepted or rejected
    /// alike.
    #[test]
    fn agrees_with_serde_json_on_mutated_documents() {
        let seeds: [&[u8]; 6] = [
            br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"a":[1,-2.5e3,true,null],"b":"x\u00e9\n"}}"#,
            br#"[{"k":{}},[],[[0.0]],"\ud83d\ude00",-0,1E+2]"#,
            "{\"ünï\":\"cødé ✓\",\"n\":[false, 10 ,{\"\":\"\"}]}".as_bytes(),
            b" 123.456e-7 ",
            br#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
            b"[1,[2,[3,[4,{\"x\":[5]}]]]]",
        ];
        let alphabet = b"{}[],:\"\\/ -+.0123456789eEtrufalsn\t\r\nxu\x01\x7f\xc3\xa9\xff";
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for round in 0..30_000 {
            let mut doc = seeds[round % seeds.len()].to_vec();
            mutate(&mut doc, alphabet, 2, &mut next);
            let ours = validate(&doc).is_ok();
            let oracle = std::str::from_utf8(&doc).is_ok()
                && serde_json::from_slice::<serde::de::IgnoredAny>(&doc).is_ok();
            assert_eq!(
                ours,
                oracle,
                "disagreement on {:?}",
                String::from_utf8_lossy(&doc)
            );
            accepted += usize::from(ours);
        }
        // Both outcomes are well represented.
        assert!((3_000..27_000).contains(&accepted), "{accepted} accepted");
    }
}
