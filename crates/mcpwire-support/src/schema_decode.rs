//! Decoding by the JSON Schema meaning of a type where it differs from serde's.
//!
//! JSON Schema's `integer` is any JSON number whose value is whole: `3`, `3.0`, `3e0` and
//! `-0.0` are all integers (JSON Schema 2020-12, validation §6.1.1), and clients that keep every
//! number as a float (Python's `json.dumps(3.0)`, JavaScript after arithmetic) send `3.0`.
//! serde decodes an `i64` only from `3`, so every generated member, item and union variant whose
//! schema type is `integer` decodes through [`SchemaDecode`] instead.
//!
//! serde_json (without `arbitrary_precision`, which this workspace never enables) hands a number
//! written with a fraction or an exponent over as an `f64`. Every whole number up to 2^53 in
//! magnitude is exact there, so those are accepted; a larger one could have been rounded on the
//! way in, so it is refused with a message saying to write it in plain digits (plain digits decode
//! exactly over the whole `i64` range).
//!
//! ```
//! use mcpwire_support::BySchema;
//!
//! let whole: BySchema<i64> = serde_json::from_str("3.0").unwrap();
//! assert_eq!(whole.0, 3);
//! let items: BySchema<Vec<i64>> = serde_json::from_str("[1, 2e0, -0.0]").unwrap();
//! assert_eq!(items.0, [1, 2, 0]);
//! let err = serde_json::from_str::<BySchema<i64>>("3.5").unwrap_err();
//! assert!(err.to_string().contains("expected an integer"), "{err}");
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Unexpected};
use serde::{Deserialize, Serialize};

/// The largest magnitude up to which an `f64` holds every whole number exactly (2^53).
const EXACT_IN_F64: f64 = 9_007_199_254_740_992.0;

/// A Rust type decoded by the JSON Schema meaning of its schema type.
///
/// Implemented for `i64` (a JSON Schema `integer`) and for the arrays and maps built from it;
/// the generated code uses it through [`by_schema`] and its `Option` companions.
pub trait SchemaDecode: Sized {
    /// Decodes `Self` from `deserializer` by the JSON Schema rules.
    fn schema_decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// A value decoded by [`SchemaDecode`] and encoded as itself.
///
/// The way to use the JSON Schema rules where serde wants a `Deserialize` type (a union
/// variant, an element of a collection).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BySchema<T>(pub T);

impl<'de, T: SchemaDecode> Deserialize<'de> for BySchema<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::schema_decode(deserializer).map(BySchema)
    }
}

impl<T: Serialize> Serialize for BySchema<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Whether a JSON number is a JSON Schema `integer` that [`SchemaDecode`] reads exactly: any
/// number written in plain digits, or a whole number up to 2^53 in magnitude written with a
/// fraction or an exponent.
///
/// ```
/// use mcpwire_support::is_integer;
/// let number = |text: &str| serde_json::from_str::<serde_json::Number>(text).unwrap();
/// assert!(is_integer(&number("7")) && is_integer(&number("7.0")) && is_integer(&number("7e2")));
/// assert!(!is_integer(&number("7.5")) && !is_integer(&number("1e300")));
/// ```
pub fn is_integer(number: &serde_json::Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(exact_whole)
}

fn exact_whole(value: f64) -> bool {
    value.fract() == 0.0 && value.abs() <= EXACT_IN_F64
}

/// The `i64` range as floats: `[-2^63, 2^63)`.
const I64_LOW: f64 = -9_223_372_036_854_775_808.0;
const I64_HIGH: f64 = 9_223_372_036_854_775_808.0;

fn out_of_range<E: serde::de::Error>(value: impl fmt::Display) -> E {
    E::custom(format_args!(
        "integer {value} is out of range: from {} to {} is supported",
        i64::MIN,
        i64::MAX
    ))
}

/// Reads any JSON number whose value is whole into an `i64`.
struct IntegerVisitor;

impl serde::de::Visitor<'_> for IntegerVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<i64, E> {
        Ok(value)
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<i64, E> {
        i64::try_from(value).map_err(|_| out_of_range(value))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<i64, E> {
        if exact_whole(value) {
            // Whole and within ±2^53, so the conversion is exact.
            Ok(value as i64)
        } else if value.fract() == 0.0 && !(I64_LOW..I64_HIGH).contains(&value) {
            Err(out_of_range(format_args!("{value:e}")))
        } else if value.fract() == 0.0 {
            Err(E::custom(format_args!(
                "integer {value:e} is written with a fraction or an exponent and is beyond \
                 ±2^53, where it may have been rounded; write it in plain digits"
            )))
        } else {
            Err(E::invalid_type(Unexpected::Float(value), &self))
        }
    }
}

impl SchemaDecode for i64 {
    fn schema_decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // `deserialize_any`: a buffered value (flattened members, union variants) visits a
        // float only through it.
        deserializer.deserialize_any(IntegerVisitor)
    }
}

/// Seeds one element or map value of a collection with [`SchemaDecode`].
struct Seed<T>(PhantomData<T>);

impl<'de, T: SchemaDecode> DeserializeSeed<'de> for Seed<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::schema_decode(deserializer)
    }
}

impl<T: SchemaDecode> SchemaDecode for Vec<T> {
    fn schema_decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items<T>(PhantomData<T>);
        impl<'de, T: SchemaDecode> serde::de::Visitor<'de> for Items<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element_seed(Seed(PhantomData))? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        deserializer.deserialize_seq(Items(PhantomData))
    }
}

impl<T: SchemaDecode> SchemaDecode for BTreeMap<String, T> {
    fn schema_decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members<T>(PhantomData<T>);
        impl<'de, T: SchemaDecode> serde::de::Visitor<'de> for Members<T> {
            type Value = BTreeMap<String, T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = BTreeMap::new();
                while let Some((key, value)) =
                    map.next_entry_seed(PhantomData::<String>, Seed(PhantomData))?
                {
                    members.insert(key, value);
                }
                Ok(members)
            }
        }
        deserializer.deserialize_map(Members(PhantomData))
    }
}

/// For a required member: decodes it by [`SchemaDecode`].
pub fn by_schema<'de, T: SchemaDecode, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::schema_decode(deserializer)
}

/// [`super::non_null`] by [`SchemaDecode`].
pub fn non_null_by_schema<'de, T: SchemaDecode, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    super::non_null::<BySchema<T>, D>(deserializer).map(|v| v.map(|v| v.0))
}

/// [`super::nullable`] by [`SchemaDecode`].
pub fn nullable_by_schema<'de, T: SchemaDecode, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    super::nullable::<BySchema<T>, D>(deserializer).map(|v| v.map(|v| v.0))
}

/// [`super::double_option`] by [`SchemaDecode`].
pub fn double_option_by_schema<'de, T: SchemaDecode, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    super::double_option::<BySchema<T>, D>(deserializer).map(|v| v.map(|v| v.map(|v| v.0)))
}

/// Decodes an integer by [`SchemaDecode`] and checks it equals `expected`.
pub(super) fn expect_integer<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: i64,
) -> Result<(), D::Error> {
    let found = i64::schema_decode(deserializer)?;
    if found == expected {
        Ok(())
    } else {
        Err(D::Error::custom(format_args!(
            "invalid value: integer {found}, expected {expected}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn decode(text: &str) -> Result<i64, String> {
        serde_json::from_str::<BySchema<i64>>(text)
            .map(|v| v.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn whole_numbers_in_any_spelling_are_integers() {
        for (text, value) in [
            ("3", 3),
            ("3.0", 3),
            ("3e0", 3),
            ("30E-1", 3),
            ("0.3e1", 3),
            ("-0", 0),
            ("-0.0", 0),
            ("-9223372036854775808", i64::MIN),
            ("9223372036854775807", i64::MAX),
            ("9007199254740992.0", 9_007_199_254_740_992),
            ("-9007199254740992e0", -9_007_199_254_740_992),
        ] {
            assert_eq!(decode(text), Ok(value), "{text}");
        }
    }

    #[test]
    fn fractions_and_inexact_spellings_are_refused_with_a_reason() {
        for (text, reason) in [
            ("3.5", "expected an integer"),
            ("1e-3", "expected an integer"),
            ("9223372036854775808", "out of range"),
            ("18446744073709551616", "out of range"),
            ("9007199254740994.0", "plain digits"),
            ("1e300", "out of range"),
            ("-1e19", "out of range"),
            ("\"3\"", "expected an integer"),
            ("true", "expected an integer"),
            ("null", "expected an integer"),
        ] {
            let err = decode(text).expect_err(text);
            assert!(err.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn buffered_values_decode_the_same_as_text() {
        // A union variant decodes from a `Value`; flattened members from serde's buffer.
        let value: Value = serde_json::from_str("3.0").unwrap();
        assert_eq!(serde_json::from_value::<BySchema<i64>>(value).unwrap().0, 3);
        let value: Value = serde_json::from_str("{\"a\": [5.0, 6]}").unwrap();
        let map = serde_json::from_value::<BySchema<BTreeMap<String, Vec<i64>>>>(value).unwrap();
        assert_eq!(map.0["a"], [5, 6]);
    }

    /// Every member helper the generator emits, as a generated struct uses them.
    #[derive(Debug, PartialEq, Deserialize)]
    struct Members {
        #[serde(deserialize_with = "by_schema")]
        required: i64,
        #[serde(default, deserialize_with = "non_null_by_schema")]
        optional: Option<i64>,
        #[serde(deserialize_with = "nullable_by_schema")]
        nullable: Option<i64>,
        #[serde(default, deserialize_with = "double_option_by_schema")]
        optional_nullable: Option<Option<i64>>,
        #[serde(default, deserialize_with = "non_null_by_schema")]
        items: Option<Vec<i64>>,
        #[serde(default, deserialize_with = "non_null_by_schema")]
        map: Option<BTreeMap<String, i64>>,
    }

    fn members(text: &str) -> Result<Members, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn member_helpers_keep_absent_null_and_whole_values_apart() {
        let all = members(
            r#"{"required":1.0,"optional":2e0,"nullable":3.0,"optional_nullable":4.0,
                "items":[5.0,6],"map":{"k":7e0}}"#,
        );
        assert_eq!(
            all,
            Ok(Members {
                required: 1,
                optional: Some(2),
                nullable: Some(3),
                optional_nullable: Some(Some(4)),
                items: Some(vec![5, 6]),
                map: Some(BTreeMap::from([("k".to_owned(), 7)])),
            })
        );
        let sparse = members(r#"{"required":1,"nullable":null,"optional_nullable":null}"#);
        assert_eq!(
            sparse,
            Ok(Members {
                required: 1,
                optional: None,
                nullable: None,
                optional_nullable: Some(None),
                items: None,
                map: None,
            })
        );
        let absent = members(r#"{"required":1,"nullable":null}"#).unwrap();
        assert_eq!(absent.optional_nullable, None);
    }

    #[test]
    fn member_helpers_refuse_what_the_schema_refuses() {
        for (text, reason) in [
            (r#"{"required":1.5,"nullable":null}"#, "expected an integer"),
            (
                r#"{"required":1,"optional":null,"nullable":null}"#,
                "expected an integer",
            ),
            (r#"{"required":1,"nullable":2.5}"#, "expected an integer"),
            (r#"{"required":1}"#, "missing field `nullable`"),
            (
                r#"{"required":1,"nullable":null,"items":{}}"#,
                "expected an array",
            ),
            (
                r#"{"required":1,"nullable":null,"items":[1.5]}"#,
                "expected an integer",
            ),
            (
                r#"{"required":1,"nullable":null,"map":[]}"#,
                "expected an object",
            ),
            (
                r#"{"required":1,"nullable":null,"map":{"k":"v"}}"#,
                "expected an integer",
            ),
        ] {
            let err = members(text).expect_err(text);
            assert!(err.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn integer_constants_accept_any_spelling_of_their_value_only() {
        #[derive(Debug, Deserialize)]
        struct Constant {
            #[serde(deserialize_with = "two")]
            #[allow(dead_code)]
            version: (),
        }
        fn two<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(), D::Error> {
            expect_integer(deserializer, 2)
        }
        let decode = |text: &str| {
            serde_json::from_str::<Constant>(&format!(r#"{{"version":{text}}}"#))
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        for text in ["2", "2.0", "20e-1"] {
            assert_eq!(decode(text), Ok(()), "{text}");
        }
        for (text, reason) in [
            ("3", "invalid value: integer 3, expected 2"),
            ("2.5", "expected an integer"),
            ("\"2\"", "expected an integer"),
        ] {
            let err = decode(text).expect_err(text);
            assert!(err.contains(reason), "{text}: {err}");
        }
    }

    #[test]
    fn encoding_is_the_plain_integer() {
        assert_eq!(serde_json::to_string(&BySchema(3_i64)).unwrap(), "3");
    }

    #[test]
    fn is_integer_agrees_with_the_decoder() {
        for text in [
            "0",
            "-0.0",
            "7.0",
            "1e15",
            "1.5",
            "1e16",
            "1e300",
            "18446744073709551615",
        ] {
            let number: serde_json::Number = serde_json::from_str(text).unwrap();
            let decodes = decode(text).is_ok();
            let out_of_i64 = text == "18446744073709551615";
            assert_eq!(is_integer(&number), decodes || out_of_i64, "{text}");
        }
    }
}
