//! The AVX2 classifier of [`super::scan_blocks`], chosen at run time when the CPU has AVX2.
//!
//! A block is two 32-byte vectors. Besides the backslash and quote-or-control masks of the
//! SSE2 classifier, it tests every byte at once for being the letter of a two-character
//! escape, with two 16-entry table look-ups (`vpshufb`) on the byte's nibbles: no branch and
//! no loop per escape, which is what escape-dense text (a `\n` per line, `\"` around quotes)
//! spends its time on with SSE2.
//!
//! The intrinsics are `pulp`'s safe methods on a token (`V3`) that exists only once the CPU
//! has been seen to have AVX2; `V3::vectorize` runs the block loop compiled with AVX2
//! enabled. No `unsafe` here.

use core::arch::x86_64::__m256i;

use pulp::x86::V3;

use super::{BLOCK, ClassifyBlock, Stop, scan_blocks_with};
use crate::scan::ScanError;

/// The two-character escape letters `" / \ b f n r t` by high nibble: one bit per high nibble
/// that has any (2: `" /`, 5: `\`, 6: `b f n`, 7: `r t`), repeated for both 128-bit halves
/// (`vpshufb` looks up within each half).
pub(super) const BY_HIGH_NIBBLE: [u8; 32] = twice([0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0]);

/// The same letters by low nibble: the bits of the high nibbles they go with (2: `"` `b` `r`,
/// 4: `t`, 6: `f`, 0xC: `\`, 0xE: `n`, 0xF: `/`). A byte is a letter exactly when its two
/// look-ups share a bit.
pub(super) const BY_LOW_NIBBLE: [u8; 32] =
    twice([0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1]);

const fn twice(half: [u8; 16]) -> [u8; 32] {
    let mut whole = [0; 32];
    let mut k = 0;
    while k < 32 {
        whole[k] = half[k % 16];
        k += 1;
    }
    whole
}

/// The AVX2 classifier: the token proves the CPU has AVX2 (and the rest of x86-64-v3).
#[derive(Debug, Clone, Copy)]
pub(in crate::scan) struct Avx2Blocks(V3);

impl Avx2Blocks {
    /// The classifier, when the CPU has AVX2 (detected once, then cached).
    #[inline]
    pub(in crate::scan) fn detect() -> Option<Self> {
        V3::try_new().map(Self)
    }

    /// [`super::scan_blocks`] with AVX2.
    #[inline(never)]
    pub(in crate::scan) fn scan(self, bytes: &[u8], i: usize) -> Result<Stop, ScanError> {
        self.0.vectorize(
            #[inline(always)]
            move || scan_blocks_with(self, bytes, i),
        )
    }

    #[inline(always)]
    fn load(self, block: &[u8; BLOCK]) -> [__m256i; 2] {
        let (low, high) = block.split_at(BLOCK / 2);
        let half = |bytes: &[u8]| -> __m256i {
            let bytes: [u8; 32] = bytes.try_into().expect("a block is two halves");
            pulp::cast(bytes)
        };
        [half(low), half(high)]
    }

    #[inline(always)]
    fn splat(self, byte: u8) -> __m256i {
        self.0.avx._mm256_set1_epi8(byte as i8)
    }

    /// Bit k set where `test` leaves byte k of the block all ones.
    #[inline(always)]
    fn mask(self, [low, high]: [__m256i; 2], test: impl Fn(__m256i) -> __m256i) -> u64 {
        let bits = |half| u64::from(self.0.avx2._mm256_movemask_epi8(test(half)) as u32);
        bits(low) | (bits(high) << 32)
    }

    /// All ones in each byte of `half` that is `"` or below 0x20 (the SSE2 classifier's
    /// test: flipping bits 1 and 7 maps exactly those bytes onto the lowest signed bytes).
    #[inline(always)]
    fn is_quote_or_control(self, half: __m256i) -> __m256i {
        let avx2 = self.0.avx2;
        let flipped = avx2._mm256_xor_si256(half, self.splat(0x82));
        avx2._mm256_cmpgt_epi8(self.splat(0x21 ^ 0x80), flipped)
    }

    /// All ones in each byte of `half` that is not one of `" / \ b f n r t`.
    #[inline(always)]
    fn is_not_escape_letter(self, half: __m256i) -> __m256i {
        let avx2 = self.0.avx2;
        let nibble = self.splat(0x0F);
        let low = avx2._mm256_and_si256(half, nibble);
        let high = avx2._mm256_and_si256(avx2._mm256_srli_epi16::<4>(half), nibble);
        let by_low = avx2._mm256_shuffle_epi8(pulp::cast(BY_LOW_NIBBLE), low);
        let by_high = avx2._mm256_shuffle_epi8(pulp::cast(BY_HIGH_NIBBLE), high);
        let shared = avx2._mm256_and_si256(by_low, by_high);
        avx2._mm256_cmpeq_epi8(shared, self.0.avx._mm256_setzero_si256())
    }
}

impl ClassifyBlock for Avx2Blocks {
    #[inline(always)]
    fn backslashes_and_stops(self, block: &[u8; BLOCK]) -> (u64, u64) {
        let halves = self.load(block);
        let backslash = self.splat(b'\\');
        (
            self.mask(halves, |half| {
                self.0.avx2._mm256_cmpeq_epi8(half, backslash)
            }),
            self.mask(halves, |half| self.is_quote_or_control(half)),
        )
    }

    #[inline(always)]
    fn unusual_escapes(self, block: &[u8; BLOCK], escaped: u64) -> u64 {
        if escaped == 0 {
            return 0;
        }
        escaped & self.mask(self.load(block), |half| self.is_not_escape_letter(half))
    }
}
