//! JSON strings for the fast deserializer ([`super::de`]): where a string's next quote,
//! backslash or control character is, 64 bytes at a time; the string decoded (runs copied
//! whole, escapes decoded one by one) or skipped (checked, not decoded).
//!
//! The rules are serde_json's for a string decoded as text: a control character
//! (`0x00`-`0x1F`) is refused, an escape is one of `\" \\ \/ \b \f \n \r \t \uXXXX`, and a
//! `\u` escape of a UTF-16 surrogate must be a leading one followed by a `\u` escape of a
//! trailing one. A skipped string is checked as serde_json checks one it ignores: the escape
//! letters and the four hex digits, but not what the digits encode. Anything else is
//! [`Refused`], and the caller decodes with serde_json instead.

use super::BLOCK;

/// The text is not something the fast path decodes (the caller falls back to serde_json,
/// which says what is wrong with it, or decodes what the fast path does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Refused;

/// A decoded string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decoded<'de> {
    /// The string had no escape: its text, borrowed from the input.
    Borrowed(&'de str),
    /// The string had an escape: decoded into the scratch buffer.
    Unescaped,
}

/// The string whose opening quote is just before `at` in `text`: decoded (into `scratch`
/// when it has an escape), and the index after its closing quote.
pub(super) fn parse<'de>(
    text: &'de str,
    at: usize,
    scratch: &mut String,
) -> Result<(Decoded<'de>, usize), Refused> {
    let bytes = text.as_bytes();
    let mut specials = Specials::at(bytes, at);
    let mut k = specials.next(bytes, at);
    match bytes.get(k) {
        Some(b'"') => return Ok((Decoded::Borrowed(&text[at..k]), k + 1)),
        Some(b'\\') => {}
        _ => return Err(Refused),
    }
    scratch.clear();
    let mut run = at;
    loop {
        // `bytes[k]` is a backslash: the run before it is plain text (it starts and ends
        // at ASCII bytes, so at character boundaries).
        push_run(scratch, text, run, k);
        let resume;
        (run, resume) = match bytes.get(k + 1) {
            // The escape's letter is the character it stands for: the next run starts with
            // it (copied with the run, not pushed alone), the search after it.
            Some(b'"' | b'\\' | b'/') => (k + 1, k + 2),
            _ => {
                let end = unescape(bytes, k + 1, scratch)?;
                (end, end)
            }
        };
        k = specials.next(bytes, resume);
        match bytes.get(k) {
            Some(b'"') => {
                scratch.push_str(&text[run..k]);
                return Ok((Decoded::Unescaped, k + 1));
            }
            Some(b'\\') => {}
            _ => return Err(Refused),
        }
    }
}

/// Appends `text[run..end]` (a run between escapes) to `scratch`. A short run is copied as
/// 16 bytes (inline, no call) and the bytes past its end cut off again, where the text
/// has them and they end at a character boundary; a longer one with `push_str`.
#[inline(always)]
fn push_run(scratch: &mut String, text: &str, run: usize, end: usize) {
    const SHORT: usize = 16;
    if end - run <= SHORT
        && let Some(chunk) = text.get(run..run + SHORT)
    {
        let len = scratch.len() + (end - run);
        scratch.push_str(chunk);
        scratch.truncate(len);
        return;
    }
    scratch.push_str(&text[run..end]);
}

/// Checks the string whose opening quote is just before `at`, as serde_json checks a string
/// it ignores; the index after its closing quote.
pub(super) fn skip(bytes: &[u8], at: usize) -> Result<usize, Refused> {
    let mut specials = Specials::at(bytes, at);
    let mut k = at;
    loop {
        k = specials.next(bytes, k);
        match bytes.get(k) {
            Some(b'"') => return Ok(k + 1),
            Some(b'\\') => {
                k = match bytes.get(k + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => k + 2,
                    Some(b'u') => {
                        hex4(bytes, k + 2).ok_or(Refused)?;
                        k + 6
                    }
                    _ => return Err(Refused),
                }
            }
            _ => return Err(Refused),
        }
    }
}

/// Decodes the escape whose letter is at `at` (just after its backslash) into `scratch`;
/// the index after the escape.
#[inline]
fn unescape(bytes: &[u8], at: usize, scratch: &mut String) -> Result<usize, Refused> {
    let decoded = match bytes.get(at) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\x08',
        Some(b'f') => '\x0c',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(bytes, at + 1, scratch),
        _ => return Err(Refused),
    };
    scratch.push(decoded);
    Ok(at + 1)
}

/// Decodes the four hex digits of a `\u` escape at `at` (and, for a leading surrogate, the
/// `\u` escape of its trailing one) into `scratch`; the index after them.
fn unicode_escape(bytes: &[u8], at: usize, scratch: &mut String) -> Result<usize, Refused> {
    let first = u32::from(hex4(bytes, at).ok_or(Refused)?);
    let (code_point, end) = match first {
        0xD800..=0xDBFF => {
            if bytes.get(at + 4) != Some(&b'\\') || bytes.get(at + 5) != Some(&b'u') {
                return Err(Refused);
            }
            let second = u32::from(hex4(bytes, at + 6).ok_or(Refused)?);
            if !(0xDC00..=0xDFFF).contains(&second) {
                return Err(Refused);
            }
            (
                0x1_0000 + ((first - 0xD800) << 10) + (second - 0xDC00),
                at + 10,
            )
        }
        // A trailing surrogate with no leading one.
        0xDC00..=0xDFFF => return Err(Refused),
        _ => (first, at + 4),
    };
    scratch.push(char::from_u32(code_point).ok_or(Refused)?);
    Ok(end)
}

/// The four hex digits at `at` (either case), as serde_json reads them.
#[inline]
fn hex4(bytes: &[u8], at: usize) -> Option<u16> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0u16, |value, &digit| {
        let nibble = match digit {
            b'0'..=b'9' => digit - b'0',
            b'a'..=b'f' => digit - b'a' + 10,
            b'A'..=b'F' => digit - b'A' + 10,
            _ => return None,
        };
        Some(value << 4 | u16::from(nibble))
    })
}

/// The special bytes of a string (quote, backslash, control character) in the 64-byte
/// block that starts at `base`, one bit per byte; a block reaching past the input is padded
/// with NUL bytes, which are special, so a search never runs past the end.
struct Specials {
    base: usize,
    mask: u64,
}

impl Specials {
    /// The block starting at `at`.
    #[inline]
    fn at(bytes: &[u8], at: usize) -> Self {
        Self {
            base: at,
            mask: block_mask(bytes, at),
        }
    }

    /// The index of the first special byte at or after `from` (at least `bytes.len()` when
    /// the input ends first). `from` is at or after the current block's start.
    #[inline]
    fn next(&mut self, bytes: &[u8], mut from: usize) -> usize {
        loop {
            let offset = from - self.base;
            if offset < BLOCK {
                let left = self.mask & (u64::MAX << offset);
                if left != 0 {
                    return self.base + left.trailing_zeros() as usize;
                }
                from = self.base + BLOCK;
            }
            self.base = from;
            self.mask = block_mask(bytes, from);
        }
    }
}

/// The special bits of the 64 bytes from `at` (NUL padding past the end).
#[inline]
fn block_mask(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + BLOCK) {
        Some(block) => classify(block.try_into().expect("a block")),
        None => {
            let mut block = [0u8; BLOCK];
            let rest = bytes.get(at..).unwrap_or_default();
            block[..rest.len()].copy_from_slice(rest);
            classify(&block)
        }
    }
}

/// Bit k set where byte k of `block` is a quote, a backslash or a control character: four
/// 16-byte SSE2 compares per byte class.
#[cfg(target_arch = "x86_64")]
#[inline]
fn classify(block: &[u8; BLOCK]) -> u64 {
    use super::lanes::{Lanes, splat};
    use safe_arch::{bitor_m128i, cmp_eq_mask_i8_m128i, max_u8_m128i};
    Lanes::load(block).mask(|lane| {
        let quote = cmp_eq_mask_i8_m128i(lane, splat(b'"'));
        let backslash = cmp_eq_mask_i8_m128i(lane, splat(b'\\'));
        // `max(b, 0x1F) == 0x1F` exactly for the bytes up to 0x1F (unsigned).
        let control = cmp_eq_mask_i8_m128i(max_u8_m128i(lane, splat(0x1F)), splat(0x1F));
        bitor_m128i(bitor_m128i(quote, backslash), control)
    })
}

/// Bit k set where byte k of `block` is a quote, a backslash or a control character: eight
/// bytes at a time in a word.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn classify(block: &[u8; BLOCK]) -> u64 {
    classify_words(block)
}

/// [`classify`] with words alone (the portable classifier; on x86_64 the tests check the
/// SSE2 one against it).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
fn classify_words(block: &[u8; BLOCK]) -> u64 {
    use super::words::{HIGHS, bytes_equal_exactly, gather, load, splat};
    (0..BLOCK / 8).fold(0, |mask, k| {
        let word = load(block, 8 * k);
        // Bit 7 stays clear exactly where the low seven bits plus 0x60 do not reach 0x80
        // (below 0x20) and bit 7 itself is clear: the bytes below 0x20. No byte carries into
        // the next (0x7F + 0x60 < 0x100).
        let control = !(((word & !HIGHS) + splat(0x60)) | word) & HIGHS;
        let special = bytes_equal_exactly(word, b'"') | bytes_equal_exactly(word, b'\\') | control;
        mask | gather(special) << (8 * k)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::xorshift;

    fn decode(literal: &str) -> Result<(String, bool), Refused> {
        let mut scratch = String::new();
        let (decoded, end) = parse(literal, 1, &mut scratch)?;
        assert_eq!(end, literal.len(), "{literal:?} ends at its closing quote");
        Ok(match decoded {
            Decoded::Borrowed(text) => (text.to_owned(), true),
            Decoded::Unescaped => (scratch, false),
        })
    }

    #[test]
    fn strings_decode_as_serde_json_decodes_them_or_are_refused() {
        let long = "x".repeat(200);
        let cases = [
            r#""""#.to_owned(),
            r#""plain""#.to_owned(),
            format!(r#""{long}""#),
            format!(r#""{long}\n{long}\"""#),
            r#""\"\\\/\b\f\n\r\t""#.to_owned(),
            r#""é\u00e9\u20AC\ud83d\ude00 ✓""#.to_owned(),
            format!("\"{}\\u0041\"", "y".repeat(61)),
            // Escapes whose letter is the character, back to back and after short runs.
            r#""\\\"\/\\\\\"\"x\/""#.to_owned(),
            format!(r#""{long}. \"Quoted.\"\n{long}""#),
            // Runs of 15, 16 and 17 bytes, with and without 16 bytes of text after them, and
            // a run whose 16 bytes end inside a character.
            format!(
                r#""\n{}\n{}\n{}\n""#,
                "a".repeat(15),
                "b".repeat(16),
                "c".repeat(17)
            ),
            format!(r#""\t{}\t""#, "d".repeat(16)),
            format!(r#""\t{}é\téé\t""#, "e".repeat(14)),
            format!(r#""ab\n{}""#, "é".repeat(8)),
            format!(r#""abc\n{}""#, "é".repeat(8)),
            format!(r#""x\n{}✓{}\n""#, "f".repeat(13), "é".repeat(9)),
        ];
        for literal in &cases {
            let expected: String = serde_json::from_str(literal).unwrap();
            let (got, borrowed) = decode(literal).unwrap();
            assert_eq!(got, expected, "{literal}");
            assert_eq!(borrowed, !literal.contains('\\'), "{literal}");
            assert_eq!(skip(literal.as_bytes(), 1), Ok(literal.len()), "{literal}");
        }
        let refused = [
            "\"a",
            "\"a\\",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\ud800\"",
            "\"\\ud800\\n\"",
            "\"\\ud800\\u0041\"",
            "\"\\udc00\"",
            "\"tab\there\"",
            "\"nul\u{0}\"",
        ];
        for literal in refused {
            assert!(
                serde_json::from_str::<String>(literal).is_err(),
                "{literal:?}"
            );
            assert_eq!(decode(literal), Err(Refused), "{literal:?}");
        }
        // A skipped string does not look at what a `\u` escape encodes, as serde_json.
        assert_eq!(skip(b"\"\\ud800\"", 1), Ok(8));
        assert_eq!(skip(b"\"\\u12g4\"", 1), Err(Refused));
        assert_eq!(skip(b"\"\x1f\"", 1), Err(Refused));
    }

    #[test]
    fn the_classifier_flags_exactly_quotes_backslashes_and_control_characters() {
        let mut next = xorshift(0x5EED_0000_0000_0052);
        for round in 0..2_000 {
            let mut block = [0u8; BLOCK];
            for byte in &mut block {
                let r = next();
                *byte = match (round % 3, r % 4) {
                    (0, _) => r as u8,
                    (_, 0) => b'"',
                    (_, 1) => b'\\',
                    _ => (r >> 8) as u8,
                };
            }
            let expected = block.iter().enumerate().fold(0u64, |mask, (k, &b)| {
                mask | (u64::from(b == b'"' || b == b'\\' || b < 0x20) << k)
            });
            assert_eq!(classify(&block), expected, "{block:?}");
            assert_eq!(classify_words(&block), expected, "{block:?}");
        }
    }
}
