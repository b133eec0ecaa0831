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

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod blocks;

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

/// `bytes` as text when they are UTF-8, or an [`InvalidUtf8`](ScanErrorKind::InvalidUtf8)
/// error at the first byte that is not.
///
/// The same answer as [`std::str::from_utf8`], faster on long input: the check is
/// vectorised (`simdutf8`, with AVX2 or NEON when the CPU has it), and the standard library
/// only runs to locate the error.
///
/// ```
/// use mcpwire::scan::{utf8, ScanErrorKind};
///
/// assert_eq!(utf8("é".as_bytes()).unwrap(), "é");
/// let error = utf8(b"ok \xff").unwrap_err();
/// assert_eq!((error.kind, error.offset), (ScanErrorKind::InvalidUtf8, 3));
/// ```
pub fn utf8(bytes: &[u8]) -> Result<&str, ScanError> {
    simdutf8::basic::from_utf8(bytes).map_err(|_| {
        let valid_up_to = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len);
        err(ScanErrorKind::InvalidUtf8, valid_up_to)
    })
}

/// Validates that `bytes` is UTF-8 and exactly one JSON value surrounded by optional
/// whitespace.
pub fn validate(bytes: &[u8]) -> Result<ValueInfo, ScanError> {
    utf8(bytes)?;
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
/// (exact for the lowest such byte; a higher byte may be a false positive: `#` above a
/// special byte, `]` above a backslash).
///
/// Two tests instead of three: a byte `b` is `"` or a control character exactly when
/// `b ^ 0x02` is below 0x21 (the flip maps 0x00–0x1f onto itself and `"` (0x22) onto 0x20,
/// and nothing else below 0x21), and one has-less-than test covers both.
#[inline]
fn special_bytes(word: u64) -> u64 {
    let flipped = word ^ (ONES * 0x02);
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let quote_or_control = flipped.wrapping_sub(ONES * 0x21) & !flipped;
    let is_backslash = backslash.wrapping_sub(ONES) & !backslash;
    (quote_or_control | is_backslash) & HIGHS
}

/// The eight bytes of `block` from `at` as a little-endian word.
#[inline]
fn word_in(block: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(block[at..at + 8].try_into().expect("eight bytes"))
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
fn special_word(bytes: &[u8], mut i: usize) -> Option<(usize, u64)> {
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
fn tail_word(bytes: &[u8], i: usize) -> u64 {
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
fn word_at(bytes: &[u8], i: usize) -> u64 {
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
fn short_word(rest: &[u8]) -> u64 {
    debug_assert!(rest.len() < 8);
    let spaces = (ONES * u64::from(b' ')) << (8 * rest.len());
    spaces
        | rest
            .iter()
            .rev()
            .fold(0, |word, &b| (word << 8) | u64::from(b))
}

/// The bytes that may follow a backslash in a two-character escape: `" \\ / b f n r t`.
/// A table look-up instead of a chain of comparisons: escapes are frequent in long texts
/// (a `\\n` per line, `\\"` around quotations).
const SHORT_ESCAPE: [bool; 256] = {
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
/// Bytes of 0x80 and above are skipped without a UTF-8 check (see [`scan_value`]).
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
fn scan_string_on(bytes: &[u8], start: usize, mut i: usize) -> Result<StringInfo, ScanError> {
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
fn escape_end(bytes: &[u8], p: usize) -> Result<usize, ScanError> {
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
    use proptest::prelude::*;

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

    /// Plain text past the first 128 bytes goes to the blocks where they beat the words
    /// (AVX2, AVX-512): a quote, an escape (valid, `\u`, malformed) or a control byte at
    /// every offset around that hand-over and the block edges after it ends the string, or
    /// fails it, as the byte-at-a-time reading does, with the same escape flag.
    #[test]
    fn plain_runs_end_and_fail_like_the_reference_at_every_offset() {
        let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00e9", b"\\x", b"\x01", b"\\"];
        for len in [100, 127, 128, 129, 191, 192, 193, 200, 256, 300] {
            for at in 0..len {
                // The string's end in the input's last partial block, or in a whole block.
                for after in [
                    &b"\",1]"[..],
                    b"\",[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22]]",
                ] {
                    for special in specials {
                        let mut bytes = vec![b'"'];
                        bytes.extend(std::iter::repeat_n(b'a', len));
                        let replaced = 1 + at..1 + at + special.len().min(len - at);
                        bytes.splice(replaced, special.iter().copied());
                        bytes.extend_from_slice(after);
                        let ours = scan_string(&bytes, 0).map(|info| (info.end, info.has_escapes));
                        assert_eq!(
                            ours,
                            reference_scan_string(&bytes, 0),
                            "{len} bytes, {:?} at {at}, {} after",
                            String::from_utf8_lossy(special),
                            after.len()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn long_runs_find_the_first_special_byte_at_every_position() {
        for len in [
            0, 7, 8, 9, 15, 16, 17, 31, 32, 33, 39, 40, 41, 47, 48, 64, 100, 257,
        ] {
            for at in 0..=len {
                for special in [b'"', b'\\', 0x00, 0x1f] {
                    let mut bytes = vec![b'a'; len];
                    bytes.extend_from_slice(b"tail");
                    if at < len {
                        bytes[at] = special;
                    }
                    // The word search against a byte-at-a-time search, for every start: the
                    // word found starts at `from` plus a multiple of eight, and its lowest
                    // flagged byte is the first special one.
                    for from in [0, 1, 3, at.saturating_sub(9), at.saturating_sub(33)] {
                        let found = special_word(&bytes, from).map(|(word, special)| {
                            assert_eq!((word - from) % 8, 0, "word at {word}");
                            word + (special.trailing_zeros() / 8) as usize
                        });
                        let expected = bytes[from..]
                            .iter()
                            .position(|&b| matches!(b, b'"' | b'\\' | 0x00..=0x1f))
                            .map(|offset| from + offset);
                        assert_eq!(
                            found, expected,
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
        let mut seeds: Vec<Vec<u8>> = <[&[u8]; 6]>::into_iter([
            br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"a":[1,-2.5e3,true,null],"b":"x\u00e9\n"}}"#,
            br#"[{"k":{}},[],[[0.0]],"\ud83d\ude00",-0,1E+2]"#,
            "{\"ünï\":\"cødé ✓\",\"n\":[false, 10 ,{\"\":\"\"}]}".as_bytes(),
            b" 123.456e-7 ",
            br#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
            b"[1,[2,[3,[4,{\"x\":[5]}]]]]",
        ])
        .map(<[u8]>::to_vec)
        .collect();
        // Long strings, so that mutations land in the word-at-a-time loops: escapes, multibyte
        // characters and plain runs of every length around the step sizes.
        seeds.push(long_text_document(0x5EED, 600).into_bytes());
        seeds.push(long_text_document(0xC0FFEE, 2_000).into_bytes());
        let alphabet = b"{}[],:\"\\/ -+.0123456789eEtrufalsn\t\r\nxu\x01\x7f\xc3\xa9\xff";
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for round in 0..30_000 {
            let mut doc = seeds[round % seeds.len()].clone();
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

    /// A byte-at-a-time string scanner written straight from RFC 8259 §7: the oracle for
    /// the word-at-a-time [`scan_string`]. Returns the end offset and whether there were
    /// escapes.
    fn reference_scan_string(bytes: &[u8], pos: usize) -> Result<(usize, bool), ScanError> {
        assert_eq!(bytes[pos], b'"');
        let mut i = pos + 1;
        let mut escapes = false;
        loop {
            match bytes.get(i) {
                None => return Err(err(ScanErrorKind::UnexpectedEnd, i)),
                Some(b'"') => return Ok((i + 1, escapes)),
                Some(b'\\') => {
                    escapes = true;
                    match bytes.get(i + 1) {
                        None => return Err(err(ScanErrorKind::UnexpectedEnd, i + 1)),
                        Some(b'u') => {
                            for k in 0..4 {
                                match bytes.get(i + 2 + k) {
                                    None => {
                                        return Err(err(ScanErrorKind::UnexpectedEnd, i + 2 + k));
                                    }
                                    Some(h) if h.is_ascii_hexdigit() => {}
                                    Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                                }
                            }
                            i += 6;
                        }
                        Some(e) if b"\"\\/bfnrt".contains(e) => i += 2,
                        Some(_) => return Err(err(ScanErrorKind::BadEscape, i)),
                    }
                }
                Some(&b) if b < 0x20 => return Err(err(ScanErrorKind::ControlCharacter, i)),
                Some(_) => i += 1,
            }
        }
    }

    fn assert_scans_like_the_reference(bytes: &[u8], what: &str) {
        let ours = scan_string(bytes, 0).map(|info| (info.end, info.has_escapes));
        assert_eq!(
            ours,
            reference_scan_string(bytes, 0),
            "{what}: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }

    /// Short strings at the end of the input and just before it, after prefixes of every
    /// length (inputs shorter and longer than one word): the two-word quick path and the word
    /// read from the input's last eight bytes agree with the reference, whatever the string's
    /// first special byte is and wherever the input ends.
    #[test]
    fn short_strings_near_the_end_of_inputs_of_every_length_scan_like_the_reference() {
        let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00", b"\x01", b"\\", b"\xc3\xa9"];
        for prefix in 0..12 {
            for len in 0..20 {
                for special in specials {
                    for suffix in [&b""[..], b"}", b"\"}", b",\"k\":1}"] {
                        for at in [None, Some(0), Some(len / 2), Some(len)] {
                            let mut bytes = vec![b' '; prefix];
                            let pos = bytes.len();
                            bytes.push(b'"');
                            let mut text = vec![b'a'; len];
                            if let Some(at) = at {
                                text.splice(at..at, special.iter().copied());
                            }
                            bytes.extend_from_slice(&text);
                            bytes.extend_from_slice(suffix);
                            let ours = scan_string(&bytes, pos)
                                .map(|info| (info.start, info.end, info.has_escapes));
                            let expected = reference_scan_string(&bytes, pos)
                                .map(|(end, escapes)| (pos, end, escapes));
                            assert_eq!(ours, expected, "{:?}", String::from_utf8_lossy(&bytes));
                        }
                    }
                }
            }
        }
    }

    /// A JSON document whose one long string mixes words, every escape, multibyte characters
    /// and runs of plain bytes of pseudo-random lengths (about `len` bytes of string text).
    fn long_text_document(seed: u64, len: usize) -> String {
        let pieces = [
            "lorem",
            " ",
            "ipsum",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\t",
            "\\r",
            "\\b",
            "\\f",
            "\\u00e9",
            "\\uD83D\\uDE00",
            "é",
            "✓",
            "😀",
            "consectetur adipiscing elit",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            ".",
        ];
        let mut next = xorshift(seed);
        let mut text = String::new();
        while text.len() < len {
            text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
        }
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"text":"{text}","n":[1,2]}}}}"#)
    }

    #[test]
    fn escapes_at_every_offset_of_long_strings_are_skipped_in_place() {
        let escapes = [
            "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\uABCD",
        ];
        for fill in ["a", "é"] {
            for len in [7, 8, 9, 31, 32, 33, 40, 41, 70] {
                let plain = fill.repeat(len);
                for at in (0..=plain.len()).filter(|&at| plain.is_char_boundary(at)) {
                    for escape in escapes {
                        for doubled in [false, true] {
                            let mut text = String::from("\"");
                            text.push_str(&plain[..at]);
                            text.push_str(escape);
                            if doubled {
                                text.push_str(escape);
                            }
                            text.push_str(&plain[at..]);
                            text.push('"');
                            let info = scan_string(text.as_bytes(), 0).unwrap_or_else(|e| {
                                panic!("{escape} at {at} of {len} × {fill}: {e}")
                            });
                            assert_eq!(info.end, text.len(), "{text}");
                            assert!(info.has_escapes, "{text}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bad_escapes_and_controls_at_every_offset_are_reported_where_they_are() {
        let faults: [&[u8]; 9] = [
            b"\\x", b"\\u12g4", b"\\U0041", b"\\\x01", b"\x1f", b"\x00", b"\\", b"\\u12", b"\\ ",
        ];
        for len in [0, 5, 8, 16, 31, 32, 33, 50, 64, 65, 100] {
            for at in 0..=len {
                for fault in faults {
                    for close in [true, false] {
                        let mut bytes = b"\"".to_vec();
                        bytes.extend(std::iter::repeat_n(b'a', at));
                        bytes.extend_from_slice(b"\\n");
                        bytes.extend_from_slice(fault);
                        bytes.extend(std::iter::repeat_n(b'b', len - at));
                        if close {
                            bytes.push(b'"');
                        }
                        let what = format!("fault {fault:?} at {at} of {len}");
                        assert_scans_like_the_reference(&bytes, &what);
                        // Where the fault cuts the string short, the error is exactly there.
                        if !close && len == at {
                            assert!(scan_string(&bytes, 0).is_err(), "{what}");
                        }
                    }
                }
            }
        }
        // Bytes the word test may flag next to a special one (`#` after `"` or a control
        // byte, `]` after `\`) are ordinary.
        for text in [
            r##""\"#\"#""##,
            r#""\\]\\]]]]]]]]]]]]]]]]]]]""#,
            "\"a\\\"#b\\\\]c\"",
        ] {
            assert_eq!(
                scan_string(text.as_bytes(), 0).map(|info| info.end),
                Ok(text.len()),
                "{text}"
            );
        }
        // The exact offsets, for one placement, written out.
        assert_eq!(
            scan_string(b"\"0123456789abcdef\\n\\x\"", 0),
            Err(err(ScanErrorKind::BadEscape, 19))
        );
        assert_eq!(
            scan_string(b"\"0123456789abcdefghijklmnopqrstuvwxyz\x07\"", 0),
            Err(err(ScanErrorKind::ControlCharacter, 37))
        );
    }

    #[test]
    fn random_long_strings_scan_like_the_byte_at_a_time_reference() {
        let alphabet: &[u8] = b"aaaaaaaaaaaaaaaabbbbbbbbbb    ##]]\"\\\\\\\\nnnnuu0123456789abcdefABCDEFxX/\x01\x1f\x7f\xc3\xa9\xe2\x9c\x93";
        let mut next = xorshift(0x1234_5678_9ABC_DEF1);
        let mut ended = 0;
        for round in 0..20_000 {
            let len = (next() % 160) as usize;
            let mut bytes = b"\"".to_vec();
            // Mostly plain text with sparse specials, so that many strings end at their quote.
            for _ in 0..len {
                let byte = if next().is_multiple_of(8) {
                    alphabet[(next() as usize) % alphabet.len()]
                } else {
                    b'a' + (next() % 26) as u8
                };
                bytes.push(byte);
            }
            if round % 2 == 0 {
                bytes.push(b'"');
            }
            assert_scans_like_the_reference(&bytes, "random string");
            ended += usize::from(scan_string(&bytes, 0).is_ok());
        }
        assert!((2_000..18_000).contains(&ended), "{ended} strings scanned");
    }

    /// Pieces of string contents, biased towards what the block scan has to get right:
    /// quotes, backslash runs of every length, valid and malformed escapes, `\u` escapes
    /// cut anywhere, control bytes, bytes the word test may flag wrongly (`#`, `]`), bytes of
    /// 0x80 and above, and plain runs long enough to carry everything across block edges.
    fn string_piece() -> impl Strategy<Value = Vec<u8>> {
        let hex = || prop::sample::select(b"0123456789abcdefABCDEF".to_vec());
        prop_oneof![
            30 => prop::collection::vec(prop::sample::select(b"abcdefghij klmn#]".to_vec()), 1..80),
            4 => prop::collection::vec(prop::sample::select(b"opqrstuvwxyz".to_vec()), 60..200),
            20 => prop::sample::select(vec!["\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t"])
                .prop_map(|escape| escape.as_bytes().to_vec()),
            10 => (1usize..10).prop_map(|n| vec![b'\\'; n]),
            8 => prop::array::uniform4(hex()).prop_map(|digits| [&b"\\u"[..], &digits[..]].concat()),
            3 => Just(b"\"".to_vec()),
            1 => (prop::collection::vec(hex(), 0..4), prop::sample::select(b"gG\"\\ x\x01\x1f\xc3".to_vec()))
                .prop_map(|(digits, bad)| [&b"\\u"[..], &digits[..], &[bad][..]].concat()),
            1 => prop::sample::select(b"xXuU0 a#\x00\x01\x1f\x7f\xc3".to_vec())
                .prop_map(|letter| vec![b'\\', letter]),
            1 => (0u8..0x20).prop_map(|control| vec![control]),
            5 => prop::sample::select(vec!["é", "✓", "😀", "\u{7f}", "\u{ff}"])
                .prop_map(|text| text.as_bytes().to_vec()),
            1 => (0x80u8..=0xff).prop_map(|byte| vec![byte]),
        ]
    }

    /// A string at a random offset of a frame: arbitrary bytes before its opening quote,
    /// contents made of [`string_piece`]s, and, unless cut short, a closing quote and more
    /// JSON after it (so that a block reads past the string).
    fn string_in_frame() -> impl Strategy<Value = (Vec<u8>, usize)> {
        (
            prop::collection::vec(any::<u8>(), 0..70),
            prop::collection::vec(string_piece(), 0..24),
            prop::sample::select(vec!["", "\"", "\",\"k\":[1,\"\\\"\"]}", "\"}\\\\\\\"\\u12"]),
        )
            .prop_map(|(before, pieces, after)| {
                let mut bytes = before;
                let pos = bytes.len();
                bytes.push(b'"');
                bytes.extend(pieces.concat());
                bytes.extend_from_slice(after.as_bytes());
                (bytes, pos)
            })
    }

    /// Case count of the properties below: `MCPWIRE_PROPTEST_CASES` for a soak run.
    fn soak_cases(default: u32) -> u32 {
        std::env::var("MCPWIRE_PROPTEST_CASES")
            .ok()
            .and_then(|n| n.trim().parse().ok())
            .filter(|&n| n > 0)
            .unwrap_or(default)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(soak_cases(3_000)))]

        /// `scan_string` (64-byte blocks on x86_64, words elsewhere and for the tail) gives
        /// the end, the escape flag, the error kind and the error offset of the byte-at-a-time
        /// reading of RFC 8259.
        #[test]
        fn scan_string_agrees_with_the_reference_on_generated_strings((bytes, pos) in string_in_frame()) {
            let ours = scan_string(&bytes, pos).map(|info| (info.start, info.end, info.has_escapes));
            let expected = reference_scan_string(&bytes, pos).map(|(end, escapes)| (pos, end, escapes));
            prop_assert_eq!(ours, expected, "{:?}", String::from_utf8_lossy(&bytes[pos..]));
        }

        /// The block scan on its own, from just past the opening quote (in `scan_string` it
        /// starts after an escape), with each classifier the CPU has (SSE2, AVX2, AVX-512):
        /// the same end and errors as the reference, or a hand-over to the words before
        /// anything the reference stops at.
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[test]
        fn the_block_scan_agrees_with_the_reference_up_to_where_it_stops((bytes, pos) in string_in_frame()) {
            let expected = reference_scan_string(&bytes, pos).map(|(end, _)| end);
            let text = String::from_utf8_lossy(&bytes[pos..]);
            for classifier in blocks::EveryClassifier::available() {
                match classifier.scan(&bytes, pos + 1) {
                        Ok(blocks::Stop::Closed { quote, escapes }) => {
                        prop_assert_eq!(expected, Ok(quote + 1), "{:?}: {:?}", classifier, text);
                        prop_assert_eq!(escapes, bytes[pos + 1..quote].contains(&b'\\'), "{:?}: {:?}", classifier, text);
                    }
                    Err(error) => prop_assert_eq!(expected, Err(error), "{:?}: {:?}", classifier, text),
                    Ok(blocks::Stop::Tail { from, escapes }) => {
                        prop_assert_eq!(escapes, bytes[pos + 1..from].contains(&b'\\'), "{:?}: {:?}", classifier, text);
                        prop_assert!(bytes.len() - from <= 64, "{:?}: {} bytes left", classifier, bytes.len() - from);
                        let stops_at = match expected {
                            Ok(end) => end - 1,
                            Err(error) => error.offset,
                        };
                        prop_assert!(stops_at >= from, "{:?}: stops at {} before {}: {:?}", classifier, stops_at, from, text);
                    }
                }
            }
        }
    }

    /// The generated strings are not vacuous: they close, end early and fail in every way a
    /// string can, both in the first block and beyond it.
    #[test]
    fn generated_strings_reach_every_outcome_within_and_beyond_the_first_block() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strategy = string_in_frame();
        let mut outcomes = std::collections::HashMap::new();
        for _ in 0..3_000 {
            let (bytes, pos) = strategy.new_tree(&mut runner).unwrap().current();
            let outcome = reference_scan_string(&bytes, pos);
            let (kind, at) = match outcome {
                Ok((end, _)) => (None, end),
                Err(error) => (Some(error.kind), error.offset),
            };
            *outcomes.entry((kind, at - pos > 130)).or_insert(0) += 1;
        }
        for kind in [
            None,
            Some(ScanErrorKind::BadEscape),
            Some(ScanErrorKind::ControlCharacter),
            Some(ScanErrorKind::UnexpectedEnd),
        ] {
            for beyond in [false, true] {
                let count = outcomes.get(&(kind, beyond)).copied().unwrap_or(0);
                assert!(
                    count >= 30,
                    "{kind:?} beyond {beyond}: {count} of 3000 ({outcomes:?})"
                );
            }
        }
    }

    #[test]
    fn multibyte_characters_split_across_words_are_accepted_and_broken_ones_found() {
        for character in ["é", "✓", "😀"] {
            for before in 0..40 {
                let text = format!("\"{}{character}{}\"", "a".repeat(before), "b".repeat(40));
                let info = validate(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(info.end, text.len());
                // Cut the character short, or stray one continuation byte: the error is at the
                // first byte that cannot be completed.
                let bytes = character.as_bytes();
                for cut in 1..bytes.len() {
                    let mut broken = format!("\"{}", "a".repeat(before)).into_bytes();
                    broken.extend_from_slice(&bytes[..cut]);
                    broken.extend_from_slice(format!("{}\"", "b".repeat(40)).as_bytes());
                    assert_eq!(
                        validate(&broken),
                        Err(err(ScanErrorKind::InvalidUtf8, before + 1)),
                        "{character} cut to {cut} bytes after {before}"
                    );
                }
                let mut stray = format!("\"{}", "a".repeat(before)).into_bytes();
                stray.push(bytes[bytes.len() - 1]);
                stray.extend_from_slice(b"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"");
                assert_eq!(
                    validate(&stray),
                    Err(err(ScanErrorKind::InvalidUtf8, before + 1)),
                    "stray continuation byte after {before}"
                );
            }
        }
        // Overlong forms and encoded surrogates are invalid UTF-8 too.
        for bad in [
            &b"\xc0\xaf"[..],
            b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80",
            b"\xff",
        ] {
            for before in [0, 7, 8, 31, 32, 33] {
                let mut doc = format!("[\"{}", "a".repeat(before)).into_bytes();
                doc.extend_from_slice(bad);
                doc.extend_from_slice(b"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\"]");
                assert_eq!(
                    validate(&doc),
                    Err(err(ScanErrorKind::InvalidUtf8, before + 2)),
                    "{bad:?} after {before}"
                );
            }
        }
    }

    #[test]
    fn the_word_test_flags_exactly_the_special_bytes_of_all_256() {
        for byte in 0..=255u8 {
            let special = matches!(byte, b'"' | b'\\' | 0x00..=0x1f);
            for at in 0..8 {
                // Every other byte ordinary, and every byte value below it too.
                for filler in [b'a', b'#', b']', b' ', 0xff] {
                    let mut word = [filler; 8];
                    word[at] = byte;
                    let mask = special_bytes(u64::from_le_bytes(word));
                    let lowest = (mask != 0).then(|| mask.trailing_zeros() / 8);
                    assert_eq!(
                        lowest,
                        special.then_some(at as u32),
                        "byte {byte:#04x} at {at} among {filler:#04x}"
                    );
                }
            }
        }
    }
}
