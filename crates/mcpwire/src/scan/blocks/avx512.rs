//! The AVX-512 classifier of [`super::scan_blocks`], chosen at run time when the CPU has
//! AVX-512BW (and the rest of x86-64-v4).
//!
//! A block is one 64-byte vector, and each test yields its 64-bit mask directly: backslashes,
//! quotes and control bytes, and the escape letters by the same two nibble look-ups as the
//! AVX2 classifier (see [`super::avx2`] for the tables).
//!
//! The intrinsics are `pulp`'s safe methods on a token (`V4`) that exists only once the CPU
//! has been seen to have the features; `V4::vectorize` runs the block loop compiled with them
//! enabled. No `unsafe` here.

use core::arch::x86_64::__m512i;

use pulp::x86::V4;

use super::avx2::{BY_HIGH_NIBBLE, BY_LOW_NIBBLE};
use super::{BLOCK, ClassifyBlock, Stop, scan_blocks_with};
use crate::scan::ScanError;

/// The AVX-512 classifier: the token proves the CPU has x86-64-v4.
#[derive(Debug, Clone, Copy)]
pub(in crate::scan) struct Avx512Blocks(V4);

impl Avx512Blocks {
    /// The classifier, when the CPU has AVX-512BW (detected once, then cached).
    #[inline]
    pub(in crate::scan) fn detect() -> Option<Self> {
        V4::try_new().map(Self)
    }

    /// [`super::scan_blocks`] with AVX-512.
    #[inline(never)]
    pub(in crate::scan) fn scan(self, bytes: &[u8], i: usize) -> Result<Stop, ScanError> {
        self.0.vectorize(
            #[inline(always)]
            move || scan_blocks_with(self, bytes, i),
        )
    }

    #[inline(always)]
    fn load(self, block: &[u8; BLOCK]) -> __m512i {
        pulp::cast(*block)
    }

    #[inline(always)]
    fn splat(self, byte: u8) -> __m512i {
        self.0.avx512f._mm512_set1_epi8(byte as i8)
    }

    /// Two copies of a 32-byte table: `vpshufb` looks up within each 128-bit quarter.
    #[inline(always)]
    fn table(self, half: [u8; 32]) -> __m512i {
        let mut whole = [0u8; 64];
        whole[..32].copy_from_slice(&half);
        whole[32..].copy_from_slice(&half);
        pulp::cast(whole)
    }
}

impl ClassifyBlock for Avx512Blocks {
    #[inline(always)]
    fn backslashes_and_stops(self, block: &[u8; BLOCK]) -> (u64, u64) {
        let (bw, f) = (self.0.avx512bw, self.0.avx512f);
        let bytes = self.load(block);
        let backslashes = bw._mm512_cmpeq_epi8_mask(bytes, self.splat(b'\\'));
        // `"` and bytes below 0x20, as with SSE2: flipping bits 1 and 7 maps exactly those
        // onto the lowest signed bytes.
        let flipped = f._mm512_xor_si512(bytes, self.splat(0x82));
        let stops = bw._mm512_cmplt_epi8_mask(flipped, self.splat(0x21 ^ 0x80));
        (backslashes, stops)
    }

    #[inline(always)]
    fn unusual_escapes(self, block: &[u8; BLOCK], escaped: u64) -> u64 {
        if escaped == 0 {
            return 0;
        }
        let (bw, f) = (self.0.avx512bw, self.0.avx512f);
        let bytes = self.load(block);
        let nibble = self.splat(0x0F);
        let low = f._mm512_and_si512(bytes, nibble);
        let high = f._mm512_and_si512(bw._mm512_srli_epi16::<4>(bytes), nibble);
        let by_low = bw._mm512_shuffle_epi8(self.table(BY_LOW_NIBBLE), low);
        let by_high = bw._mm512_shuffle_epi8(self.table(BY_HIGH_NIBBLE), high);
        escaped & bw._mm512_testn_epi8_mask(by_low, by_high)
    }
}
