//! JSON strings (RFC 8259 §7): escapes and control bytes checked, eight bytes at a time
//! ([`super::words`]) and, on x86_64, 64 at a time after an escape (`blocks.rs`).

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::blocks;
use super::error::{ScanError, ScanErrorKind, err};
use super::unexpected;
use super::words::{special_bytes, special_word, word_at};

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

/// The bytes that may follow a backslash in a two-character escape: `" \\ / b f n r t`.
/// A table look-up instead of a chain of comparisons: escapes are frequent in long texts
/// (a `\\n` per line, `\\"` around quotations).
pub(super) const SHORT_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let escapes = b"\"\\/bfnrt";
    let mut k = 0;
    while k < escapes.len() {
        table[escapes[k] as usize] = true;
        k += 1;
    }
    table
};

/// Scans a string starting at its opening quote at `pos`.
///
/// Bytes of 0x80 and above are skipped without a UTF-8 check (see [`scan_value`](super::scan_value)).
///
/// The special bytes of one word are taken from its mask one after the other: an escape
/// such as `\\n` or `\\"` is checked and the scan goes on in the same word, and the next word
/// read is the one after it, whose offset does not depend on where the escape was (text
/// with an escape every few dozen bytes is scanned about a quarter faster than when every
/// escape restarted the search just past itself).
///
/// On x86_64, after an escape past its first 64 bytes a string is scanned on in blocks of 64
/// bytes with SSE2 compares (`scan/blocks.rs`): its escapes are resolved from per-block bit
/// masks instead of one at a time. Text without escapes stays
/// with the words (32 bytes per step, fewer instructions per byte than a block), and the
/// words take the last bytes of the input (fewer than 64 from where the blocks stop) and
/// serve other targets; both give the same results.
#[inline]
pub fn scan_string(bytes: &[u8], pos: usize) -> Result<StringInfo, ScanError> {
    if bytes.get(pos) != Some(&b'"') {
        return Err(unexpected(bytes, pos));
    }
    // Most strings (keys, names, ids, method names) end within their first two words, with
    // nothing before the quote: those are served here, inline; the rest out of line.
    let plain_end = |word: usize| {
        let special = special_bytes(word_at(bytes, word));
        let p = word + (special.trailing_zeros() / 8) as usize;
        (special == 0, (bytes.get(p) == Some(&b'"')).then_some(p + 1))
    };
    let first = pos + 1;
    let (first_plain, mut end) = plain_end(first);
    if end.is_none() && first_plain && first + 8 < bytes.len() {
        end = plain_end(first + 8).1;
    }
    if let Some(end) = end {
        return Ok(StringInfo {
            start: pos,
            end,
            has_escapes: false,
        });
    }
    scan_string_on(bytes, pos, if first_plain { first + 8 } else { first })
}

/// The rest of [`scan_string`] for the string whose opening quote is at `start`, from `i`,
/// which no special byte precedes.
#[inline(never)]
pub(super) fn scan_string_on(
    bytes: &[u8],
    start: usize,
    mut i: usize,
) -> Result<StringInfo, ScanError> {
    let mut has_escapes = false;
    // The rest goes to blocks of 64 (once) after an escape past the first 64 bytes, and,
    // where blocks beat words on plain text too (AVX2, AVX-512), from the 128th byte on: the
    // words stop at `words_until`, and `to_blocks` is set when the blocks take over at `i`.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let (mut blocks_after_escape_at, mut to_blocks) = (start + 64, false);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let mut words_until = match blocks::blocks_beat_words() {
        true => (start + 128).min(bytes.len()),
        false => bytes.len(),
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let words_until = bytes.len();
    'words: loop {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if to_blocks {
            (to_blocks, words_until, blocks_after_escape_at) = (false, bytes.len(), usize::MAX);
            match blocks::scan_blocks(bytes, i)? {
                blocks::Stop::Closed { quote, escapes } => {
                    return Ok(StringInfo {
                        start,
                        end: quote + 1,
                        has_escapes: has_escapes || escapes,
                    });
                }
                blocks::Stop::Tail { from, escapes } => {
                    has_escapes |= escapes;
                    i = from;
                }
            }
        }
        let Some((word, mut special)) = special_word(&bytes[..words_until], i) else {
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            if words_until < bytes.len() {
                // Nothing special up to there: the blocks go on from the first byte unread.
                (i, to_blocks) = (i.max(words_until), true);
                continue 'words;
            }
            return Err(err(ScanErrorKind::UnexpectedEnd, bytes.len()));
        };
        loop {
            let p = word + (special.trailing_zeros() / 8) as usize;
            match bytes[p] {
                b'"' => {
                    return Ok(StringInfo {
                        start,
                        end: p + 1,
                        has_escapes,
                    });
                }
                b'\\' => {
                    has_escapes = true;
                    let next = match bytes.get(p + 1) {
                        Some(&e) if SHORT_ESCAPE[usize::from(e)] => p + 2,
                        _ => escape_end(bytes, p)?,
                    };
                    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                    if next >= blocks_after_escape_at {
                        (i, to_blocks) = (next, true);
                        continue 'words;
                    }
                    if next >= word + 8 {
                        i = next;
                        continue 'words;
                    }
                    special &= !0u64 << ((next - word) * 8);
                }
                0x00..=0x1f => return Err(err(ScanErrorKind::ControlCharacter, p)),
                // Above the lowest special byte the mask may flag an ordinary byte.
                _ => special &= special - 1,
            }
            if special == 0 {
                i = word + 8;
                continue 'words;
            }
        }
    }
}

/// Checks the escape whose backslash is at `p`: the offset just past it, or where it is
/// malformed (at the backslash) or cut short by the end of the input.
#[inline]
pub(super) fn escape_end(bytes: &[u8], p: usize) -> Result<usize, ScanError> {
    match bytes.get(p + 1) {
        Some(&e) if SHORT_ESCAPE[usize::from(e)] => Ok(p + 2),
        Some(b'u') => {
            for k in 0..4 {
                match bytes.get(p + 2 + k) {
                    Some(h) if h.is_ascii_hexdigit() => {}
                    Some(_) => return Err(err(ScanErrorKind::BadEscape, p)),
                    None => return Err(err(ScanErrorKind::UnexpectedEnd, p + 2 + k)),
                }
            }
            Ok(p + 6)
        }
        Some(_) => Err(err(ScanErrorKind::BadEscape, p)),
        None => Err(err(ScanErrorKind::UnexpectedEnd, p + 1)),
    }
}
