//! String contents 64 bytes at a time with SSE2 (x86_64, where every CPU has it).
//!
//! A block is loaded as four 16-byte lanes and compared whole, giving one bit per byte for
//! backslashes and one for quotes and control bytes together. Which bytes are escaped
//! follows from the backslash bits alone (a byte is escaped when the run of backslashes just
//! before it has odd length; see [`escaped_bytes`]), so an escaped quote, a `\\` pair or a
//! run of backslashes costs no branch, and the block's first stop (closing quote, control
//! byte, `\u` or malformed escape) comes out of a few word operations. What is left per
//! escape is one table look-up of the escaped letter.
//!
//! The intrinsics are `safe_arch`'s safe wrappers, which exist where the target has the
//! feature (the `unsafe` stays inside that crate). Errors are those of the byte-at-a-time
//! reading of RFC 8259 §7, at the same offsets: the first offending byte in the string wins.

use safe_arch::{
    bitxor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, min_u8_m128i,
    move_mask_i8_m128i, set_splat_i8_m128i,
};

use super::{SHORT_ESCAPE, ScanError, ScanErrorKind, err, escape_end};

/// Bytes per block.
const BLOCK: usize = 64;

/// Where the block scan of a string's contents stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The closing quote is at offset `quote`.
    Closed { quote: usize },
    /// Fewer than 64 bytes are left from `from`, which is not inside an escape (at worst it is
    /// the backslash that starts one): the word-at-a-time scan goes on from there.
    Tail { from: usize },
}

/// Scans string contents from `i` (a byte that no backslash escapes) in blocks of 64 bytes,
/// up to the closing quote, the first malformed byte, or the last whole block of the input.
/// Whether the string has escapes is not reported: the caller comes here after one.
#[inline(never)]
pub(super) fn scan_blocks(bytes: &[u8], mut i: usize) -> Result<Stop, ScanError> {
    // 1 when the block's first byte is escaped by a backslash at the end of the one before.
    let mut carry = 0u64;
    while let Some(block) = bytes.get(i..).and_then(|rest| rest.first_chunk::<BLOCK>()) {
        let lanes = Lanes::load(block);
        let backslashes = lanes.mask(|lane| cmp_eq_mask_i8_m128i(lane, splat(b'\\')));
        let quotes_and_controls = lanes.mask(is_quote_or_control);
        let (escaped, carry_out) = escaped_bytes(backslashes, carry);
        // Escaped bytes other than backslashes: each must be a letter of a valid escape.
        let to_check = escaped & !backslashes;
        let stops = (quotes_and_controls & !escaped) | unusual_escapes(block, to_check);
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
                return Ok(Stop::Closed { quote });
            }
        }
        carry = carry_out;
        i += BLOCK;
    }
    Ok(Stop::Tail {
        from: i - carry as usize,
    })
}

/// The bits of `escaped` (escaped bytes of `block` other than backslashes) whose byte is not
/// one of the two-character escapes `" / b f n r t`: a `u`, or a malformed escape. Escapes
/// are a few per block even in escape-dense text, so each is looked up in a table. (Testing
/// all 64 bytes against the letters with compares measured slower, and looking up the first
/// few without a branch no faster.)
#[inline(always)]
fn unusual_escapes(block: &[u8; BLOCK], escaped: u64) -> u64 {
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

/// The bytes a backslash escapes in a block whose backslashes are `backslashes` (bit k for
/// byte k), and whether the block's last byte is a backslash that escapes the next block's
/// first byte. `carry` is that bit (0 or 1) from the block before.
///
/// A run of backslashes whose first byte is not itself escaped escapes every second byte of
/// the run and, when its length is odd, the byte after it. Adding a run's lowest
/// bit to the backslash bits carries through the run and lands on the byte after it; the
/// run's length is odd when that byte's position and the run's start differ in parity. So
/// runs starting at even and at odd positions are added separately and each sum is masked
/// with the other parity. A run reaching the top bit carries out of the word: for an
/// odd-start run the length is then odd, and the next block's first byte is escaped.
///
/// The escaped byte of a `\\` pair (a backslash) is not reported, except for the first
/// byte when `carry` is set: the caller only needs the escaped bytes that are not
/// backslashes, and masks the others out.
#[inline]
fn escaped_bytes(backslashes: u64, carry: u64) -> (u64, u64) {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    // A first byte escaped from the block before starts no run of its own.
    let free = backslashes & !carry;
    let run_starts = free & !(free << 1);
    let past_even_runs = free.wrapping_add(run_starts & EVEN) & !free;
    let (odd_sum, carry_out) = free.overflowing_add(run_starts & !EVEN);
    let past_odd_runs = odd_sum & !free;
    let escaped = (past_even_runs & !EVEN) | (past_odd_runs & EVEN) | carry;
    (escaped, u64::from(carry_out))
}

/// All ones in each byte of `lane` that is `"` or below 0x20: flipping bit 1 maps those
/// bytes onto 0x00–0x20 and no other byte there, and a byte is at most 0x20 exactly when its
/// minimum with 0x20 is itself.
#[inline(always)]
fn is_quote_or_control(lane: m128i) -> m128i {
    let flipped = bitxor_m128i(lane, splat(0x02));
    cmp_eq_mask_i8_m128i(min_u8_m128i(flipped, splat(0x20)), flipped)
}

/// `byte` in every lane.
#[inline(always)]
fn splat(byte: u8) -> m128i {
    set_splat_i8_m128i(byte as i8)
}

/// One block as four 16-byte lanes.
struct Lanes([m128i; 4]);

impl Lanes {
    #[inline(always)]
    fn load(block: &[u8; BLOCK]) -> Self {
        let lane = |k: usize| {
            let bytes: &[u8; 16] = block[16 * k..16 * (k + 1)]
                .try_into()
                .expect("a block holds four lanes");
            load_unaligned_m128i(bytes)
        };
        Self([lane(0), lane(1), lane(2), lane(3)])
    }

    /// Bit k set where `test` leaves byte k of the block all ones.
    #[inline(always)]
    fn mask(&self, test: impl Fn(m128i) -> m128i) -> u64 {
        self.0.iter().enumerate().fold(0, |mask, (k, &lane)| {
            mask | (u64::from(move_mask_i8_m128i(test(lane)) as u16) << (16 * k))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::xorshift;

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
        // The walk also reports escaped backslashes; the word trick keeps only the rest
        // (and the first byte's).
        let reported = escaped & (!backslashes | 1);
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
    fn lane_masks_flag_exactly_their_bytes_at_every_position() {
        for byte in 0..=255u8 {
            for at in [0, 1, 15, 16, 17, 31, 32, 47, 48, 63] {
                for filler in [b'a', b'#', b'!', 0x7f, 0xff] {
                    let mut block = [filler; BLOCK];
                    block[at] = byte;
                    let lanes = Lanes::load(&block);
                    let flagged = |test: bool| if test { 1u64 << at } else { 0 };
                    assert_eq!(
                        lanes.mask(is_quote_or_control),
                        flagged(byte == b'"' || byte < 0x20),
                        "byte {byte:#04x} at {at} among {filler:#04x}"
                    );
                    assert_eq!(
                        lanes.mask(|lane| cmp_eq_mask_i8_m128i(lane, splat(b'\\'))),
                        flagged(byte == b'\\'),
                        "byte {byte:#04x} at {at} among {filler:#04x}"
                    );
                    assert_eq!(
                        unusual_escapes(&block, 1 << at),
                        flagged(!b"\"\\/bfnrt".contains(&byte)),
                        "byte {byte:#04x} at {at}"
                    );
                }
            }
        }
    }
}
