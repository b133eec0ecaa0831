//! Decoding a variant from the members a union captured ([`super::Shape::capture_object`]).
//!
//! [`MembersDeserializer`] hands the members over as a map, in the order they came: a decoded
//! string as that string, a raw member by a serde_json deserializer over its text (under the
//! depth rules of [`super::with_unbounded_depth`], counted from the member's value). The
//! variant's own `Deserialize` sees what it would see decoding the object's text, so its
//! errors (a missing member, a duplicate, a wrong type) are the same.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::Members;
use super::capture::MemberValue;

/// A deserializer over captured members: a map of them.
pub(super) struct MembersDeserializer<'m, 'a>(pub(super) &'m Members<'a>);

impl<'de> Deserializer<'de> for MembersDeserializer<'de, '_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(MembersAccess {
            entries: self.0.entries().iter(),
            value: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The map of [`MembersDeserializer`].
struct MembersAccess<'m, 'a> {
    entries: std::slice::Iter<'m, (std::borrow::Cow<'a, str>, MemberValue<'a>)>,
    value: Option<&'m MemberValue<'a>>,
}

impl<'de> MapAccess<'de> for MembersAccess<'de, '_> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((name, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(name.as_ref()))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(MemberValue::Str(text)) => seed.deserialize(StrValue(text)),
            Some(MemberValue::Raw(text)) => super::depth::decode_member(text, seed),
            None => Err(de::Error::custom(
                "a member's value was asked for before its name",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A decoded string member, as serde_json would hand the same JSON string over: `Some` of
/// itself for an `Option`, a unit variant for an enum, its text for a newtype.
struct StrValue<'de>(&'de str);

impl<'de> Deserializer<'de> for StrValue<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        BorrowedStrDeserializer::<Self::Error>::new(self.0)
            .deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}
