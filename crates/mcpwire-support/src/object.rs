//! Member names of the generated structs' hand-written `Deserialize` impls.
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

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Visitor};

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
