//! Reading string and number tokens by their meaning, not through `f64`.

/// The value of a JSON string token (with its quotes), escapes decoded.
///
/// A lone surrogate escape decodes to U+FFFD, so it never equals a name we look for.
///
/// ```
/// use mcpwire_proptest::json::unescape;
/// assert_eq!(unescape(r#""\u0069d""#), "id");
/// ```
pub fn unescape(token: &str) -> String {
    let inner = &token[1..token.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let unit = hex4(&mut chars);
                if (0xD800..0xDC00).contains(&unit) {
                    let mut lookahead = chars.clone();
                    if lookahead.next() == Some('\\') && lookahead.next() == Some('u') {
                        let low = hex4(&mut lookahead);
                        if (0xDC00..0xE000).contains(&low) {
                            let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                            chars = lookahead;
                            continue;
                        }
                    }
                    out.push('\u{FFFD}');
                } else {
                    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn hex4(chars: &mut std::str::Chars<'_>) -> u32 {
    let mut unit = 0;
    for _ in 0..4 {
        unit = unit * 16 + chars.next().and_then(|c| c.to_digit(16)).unwrap_or(0);
    }
    unit
}

/// Whether a JSON number token has no fractional part (JSON Schema `integer`),
/// decided on its decimal text: `2.0`, `1e3`, `1.5e1`, `100e-2` and `-0` are integers,
/// `1.5` and `1e-1` are not. Exponents of any size are handled without overflow.
///
/// ```
/// use mcpwire_proptest::json::is_integer;
/// assert!(is_integer("1.5e1"));
/// assert!(!is_integer("1.5"));
/// assert!(is_integer("123456789012345678901234567890"));
/// ```
pub fn is_integer(number: &str) -> bool {
    let unsigned = number.strip_prefix('-').unwrap_or(number);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], exponent_value(&unsigned[at + 1..])),
        None => (unsigned, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = [int_part, frac_part].concat();
    let significant = digits.trim_end_matches('0');
    if significant.trim_start_matches('0').is_empty() {
        return true; // zero
    }
    let stripped_zeros = (digits.len() - significant.len()) as i128;
    // value = significant × 10^(exponent − frac_len + stripped_zeros), significant not ending in 0
    exponent - frac_part.len() as i128 + stripped_zeros >= 0
}

/// The exponent's value, saturated far beyond any token length.
fn exponent_value(text: &str) -> i128 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let digits = digits.trim_start_matches('0');
    let magnitude: i128 = if digits.len() > 30 {
        i128::MAX / 4
    } else {
        digits.parse().unwrap_or(0)
    };
    if negative { -magnitude } else { magnitude }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_by_meaning() {
        for yes in [
            "0",
            "-0",
            "2.0",
            "1e3",
            "1E+3",
            "1.5e1",
            "100e-2",
            "0.0e-7",
            "-12.50e1",
            "1e999999999999999999999999999999999",
        ] {
            assert!(is_integer(yes), "{yes}");
        }
        for no in [
            "1.5",
            "0.1",
            "1e-1",
            "10e-2",
            "-0.5",
            "1.25e1",
            "1e-99999999999999999999999999999999",
        ] {
            assert!(!is_integer(no), "{no}");
        }
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape(r#""a\"b\\c\/""#), "a\"b\\c/");
        assert_eq!(unescape(r#""\ud83d\ude00""#), "😀");
        assert_eq!(unescape(r#""\ud800x""#), "\u{FFFD}x");
        assert_eq!(unescape(r#""rpc\u002e""#), "rpc.");
    }
}
