//! Decoding a validated JSON string literal, and telling lone UTF-16 surrogate escapes.

/// Decodes the contents of a JSON string literal (quotes included in `raw`), normally one
/// the scanner has already validated. Lone surrogate escapes become U+FFFD.
///
/// Total on any input: text without the surrounding quotes is decoded as it stands, and a
/// malformed `\u` escape becomes U+FFFD.
pub fn unescape(raw: &str) -> String {
    let inner = raw
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(raw);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((at, e)) = chars.next() else { break };
        match e {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '/' => out.push('/'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let Some(unit) = inner.get(at + 1..at + 5).and_then(hex4) else {
                    out.push('\u{FFFD}');
                    continue;
                };
                for _ in 0..4 {
                    chars.next();
                }
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate: combine with a following low surrogate escape.
                    let rest = chars.as_str();
                    if let Some(low) = rest
                        .strip_prefix("\\u")
                        .and_then(|r| r.get(..4))
                        .and_then(hex4)
                        && (0xDC00..0xE000).contains(&low)
                    {
                        let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        for _ in 0..6 {
                            chars.next();
                        }
                        continue;
                    }
                    out.push('\u{FFFD}');
                } else {
                    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                }
            }
            _ => out.push(e),
        }
    }
    out
}

/// Four hex digits as a UTF-16 code unit.
pub(super) fn hex4(digits: &str) -> Option<u32> {
    if digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        u32::from_str_radix(digits, 16).ok()
    } else {
        None
    }
}

/// Whether a JSON string literal (quotes included) holds a `\u` escape of a UTF-16
/// surrogate that is not part of a high-low pair, such as `"\ud800"`. Such a string is
/// valid JSON text but names no Unicode characters (RFC 8259 §8.2). Never allocates.
pub fn has_unpaired_surrogate(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let unit_at = |i: usize| {
        let digits = bytes.get(i..i + 6)?;
        if !digits.starts_with(b"\\u") {
            return None;
        }
        std::str::from_utf8(&digits[2..]).ok().and_then(hex4)
    };
    let mut i = 0;
    while let Some(offset) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\\'))
    {
        i += offset;
        match unit_at(i) {
            Some(0xD800..=0xDBFF) => match unit_at(i + 6) {
                Some(0xDC00..=0xDFFF) => i += 12,
                _ => return true,
            },
            Some(0xDC00..=0xDFFF) => return true,
            Some(_) => i += 6,
            // `\\`, `\"` and the other two-character escapes.
            None => i += 2,
        }
    }
    false
}
