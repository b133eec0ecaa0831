//! A strict, iterative RFC 8259 scanner over bytes.
//!
//! Nesting depth is a counter on a heap stack, never the call stack, so a value nested
//! 100,000 deep is scanned like any other. The caller checks UTF-8 beforehand.

/// Why some bytes are not one JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    /// Byte offset where scanning stopped.
    pub offset: usize,
    /// What was wrong there.
    pub what: &'static str,
}

/// The JSON type of a value, read from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonKind {
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// `"..."`
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// `null`.
    Null,
}

impl JsonKind {
    /// The kind of the (already validated) value whose text starts with `first`.
    pub fn of_first_byte(first: u8) -> JsonKind {
        match first {
            b'{' => JsonKind::Object,
            b'[' => JsonKind::Array,
            b'"' => JsonKind::String,
            b't' | b'f' => JsonKind::Boolean,
            b'n' => JsonKind::Null,
            _ => JsonKind::Number,
        }
    }
}

/// Whether `byte` is JSON whitespace (space, tab, line feed, carriage return).
pub fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first offset at or after `pos` that is not JSON whitespace.
pub fn skip_whitespace(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() && is_whitespace(text[pos]) {
        pos += 1;
    }
    pos
}

fn fail<T>(offset: usize, what: &'static str) -> Result<T, ScanError> {
    Err(ScanError { offset, what })
}

/// The end offset of the string token starting at `pos` (which must be `"`).
pub fn string_end(text: &[u8], pos: usize) -> Result<usize, ScanError> {
    if text.get(pos) != Some(&b'"') {
        return fail(pos, "expected a string");
    }
    let mut i = pos + 1;
    loop {
        match text.get(i) {
            None => return fail(i, "unterminated string"),
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => match text.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u') => {
                    let hex = text.get(i + 2..i + 6);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return fail(i, "bad \\u escape");
                    }
                    i += 6;
                }
                _ => return fail(i, "bad escape"),
            },
            Some(&b) if b < 0x20 => return fail(i, "raw control character in string"),
            Some(_) => i += 1,
        }
    }
}

/// The end offset of the number token starting at `pos`.
pub fn number_end(text: &[u8], pos: usize) -> Result<usize, ScanError> {
    let digits = |mut i: usize| {
        while text.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = pos;
    if text.get(i) == Some(&b'-') {
        i += 1;
    }
    match text.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i),
        _ => return fail(i, "bad number"),
    }
    if text.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return fail(i, "no digits after the decimal point");
        }
        i = end;
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(text.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return fail(i, "no digits in the exponent");
        }
        i = end;
    }
    Ok(i)
}

#[derive(Clone, Copy)]
enum State {
    Value,
    ValueOrClose,
    KeyOrClose,
    Key,
    After,
}

/// Scans exactly one JSON value starting at `pos` (no leading whitespace) and
/// returns the offset just past it. Depth is unbounded and costs no stack.
pub fn value_end(text: &[u8], pos: usize) -> Result<usize, ScanError> {
    // `true` marks an object, `false` an array.
    let mut stack: Vec<bool> = Vec::new();
    let mut state = State::Value;
    let mut i = pos;
    loop {
        if let State::After = state {
            let Some(&in_object) = stack.last() else {
                return Ok(i);
            };
            i = skip_whitespace(text, i);
            match text.get(i) {
                Some(b',') => {
                    i += 1;
                    state = if in_object { State::Key } else { State::Value };
                }
                Some(b'}') if in_object => {
                    stack.pop();
                    i += 1;
                }
                Some(b']') if !in_object => {
                    stack.pop();
                    i += 1;
                }
                _ => return fail(i, "expected `,` or the end of the container"),
            }
            continue;
        }
        if !stack.is_empty() {
            i = skip_whitespace(text, i);
        }
        match state {
            State::Value | State::ValueOrClose => {
                let Some(&c) = text.get(i) else {
                    return fail(i, "unexpected end of input");
                };
                if matches!(state, State::ValueOrClose) && c == b']' {
                    stack.pop();
                    i += 1;
                    state = State::After;
                    continue;
                }
                match c {
                    b'{' => {
                        stack.push(true);
                        i += 1;
                        state = State::KeyOrClose;
                        continue;
                    }
                    b'[' => {
                        stack.push(false);
                        i += 1;
                        state = State::ValueOrClose;
                        continue;
                    }
                    b'"' => i = string_end(text, i)?,
                    b't' => i = literal_end(text, i, b"true")?,
                    b'f' => i = literal_end(text, i, b"false")?,
                    b'n' => i = literal_end(text, i, b"null")?,
                    b'-' | b'0'..=b'9' => i = number_end(text, i)?,
                    _ => return fail(i, "expected a value"),
                }
                state = State::After;
            }
            State::KeyOrClose | State::Key => {
                if matches!(state, State::KeyOrClose) && text.get(i) == Some(&b'}') {
                    stack.pop();
                    i += 1;
                    state = State::After;
                    continue;
                }
                i = string_end(text, i)?;
                i = skip_whitespace(text, i);
                if text.get(i) != Some(&b':') {
                    return fail(i, "expected `:`");
                }
                i = skip_whitespace(text, i + 1);
                state = State::Value;
            }
            State::After => unreachable!("handled above"),
        }
    }
}

fn literal_end(text: &[u8], pos: usize, literal: &[u8]) -> Result<usize, ScanError> {
    if text.get(pos..pos + literal.len()) == Some(literal) {
        Ok(pos + literal.len())
    } else {
        fail(pos, "bad literal")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> bool {
        value_end(text.as_bytes(), 0) == Ok(text.len())
    }

    #[test]
    fn accepts_valid_values() {
        for text in [
            "0",
            "-0",
            "1.5e+3",
            "\"a\\u0041\\n\"",
            "{}",
            "[]",
            "{\"a\":[1,{\"b\":null}]}",
            "[ true , false ]",
            "{ \"k\" : \"v\" }",
        ] {
            assert!(whole(text), "{text}");
        }
    }

    #[test]
    fn rejects_invalid_values() {
        for text in [
            "01",
            "1.",
            ".5",
            "1e",
            "+1",
            "NaN",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\"}",
            "\"\u{1}\"",
            "[",
            "{",
            "tru",
            "\"\\x\"",
            "{1:2}",
        ] {
            assert!(
                value_end(text.as_bytes(), 0).map(|e| e == text.len()) != Ok(true),
                "{text}"
            );
        }
    }

    #[test]
    fn deep_nesting_costs_no_stack() {
        let depth = 100_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(whole(&text));
        let unclosed = "[".repeat(depth);
        assert!(value_end(unclosed.as_bytes(), 0).is_err());
    }
}
