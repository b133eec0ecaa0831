//! serde_json as the independent judge of JSON text. Every reader here lifts serde_json's
//! recursion limit and grows the stack as needed, so deep input is judged, not refused.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// Runs `read` on a deserializer over `text` without a depth limit; `None` when it fails or
/// text follows the value.
fn read<'de, T>(
    text: &'de str,
    read: impl FnOnce(
        serde_stacker::Deserializer<&mut serde_json::Deserializer<serde_json::de::StrRead<'de>>>,
    ) -> Result<T, serde_json::Error>,
) -> Option<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = read(serde_stacker::Deserializer::new(&mut deserializer)).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// Whether serde_json accepts `bytes` as exactly one JSON value (any depth; lone surrogate
/// escapes are valid JSON text and accepted, as are numbers too large for an `f64`).
pub fn serde_json_accepts(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes)
        .is_ok_and(|text| read(text, |d| IgnoredAny::deserialize(d)).is_some())
}

/// The members of an object as (unescaped key, raw value text), duplicates kept, in order;
/// `None` when `text` is not one JSON object.
pub fn raw_members(text: &str) -> Option<Vec<(String, &str)>> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, &'de str)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while let Some((key, value)) = map.next_entry::<Key, &'de RawValue>()? {
                members.push((key.0, value.get()));
            }
            Ok(members)
        }
    }
    read(text, |d| de::Deserializer::deserialize_map(d, Members))
}

/// A member name, unescaped. Read as bytes, because serde_json refuses a `String` holding
/// an unpaired surrogate escape while the grammar allows it in names; such a name (lossily
/// converted) can never equal an envelope key.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl Visitor<'_> for Bytes {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Key, E> {
                Ok(Key(String::from_utf8_lossy(bytes).into_owned()))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Key, E> {
                Ok(Key(text.to_owned()))
            }
        }
        deserializer.deserialize_bytes(Bytes)
    }
}

/// The raw texts of the elements of an array; `None` when `text` is not one JSON array.
pub fn raw_elements(text: &str) -> Option<Vec<&str>> {
    struct Elements;
    impl<'de> Visitor<'de> for Elements {
        type Value = Vec<&'de str>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut elements = Vec::new();
            while let Some(value) = seq.next_element::<&'de RawValue>()? {
                elements.push(value.get());
            }
            Ok(elements)
        }
    }
    read(text, |d| de::Deserializer::deserialize_seq(d, Elements))
}

/// The raw texts of the `id` members of the object `text` (none when it is not an object).
pub fn id_texts(text: &str) -> Vec<&str> {
    member_texts(text, "id")
}

/// The raw texts of the members named `key` of the object `text`.
pub fn member_texts<'t>(text: &'t str, key: &str) -> Vec<&'t str> {
    raw_members(text)
        .unwrap_or_default()
        .into_iter()
        .filter(|(k, _)| k == key)
        .map(|(_, value)| value)
        .collect()
}

/// Whether the object `text` has a member named `key`.
pub fn has_member(text: &str, key: &str) -> bool {
    !member_texts(text, key).is_empty()
}
