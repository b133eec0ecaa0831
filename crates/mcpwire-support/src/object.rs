//! Decoding a generated struct: its `Deserialize` is one call to [`decode_object`], which
//! reads the struct's [`ObjectTable`] (the member names and one arm per member).
//!
//! A generated struct reads its members one by one from the map the deserializer hands it:
//! [`MemberName`] turns each key into the index of a declared member, without allocating, or
//! into the owned name of an undeclared one, which the struct keeps (or refuses, under
//! `additionalProperties: false`). No member is buffered on the way, unlike
//! `#[serde(flatten)]`.
//!
//! The index comes from a lookup function the generator writes for each struct, a `match` on
//! the name: the compiler turns it into a length test and a few word compares per candidate,
//! where a search through the list of names would call `memcmp` for each.
//!
//! ```
//! use serde::de::DeserializeSeed;
//! use mcpwire_support::{Member, MemberName};
//!
//! fn declared(name: &str) -> Option<usize> {
//!     match name {
//!         "name" => Some(0),
//!         "title" => Some(1),
//!         _ => None,
//!     }
//! }
//! let names = MemberName(declared);
//! let key = serde_json::Value::from("title");
//! assert_eq!(names.deserialize(&key).unwrap(), Member::Declared(1));
//! let key = serde_json::Value::from("x-extra");
//! assert_eq!(names.deserialize(&key).unwrap(), Member::Undeclared("x-extra".into()));
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

/// A key of an object a generated struct decodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Member {
    /// The declared member at this index of the struct's member list.
    Declared(usize),
    /// A member the schema does not declare, by name.
    Undeclared(String),
}

/// Reads a key as a [`Member`], by a function giving the index of a declared member's name
/// (`None` for any other name).
#[derive(Debug, Clone, Copy)]
pub struct MemberName(pub fn(&str) -> Option<usize>);

impl MemberName {
    fn find(self, name: &str) -> Option<usize> {
        (self.0)(name)
    }
}

impl<'de> DeserializeSeed<'de> for MemberName {
    type Value = Member;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl Visitor<'_> for MemberName {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Member, E> {
        Ok(match self.find(name) {
            Some(index) => Member::Declared(index),
            None => Member::Undeclared(name.to_owned()),
        })
    }

    fn visit_string<E: serde::de::Error>(self, name: String) -> Result<Member, E> {
        Ok(match self.find(&name) {
            Some(index) => Member::Declared(index),
            None => Member::Undeclared(name),
        })
    }
}

/// A generated struct's member table: what [`decode_object`] needs to decode it.
///
/// The generator writes one impl per struct: the member names, the lookup of a declared
/// name, the slots the members are decoded into (a tuple of `Option`s, one per declared
/// member), one arm per member reading its value ([`read_member`]) and the struct built from
/// the slots ([`required_member`] for a required one).
pub trait ObjectTable<'de>: Sized {
    /// The definition's name, for the `expecting` message (`an object (Name)`).
    const NAME: &'static str;
    /// The declared member names, for the error of a refused undeclared member.
    const MEMBERS: &'static [&'static str];
    /// Whether undeclared members are kept in [`ObjectTable::Extra`] values (else refused,
    /// under `additionalProperties: false`).
    const KEEPS_UNDECLARED: bool;
    /// The slots the declared members are decoded into, each `None` until its member comes.
    type Slots;
    /// The type of a kept undeclared member's value.
    type Extra: Deserialize<'de>;

    /// Every slot empty.
    fn empty() -> Self::Slots;
    /// The index of a declared member's name (see [`MemberName`]).
    fn declared(name: &str) -> Option<usize>;
    /// Decodes the value of the declared member at `index` into its slot.
    fn read<A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        index: usize,
        map: &mut A,
    ) -> Result<(), A::Error>;
    /// The struct from its filled slots and its kept undeclared members; an error names a
    /// missing required member.
    fn build<E: serde::de::Error>(
        slots: Self::Slots,
        extra: BTreeMap<String, Self::Extra>,
    ) -> Result<Self, E>;
}

/// Decodes a generated struct by its [`ObjectTable`]: the members one by one, each declared
/// one into its slot (a duplicate is refused), an undeclared one kept or refused, then the
/// struct built (a missing required member is refused).
pub fn decode_object<'de, T: ObjectTable<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer.deserialize_map(ObjectVisitor::<T>(PhantomData))
}

/// The visitor of [`decode_object`].
struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: ObjectTable<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object ({})", T::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut slots = T::empty();
        let mut extra = BTreeMap::new();
        while let Some(member) = map.next_key_seed(MemberName(T::declared))? {
            match member {
                Member::Declared(index) => T::read(&mut slots, index, &mut map)?,
                Member::Undeclared(name) if T::KEEPS_UNDECLARED => {
                    let value = map.next_value::<T::Extra>()?;
                    extra.insert(name, value);
                }
                Member::Undeclared(name) => {
                    return Err(A::Error::unknown_field(&name, T::MEMBERS));
                }
            }
        }
        T::build(slots, extra)
    }
}

/// Decodes the value of declared member `name` into its `slot`; a second one is refused
/// (``duplicate field `name` ``).
#[inline]
pub fn read_member<'de, V: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<V>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(A::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value::<V>()?);
    Ok(())
}

/// The value of required member `name`, or ``missing field `name` ``.
#[inline]
pub fn required_member<V, E: serde::de::Error>(
    slot: Option<V>,
    name: &'static str,
) -> Result<V, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// The error of an object that has every one of `members` although the schema's
/// `not: {"required": [...]}` forbids them all at once.
pub fn all_present_error<E: serde::de::Error>(members: &[&str]) -> E {
    let listed: Vec<String> = members.iter().map(|m| format!("`{m}`")).collect();
    E::custom(format_args!(
        "the members {} may not all be present (`not: {{\"required\": …}}`)",
        listed.join(", ")
    ))
}
