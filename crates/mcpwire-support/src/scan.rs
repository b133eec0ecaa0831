//! A scanner for JSON text that is already known to be valid (a value serde_json captured):
//! it finds where values end without checking the grammar again, skipping strings to their
//! closing quote or next escape eight bytes at a time (a `u64` word, [`crate::fast_json`]), and with
//! `memchr` (a vectorised search behind a safe API) past their first few words.
//!
//! It is what lets a union look at an object's members (see [`super::Shape`]) and a
//! [`crate::JsonObjectMap`] check its members for a fraction of what a second serde_json pass
//! costs: serde_json validates every byte of a 100 KB string it skips, this scanner jumps from
//! escape to escape. On text that is not valid JSON it never panics; it answers `None`.

/// Words of a string tested one by one before the rest is handed to `memchr`: most strings in
/// MCP messages (member names, types, titles) end within them, and a `memchr` call costs about
/// as much as four words before it finds anything.
const WORDS_BEFORE_MEMCHR: usize = 4;

use crate::fast_json::words::{self, bytes_equal};

/// The index of the first `"` or `\` at or after `from`.
#[inline(always)]
fn quote_or_backslash(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut chunks = rest.chunks_exact(8);
    for (index, word) in chunks.by_ref().take(WORDS_BEFORE_MEMCHR).enumerate() {
        let word = words::load(word, 0);
        let found = bytes_equal(word, b'"') | bytes_equal(word, b'\\');
        if found != 0 {
            return Some(from + index * 8 + (found.trailing_zeros() / 8) as usize);
        }
    }
    let scanned = rest.len() - chunks.remainder().len() - chunks.len() * 8;
    memchr::memchr2(b'"', b'\\', &rest[scanned..]).map(|found| from + scanned + found)
}

/// The index just past the string whose opening quote is at `start`.
///
/// Inlined into the loops that call it for every string they meet: a call costs as much as
/// scanning a short string.
#[inline(always)]
pub(super) fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        let found = quote_or_backslash(bytes, at)?;
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

pub(super) use crate::fast_json::skip_whitespace;

/// The first member of the object `text` whose value is not an object, as its name (the
/// text between the quotes, escapes as written) and its value's text; `None` when every member
/// is an object. Text that does not scan as an object answers with an empty name and the text
/// where scanning stopped.
///
/// Valid JSON whose members are all objects (the common case) is told by
/// [`super::structure::members_are_objects`] 64 bytes at a time; the member-by-member walk
/// here runs only to name what is not an object.
pub(crate) fn first_non_object_member(text: &str) -> Option<(&str, &str)> {
    if super::structure::members_are_objects(text.as_bytes()) {
        return None;
    }
    first_non_object_member_by_walking(text)
}

/// [`first_non_object_member`] member by member, whatever the text.
pub(super) fn first_non_object_member_by_walking(text: &str) -> Option<(&str, &str)> {
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

    /// Objects built from every combination of member values, spacing, escaped names and
    /// nesting (brackets, colons and quotes inside strings): the member named is the first that
    /// is not an object, with its value's text; every prefix and one-byte deletion of them
    /// answers without panicking.
    #[test]
    fn the_member_named_is_the_first_that_is_not_an_object() {
        let values = [
            "{}",
            r#"{"k":[1,{"x":":"}],"s":"}{\\\"[:"}"#,
            r#"{ "deep" : { "a" : [ { } ] } }"#,
            "[]",
            r#""{:}""#,
            "1",
            "null",
            r#"[{"a":{}}]"#,
        ];
        let names = [
            "a",
            r#"b\"c"#,
            "quite a long member name past four words: {[:",
        ];
        for (first, second) in values
            .iter()
            .flat_map(|a| values.iter().map(move |b| (a, b)))
        {
            for (name, space) in names.iter().zip(["", " ", "\n\t "]) {
                let text = format!(
                    r#"{space}{{{space}"{name}"{space}:{space}{first}{space},"z":{second}{space}}}{space}"#
                );
                let expected = match (first.starts_with('{'), second.starts_with('{')) {
                    (true, true) => None,
                    (false, _) => Some((*name, *first)),
                    (true, false) => Some(("z", *second)),
                };
                assert_eq!(first_non_object_member(&text), expected, "{text}");
                for cut in 0..text.len() {
                    let (Some(prefix), Some(rest)) = (text.get(..cut), text.get(cut + 1..)) else {
                        continue;
                    };
                    let _ = first_non_object_member(prefix);
                    let _ = first_non_object_member(&format!("{prefix}{rest}"));
                }
            }
        }
    }

    /// Every placement of a quote or backslash among fillers that trip the word test's borrow
    /// (`0x01` after the sought byte, bytes one above or below it, high bytes), in strings
    /// shorter and longer than the words tested before `memchr`, from every start offset.
    #[test]
    fn the_first_quote_or_backslash_is_found_at_every_position() {
        let fillers = [b'a', 0x01, 0x00, b'#', b'!', b']', b'[', 0x80, 0xFF];
        for len in 0..(WORDS_BEFORE_MEMCHR * 8 + 20) {
            for (round, filler) in fillers.iter().enumerate() {
                let mut bytes: Vec<u8> = (0..len)
                    .map(|i| fillers[(i * 7 + round) % fillers.len()].max(*filler))
                    .collect();
                let reference = |bytes: &[u8], from: usize| {
                    bytes[from..]
                        .iter()
                        .position(|b| matches!(b, b'"' | b'\\'))
                        .map(|i| from + i)
                };
                for from in 0..=len.min(9) {
                    assert_eq!(quote_or_backslash(&bytes, from), reference(&bytes, from));
                }
                for at in 0..len {
                    for sought in [b'"', b'\\'] {
                        let kept = bytes[at];
                        bytes[at] = sought;
                        if at + 1 < len {
                            bytes[at + 1] = 0x01;
                        }
                        for from in 0..=at.min(9) {
                            assert_eq!(
                                quote_or_backslash(&bytes, from),
                                reference(&bytes, from),
                                "len {len}, sought {sought} at {at}, from {from}, {bytes:?}"
                            );
                        }
                        bytes[at] = kept;
                    }
                }
            }
        }
        assert_eq!(quote_or_backslash(b"ab", 3), None);
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
