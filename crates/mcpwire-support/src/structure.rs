//! The structure of a JSON text that is already known to be valid, 64 bytes at a time: which
//! bytes are quotes, backslashes and brackets ([`BlockMasks`], one bit per byte, with
//! SSE2 on x86_64 and with `u64` words elsewhere), which of them lie inside strings (a prefix
//! XOR of the unescaped quotes, [`escaped_bytes`] telling escaped quotes apart), and from
//! that, whether every member of an object is an object ([`members_are_objects`]) without a
//! branch per byte.

use crate::fast_json::escapes::escaped_bytes;
#[cfg(target_arch = "x86_64")]
use crate::fast_json::lanes::{Lanes, splat};
use crate::fast_json::{BLOCK, words};

/// One block's bytes of interest: bit k stands for byte k of the block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct BlockMasks {
    /// `"`.
    quotes: u64,
    /// `\`.
    backslashes: u64,
    /// `{`.
    braces: u64,
    /// `[`.
    brackets: u64,
    /// `}` and `]`.
    closes: u64,
}

/// Whether every member of the JSON object `bytes` (valid JSON text, surrounding whitespace
/// allowed) has an object as its value.
///
/// Only the brackets and braces outside strings are visited, in order, keeping the depth.
/// Between two of them the depth does not change, so the strings that open there at depth 1
/// are counted at once (their opening quotes, one population count): at depth 1 a string is a
/// member's name or a member's string value. Every member's value is an object exactly when
/// no `[` opens at depth 1 and as many `{` open there as strings do: a member whose value is
/// a string, number or literal adds a string (its name) and no `{`. `false` also for anything
/// that is not an object, so the member-by-member walk of [`super::scan`] can name what it
/// found.
pub(super) fn members_are_objects(bytes: &[u8]) -> bool {
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return false;
    }
    let mut depth = 0usize;
    // Strings and `{` opened at depth 1 so far.
    let (mut strings_at_1, mut objects_at_1) = (0u32, 0u32);
    let mut in_string = 0u64;
    let mut escape_carry = 0u64;
    for start in (0..bytes.len()).step_by(BLOCK) {
        let masks = classify(bytes, start);
        let (escaped, carry) = escaped_bytes(masks.backslashes, escape_carry);
        escape_carry = carry;
        let quotes = masks.quotes & !escaped;
        let inside = prefix_xor(quotes) ^ in_string;
        in_string = 0u64.wrapping_sub(inside >> 63);
        // A string's opening quote is inside it, its closing quote is not.
        let string_starts = quotes & inside;
        let braces = masks.braces & !inside;
        let opens = braces | (masks.brackets & !inside);
        let mut turns = opens | (masks.closes & !inside);
        // The bytes from the last turn on (all of the block before the first).
        let mut since = !0u64;
        while turns != 0 {
            let turn = turns & turns.wrapping_neg();
            let before = since & (turn - 1);
            since = !(turn | (turn - 1));
            turns ^= turn;
            if depth == 1 {
                strings_at_1 += (string_starts & before).count_ones();
            }
            if opens & turn != 0 {
                if depth == 1 {
                    if braces & turn == 0 {
                        return false;
                    }
                    objects_at_1 += 1;
                }
                depth += 1;
            } else {
                depth -= 1;
                if depth == 0 {
                    return strings_at_1 == objects_at_1;
                }
            }
        }
        if depth == 1 {
            strings_at_1 += (string_starts & since).count_ones();
        }
    }
    false
}

/// The masks of the block of `bytes` from `start`; the bits past the end of `bytes` are zero.
/// A last block shorter than 64 bytes is read as the text's last 64 bytes, its masks shifted
/// down to start at `start` (a text shorter than a block is copied out, padded with spaces).
#[inline(always)]
fn classify(bytes: &[u8], start: usize) -> BlockMasks {
    if let Some(block) = bytes.get(start..start + BLOCK) {
        return classify_block(block.try_into().expect("a whole block"));
    }
    match bytes.len().checked_sub(BLOCK) {
        Some(last) => {
            let masks = classify_block(bytes[last..].try_into().expect("a whole block"));
            masks.shifted_down(start - last)
        }
        None => {
            let mut block = [b' '; BLOCK];
            block[..bytes.len() - start].copy_from_slice(&bytes[start..]);
            classify_block(&block)
        }
    }
}

impl BlockMasks {
    /// The masks with bit `by + k` moved to bit k (`by` below 64).
    #[inline(always)]
    fn shifted_down(self, by: usize) -> Self {
        Self {
            quotes: self.quotes >> by,
            backslashes: self.backslashes >> by,
            braces: self.braces >> by,
            brackets: self.brackets >> by,
            closes: self.closes >> by,
        }
    }
}

/// Bit k of the result set where bit k of `x` or an odd number of lower bits are set: from
/// the quotes of a block, the bytes inside strings (each string's opening quote included, its
/// closing quote not).
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// [`BlockMasks`] of a block with SSE2 (every x86_64 CPU): four 16-byte lanes compared whole.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_block(block: &[u8; BLOCK]) -> BlockMasks {
    use safe_arch::{bitor_m128i, cmp_eq_mask_i8_m128i};
    let lanes = Lanes::load(block);
    let equal = |byte: u8| lanes.mask(|lane| cmp_eq_mask_i8_m128i(lane, splat(byte)));
    BlockMasks {
        quotes: equal(b'"'),
        backslashes: equal(b'\\'),
        braces: equal(b'{'),
        brackets: equal(b'['),
        // `]` (0x5D) and `}` (0x7D) differ in bit 5 only, and no other byte becomes `}`.
        closes: lanes
            .mask(|lane| cmp_eq_mask_i8_m128i(bitor_m128i(lane, splat(0x20)), splat(b'}'))),
    }
}

/// [`BlockMasks`] of a block eight bytes at a time, in `u64` words.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify_block(block: &[u8; BLOCK]) -> BlockMasks {
    classify_block_by_words(block)
}

/// [`BlockMasks`] of a block eight bytes at a time: each byte tested in a `u64` word, the
/// eight results gathered into a byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_block_by_words(block: &[u8; BLOCK]) -> BlockMasks {
    use words::{bytes_equal_exactly as equal, gather};
    let mut masks = BlockMasks::default();
    for k in 0..BLOCK / 8 {
        let word = words::load(block, 8 * k);
        let at = 8 * k;
        masks.quotes |= gather(equal(word, b'"')) << at;
        masks.backslashes |= gather(equal(word, b'\\')) << at;
        masks.braces |= gather(equal(word, b'{')) << at;
        masks.brackets |= gather(equal(word, b'[')) << at;
        masks.closes |= gather(equal(word | words::splat(0x20), b'}')) << at;
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::xorshift;

    /// The masks of a block byte by byte.
    fn classify_by_bytes(block: &[u8; BLOCK]) -> BlockMasks {
        let mut masks = BlockMasks::default();
        for (k, byte) in block.iter().enumerate() {
            let bit = 1u64 << k;
            match byte {
                b'"' => masks.quotes |= bit,
                b'\\' => masks.backslashes |= bit,
                b'{' => masks.braces |= bit,
                b'[' => masks.brackets |= bit,
                b'}' | b']' => masks.closes |= bit,
                _ => {}
            }
        }
        masks
    }

    #[test]
    fn every_classifier_flags_exactly_their_bytes_at_every_position() {
        let mut next = xorshift(0x5EED_B10C_0000_0015);
        let alphabet = b"\"\\{}[]:,; |]}{}\x00\x7f\x80\xff\x5b\x5d\x3a\x7b\x7d\x1a\x3b";
        for round in 0..20_000 {
            let mut block = [0u8; BLOCK];
            for byte in &mut block {
                let pick = next();
                *byte = if round % 2 == 0 {
                    alphabet[(pick % alphabet.len() as u64) as usize]
                } else {
                    pick as u8
                };
            }
            let expected = classify_by_bytes(&block);
            assert_eq!(classify_block(&block), expected, "{block:?}");
            assert_eq!(classify_block_by_words(&block), expected, "{block:?}");
        }
    }

    #[test]
    fn prefix_xor_marks_the_inside_of_every_string() {
        // Quotes at 1 and 4, at 6 and 7: inside are 1..4 and 6..7 (opening quotes included).
        assert_eq!(prefix_xor(0b1101_0010), 0b0100_1110);
        assert_eq!(prefix_xor(1), !0);
        assert_eq!(prefix_xor(1 << 63), 1 << 63);
    }

    /// A random JSON value of at most `depth` levels, with whitespace between tokens now and
    /// then and strings full of the bytes the blocks look for (quotes escaped, backslashes in
    /// runs, brackets and colons).
    fn random_value(next: &mut impl FnMut() -> u64, depth: u32, out: &mut String) {
        let space = |next: &mut dyn FnMut() -> u64, out: &mut String| {
            if next().is_multiple_of(4) {
                out.push_str(&" \n\t\r "[..(next() % 5) as usize + 1]);
            }
        };
        let pick = if depth == 0 { next() % 4 } else { next() % 6 };
        match pick {
            0 => out.push_str(["0", "-1.5e3", "12345678901234567890", "7"][(next() % 4) as usize]),
            1 => out.push_str(["true", "false", "null"][(next() % 3) as usize]),
            2 | 3 => random_string(next, "", out),
            4 => {
                out.push('[');
                for k in 0..next() % 4 {
                    if k > 0 {
                        out.push(',');
                    }
                    space(next, out);
                    random_value(next, depth - 1, out);
                    space(next, out);
                }
                out.push(']');
            }
            _ => random_object(next, depth - 1, out, |next, depth, out| {
                random_value(next, depth, out)
            }),
        }
    }

    /// A random JSON string, starting with `prefix`.
    fn random_string(next: &mut impl FnMut() -> u64, prefix: &str, out: &mut String) {
        const PIECES: [&str; 12] = [
            "a", "{", "}", "[", "]", ":", ",", "\\\"", "\\\\", "\\u00e9", "word ", "é",
        ];
        out.push('"');
        out.push_str(prefix);
        for _ in 0..next() % 40 {
            out.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
        }
        out.push('"');
    }

    /// A random JSON object whose member values come from `value`.
    fn random_object<N: FnMut() -> u64>(
        next: &mut N,
        depth: u32,
        out: &mut String,
        mut value: impl FnMut(&mut N, u32, &mut String),
    ) {
        out.push('{');
        for k in 0..next() % 5 {
            if k > 0 {
                out.push(',');
            }
            if next().is_multiple_of(3) {
                out.push(' ');
            }
            // Names differ (serde_json's map, the test's oracle, keeps one of a repeated name).
            random_string(next, &k.to_string(), out);
            out.push_str([":", " : ", ":\n"][(next() % 3) as usize]);
            value(next, depth, out);
        }
        out.push('}');
    }

    #[test]
    fn members_are_objects_agrees_with_serde_json_and_the_walk_on_random_objects() {
        let mut next = xorshift(0x0B1E_C75A_11A6_4EE5);
        let mut counts = [0usize; 2];
        for _ in 0..30_000 {
            let mut text = " ".repeat((next() % 3) as usize);
            // Mostly objects of objects (the common case), the rest anything.
            let objects_only = next().is_multiple_of(2);
            random_object(&mut next, 3, &mut text, |next, depth, out| {
                if objects_only && next() % 8 != 0 {
                    random_object(next, depth, out, |next, depth, out| {
                        random_value(next, depth, out)
                    });
                } else {
                    random_value(next, depth, out);
                }
            });
            let members: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            let expected = members.values().all(serde_json::Value::is_object);
            assert_eq!(members_are_objects(text.as_bytes()), expected, "{text}");
            assert_eq!(
                super::super::scan::first_non_object_member_by_walking(&text).is_none(),
                expected,
                "{text}"
            );
            counts[usize::from(expected)] += 1;
        }
        // Both answers came up often.
        assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
    }

    #[test]
    fn members_are_objects_on_strings_escapes_and_block_edges() {
        let pad = |n: usize| " ".repeat(n);
        for shift in 0..70 {
            let space = pad(shift);
            let yes = [
                format!("{space}{{}}"),
                format!(r#"{space}{{"a":{{"x":"}}:[{{"}},"b" : {{ }} }}"#),
                format!(r#"{{"a{space}":{{"s":"\\\"{space}:1"}},"b\"":{{"c":[1,{{"d":2}}]}}}}"#),
                format!(r#"{{"a":{{"b":{{"c":{{}}}},"d":[[],{{}}]}}{space}}}"#),
            ];
            for text in &yes {
                assert!(members_are_objects(text.as_bytes()), "{text}");
            }
            let no = [
                format!(r#"{space}{{"a":1}}"#),
                format!(r#"{{"a":{{}},"b{space}":"{{"}}"#),
                format!(r#"{{"a":{{}},"b":[{{}}]{space}}}"#),
                format!(r#"{{"a\\":{{}},"b\\\"":{space}null}}"#),
                format!(r#"{{"a":{{"x":1}},"b" :{space}true}}"#),
                format!("{space}[{{}}]"),
                format!("{space}\"{{}}\""),
                format!(r#"{{"a":{{}}{space}"#),
            ];
            for text in &no {
                assert!(!members_are_objects(text.as_bytes()), "{text}");
            }
        }
    }
}
