//! String contents eight bytes at a time: the `"`, `\\` and control bytes of a `u64` word,
//! and words read at the end of the input with spaces standing in past it.

use mcpwire_types::support::fast_json::words::{HIGHS, ONES, bytes_equal, load as word_in};

/// Bit mask with the high bit set in every byte of `word` that is `"`, `\` or below 0x20
/// (exact for the lowest such byte; a higher byte may be a false positive: `#` above a
/// special byte, `]` above a backslash).
///
/// Two tests instead of three: a byte `b` is `"` or a control character exactly when
/// `b ^ 0x02` is below 0x21 (the flip maps 0x00–0x1f onto itself and `"` (0x22) onto 0x20,
/// and nothing else below 0x21), and one has-less-than test covers both.
#[inline]
pub(super) fn special_bytes(word: u64) -> u64 {
    let flipped = word ^ (ONES * 0x02);
    let quote_or_control = flipped.wrapping_sub(ONES * 0x21) & !flipped;
    (quote_or_control & HIGHS) | bytes_equal(word, b'\\')
}

/// Finds the first eight-byte word at `i`, `i + 8`, `i + 16`, ... holding a `"`, `\\` or
/// control byte: its offset and its [`special_bytes`] mask (never zero). Past the end of the
/// input, spaces (ordinary bytes) stand in; `None` when the input ends before any special
/// byte.
///
/// Short strings are served by the first two words; long runs go 32 bytes per step (four
/// words tested together, one branch), and the block holding a special byte is then looked
/// at word by word. Each step takes one bounds-checked slice of the input and reads its
/// words at constant offsets, so the words need no further checks: on escape-free text that
/// costs about 0.6 of the time of word-by-word steps.
#[inline]
pub(super) fn special_word(bytes: &[u8], mut i: usize) -> Option<(usize, u64)> {
    if let Some(first) = bytes.get(i..i + 8) {
        let special = special_bytes(word_in(first, 0));
        if special != 0 {
            return Some((i, special));
        }
        i += 8;
        if let Some(second) = bytes.get(i..i + 8) {
            let special = special_bytes(word_in(second, 0));
            if special != 0 {
                return Some((i, special));
            }
            i += 8;
        }
        while let Some(block) = bytes.get(i..i + 32) {
            let special = special_bytes(word_in(block, 0))
                | special_bytes(word_in(block, 8))
                | special_bytes(word_in(block, 16))
                | special_bytes(word_in(block, 24));
            if special != 0 {
                break;
            }
            i += 32;
        }
        while let Some(word) = bytes.get(i..i + 8) {
            let special = special_bytes(word_in(word, 0));
            if special != 0 {
                return Some((i, special));
            }
            i += 8;
        }
    }
    if i >= bytes.len() {
        return None;
    }
    let special = special_bytes(tail_word(bytes, i));
    (special != 0).then_some((i, special))
}

/// The bytes from `i` to the end of the input (fewer than eight, at least one) as a
/// little-endian word, with spaces (ordinary bytes) above them. Where the input has eight
/// bytes they are the top of its last word, shifted down: one load and two shifts (the end of
/// a frame, such as `"ping"}`, is read this way). Shorter inputs go through [`short_word`].
#[inline]
pub(super) fn tail_word(bytes: &[u8], i: usize) -> u64 {
    let rest = bytes.len() - i;
    debug_assert!((1..8).contains(&rest));
    match bytes.len().checked_sub(8) {
        Some(last) => {
            let spaces = (ONES * u64::from(b' ')) << (8 * rest);
            (word_in(bytes, last) >> (8 * (8 - rest))) | spaces
        }
        None => short_word(&bytes[i..]),
    }
}

/// The eight bytes from `i` as a little-endian word, spaces standing in past the end of the
/// input (all spaces from the end on).
#[inline(always)]
pub(super) fn word_at(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..i + 8) {
        Some(word) => word_in(word, 0),
        None if i < bytes.len() => tail_word(bytes, i),
        None => ONES * u64::from(b' '),
    }
}

/// Fewer than eight bytes (the end of a string at the end of an input shorter than eight
/// bytes) as a little-endian word, with spaces (ordinary bytes) above them. The word is put
/// together in a register:
/// copying the bytes into a buffer costs a `memcpy` call and a stalled load (a `ping` frame
/// decoded 10% slower that way). Kept out of line so that the long-string loops stay small.
#[inline(never)]
pub(super) fn short_word(rest: &[u8]) -> u64 {
    debug_assert!(rest.len() < 8);
    let spaces = (ONES * u64::from(b' ')) << (8 * rest.len());
    spaces
        | rest
            .iter()
            .rev()
            .fold(0, |word, &b| (word << 8) | u64::from(b))
}
