//! 64 bytes at a time with SSE2 (every x86_64 CPU): a block as four 16-byte lanes, each
//! compared whole, the results gathered into one bit per byte.

use safe_arch::{load_unaligned_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i};

use super::BLOCK;

/// `byte` in every byte of a lane.
#[inline(always)]
pub fn splat(byte: u8) -> m128i {
    set_splat_i8_m128i(byte as i8)
}

/// One block as four 16-byte lanes.
///
/// ```
/// use mcpwire_support::fast_json::lanes::{Lanes, splat};
/// use safe_arch::cmp_eq_mask_i8_m128i;
/// let mut block = [b'a'; 64];
/// block[3] = b'"';
/// block[63] = b'"';
/// let quotes = Lanes::load(&block).mask(|lane| cmp_eq_mask_i8_m128i(lane, splat(b'"')));
/// assert_eq!(quotes, 1 << 3 | 1 << 63);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Lanes([m128i; 4]);

impl Lanes {
    /// The block's four lanes.
    #[inline(always)]
    pub fn load(block: &[u8; BLOCK]) -> Self {
        let lane = |k: usize| {
            let bytes: &[u8; 16] = block[16 * k..16 * (k + 1)]
                .try_into()
                .expect("a block holds four lanes");
            load_unaligned_m128i(bytes)
        };
        Self([lane(0), lane(1), lane(2), lane(3)])
    }

    /// Bit k set where `test` leaves byte k of the block with its top bit set (a compare's
    /// all-ones).
    #[inline(always)]
    pub fn mask(&self, test: impl Fn(m128i) -> m128i) -> u64 {
        self.0.iter().enumerate().fold(0, |mask, (k, &lane)| {
            mask | (u64::from(move_mask_i8_m128i(test(lane)) as u16) << (16 * k))
        })
    }
}
