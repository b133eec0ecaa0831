//! Reading a union's object once: its members as the union needs them to choose and decode.
//!
//! A union whose every variant is an object does not need its value's whole text: it reads
//! the object one level deep from the deserializer ([`Shape::capture_object`]) and keeps
//!
//! - the members the generator listed as **strings** (a member that every variant declaring
//!   it declares as a string, a string enum or a string constant, such as `type`, `method`,
//!   `uri`, `text`, `blob`) as the decoded string ([`MemberValue::Str`]), borrowed from the
//!   input when the deserializer lends it. A long text is then read once, as a direct decode
//!   of the variant would read it, instead of once to capture, once to scan and once to
//!   decode;
//! - every other member as its raw text ([`MemberValue::Raw`], see [`super::RawJson`]), so
//!   an `integer` anywhere inside keeps its spelling and a nested union captures in turn.
//!
//! A listed member holding something other than a string cannot match a variant that
//! declares it, so only a variant that keeps it as an undeclared member (a
//! [`crate::Json`]) can take it: it is kept as the compact text of the value serde_json reads
//! (`1e3` becomes `1000.0`, the same value). The generator lists no member when some variant
//! keeps undeclared members as a typed value.
//!
//! The chosen variant then decodes from the members ([`super::Variant::decode`]).
//!
//! ```
//! use mcpwire_support::{MemberValue, Shape};
//!
//! let text = r#"{"uri":"a:b","text":"x\ny","size":1e3}"#;
//! let mut de = serde_json::Deserializer::from_str(text);
//! let shape = Shape::capture_object(&mut de, &["uri", "text"]).unwrap();
//! let Shape::Object(members) = shape else { panic!("an object") };
//! assert!(matches!(members.value("text"), Some(MemberValue::Str(s)) if s == "x\ny"));
//! assert!(matches!(members.value("size"), Some(MemberValue::Raw(r)) if r == "1e3"));
//! ```

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::raw::{Text, visit_as_value};
use super::shape::Items;
use super::{Members, RawJson, Shape};

/// One member's value as a union keeps it (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberValue<'a> {
    /// The member's JSON text.
    Raw(Cow<'a, str>),
    /// A string member, decoded.
    Str(Cow<'a, str>),
}

impl<'a> Shape<'a> {
    /// Reads one value from `deserializer`: an object one level deep, its `strings` members
    /// decoded and the others as raw text (see the module documentation); any other value
    /// only as its JSON type (an array without its items), for the error that names it.
    pub fn capture_object<D: Deserializer<'a>>(
        deserializer: D,
        strings: &'static [&'static str],
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ObjectCapture { strings })
    }
}

/// The visitor of [`Shape::capture_object`].
struct ObjectCapture {
    strings: &'static [&'static str],
}

impl<'de> Visitor<'de> for ObjectCapture {
    type Value = Shape<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(8).min(32));
        while let Some(Text(name)) = map.next_key::<Text<'de>>()? {
            let value = if self.strings.contains(&name.as_ref()) {
                map.next_value_seed(StringMember)?
            } else {
                MemberValue::Raw(map.next_value::<RawJson<'de>>()?.into_cow())
            };
            members.push((name, value));
        }
        Ok(Shape::Object(Members::from_values(members)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape<'de>, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Shape::Array(Items::empty()))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Shape<'de>, E> {
        Ok(Shape::String)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape<'de>, E> {
        Ok(Shape::Bool)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape<'de>, E> {
        Ok(Shape::Integer)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape<'de>, E> {
        Ok(Shape::Integer)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Shape<'de>, E> {
        Ok(if v.is_finite() && v.fract() == 0.0 {
            Shape::Integer
        } else {
            Shape::Number
        })
    }

    fn visit_unit<E: de::Error>(self) -> Result<Shape<'de>, E> {
        Ok(Shape::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Shape<'de>, E> {
        Ok(Shape::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Shape<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Shape<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Reads a listed member: its string, or the text of whatever else it holds.
struct StringMember;

impl<'de> DeserializeSeed<'de> for StringMember {
    type Value = MemberValue<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl StringMember {
    fn other<E>(value: Value) -> Result<MemberValue<'static>, E> {
        Ok(MemberValue::Raw(Cow::Owned(value.to_string())))
    }
}

impl<'de> Visitor<'de> for StringMember {
    type Value = MemberValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(MemberValue::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(MemberValue::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(MemberValue::Str(Cow::Owned(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Self::other(Value::deserialize(de::value::MapAccessDeserializer::new(
            map,
        ))?)
    }

    visit_as_value!(other);

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture<'a>(text: &'a str, strings: &'static [&'static str]) -> Shape<'a> {
        let mut de = serde_json::Deserializer::from_str(text);
        let shape = Shape::capture_object(&mut de, strings).unwrap();
        de.end().unwrap();
        shape
    }

    #[test]
    fn listed_strings_are_decoded_once_and_borrowed_when_they_can_be() {
        let text = r#"{"a":"plain","b":"esc\"aped","c":{"n":1e3},"d":[1,2.50],"a":"again"}"#;
        let Shape::Object(members) = capture(text, &["a", "b"]) else {
            panic!("an object")
        };
        assert!(matches!(
            members.value("b"),
            Some(MemberValue::Str(Cow::Owned(s))) if s == "esc\"aped"
        ));
        // The last of a repeated member, as everywhere else.
        assert!(matches!(
            members.value("a"),
            Some(MemberValue::Str(Cow::Borrowed("again")))
        ));
        assert_eq!(
            members.value("c"),
            Some(&MemberValue::Raw(Cow::Borrowed(r#"{"n":1e3}"#)))
        );
        assert_eq!(
            members.value("d"),
            Some(&MemberValue::Raw(Cow::Borrowed("[1,2.50]")))
        );
        assert_eq!(members.str_member("b").as_deref(), Some("esc\"aped"));
        assert!(members.has_nested("c", "n"));
    }

    #[test]
    fn a_listed_member_holding_no_string_keeps_its_value_as_text() {
        let Shape::Object(members) = capture(r#"{"a":{"x":[true,null]},"b":7}"#, &["a", "b"])
        else {
            panic!("an object")
        };
        assert_eq!(
            members.value("a"),
            Some(&MemberValue::Raw(Cow::Owned(r#"{"x":[true,null]}"#.into())))
        );
        assert_eq!(members.int_member("b"), Some(7));
        assert!(members.has_nested("a", "x"));
    }

    #[test]
    fn other_values_are_named_by_their_json_type() {
        for (text, name) in [
            ("[1,[2],{}]", "an array"),
            ("\"s\"", "a string"),
            ("7", "an integer"),
            ("2.0", "an integer"),
            ("2.5", "a number"),
            ("true", "a boolean"),
            ("null", "null"),
        ] {
            assert_eq!(capture(text, &[]).token_name(), name, "{text}");
        }
    }

    #[test]
    fn a_reader_and_a_value_hand_over_owned_members() {
        let text = r#"{"a":"s","b":[1e3]}"#;
        let mut de = serde_json::Deserializer::from_reader(text.as_bytes());
        let Shape::Object(members) = Shape::capture_object(&mut de, &["a"]).unwrap() else {
            panic!("an object")
        };
        assert_eq!(members.str_member("a").as_deref(), Some("s"));
        assert_eq!(
            members.value("b"),
            Some(&MemberValue::Raw(Cow::Owned("[1e3]".into())))
        );
        let value: Value = serde_json::from_str(text).unwrap();
        let Shape::Object(members) = Shape::capture_object(value, &["a"]).unwrap() else {
            panic!("an object")
        };
        assert_eq!(members.str_member("a").as_deref(), Some("s"));
        assert_eq!(
            members.value("b"),
            Some(&MemberValue::Raw(Cow::Owned("[1000.0]".into())))
        );
    }
}
