//! Eight bytes at a time: a little-endian `u64` word and the byte tests on it that flag a
//! byte by setting its bit 7.

/// `0x01` in every byte of a word.
pub const ONES: u64 = u64::from_le_bytes([1; 8]);

/// `0x80` (bit 7) in every byte of a word.
pub const HIGHS: u64 = ONES << 7;

/// `byte` in every byte of a word.
#[inline(always)]
pub const fn splat(byte: u8) -> u64 {
    ONES * byte as u64
}

/// The eight bytes of `bytes` from `at` as a little-endian word. Panics when fewer than eight
/// bytes are left: callers take the slice they read from with one bounds check and read its
/// words at constant offsets.
#[inline(always)]
pub fn load(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

/// Bit 7 set in every byte of the word where `word` has the byte `byte`, and possibly in
/// higher bytes after such a byte (the borrow of the classic has-zero-byte test); the lowest
/// set bit is always exact, which is all a search for the first match needs.
///
/// ```
/// use mcpwire_support::fast_json::words::{bytes_equal, load};
/// let word = load(b"ab\"cdefg", 0);
/// assert_eq!(bytes_equal(word, b'"').trailing_zeros() / 8, 2);
/// assert_eq!(bytes_equal(word, b'x'), 0);
/// ```
#[inline(always)]
pub fn bytes_equal(word: u64, byte: u8) -> u64 {
    let zeroed = word ^ splat(byte);
    zeroed.wrapping_sub(ONES) & !zeroed & HIGHS
}

/// Bit 7 set in exactly the bytes of the word where `word` has the byte `byte`: each byte is
/// tested alone of its neighbours (adding `0x7F` to its low seven bits carries into bit 7
/// unless they are zero), so no borrow flags the bytes after a match. For classifiers that
/// need every match, not only the first.
///
/// ```
/// use mcpwire_support::fast_json::words::{bytes_equal_exactly, load};
/// let word = load(b"\"\"a\"\x00\x01\xa2\"", 0);
/// assert_eq!(bytes_equal_exactly(word, b'"'), 0x8000_0000_8000_8080);
/// ```
#[inline(always)]
pub fn bytes_equal_exactly(word: u64, byte: u8) -> u64 {
    const LOW_SEVEN: u64 = !HIGHS;
    let zeroed = word ^ splat(byte);
    !(((zeroed & LOW_SEVEN) + LOW_SEVEN) | zeroed) & HIGHS
}

/// Bit 7 of byte j of `flags` moved to bit j (the other bits of `flags` must be zero): the
/// multiplier's bytes shift each one to its own bit of the top byte, with no two products
/// meeting.
///
/// ```
/// use mcpwire_support::fast_json::words::gather;
/// assert_eq!(gather(0x8000_0000_0000_0080), 0b1000_0001);
/// ```
#[inline(always)]
pub fn gather(flags: u64) -> u64 {
    (flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}
