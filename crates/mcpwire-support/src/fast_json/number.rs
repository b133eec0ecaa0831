//! JSON numbers for the fast deserializer ([`super::de`]): the grammar checked as serde_json
//! checks it, and a whole number decoded when serde_json would hand it over as a `u64` or an
//! `i64`. Every other number (a fraction or an exponent, `-0`, a whole number beyond those
//! types) is left to serde_json: its float parse is not always correctly rounded, and the
//! fast path must give the same `f64` bit for bit.

use super::string::Refused;

/// What a number is, as serde_json hands it to a visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Number {
    /// A whole number from 0 to `u64::MAX` (`visit_u64`).
    U64(u64),
    /// A negative whole number from `i64::MIN` to -1 (`visit_i64`).
    I64(i64),
    /// Anything else: serde_json decodes the token (an `f64`).
    Other,
}

/// The number starting at `at` (a `-` or a digit, else [`Refused`]), checked against the
/// JSON grammar (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, serde_json's: no
/// leading zero, a digit after the point and in the exponent), and the index after it.
pub(super) fn scan(bytes: &[u8], at: usize) -> Result<(Number, usize), Refused> {
    let digit = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_digit);
    let negative = bytes.get(at) == Some(&b'-');
    let first = at + usize::from(negative);
    let mut k = first;
    let mut value: u64 = 0;
    let mut fits = true;
    match bytes.get(k) {
        Some(b'0') => k += 1,
        Some(b'1'..=b'9') => {
            while let Some(&d @ b'0'..=b'9') = bytes.get(k) {
                match value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(u64::from(d - b'0')))
                {
                    Some(v) => value = v,
                    None => fits = false,
                }
                k += 1;
            }
        }
        _ => return Err(Refused),
    }
    // serde_json refuses a digit after a leading zero.
    if digit(k) {
        return Err(Refused);
    }
    let mut whole = true;
    if bytes.get(k) == Some(&b'.') {
        k += 1;
        if !digit(k) {
            return Err(Refused);
        }
        while digit(k) {
            k += 1;
        }
        whole = false;
    }
    if matches!(bytes.get(k), Some(b'e' | b'E')) {
        k += 1;
        if matches!(bytes.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if !digit(k) {
            return Err(Refused);
        }
        while digit(k) {
            k += 1;
        }
        whole = false;
    }
    let number = match (whole && fits, negative) {
        (false, _) => Number::Other,
        (true, false) => Number::U64(value),
        // serde_json: `-0` and magnitudes beyond 2^63 become `f64`s.
        (true, true) => match (value as i64).wrapping_neg() {
            negated if negated < 0 => Number::I64(negated),
            _ => Number::Other,
        },
    };
    Ok((number, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_typed_as_serde_json_types_them() {
        let cases: [(&str, Number); 14] = [
            ("0", Number::U64(0)),
            ("7", Number::U64(7)),
            ("18446744073709551615", Number::U64(u64::MAX)),
            ("18446744073709551616", Number::Other),
            ("-1", Number::I64(-1)),
            ("-9223372036854775808", Number::I64(i64::MIN)),
            ("-9223372036854775809", Number::Other),
            ("-18446744073709551615", Number::Other),
            ("-0", Number::Other),
            ("1.5", Number::Other),
            ("1e3", Number::Other),
            ("-2E-3", Number::Other),
            ("0.0e+0", Number::Other),
            ("123456789012345678901234567890", Number::Other),
        ];
        for (text, expected) in cases {
            assert_eq!(
                scan(text.as_bytes(), 0),
                Ok((expected, text.len())),
                "{text}"
            );
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            match expected {
                Number::U64(v) => assert_eq!(value.as_u64(), Some(v), "{text}"),
                Number::I64(v) => assert_eq!(value.as_i64(), Some(v), "{text}"),
                Number::Other => assert!(value.is_f64(), "{text}"),
            }
        }
        // The number ends where the grammar does; what follows is the caller's.
        assert_eq!(scan(b"12,", 0), Ok((Number::U64(12), 2)));
        assert_eq!(scan(b"1.5]", 0), Ok((Number::Other, 3)));
        for bad in [
            "-", "01", "-01", "1.", "1.e3", "1e", "1e+", ".5", "+1", "-a",
        ] {
            assert_eq!(scan(bad.as_bytes(), 0), Err(Refused), "{bad}");
            assert!(
                serde_json::from_str::<serde_json::Value>(bad).is_err(),
                "{bad}"
            );
        }
    }
}
