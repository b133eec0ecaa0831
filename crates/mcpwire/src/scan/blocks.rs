//! String contents 64 bytes at a time, with the widest SIMD the CPU has, chosen at run time:
//! AVX-512 ([`avx512`]), AVX2 ([`avx2`]), else SSE2 (every x86_64 CPU).
//!
//! A block is classified as whole vectors compared at once, giving one bit per byte for
//! backslashes and one for quotes and control bytes together. A block with neither (and no
//! escape carried into it) is plain text and costs one branch. Otherwise which bytes are
//! escaped follows from the backslash bits alone (a byte is escaped when the run of
//! backslashes just before it has odd length; see [`escaped_bytes`]), so an escaped quote, a
//! `\\` pair or a run of backslashes costs no branch, and the block's first stop (closing
//! quote, control byte, `\u` or malformed escape) comes out of a few word operations. The
//! letters of the escapes are checked by the classifier: with SSE2 one table look-up per
//! escape, with AVX2 and AVX-512 for the whole block at once.
//!
//! A string comes here after an escape past its first 64 bytes, and, where AVX2 or AVX-512
//! makes blocks cheaper than the word scanner on plain text, past its first 128 bytes anyway
//! ([`blocks_beat_words`]).
//!
//! The intrinsics are safe wrappers from `safe_arch` (SSE2) and `pulp` (AVX2, AVX-512, behind
//! tokens that prove the CPU has them); the `unsafe` stays inside those crates. Errors are
//! those of the byte-at-a-time reading of RFC 8259 §7, at the same offsets: the first
//! offending byte in the string wins.

mod avx2;
mod avx512;

use safe_arch::{bitxor_m128i, cmp_eq_mask_i8_m128i, cmp_lt_mask_i8_m128i, m128i};

use mcpwire_types::support::fast_json::escapes::escaped_bytes;
use mcpwire_types::support::fast_json::lanes::{Lanes, splat};

use super::error::{ScanError, ScanErrorKind, err};
use super::string::{SHORT_ESCAPE, escape_end};

pub(super) use mcpwire_types::support::fast_json::BLOCK;

/// Where the block scan of a string's contents stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The closing quote is at offset `quote`; `escapes` tells whether a backslash came
    /// before it (from where the scan started).
    Closed { quote: usize, escapes: bool },
    /// Fewer than 64 bytes are left from `from`, which is not inside an escape (at worst it is
    /// the backslash that starts one): the word-at-a-time scan goes on from there. `escapes`
    /// tells whether a backslash came before `from`.
    Tail { from: usize, escapes: bool },
}

/// Scans string contents from `i` (a byte that no backslash escapes) in blocks of 64 bytes,
/// up to the closing quote, the first malformed byte, or the last whole block of the input.
///
/// The widest classifier the CPU has is used (AVX-512, AVX2, else SSE2; one detection each,
/// cached).
pub(super) fn scan_blocks(bytes: &[u8], i: usize) -> Result<Stop, ScanError> {
    if let Some(avx512) = avx512::Avx512Blocks::detect() {
        avx512.scan(bytes, i)
    } else if let Some(avx2) = avx2::Avx2Blocks::detect() {
        avx2.scan(bytes, i)
    } else {
        scan_blocks_sse2(bytes, i)
    }
}

/// Whether plain text (no escapes yet) is worth handing over to blocks: with AVX2 or AVX-512
/// a block costs less per byte than the word scanner; with SSE2 it costs more, so there only
/// an escape hands a string over.
#[inline]
pub(super) fn blocks_beat_words() -> bool {
    avx2::Avx2Blocks::detect().is_some() || avx512::Avx512Blocks::detect().is_some()
}

/// Every classifier this CPU has, for tests that hold each one to the same reference (the
/// dispatch in [`scan_blocks`] only ever runs the widest).
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(super) enum EveryClassifier {
    Sse2,
    Avx2(avx2::Avx2Blocks),
    Avx512(avx512::Avx512Blocks),
}

#[cfg(test)]
impl EveryClassifier {
    /// SSE2, plus AVX2 and AVX-512 where the CPU has them.
    pub(super) fn available() -> Vec<Self> {
        let mut every = vec![Self::Sse2];
        every.extend(avx2::Avx2Blocks::detect().map(Self::Avx2));
        every.extend(avx512::Avx512Blocks::detect().map(Self::Avx512));
        every
    }

    /// [`scan_blocks`] with this classifier.
    pub(super) fn scan(self, bytes: &[u8], i: usize) -> Result<Stop, ScanError> {
        match self {
            Self::Sse2 => scan_blocks_sse2(bytes, i),
            Self::Avx2(avx2) => avx2.scan(bytes, i),
            Self::Avx512(avx512) => avx512.scan(bytes, i),
        }
    }
}

#[cfg(test)]
impl ClassifyBlock for EveryClassifier {
    fn backslashes_and_stops(self, block: &[u8; BLOCK]) -> (u64, u64) {
        match self {
            Self::Sse2 => Sse2Blocks.backslashes_and_stops(block),
            Self::Avx2(avx2) => avx2.backslashes_and_stops(block),
            Self::Avx512(avx512) => avx512.backslashes_and_stops(block),
        }
    }

    fn unusual_escapes(self, block: &[u8; BLOCK], escaped: u64) -> u64 {
        match self {
            Self::Sse2 => Sse2Blocks.unusual_escapes(block, escaped),
            Self::Avx2(avx2) => avx2.unusual_escapes(block, escaped),
            Self::Avx512(avx512) => avx512.unusual_escapes(block, escaped),
        }
    }
}

/// [`scan_blocks`] with SSE2.
#[inline(never)]
fn scan_blocks_sse2(bytes: &[u8], i: usize) -> Result<Stop, ScanError> {
    scan_blocks_with(Sse2Blocks, bytes, i)
}

/// What the block loop needs of a block: its backslashes, its quotes and control bytes, and
/// which of its escaped bytes are not the letter of a two-character escape.
pub(super) trait ClassifyBlock: Copy {
    /// Bit k set for each backslash and for each quote or control byte of `block`.
    fn backslashes_and_stops(self, block: &[u8; BLOCK]) -> (u64, u64);

    /// The bits of `escaped` (escaped bytes of `block` other than backslashes) whose byte is
    /// not one of the two-character escapes `" / b f n r t`: a `u`, or a malformed escape.
    fn unusual_escapes(self, block: &[u8; BLOCK], escaped: u64) -> u64;
}

/// The block loop of [`scan_blocks`] with one classifier; inlined into each caller, so that
/// the AVX2 copy is compiled with AVX2 enabled.
#[inline(always)]
pub(super) fn scan_blocks_with(
    classify: impl ClassifyBlock,
    bytes: &[u8],
    mut i: usize,
) -> Result<Stop, ScanError> {
    // 1 when the block's first byte is escaped by a backslash at the end of the one before.
    let mut carry = 0u64;
    // Whether the blocks before the last one held a backslash, and the last one's backslashes.
    let (mut backslash_earlier, mut last_backslashes) = (false, 0u64);
    while let Some(block) = bytes.get(i..).and_then(|rest| rest.first_chunk::<BLOCK>()) {
        let (backslashes, quotes_and_controls) = classify.backslashes_and_stops(block);
        if backslashes | quotes_and_controls | carry == 0 {
            // Plain text: nothing to stop at, nothing escaped.
            backslash_earlier |= last_backslashes != 0;
            last_backslashes = 0;
            i += BLOCK;
            continue;
        }
        // Escaped bytes other than backslashes: each must be a letter of a valid escape.
        let (to_check, carry_out) = escaped_bytes(backslashes, carry);
        let stops = (quotes_and_controls & !to_check) | classify.unusual_escapes(block, to_check);
        if stops != 0 {
            let first = stops.trailing_zeros() as usize;
            // Mostly the closing quote; errors and `\u` escapes are looked at out of line.
            // (An escaped quote is never a stop.)
            let quote = if block[first & (BLOCK - 1)] == b'"' {
                Some(i + first)
            } else {
                first_stop(bytes, i, stops, to_check)?
            };
            if let Some(quote) = quote {
                let before_quote = backslashes & ((1u64 << (quote - i)) - 1);
                return Ok(Stop::Closed {
                    quote,
                    escapes: backslash_earlier || (last_backslashes | before_quote) != 0,
                });
            }
        }
        backslash_earlier |= last_backslashes != 0;
        last_backslashes = backslashes;
        carry = carry_out;
        i += BLOCK;
    }
    // A backslash carried out of the last block is at `from`, not before it.
    Ok(Stop::Tail {
        from: i - carry as usize,
        escapes: backslash_earlier || last_backslashes & !(carry << 63) != 0,
    })
}

/// The SSE2 classifier.
#[derive(Debug, Clone, Copy)]
struct Sse2Blocks;

impl ClassifyBlock for Sse2Blocks {
    #[inline(always)]
    fn backslashes_and_stops(self, block: &[u8; BLOCK]) -> (u64, u64) {
        let lanes = Lanes::load(block);
        (
            lanes.mask(|lane| cmp_eq_mask_i8_m128i(lane, splat(b'\\'))),
            lanes.mask(is_quote_or_control),
        )
    }

    #[inline(always)]
    fn unusual_escapes(self, block: &[u8; BLOCK], escaped: u64) -> u64 {
        unusual_escapes_by_table(block, escaped)
    }
}

/// [`ClassifyBlock::unusual_escapes`] by looking up each escape in a table. Escapes are a few
/// per block even in escape-dense text. (With SSE2, testing all 64 bytes against the letters
/// with compares measured slower, and looking up the first few without a branch no faster;
/// AVX2 has a byte shuffle that tests them all in a few instructions.)
#[inline(always)]
fn unusual_escapes_by_table(block: &[u8; BLOCK], escaped: u64) -> u64 {
    let mut unusual = 0;
    let mut pending = escaped;
    while pending != 0 {
        let at = pending.trailing_zeros() as usize & (BLOCK - 1);
        unusual |= u64::from(!SHORT_ESCAPE[usize::from(block[at])]) << at;
        pending &= pending - 1;
    }
    unusual
}

/// Goes through a block's stops (bits of the block at `block_start`) in order: the offset
/// of the closing quote, the error of the first malformed byte, or `None` when every stop
/// was a valid `\uXXXX` escape. The bits of `escaped` are escaped bytes (not backslashes);
/// any other stop is an unescaped quote or control byte.
#[inline(never)]
fn first_stop(
    bytes: &[u8],
    block_start: usize,
    mut stops: u64,
    escaped: u64,
) -> Result<Option<usize>, ScanError> {
    while stops != 0 {
        let at = block_start + stops.trailing_zeros() as usize;
        if escaped & stops & stops.wrapping_neg() != 0 {
            // The backslash is just before the escaped byte (in the block before, for the
            // block's first byte). Four valid hex digits are ordinary bytes: no stops.
            escape_end(bytes, at - 1)?;
        } else if bytes[at] == b'"' {
            return Ok(Some(at));
        } else {
            return Err(err(ScanErrorKind::ControlCharacter, at));
        }
        stops &= stops - 1;
    }
    Ok(None)
}

/// All ones in each byte of `lane` that is `"` or below 0x20. Flipping bit 1 maps exactly
/// those bytes onto 0x00–0x20; flipping bit 7 as well turns that unsigned range into the
/// lowest signed bytes, so one signed compare against 0x21 ^ 0x80 tells them.
#[inline(always)]
fn is_quote_or_control(lane: m128i) -> m128i {
    let flipped = bitxor_m128i(lane, splat(0x82));
    cmp_lt_mask_i8_m128i(flipped, splat(0x21 ^ 0x80))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_classifier_flags_exactly_their_bytes_at_every_position() {
        let letter = |b: u8| b"\"\\/bfnrt".contains(&b);
        for classifier in EveryClassifier::available() {
            for byte in 0..=255u8 {
                for at in [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63] {
                    for filler in [b'a', b'#', b'!', b'n', 0x7f, 0xff] {
                        let mut block = [filler; BLOCK];
                        block[at] = byte;
                        // The byte's own bit, and the bits of all the fillers.
                        let at_byte = |test: bool| if test { 1u64 << at } else { 0 };
                        let at_fillers = |test: bool| if test { !(1u64 << at) } else { 0 };
                        let context =
                            format!("{classifier:?}: {byte:#04x} at {at} among {filler:#04x}");
                        assert_eq!(
                            classifier.backslashes_and_stops(&block),
                            (at_byte(byte == b'\\'), at_byte(byte == b'"' || byte < 0x20)),
                            "{context}"
                        );
                        assert_eq!(
                            classifier.unusual_escapes(&block, !0),
                            at_byte(!letter(byte)) | at_fillers(!letter(filler)),
                            "{context}"
                        );
                        assert_eq!(classifier.unusual_escapes(&block, 0), 0, "{context}");
                    }
                }
            }
        }
    }
}
