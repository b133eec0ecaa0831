//! Decoding a variant from the members a union captured ([`super::Shape::capture_object`]).
//!
//! [`lent`] hands the members over as a map, in the order they came: a decoded
//! string as that string, a raw member by a serde_json deserializer over its text (under the
//! depth rules of [`super::with_unbounded_depth`], counted from the member's value). The
//! variant's own `Deserialize` sees what it would see decoding the object's text, so its
//! errors (a missing member, a duplicate, a wrong type) are the same.
//! [`by_value`] does the same with the members by value: a string decoded while capturing is
//! handed over as an owned `String` (moved, not copied).

use std::borrow::Cow;

use serde::de::value::{BorrowedStrDeserializer, CowStrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::Members;
use super::capture::MemberValue;

/// A deserializer whose value is one map: every request is answered with that map.
pub(super) struct MapOf<A>(A);

impl<'de, A: MapAccess<'de, Error = serde_json::Error>> Deserializer<'de> for MapOf<A> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// A deserializer over captured members, lent: a map of them.
pub(super) fn lent<'m, 'a>(members: &'m Members<'a>) -> MapOf<MembersAccess<'m, 'a>> {
    MapOf(MembersAccess {
        entries: members.entries().iter(),
        value: None,
    })
}

/// The map of [`lent`].
pub(super) struct MembersAccess<'m, 'a> {
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
            Some(MemberValue::Str(text)) => {
                seed.deserialize(StrValue(Cow::Borrowed(text.as_ref())))
            }
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

/// A deserializer over captured members taken by value (see [`super::Variant`]): a map of
/// them, as [`lent`], each string moved into the value it decodes to. Every raw member must
/// be borrowed from the input (`'de`).
pub(super) fn by_value(members: Members<'_>) -> MapOf<OwnedMembersAccess<'_>> {
    MapOf(OwnedMembersAccess {
        entries: members.into_entries().into_iter(),
        value: None,
    })
}

/// The map of [`by_value`].
pub(super) struct OwnedMembersAccess<'de> {
    entries: std::vec::IntoIter<(Cow<'de, str>, MemberValue<'de>)>,
    value: Option<MemberValue<'de>>,
}

impl<'de> MapAccess<'de> for OwnedMembersAccess<'de> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let Some((name, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        match name {
            Cow::Borrowed(name) => seed.deserialize(BorrowedStrDeserializer::new(name)),
            Cow::Owned(name) => seed.deserialize(StringDeserializer::new(name)),
        }
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(MemberValue::Str(text)) => seed.deserialize(StrValue(text)),
            Some(MemberValue::Raw(Cow::Borrowed(text))) => super::depth::decode_member(text, seed),
            Some(MemberValue::Raw(Cow::Owned(_))) => Err(de::Error::custom(
                "a member's raw text does not outlive the members taken by value",
            )),
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
/// itself for an `Option`, a unit variant for an enum, its text for a newtype. A borrowed one
/// is lent for `'de`, an owned one handed over by value.
struct StrValue<'de>(Cow<'de, str>);

impl<'de> Deserializer<'de> for StrValue<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
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
        CowStrDeserializer::<Self::Error>::new(self.0).deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}
