//! [`Integer`]: a JSON Schema `integer` kept as it was sent.
//!
//! JSON Schema's `integer` is any JSON number whose value is whole, of any size: `3`, `3.0`,
//! `3e0`, `18446744073709551616`. The generated types hold every `integer` member, item and
//! union variant as an [`Integer`], so nothing schema-valid is refused and what was decoded is
//! what is encoded back:
//!
//! - plain digits in the `i64` or `u64` range are held as those (no allocation);
//! - any other spelling is held as its JSON text, byte for byte (`1e3` stays `1e3`,
//!   `18446744073709551616` and `1e400` stay as written), whether built with
//!   [`Integer::from_json_text`] (from the runtime's `Id::raw()`, say) or decoded by
//!   serde_json from text (`from_str`, `from_slice`, `from_reader`): the decoder reads the
//!   number's text itself ([`super::RawJson`]), not the `f64` serde_json would make of it.
//!
//! Decoded from a `serde_json::Value` (`from_value`), the number was parsed before this type
//! saw it: a number written with a fraction or an exponent, or beyond `u64`, is an `f64`
//! there, so `1e3` comes back as `1000.0` (the same JSON value, another spelling). The same
//! holds for any deserializer other than serde_json's (see [`super::RawJson`]).
//!
//! ```
//! use mcpwire_support::Integer;
//!
//! let n: Integer = serde_json::from_str("9223372036854775808").unwrap();
//! assert_eq!(n.as_u64(), Some(9_223_372_036_854_775_808));
//! assert_eq!(serde_json::to_string(&n).unwrap(), "9223372036854775808");
//!
//! let id: Integer = serde_json::from_str("1e3").unwrap();
//! assert_eq!(serde_json::to_string(&id).unwrap(), "1e3");
//! assert_eq!(id.as_i64(), Some(1000));
//!
//! let lossy: Integer = serde_json::from_value(serde_json::json!(1e3)).unwrap();
//! assert_eq!(serde_json::to_string(&lossy).unwrap(), "1000.0");
//!
//! assert!(serde_json::from_str::<Integer>("3.5").is_err());
//! assert!(Integer::from_json_text("1.5e0").is_err());
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserializer, Error as _, Unexpected};
use serde::{Deserialize, Serialize, Serializer};

use super::RawJson;

/// A JSON Schema `integer`: any whole JSON number, kept as it was sent (see the module
/// documentation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Integer(Repr);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    Signed(i64),
    Unsigned(u64),
    /// A JSON number text whose value is whole, in any other spelling.
    Text(Box<str>),
}

/// Why a text is not a JSON Schema `integer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnInteger(String);

impl fmt::Display for NotAnInteger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a JSON number with a whole value", self.0)
    }
}

impl std::error::Error for NotAnInteger {}

impl Integer {
    /// The integer a JSON number text stands for, keeping the text: `5`, `-0`, `1e3`, `2.50e1`,
    /// `123456789012345678901234567890`. An error when the text is not a JSON number or its
    /// value is not whole.
    pub fn from_json_text(text: &str) -> Result<Self, NotAnInteger> {
        if is_plain_digits(text) && text != "-0" {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Self(Repr::Signed(i)));
            }
            if let Ok(u) = text.parse::<u64>() {
                return Ok(Self(Repr::Unsigned(u)));
            }
        }
        if !is_whole_number_text(text) {
            return Err(NotAnInteger(text.to_owned()));
        }
        Ok(Self(Repr::Text(text.into())))
    }

    /// The JSON text this integer is encoded as.
    pub fn json_text(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Signed(i) => Cow::Owned(i.to_string()),
            Repr::Unsigned(u) => Cow::Owned(u.to_string()),
            Repr::Text(t) => Cow::Borrowed(t),
        }
    }

    /// The value as an `i64`, when it is one and is written in plain digits or within ±2^53.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.0 {
            Repr::Signed(i) => Some(*i),
            Repr::Unsigned(u) => i64::try_from(*u).ok(),
            Repr::Text(t) => exact_f64(t).and_then(|f| {
                (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0)
                    .contains(&f)
                    .then_some(f as i64)
            }),
        }
    }

    /// The value as a `u64`, when it is one and is written in plain digits or within ±2^53.
    pub fn as_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Signed(i) => u64::try_from(*i).ok(),
            Repr::Unsigned(u) => Some(*u),
            Repr::Text(t) => exact_f64(t).and_then(|f| {
                (0.0..18_446_744_073_709_551_616.0)
                    .contains(&f)
                    .then_some(f as u64)
            }),
        }
    }
}

/// The value of a whole-number text as an `f64` when the `f64` is exactly that value (within
/// ±2^53, where every whole number is exact).
fn exact_f64(text: &str) -> Option<f64> {
    let f: f64 = text.parse().ok()?;
    (f.abs() <= 9_007_199_254_740_992.0).then_some(f)
}

impl From<i64> for Integer {
    fn from(value: i64) -> Self {
        Self(Repr::Signed(value))
    }
}

impl From<u64> for Integer {
    fn from(value: u64) -> Self {
        match i64::try_from(value) {
            Ok(i) => Self(Repr::Signed(i)),
            Err(_) => Self(Repr::Unsigned(value)),
        }
    }
}

impl From<i32> for Integer {
    fn from(value: i32) -> Self {
        Self(Repr::Signed(value.into()))
    }
}

impl From<u32> for Integer {
    fn from(value: u32) -> Self {
        Self(Repr::Signed(value.into()))
    }
}

impl PartialEq<i64> for Integer {
    fn eq(&self, other: &i64) -> bool {
        matches!(self.0, Repr::Signed(i) if i == *other)
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.json_text())
    }
}

impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Signed(i) => serializer.serialize_i64(*i),
            Repr::Unsigned(u) => serializer.serialize_u64(*u),
            Repr::Text(t) => serde_json::value::RawValue::from_string(t.to_string())
                .map_err(serde::ser::Error::custom)?
                .serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(deserializer)?;
        Integer::from_json_text(raw.text())
            .map_err(|_| D::Error::invalid_type(unexpected(raw.text()), &"an integer"))
    }
}

/// What a JSON text that is not an integer is, for the error.
fn unexpected(text: &str) -> Unexpected<'_> {
    match text.as_bytes().first() {
        Some(b'"') => Unexpected::Other("a string"),
        Some(b'{') => Unexpected::Map,
        Some(b'[') => Unexpected::Seq,
        Some(b't') => Unexpected::Bool(true),
        Some(b'f') => Unexpected::Bool(false),
        Some(b'n') => Unexpected::Unit,
        _ => match text.parse::<f64>() {
            Ok(f) => Unexpected::Float(f),
            Err(_) => Unexpected::Other(text),
        },
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Integer {
    fn schema_name() -> Cow<'static, str> {
        "Integer".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer" })
    }
}

/// Whether `text` is a JSON integer in plain digits: an optional `-`, then `0` or digits
/// without a leading zero.
fn is_plain_digits(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text).as_bytes();
    match digits {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        _ => digits.iter().all(u8::is_ascii_digit),
    }
}

/// Whether `text` is a JSON number (RFC 8259 grammar) whose value is whole, decided on the
/// decimal digits (no float conversion): every digit after the decimal point, once the
/// exponent is applied, is `0`.
pub fn is_whole_number_text(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || (int.len() > 1 && int.starts_with('0')) {
        return false;
    }
    if frac.is_some_and(|f| !digits(f)) {
        return false;
    }
    let shift: i64 = match exponent {
        None => 0,
        Some(e) => {
            let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
            if !digits(unsigned) {
                return false;
            }
            // Saturating: an exponent beyond ±10^18 shifts every digit either way.
            let magnitude: i64 = unsigned.parse().unwrap_or(i64::MAX);
            if e.starts_with('-') {
                -magnitude
            } else {
                magnitude
            }
        }
    };
    // Digits of the mantissa without the point; the value's point sits after `int.len() +
    // shift` of them. Whole iff every digit after that point is `0`.
    let point = (int.len() as i64).saturating_add(shift);
    let first_fraction = usize::try_from(point.max(0)).unwrap_or(usize::MAX);
    int.bytes()
        .chain(frac.unwrap_or("").bytes())
        .skip(first_fraction)
        .all(|b| b == b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_number_texts_are_decided_on_their_digits() {
        for text in [
            "0",
            "-0",
            "5",
            "1e3",
            "1E+3",
            "2.50e1",
            "1.0",
            "-7.000",
            "100e-2",
            "0.0",
            "0e-5",
            "123456789012345678901234567890",
            "1e999999999999999999999",
        ] {
            assert!(is_whole_number_text(text), "{text}");
        }
        for text in [
            "1.5", "1e-1", "25e-1", "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN",
            "1 ",
        ] {
            assert!(!is_whole_number_text(text), "{text}");
        }
    }

    #[test]
    fn texts_are_kept_byte_for_byte() {
        for text in [
            "1e3",
            "-0",
            "2.0",
            "18446744073709551616",
            "-9223372036854775809",
        ] {
            let n = Integer::from_json_text(text).unwrap();
            assert_eq!(n.json_text(), text);
            assert_eq!(serde_json::to_string(&n).unwrap(), text);
        }
        assert_eq!(Integer::from_json_text("7").unwrap(), 7);
        assert!(Integer::from_json_text("7.5").is_err());
    }

    #[test]
    fn decoding_text_keeps_the_spelling_and_values_keep_the_value() {
        for text in [
            "9223372036854775808",
            "18446744073709551615",
            "-5",
            "-0",
            "1e3",
            "2.0",
            "18446744073709551616",
            "1180591620717411303424",
            "1e30",
            "-1E+400",
        ] {
            let from_str: Integer = serde_json::from_str(text).unwrap();
            let from_reader: Integer = serde_json::from_reader(text.as_bytes()).unwrap();
            assert_eq!(serde_json::to_string(&from_str).unwrap(), text);
            assert_eq!(from_reader, from_str, "{text}");
        }
        let plain: Integer = serde_json::from_str(" 42 ").unwrap();
        assert!(matches!(plain.0, Repr::Signed(42)));
        let value: serde_json::Value = serde_json::from_str("1e3").unwrap();
        let n: Integer = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_string(&n).unwrap(), "1000.0");
        assert_eq!(serde_json::to_value(&n).unwrap(), value);
        for text in ["3.5", "\"3\"", "null", "true"] {
            let err = serde_json::from_str::<Integer>(text).unwrap_err();
            assert!(
                err.to_string().contains("expected an integer"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn values_are_read_whatever_the_spelling() {
        let n = |t: &str| Integer::from_json_text(t).unwrap();
        assert_eq!(n("1e3").as_i64(), Some(1000));
        assert_eq!(n("-2.0").as_i64(), Some(-2));
        assert_eq!(n("-2.0").as_u64(), None);
        assert_eq!(n("18446744073709551615").as_u64(), Some(u64::MAX));
        assert_eq!(n("18446744073709551615").as_i64(), None);
        assert_eq!(n("1e30").as_i64(), None);
        assert_eq!(n("1e30").to_string(), "1e30");
    }
}
