//! serde_json as the independent judge of JSON text.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

/// Whether serde_json accepts `bytes` as exactly one JSON value (any depth; lone surrogate
/// escapes are valid JSON text and accepted).
pub fn serde_json_accepts(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    IgnoredAny::deserialize(serde_stacker::Deserializer::new(&mut deserializer)).is_ok()
        && deserializer.end().is_ok()
}

/// Parses `bytes` as a JSON value of any depth.
pub fn parse(bytes: &[u8]) -> Option<Value> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    deserializer.disable_recursion_limit();
    let value = Value::deserialize(serde_stacker::Deserializer::new(&mut deserializer)).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// The members of an object as (unescaped key, raw value text), duplicates kept, in order.
pub fn raw_members(text: &str) -> Option<Vec<(String, &str)>> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, &'de str)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while let Some((key, value)) = map.next_entry::<String, &'de RawValue>()? {
                members.push((key, value.get()));
            }
            Ok(members)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let members = de::Deserializer::deserialize_map(&mut deserializer, Members).ok()?;
    deserializer.end().ok()?;
    Some(members)
}

/// The raw texts of the `id` members of the object `text` (none when it is not an object).
pub fn id_texts(text: &str) -> Vec<&str> {
    raw_members(text)
        .unwrap_or_default()
        .into_iter()
        .filter(|(key, _)| key == "id")
        .map(|(_, value)| value)
        .collect()
}

/// Whether the object `text` has a member named `key`.
pub fn has_member(text: &str, key: &str) -> bool {
    raw_members(text)
        .unwrap_or_default()
        .iter()
        .any(|(k, _)| k == key)
}
