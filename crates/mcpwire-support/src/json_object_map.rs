//! [`JsonObjectMap`]: an object whose every member is itself an object with any members
//! (`{"type":"object","additionalProperties":{"type":"object"}}`), kept as one text.
//!
//! Such maps are where a schema leaves room for whole documents: the `properties` of a tool's
//! input and output schemas (one JSON Schema per argument), the `experimental` capabilities.
//! As a `BTreeMap<String, JsonObject>` each member would cost a key string, a text and a share
//! of a tree node when decoded, and a `tools/list` result holds dozens of them; a client
//! listing tools rarely looks inside. [`JsonObjectMap`] keeps the map as the text it came as,
//! checks on decoding that every member is an object (as the schema requires, and naming the
//! member that is not), and gives the members as a map when asked ([`JsonObjectMap::to_map`],
//! [`JsonObjectMap::get`]). Like [`JsonObject`], encoding writes the text back unchanged.
//!
//! ```
//! use mcpwire_support::{JsonObject, JsonObjectMap};
//!
//! let text = r#"{"query": {"type": "string"}, "limit": {"maximum": 1e2}}"#;
//! let properties: JsonObjectMap = serde_json::from_str(text).unwrap();
//! assert_eq!(serde_json::to_string(&properties).unwrap(), text);
//! assert_eq!(properties.get("limit").unwrap().text(), r#"{"maximum": 1e2}"#);
//! assert_eq!(properties.to_map().unwrap().len(), 2);
//!
//! let err = serde_json::from_str::<JsonObjectMap>(r#"{"query": "string"}"#).unwrap_err();
//! assert!(err.to_string().starts_with("member `query`: invalid type: string"), "{err}");
//!
//! // Built from members, as the generated setters take it.
//! let built = JsonObjectMap::from_iter([("query", JsonObject::from_text(r#"{"type":"string"}"#).unwrap())]);
//! assert_eq!(built.text(), r#"{"query":{"type":"string"}}"#);
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::JsonObject;
use crate::first_non_object_member;
use crate::json::text_newtype_impls;

/// A JSON object whose members are all objects, kept as its text (see the
/// [crate documentation](crate)).
#[derive(Clone, PartialEq, Default)]
pub struct JsonObjectMap(JsonObject);

impl JsonObjectMap {
    /// Checks that `text` is one JSON object whose members are all objects (surrounding
    /// whitespace allowed and dropped) and keeps it.
    ///
    /// ```
    /// use mcpwire_support::JsonObjectMap;
    /// assert!(JsonObjectMap::from_text(r#"{"a": {}}"#).is_ok());
    /// assert!(JsonObjectMap::from_text(r#"{"a": []}"#).is_err());
    /// ```
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        Self::from_object(JsonObject::from_text(text)?)
    }

    /// An empty map, `{}`.
    pub fn new() -> Self {
        JsonObjectMap(JsonObject::new())
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        self.0.text()
    }

    /// The map as the [`JsonObject`] it is.
    pub fn as_object(&self) -> &JsonObject {
        &self.0
    }

    /// Whether the map has no members.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The members, each kept as its text (a repeated name keeps its last value, as
    /// serde_json's maps do).
    pub fn to_map(&self) -> Result<BTreeMap<String, JsonObject>, serde_json::Error> {
        serde_json::from_str(self.text())
    }

    /// The member `name`, when there is one.
    pub fn get(&self, name: &str) -> Option<JsonObject> {
        self.to_map().ok()?.remove(name)
    }

    fn from_object<E: de::Error>(object: JsonObject) -> Result<Self, E> {
        match first_non_object_member(object.text()) {
            None => Ok(JsonObjectMap(object)),
            Some((name, value)) => Err(E::custom(format_args!(
                "member `{name}`: {}",
                E::invalid_type(crate::json::unexpected(value), &"a JSON object")
            ))),
        }
    }
}

impl From<BTreeMap<String, JsonObject>> for JsonObjectMap {
    fn from(members: BTreeMap<String, JsonObject>) -> Self {
        members.into_iter().collect()
    }
}

impl<K: Into<String>> FromIterator<(K, JsonObject)> for JsonObjectMap {
    /// The map of these members, in the order their names first came: a repeated name is
    /// written once, with its last value, where it first came (the text never holds a name
    /// twice, which JSON leaves to each reader to resolve).
    fn from_iter<I: IntoIterator<Item = (K, JsonObject)>>(members: I) -> Self {
        let mut unique: Vec<(String, JsonObject)> = Vec::new();
        let mut position: HashMap<String, usize> = HashMap::new();
        for (name, value) in members {
            let name = name.into();
            match position.get(&name) {
                Some(&at) => unique[at].1 = value,
                None => {
                    position.insert(name.clone(), unique.len());
                    unique.push((name, value));
                }
            }
        }
        let mut text = String::from("{");
        for (name, value) in unique {
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&Value::String(name).to_string());
            text.push(':');
            text.push_str(value.text());
        }
        text.push('}');
        JsonObjectMap(JsonObject::from_written_text(text))
    }
}

impl TryFrom<JsonObject> for JsonObjectMap {
    type Error = serde_json::Error;

    /// The object, when its members are all objects.
    fn try_from(object: JsonObject) -> Result<Self, Self::Error> {
        Self::from_object(object)
    }
}

impl TryFrom<Value> for JsonObjectMap {
    type Error = serde_json::Error;

    /// The value's text, when it is an object whose members are all objects.
    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_object(JsonObject::try_from(value)?)
    }
}

text_newtype_impls!(JsonObjectMap);

impl<'de> Deserialize<'de> for JsonObjectMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_object(JsonObject::deserialize(deserializer)?)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for JsonObjectMap {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ObjectOfObjects".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object", "additionalProperties": {"type": "object"}})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TEXT: &str =
        r#"{ "q" : {"type":"string","x":1e3} , "a\"b": { }, "n": {"d":{"e":[{}]}} }"#;

    #[test]
    fn the_text_is_kept_and_written_back_unchanged() {
        let map: JsonObjectMap = serde_json::from_str(TEXT).unwrap();
        assert_eq!(map.text(), TEXT);
        assert_eq!(serde_json::to_string(&map).unwrap(), TEXT);
        let members = map.to_map().unwrap();
        assert_eq!(
            members.keys().collect::<Vec<_>>(),
            ["a\"b", "n", "q"].iter().collect::<Vec<_>>()
        );
        assert_eq!(map.get("q").unwrap().text(), r#"{"type":"string","x":1e3}"#);
        assert!(map.get("a\"b").unwrap().is_empty());
        assert!(map.get("missing").is_none());
        assert!(!map.is_empty());
        assert!(JsonObjectMap::from_text(" { } ").unwrap().is_empty());
    }

    #[test]
    fn a_member_that_is_not_an_object_is_refused_by_name() {
        for (text, member, found) in [
            (r#"{"a":{},"b":[1]}"#, "b", "sequence"),
            (r#"{"a":"x"}"#, "a", "string"),
            (r#"{"a":{}, "b\"c" : null}"#, "b\\\"c", "null"),
            (r#"{"a":1.5}"#, "a", "number"),
            (r#"{"a":true}"#, "a", "boolean `true`"),
        ] {
            let err = serde_json::from_str::<JsonObjectMap>(text).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("member `{member}`: invalid type: {found}, expected a JSON object"),
                "{text}"
            );
            assert!(JsonObjectMap::from_text(text).is_err(), "{text}");
        }
        let err = serde_json::from_str::<JsonObjectMap>("[]").unwrap_err();
        assert!(err.to_string().contains("expected a JSON object"), "{err}");
        assert!(JsonObjectMap::try_from(json!({"a": []})).is_err());
        assert!(JsonObjectMap::try_from(json!({"a": {"b": 1}})).is_ok());
    }

    #[test]
    fn a_value_decodes_as_its_compact_text() {
        let value = json!({"q": {"type": "string"}, "n": {}});
        let map = JsonObjectMap::deserialize(value.clone()).unwrap();
        assert_eq!(map.text(), value.to_string());
        assert_eq!(
            map,
            serde_json::from_str::<JsonObjectMap>(&value.to_string()).unwrap()
        );
        assert!(JsonObjectMap::deserialize(json!({"q": 1})).is_err());
    }

    #[test]
    fn built_maps_are_the_objects_of_their_members() {
        let members = BTreeMap::from([
            (
                "b\"".to_owned(),
                JsonObject::from_text("{\"x\": 1e3}").unwrap(),
            ),
            ("a".to_owned(), JsonObject::new()),
        ]);
        let map = JsonObjectMap::from(members.clone());
        assert_eq!(map.text(), r#"{"a":{},"b\"":{"x": 1e3}}"#);
        assert_eq!(map.to_map().unwrap(), members);
        assert_eq!(JsonObjectMap::new().text(), "{}");
        assert_eq!(JsonObjectMap::default(), JsonObjectMap::new());
    }

    #[test]
    fn a_repeated_name_is_written_once_with_its_last_value_where_it_first_came() {
        let object = |text: &str| JsonObject::from_text(text).unwrap();
        let map: JsonObjectMap = [
            ("z", object(r#"{"first":1}"#)),
            ("a", object("{}")),
            ("z", object(r#"{"last":2}"#)),
        ]
        .into_iter()
        .collect();
        assert_eq!(map.text(), r#"{"z":{"last":2},"a":{}}"#);
        assert_eq!(map.get("z").unwrap().text(), r#"{"last":2}"#);
    }
}
