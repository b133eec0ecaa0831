//! Comparing ids as JSON values, on their exact text (never through f64 for equality): which
//! changed id is only spelt differently (strict), which id is beyond doubles, and which id
//! plausibly answers which.

use crate::json::unescape;

/// A JSON number's exact value: sign, significant digits (no leading or trailing zeros) and
/// the power of ten they are scaled by. Zero has no digits and no sign.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: String,
    exponent: i128,
}

/// The exact value of the JSON number `text`, or `None` when it is not a JSON number.
fn decimal(text: &str) -> Option<Decimal> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int, frac) = match mantissa.find('.') {
        Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int) || (mantissa.contains('.') && !all_digits(frac)) {
        return None;
    }
    let mut exponent: i128 = match exponent {
        None => 0,
        Some(e) => {
            let (sign, digits) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if !all_digits(digits) {
                return None;
            }
            // Saturate: exponents beyond 10^30 are equal only to themselves anyway.
            let significant = digits.trim_start_matches('0');
            let magnitude: i128 = if significant.len() > 30 {
                10i128.pow(30)
            } else {
                significant.parse().unwrap_or(0)
            };
            sign * magnitude
        }
    };
    let mut digits = format!("{int}{frac}");
    exponent -= frac.len() as i128;
    let trimmed = digits.trim_end_matches('0');
    exponent += (digits.len() - trimmed.len()) as i128;
    digits = trimmed.trim_start_matches('0').to_owned();
    if digits.is_empty() {
        return Some(Decimal {
            negative: false,
            digits,
            exponent: 0,
        });
    }
    Some(Decimal {
        negative,
        digits,
        exponent,
    })
}

/// Whether two id texts are the same JSON value: strings by their unescaped text, numbers by
/// their exact decimal value (`-0` = `0`, `1e3` = `1000`, `2.0` = `2`), `null` = `null`.
///
/// ```
/// use mcpwire_proptest::findings::same_value;
/// assert!(same_value("1e3", "1000"));
/// assert!(same_value("-0", "0"));
/// assert!(same_value(r#""\u0041""#, r#""A""#));
/// assert!(!same_value("9007199254740993", "9007199254740992"));
/// assert!(!same_value("1", r#""1""#));
/// ```
pub fn same_value(a: &str, b: &str) -> bool {
    let string = |t: &str| t.starts_with('"');
    match (string(a), string(b)) {
        (true, true) => unescape(a) == unescape(b),
        (false, false) => match (decimal(a), decimal(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
        _ => false,
    }
}

/// Whether the JSON number `text` is an integer beyond ±2^53 (where doubles lose integers).
///
/// ```
/// use mcpwire_proptest::findings::is_big_integer;
/// assert!(is_big_integer("9007199254740993"));
/// assert!(is_big_integer("18446744073709551616"));
/// assert!(!is_big_integer("9007199254740992"));
/// assert!(!is_big_integer("1.5"));
/// ```
pub fn is_big_integer(text: &str) -> bool {
    let Some(value) = decimal(text) else {
        return false;
    };
    if value.exponent < 0 || value.digits.is_empty() {
        return false;
    }
    let length = value.digits.len() as i128 + value.exponent;
    let limit = "9007199254740992";
    if length != limit.len() as i128 {
        return length > limit.len() as i128;
    }
    let padded = format!("{:0<16}", value.digits);
    padded.as_str() > limit
}

/// Whether `text` is a JSON number (exactly, no surrounding whitespace).
///
/// ```
/// use mcpwire_proptest::findings::is_number;
/// assert!(is_number("-1.5e3"));
/// assert!(!is_number("1."));
/// ```
pub fn is_number(text: &str) -> bool {
    decimal(text).is_some()
}

/// Whether a reply's id text plausibly answers a request with id `sent`: the same value, or the
/// same number after a lossy conversion (f64 rounding, number ↔ string). Used to attribute a
/// reply to its input even when the server changed the id, and to tell an id a lenient reader
/// could have found from an invented one.
///
/// ```
/// use mcpwire_proptest::findings::related;
/// assert!(related("9007199254740993", "9007199254740992"));
/// assert!(related("7", r#""7""#));
/// assert!(!related("7", "8"));
/// ```
pub fn related(sent: &str, got: &str) -> bool {
    if sent == got || same_value(sent, got) {
        return true;
    }
    let as_number = |t: &str| -> Option<f64> {
        let text = if t.starts_with('"') {
            unescape(t)
        } else {
            t.to_owned()
        };
        if !is_number(text.trim()) {
            return None;
        }
        text.trim().parse::<f64>().ok().filter(|f| f.is_finite())
    };
    match (as_number(sent), as_number(got)) {
        (Some(a), Some(b)) => a == b || (a - b).abs() <= a.abs().max(b.abs()) * 1e-12,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compare_exactly() {
        assert!(same_value("2.0", "2"));
        assert!(same_value("1.5e1", "15"));
        assert!(same_value("100e-2", "1"));
        assert!(!same_value("1.5", "1"));
        assert!(!same_value("-1", "1"));
        assert!(same_value("null", "null"));
        assert!(!same_value("1", "true"));
        assert!(!same_value("1e999999999999999999999999999999999", "1e9"));
        assert!(same_value(
            "1e999999999999999999999999999999999",
            "1e999999999999999999999999999999999"
        ));
    }

    #[test]
    fn big_integers_start_past_2_pow_53() {
        assert!(is_big_integer("9.007199254740993e15"));
        assert!(is_big_integer("-9007199254740993"));
        assert!(is_big_integer("1e16"));
        assert!(!is_big_integer("1e15"));
        assert!(!is_big_integer("0"));
    }
}
