//! Lower-case hexadecimal, for the opaque strings this server hands out (list cursors,
//! `requestState`) and reads back.

/// `bytes` as lower-case hex digits, two per byte.
pub(crate) fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

/// The bytes of `text`, or `None` when it is not an even number of hex digits.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    // `from_str_radix` alone would also take a sign (`+1`).
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode(b"\x00\xffa"), "00ff61");
        assert_eq!(decode("00ff61").as_deref(), Some(&b"\x00\xffa"[..]));
        for bad in ["0", "zz", "0g", "+1", "é0"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
