//! A scanner for JSON text that is already known to be valid (a value serde_json captured):
//! it finds where values end without checking the grammar again, skipping strings with
//! `memchr` (a vectorised search behind a safe API) for their closing quote or next escape.
//!
//! It is what lets a union look at an object's members (see [`super::Shape`]) for a fraction
//! of what a second serde_json pass costs: serde_json validates every byte of a 100 KB string
//! it skips, this scanner jumps from escape to escape. On text that is not valid JSON it never
//! panics; it answers `None`.

/// The index just past the string whose opening quote is at `start`.
pub(super) fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        let found = at + memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        if bytes[found] == b'"' {
            return Some(found + 1);
        }
        // A backslash escapes the next byte (`\"`, `\\`; `\u` is followed by hex digits).
        at = found + 2;
    }
}

/// The index just past the value starting at `start` (no whitespace before it).
pub(super) fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => string_end(bytes, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = start;
            loop {
                match bytes.get(at)? {
                    b'"' => at = string_end(bytes, at)?,
                    b'{' | b'[' => {
                        depth += 1;
                        at += 1;
                    }
                    b'}' | b']' => {
                        depth -= 1;
                        at += 1;
                        if depth == 0 {
                            return Some(at);
                        }
                    }
                    _ => at += 1,
                }
            }
        }
        _ => {
            // A number or a literal: up to the next delimiter.
            let rest = &bytes[start..];
            Some(
                start
                    + rest
                        .iter()
                        .position(|b| {
                            matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                        })
                        .unwrap_or(rest.len()),
            )
        }
    }
}

/// The index of the first byte at or after `at` that is not JSON whitespace.
pub(super) fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The first member of the object `text` whose value is not an object, as its name (the
/// text between the quotes, escapes as written) and its value's text; `None` when every member
/// is an object. Text that does not scan as an object answers with an empty name and the text
/// where scanning stopped.
pub(crate) fn first_non_object_member(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let broken = |at: usize| Some(("", text.get(at..).unwrap_or_default()));
    let mut at = skip_whitespace(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return broken(at);
    }
    at = skip_whitespace(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        let Some(name_end) = (bytes.get(at) == Some(&b'"'))
            .then(|| string_end(bytes, at))
            .flatten()
        else {
            return broken(at);
        };
        let name = &text[at + 1..name_end - 1];
        at = skip_whitespace(bytes, name_end);
        if bytes.get(at) != Some(&b':') {
            return broken(at);
        }
        at = skip_whitespace(bytes, at + 1);
        let Some(end) = value_end(bytes, at) else {
            return broken(at);
        };
        if bytes[at] != b'{' {
            return Some((name, &text[at..end]));
        }
        at = skip_whitespace(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_whitespace(bytes, at + 1),
            Some(b'}') => return None,
            _ => return broken(at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_member_that_is_not_an_object_is_named() {
        assert_eq!(first_non_object_member("{}"), None);
        assert_eq!(first_non_object_member(" { } "), None);
        assert_eq!(
            first_non_object_member(r#"{"a":{"x":"}"},"b" : { } }"#),
            None
        );
        assert_eq!(
            first_non_object_member(r#"{"a":{}, "b\"c" : [1] ,"d":1}"#),
            Some((r#"b\"c"#, "[1]"))
        );
        assert_eq!(first_non_object_member(r#"{"a":7}"#), Some(("a", "7")));
        assert_eq!(first_non_object_member("[]"), Some(("", "[]")));
        assert_eq!(first_non_object_member(r#"{"a":{}"#), Some(("", "")));
        assert_eq!(first_non_object_member(r#"{"a":{"#), Some(("", r#"{"#)));
        assert_eq!(first_non_object_member(r#"{"a":"#), Some(("", "")));
    }

    #[test]
    fn values_end_where_serde_json_says() {
        for text in [
            r#""plain""#,
            r#""with \" quote and \\ backslash \u0041""#,
            r#"{"a":[1,{"b":"]}"}],"c":"\\"}"#,
            "[[[]],[{}]]",
            "-12.5e3",
            "true",
            "null",
        ] {
            let padded = format!("{text} ,");
            assert_eq!(value_end(padded.as_bytes(), 0), Some(text.len()), "{text}");
        }
    }

    #[test]
    fn broken_text_is_none_not_a_panic() {
        for text in ["\"open", "{\"a\":[1,", "\"\\", "", "[\"a\\\"]"] {
            let _ = value_end(text.as_bytes(), 0);
            assert_eq!(value_end(text.as_bytes(), 0), None, "{text}");
        }
    }
}
