//! Helpers shared by the crate's unit tests.

/// A xorshift64 sequence from `seed` (which must not be zero): deterministic, so a failing
/// case is the same on every run.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
