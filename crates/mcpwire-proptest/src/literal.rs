//! Bytes as a Rust byte-string literal, to paste a failing input into a test.

/// `bytes` as a Rust byte-string literal (`b"…"`): printable ASCII as is, `"` and `\` escaped,
/// `\n`, `\r`, `\t` and `\0` by name, every other byte (control bytes, non-ASCII UTF-8, bytes
/// that are not UTF-8) as `\xNN`. The literal is exact: pasted into Rust, it is `bytes`.
///
/// ```
/// use mcpwire_proptest::literal::byte_literal;
/// assert_eq!(byte_literal(br#"{"id":1}"#), r#"b"{\"id\":1}""#);
/// assert_eq!(byte_literal(b"\xef\xbb\xbf\n\\"), r#"b"\xef\xbb\xbf\n\\""#);
/// ```
pub fn byte_literal(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 3);
    out.push_str("b\"");
    for &byte in bytes {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0 => out.push_str("\\0"),
            0x20..=0x7e => out.push(char::from(byte)),
            _ => out.push_str(&format!("\\x{byte:02x}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value survives: the literal, read back by Rust's escape rules, is the input.
    #[test]
    fn every_byte_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        let literal = byte_literal(&all);
        let body = &literal[2..literal.len() - 1];
        let mut back = Vec::new();
        let mut rest = body.as_bytes();
        while let Some((&first, tail)) = rest.split_first() {
            if first != b'\\' {
                back.push(first);
                rest = tail;
                continue;
            }
            let (byte, used) = match tail[0] {
                b'x' => (
                    u8::from_str_radix(std::str::from_utf8(&tail[1..3]).unwrap(), 16).unwrap(),
                    3,
                ),
                b'n' => (b'\n', 1),
                b'r' => (b'\r', 1),
                b't' => (b'\t', 1),
                b'0' => (0, 1),
                other => (other, 1),
            };
            back.push(byte);
            rest = &tail[used..];
        }
        assert_eq!(back, all);
    }
}
