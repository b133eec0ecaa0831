//! Lower-case hexadecimal, for the opaque strings this server hands out (list cursors,
//! `requestState`) and reads back: the `hex` crate, behind the two calls the server makes.

/// `bytes` as lower-case hex digits, two per byte.
pub(crate) fn encode(bytes: &[u8]) -> String {
    ::hex::encode(bytes)
}

/// The bytes of `text`, or `None` when it is not an even number of hex digits.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    ::hex::decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(encode(b"\x00\xffa"), "00ff61");
        assert_eq!(decode("00ff61").as_deref(), Some(&b"\x00\xffa"[..]));
        for bad in ["0", "zz", "0g", "+1", "\u{e9}0"] {
            assert_eq!(decode(bad), None, "{bad}");
        }
    }
}
