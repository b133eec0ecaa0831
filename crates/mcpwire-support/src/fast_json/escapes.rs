//! Which bytes of a 64-byte block a backslash escapes, from the block's backslash bits alone.

/// The bytes a backslash escapes in a block whose backslashes are `backslashes` (bit k for
/// byte k), and whether the block's last byte is a backslash that escapes the next block's
/// first byte. `carry` is that bit (0 or 1) from the block before.
///
/// Only escaped bytes that are not backslashes are reported (nothing for an escaped
/// backslash): the callers look at the letters of escapes and at unescaped quotes, never at
/// which backslash of a `\\` pair is the escaped one.
///
/// A run of backslashes (its first byte not escaped from the block before) escapes the bytes
/// at odd distances from its start: those whose position differs in parity from the run's
/// start, up to the byte after the run. One subtraction marks them for every run at once:
/// subtracting the runs from themselves shifted up by one, with every odd bit set, borrows
/// through each run, and XOR with the odd bits then leaves exactly the bytes of opposite
/// parity to their run's start set (the escaped bytes, and the backslashes that start an
/// escape; the top one of those escapes the next block's first byte). A carry out of the
/// subtraction needs no handling. Checked against a byte-by-byte walk in the tests below.
///
/// ```
/// use mcpwire_support::fast_json::escapes::escaped_bytes;
/// // `\"` at bytes 0-1 and `\\` at bytes 3-4: only the quote is reported.
/// assert_eq!(escaped_bytes(0b11001, 0), (0b10, 0));
/// // A backslash in the last byte escapes the next block's first byte.
/// assert_eq!(escaped_bytes(1 << 63, 0), (0, 1));
/// ```
#[inline(always)]
pub fn escaped_bytes(backslashes: u64, carry: u64) -> (u64, u64) {
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    // A first byte escaped from the block before starts no run of its own.
    let free = backslashes & !carry;
    let parity = ((free << 1) | ODD).wrapping_sub(free) ^ ODD;
    let escaped = (parity ^ carry) & !backslashes;
    let escape_starts = parity & backslashes;
    (escaped, escape_starts >> 63)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::xorshift;

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
        // The walk also reports escaped backslashes; the subtraction keeps only the rest.
        let reported = escaped & !backslashes;
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
}
