//! [`RawJson`]: the JSON text of one value, captured as the deserializer read it.
//!
//! [`super::Integer`] keeps a number's text (`1e3` stays `1e3`) and the generated unions pick
//! their variant by looking at the text (see [`super::Shape`]) and then decode it, so both
//! need the text of the value being decoded rather than what serde's data model makes of it
//! (serde_json hands `1e3` and `18446744073709551616` over as `f64`s).
//!
//! serde_json's public way to capture that text is `serde_json::value::RawValue` (its
//! `raw_value` feature): deserializing a `RawValue` asks the deserializer for a newtype
//! struct under a name serde_json reserves, and serde_json's deserializers answer it with
//! the text instead of the value. [`RawJson`] asks the same question with a visitor of its
//! own, which takes what each deserializer gives:
//!
//! - **serde_json reading text** (`from_str`, `from_slice`, `from_reader`): the text exactly
//!   as sent, borrowed from the input when the input is borrowed (`from_str`, `from_slice`:
//!   no allocation), owned when it is read from an `io::Read`. A `&'de RawValue` would refuse
//!   the reader, and a `Box<RawValue>` would copy every capture;
//! - **a `serde_json::Value`** (`from_value`): the value's own text (`Value::to_string`), as
//!   serde_json's `RawValue` gets it. The value was parsed before the types saw it, so a
//!   number written `1e3` is already the `f64` `1000.0` there: the same value, another
//!   spelling (the loss happened in `Value`, not here);
//! - **any other deserializer** (serde's buffer inside a user's `#[serde(flatten)]` or
//!   `#[serde(untagged)]`, another format): it sees an ordinary newtype struct and hands the
//!   value over, which is collected into a `serde_json::Value` and written as its text, with
//!   the same loss. A `RawValue` would refuse such deserializers outright.
//!
//! The reserved name is serde_json's own (`$serde_json::private::RawValue`, the name
//! `RawValue` itself uses): the tests below decode through every path above, so a change on
//! serde_json's side shows up as a failing test here rather than as silently lost text.
//!
//! ```
//! use mcpwire_support::RawJson;
//! use serde::Deserialize;
//!
//! let raw: RawJson<'_> = serde_json::from_str(" 1e3 ").unwrap();
//! assert_eq!(raw.text(), "1e3");
//! let mut reader = serde_json::Deserializer::from_reader(&b"{\"a\": [1, 2.50]}"[..]);
//! assert_eq!(RawJson::deserialize(&mut reader).unwrap().text(), "{\"a\": [1, 2.50]}");
//! let value = serde_json::json!({"a": 1e3});
//! assert_eq!(RawJson::deserialize(value).unwrap().text(), "{\"a\":1000.0}");
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The name serde_json's deserializers answer with a value's raw text, and its serializers
/// write a value's raw text for (see the module documentation; [`crate::Json`] serializes
/// with it).
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The JSON text of one value (see the module documentation for what each deserializer
/// gives).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawJson<'de>(Cow<'de, str>);

impl<'de> RawJson<'de> {
    /// The text.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The text, borrowed from the input when it was.
    pub fn into_cow(self) -> Cow<'de, str> {
        self.0
    }
}

impl<'de> Deserialize<'de> for RawJson<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, RawVisitor)
    }
}

/// Takes the raw text from serde_json, or collects what any other deserializer hands over.
struct RawVisitor;

/// The `visit_*` methods of a `Visitor` that take a sequence, a boolean, a number, unit or
/// `None` as a `serde_json::Value` and hand it to `Self::$finish`, a function from that value
/// to the visitor's result (its text, for the visitors that keep text).
macro_rules! visit_as_value {
    ($finish:ident) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Self::$finish(Value::deserialize(de::value::SeqAccessDeserializer::new(
                seq,
            ))?)
        }

        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Self::$finish(Value::Bool(v))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Self::$finish(Value::from(v))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Self::$finish(Value::from(v))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            match serde_json::Number::from_f64(v) {
                Some(n) => Self::$finish(Value::Number(n)),
                None => Err(E::invalid_value(de::Unexpected::Float(v), &self)),
            }
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Self::$finish(Value::Null)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Self::$finish(Value::Null)
        }
    };
}
pub(crate) use visit_as_value;

impl RawVisitor {
    fn value_text<E>(value: Value) -> Result<RawJson<'static>, E> {
        Ok(RawJson(Cow::Owned(value.to_string())))
    }
}

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawJson<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some(first) = map.next_key::<Text<'de>>()? else {
            return Self::value_text(Value::Object(Map::new()));
        };
        if first.0 == RAW_VALUE_TOKEN {
            // serde_json's answer: one entry whose value is the text.
            return map.next_value::<Text<'de>>().map(|text| RawJson(text.0));
        }
        // A genuine map from another deserializer.
        let mut members = Map::new();
        members.insert(first.0.into_owned(), map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            members.insert(key, value);
        }
        Self::value_text(Value::Object(members))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        Self::value_text(Value::deserialize(deserializer)?)
    }

    visit_as_value!(value_text);

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Self::value_text(Value::from(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Self::value_text(Value::String(v))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Self::value_text(Value::deserialize(deserializer)?)
    }
}

/// A string, borrowed from the input when the deserializer lends it.
pub(super) struct Text<'de>(pub(super) Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IntoDeserializer;

    const TEXT: &str = r#"{"id":1e3,"big":18446744073709551616,"s":"a\"b","n":[1.50,-0]}"#;

    #[test]
    fn serde_json_text_is_captured_exactly_borrowed_or_owned() {
        let raw: RawJson<'_> = serde_json::from_str(TEXT).unwrap();
        assert!(matches!(raw.0, Cow::Borrowed(_)));
        assert_eq!(raw.text(), TEXT);
        let raw: RawJson<'_> = serde_json::from_slice(TEXT.as_bytes()).unwrap();
        assert!(matches!(raw.0, Cow::Borrowed(_)));
        assert_eq!(raw.text(), TEXT);
        let mut reader = serde_json::Deserializer::from_reader(TEXT.as_bytes());
        let raw = RawJson::deserialize(&mut reader).unwrap();
        assert!(matches!(raw.0, Cow::Owned(_)));
        assert_eq!(raw.text(), TEXT);
        // Through the wrappers the runtime decodes with.
        let mut de = serde_json::Deserializer::from_str(TEXT);
        let raw: RawJson<'_> = serde_path_to_error::deserialize(&mut de).unwrap();
        assert_eq!(raw.text(), TEXT);
    }

    #[test]
    fn other_deserializers_hand_over_the_value_as_its_text() {
        let value: Value = serde_json::from_str(TEXT).unwrap();
        let expected = value.to_string();
        assert_eq!(
            RawJson::deserialize(value.clone()).unwrap().text(),
            expected
        );
        assert_eq!(
            RawJson::deserialize(&value).unwrap().text(),
            expected,
            "&Value"
        );
        // serde's own value deserializers stand for any other format.
        let de: de::value::StrDeserializer<'_, serde_json::Error> = "x".into_deserializer();
        assert_eq!(RawJson::deserialize(de).unwrap().text(), "\"x\"");
        let de: de::value::U64Deserializer<serde_json::Error> = 7u64.into_deserializer();
        assert_eq!(RawJson::deserialize(de).unwrap().text(), "7");
        let map = std::collections::BTreeMap::from([("k", 1i64)]);
        let de: de::value::MapDeserializer<'_, _, serde_json::Error> = map.into_deserializer();
        assert_eq!(RawJson::deserialize(de).unwrap().text(), "{\"k\":1}");
    }

    #[test]
    fn inside_a_users_untagged_enum_the_value_still_decodes() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(untagged)]
        enum Either<'a> {
            #[serde(borrow)]
            Raw(RawJson<'a>),
        }
        let Either::Raw(raw) = serde_json::from_str::<Either<'_>>("[1, 2]").unwrap();
        assert_eq!(raw.text(), "[1,2]");
    }
}
