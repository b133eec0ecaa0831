//! The structure of a JSON text that is already known to be valid, 64 bytes at a time: which
//! bytes are quotes, backslashes and brackets ([`BlockMasks`], one bit per byte, with
//! SSE2 on x86_64 and with `u64` words elsewhere), which of them lie inside strings (a prefix
//! XOR of the unescaped quotes, [`escaped_bytes`] telling escaped quotes apart), and from
//! that, whether every member of an object is an object ([`members_are_objects`]) without a
//! branch per byte.

/// Bytes per block.
const BLOCK: usize = 64;

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

/// The bytes a backslash escapes in a block whose backslashes are `backslashes` (bit k for
/// byte k), and whether the block's last byte is a backslash that escapes the next block's
/// first byte. `carry` is that bit (0 or 1) from the block before.
///
/// Only escaped bytes that are not backslashes are reported (nothing for an escaped
/// backslash): the callers look at the letters of escapes and at unescaped quotes, never at
/// which backslash of a `\\` pair is the escaped one.
///
/// A run of backslashes (its first byte not escaped from the block before) escapes the bytes
/// at odd distances from its start: those whose position differs in parity from the run's
/// start, up to the byte after the run. One subtraction marks them for every run at once:
/// subtracting the runs from themselves shifted up by one, with every odd bit set, borrows
/// through each run, and XOR with the odd bits then leaves exactly the bytes of opposite
/// parity to their run's start set (the escaped bytes, and the backslashes that start an
/// escape; the top one of those escapes the next block's first byte). A carry out of the
/// subtraction needs no handling. Checked against a byte-by-byte walk in the tests below.
///
/// Public for the string scanner of the `mcpwire` crate, which classifies blocks the same way.
///
/// ```
/// use mcpwire_support::escaped_bytes;
/// // `\"` at bytes 0-1 and `\\` at bytes 3-4: only the quote is reported.
/// assert_eq!(escaped_bytes(0b11001, 0), (0b10, 0));
/// // A backslash in the last byte escapes the next block's first byte.
/// assert_eq!(escaped_bytes(1 << 63, 0), (0, 1));
/// ```
#[inline(always)]
pub fn escaped_bytes(backslashes: u64, carry: u64) -> (u64, u64) {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    // A first byte escaped from the block before starts no run of its own.
    let free = backslashes & !carry;
    let parity = ((free << 1) | ODD).wrapping_sub(free) ^ ODD;
    let escaped = (parity ^ carry) & !backslashes;
    let escape_starts = parity & backslashes;
    (escaped, escape_starts >> 63)
}

/// [`BlockMasks`] of a block with SSE2 (every x86_64 CPU): four 16-byte lanes compared whole.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify_block(block: &[u8; BLOCK]) -> BlockMasks {
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };
    let splat = |byte: u8| set_splat_i8_m128i(byte as i8);
    let (quote, backslash, brace, bracket, close, case) = (
        splat(b'"'),
        splat(b'\\'),
        splat(b'{'),
        splat(b'['),
        splat(b'}'),
        splat(0x20),
    );
    let mut masks = BlockMasks::default();
    for (k, lane) in block.chunks_exact(16).enumerate() {
        let lane = load_unaligned_m128i(lane.try_into().expect("16-byte lanes"));
        let bits = |test: m128i| u64::from(move_mask_i8_m128i(test) as u16) << (16 * k);
        masks.quotes |= bits(cmp_eq_mask_i8_m128i(lane, quote));
        masks.backslashes |= bits(cmp_eq_mask_i8_m128i(lane, backslash));
        masks.braces |= bits(cmp_eq_mask_i8_m128i(lane, brace));
        masks.brackets |= bits(cmp_eq_mask_i8_m128i(lane, bracket));
        // `]` (0x5D) and `}` (0x7D) differ in bit 5 only, and no other byte becomes `}`.
        masks.closes |= bits(cmp_eq_mask_i8_m128i(bitor_m128i(lane, case), close));
    }
    masks
}

/// [`BlockMasks`] of a block eight bytes at a time, in `u64` words.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify_block(block: &[u8; BLOCK]) -> BlockMasks {
    classify_block_by_words(block)
}

/// [`BlockMasks`] of a block eight bytes at a time: each byte tested in a `u64` word, the
/// eight results gathered into a byte by one multiplication.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_block_by_words(block: &[u8; BLOCK]) -> BlockMasks {
    use super::scan::bytes_equal_exactly as equal;
    const CASE: u64 = u64::from_le_bytes([0x20; 8]);
    // Bit 7 of byte j to bit j: the multiplier's bytes shift each one to its own bit of the
    // top byte, with no two products meeting.
    let gather = |bits: u64| (bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut masks = BlockMasks::default();
    for (k, word) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("8-byte words"));
        let at = 8 * k;
        masks.quotes |= gather(equal(word, b'"')) << at;
        masks.backslashes |= gather(equal(word, b'\\')) << at;
        masks.braces |= gather(equal(word, b'{')) << at;
        masks.brackets |= gather(equal(word, b'[')) << at;
        masks.closes |= gather(equal(word | CASE, b'}')) << at;
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 sequence: deterministic, so a failing case is the same on every run.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

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

    /// The escaped bytes of a block by walking it byte by byte.
    fn escaped_by_walking(backslashes: u64, mut carry: bool) -> (u64, u64) {
        let mut escaped = 0;
        for k in 0..64 {
            if carry {
                escaped |= 1 << k;
                carry = false;
            } else if backslashes & (1 << k) != 0 {
                carry = true;
            }
        }
        // The walk also reports escaped backslashes; the subtraction keeps only the rest.
        let reported = escaped & !backslashes;
        (reported, u64::from(carry))
    }

    #[test]
    fn escaped_bytes_agree_with_a_byte_walk_on_every_kind_of_run() {
        let mut next = xorshift(0xB10C_5CA2_0000_0001);
        let mut patterns: Vec<u64> =
            vec![0, !0, 1, 1 << 63, !0 << 1, !0 >> 1, 0x5555_5555_5555_5555];
        patterns.extend((0..64).map(|k| !0u64 << k));
        patterns.extend((0..64).map(|k| !0u64 >> k));
        for _ in 0..200_000 {
            // Dense runs: AND/OR of random words gives runs of every length.
            let a = next();
            let b = next();
            patterns.push(match next() % 3 {
                0 => a | b,
                1 => a,
                _ => a | b | next(),
            });
        }
        for &backslashes in &patterns {
            for carry in [false, true] {
                let (escaped, out) = escaped_bytes(backslashes, u64::from(carry));
                let (expected, expected_out) = escaped_by_walking(backslashes, carry);
                assert_eq!(
                    (escaped, out),
                    (expected, expected_out),
                    "backslashes {backslashes:#066b}, carry {carry}"
                );
            }
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
