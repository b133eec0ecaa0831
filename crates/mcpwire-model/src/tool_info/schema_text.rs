//! [`SchemaText`]: a JSON Schema (a tool's `inputSchema` or `outputSchema`) kept as the JSON
//! text it came as, and parsed into a `serde_json::Value` only when someone looks inside.
//!
//! A `tools/list` page is mostly schemas, and a client listing tools rarely reads them: it
//! shows names and descriptions, or hands the schema on to a model as text. Building a tree
//! of maps and strings for every schema of every page costs more than reading the page, so a
//! listed tool keeps each schema as the text the server wrote: exactly as sent (member
//! order, number spelling, escapes and whitespace inside), with no copy but one. The tree is
//! built the first time a member is asked for ([`SchemaText::get`], [`SchemaText::value`],
//! indexing) and kept, so it is built at most once per value; [`SchemaText::parse`] decodes
//! the text straight into a type of the caller's.
//!
//! The text is always one JSON object: what is read from a server was checked by the
//! version's generated type, what is built here is checked or written as one. Building the
//! tree can still fail where the text is valid JSON that `serde_json::Value` cannot hold: a
//! schema nested deeper than serde_json's 128-level recursion limit, or a number beyond
//! `f64`'s range (`1e400`); [`SchemaText::value`] then gives serde_json's error (every time:
//! the failure is kept too).
//!
//! ```
//! use mcpwire_model::SchemaText;
//!
//! let schema = SchemaText::from_text(r#"{"type": "object", "required": ["a"], "x": 1e3}"#).unwrap();
//! assert_eq!(schema.as_str(), r#"{"type": "object", "required": ["a"], "x": 1e3}"#);
//! assert!(!schema.is_parsed());
//! assert_eq!(schema["required"][0], "a");
//! assert!(schema.is_parsed());
//! assert_eq!(schema.get("type").and_then(|t| t.as_str()), Some("object"));
//! assert!(schema["missing"].is_null());
//! // Written back as it came.
//! assert_eq!(serde_json::to_string(&schema).unwrap(), schema.as_str());
//! assert!(SchemaText::from_text("[1]").is_err());
//! ```

use std::fmt;
use std::ops::Index;
use std::sync::OnceLock;

use mcpwire_types::{Json, JsonObject};
use serde::de::{DeserializeOwned, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A JSON Schema kept as its JSON text (always one object), parsed into a
/// `serde_json::Value` at most once, the first time it is looked inside (see the
/// [module documentation](self)).
///
/// A clone copies the text, not the parsed tree: the clone parses again if asked.
pub struct SchemaText {
    /// The text, checked to be one JSON object.
    text: JsonObject,
    /// The tree, once built (or why it cannot be).
    parsed: OnceLock<Result<Value, serde_json::Error>>,
}

impl SchemaText {
    /// Checks that `text` is one JSON object (surrounding whitespace allowed and dropped)
    /// and keeps it as it is.
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        JsonObject::from_text(text).map(Self::from)
    }

    /// The JSON text, exactly as received (or as written from a `Map`: compact).
    pub fn as_str(&self) -> &str {
        self.text.text()
    }

    /// The schema as a `serde_json::Value` (an object), built from the text the first time
    /// and kept; serde_json's error when the text is deeper than its recursion limit or
    /// holds a number `f64` cannot.
    pub fn value(&self) -> Result<&Value, &serde_json::Error> {
        self.parsed.get_or_init(|| self.text.to_value()).as_ref()
    }

    /// The schema's members (see [`SchemaText::value`]).
    pub fn members(&self) -> Result<&Map<String, Value>, &serde_json::Error> {
        self.value()
            .map(|value| value.as_object().expect("the text is a JSON object"))
    }

    /// The member `name`, or `None` when the schema has none (or cannot be parsed into a
    /// `Value`, see [`SchemaText::value`]).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.members().ok()?.get(name)
    }

    /// The schema as an owned `serde_json::Value` (a copy of the parsed tree).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        match self.value() {
            Ok(value) => Ok(value.clone()),
            Err(_) => self.text.to_value(),
        }
    }

    /// Decodes the text as a `T` of the caller's, straight from the text (with serde_json's
    /// recursion limit), without building or using the `Value`.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        self.text.parse()
    }

    /// Whether the `Value` has been built (by [`SchemaText::value`] or anything calling it).
    pub fn is_parsed(&self) -> bool {
        self.parsed.get().is_some()
    }
}

impl Clone for SchemaText {
    fn clone(&self) -> Self {
        Self::from(self.text.clone())
    }
}

impl From<JsonObject> for SchemaText {
    /// The object's text, kept as it is.
    fn from(text: JsonObject) -> Self {
        Self {
            text,
            parsed: OnceLock::new(),
        }
    }
}

impl From<Map<String, Value>> for SchemaText {
    /// The members written as compact JSON text; the map is kept as the parsed tree.
    fn from(members: Map<String, Value>) -> Self {
        let value = Value::Object(members);
        let text = JsonObject::try_from(Json::from_value(&value)).expect("an object's text");
        Self {
            text,
            parsed: OnceLock::from(Ok(value)),
        }
    }
}

impl TryFrom<Value> for SchemaText {
    type Error = serde_json::Error;

    /// The value written as compact JSON text, when it is an object.
    fn try_from(value: Value) -> Result<Self, Self::Error> {
        match value {
            Value::Object(members) => Ok(Self::from(members)),
            other => JsonObject::try_from(other).map(Self::from),
        }
    }
}

impl PartialEq for SchemaText {
    /// Equal texts, or texts that parse to equal values (`{"a": 1}` equals `{"a":1}`).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
            || matches!((self.value(), other.value()), (Ok(a), Ok(b)) if a == b)
    }
}

impl PartialEq<Value> for SchemaText {
    /// Whether the text parses to `other`.
    fn eq(&self, other: &Value) -> bool {
        self.value().is_ok_and(|value| value == other)
    }
}

impl Index<&str> for SchemaText {
    type Output = Value;

    /// The member `name`, or `null` when there is none (as indexing a `Value`).
    fn index(&self, name: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(name).unwrap_or(&NULL)
    }
}

impl fmt::Debug for SchemaText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SchemaText({})", self.as_str())
    }
}

impl fmt::Display for SchemaText {
    /// The JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SchemaText {
    /// The text as it is (with serde_json; other formats see a raw value).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.text.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SchemaText {
    /// The object's text as the deserializer read it (serde_json reading text: exactly as
    /// sent); any other JSON value is refused.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonObject::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_text_is_kept_and_parsed_once_on_demand() {
        let text = r#"{ "type" : "object", "properties": {"n": {"maximum": 1e2}} }"#;
        let schema: SchemaText = serde_json::from_str(&format!(" {text} ")).unwrap();
        assert_eq!(schema.as_str(), text);
        assert!(!schema.is_parsed());
        assert_eq!(schema["properties"]["n"]["maximum"], 100.0);
        let first: *const Value = schema.value().unwrap();
        assert!(std::ptr::eq(first, schema.value().unwrap()), "parsed once");
        // A clone copies the text, not the tree.
        let copy = schema.clone();
        assert!(!copy.is_parsed());
        assert_eq!(copy, schema);
        assert_eq!(
            copy.to_value().unwrap(),
            json!({"type": "object", "properties": {"n": {"maximum": 100.0}}})
        );
        #[derive(serde::Deserialize)]
        struct Root {
            r#type: String,
        }
        assert_eq!(copy.parse::<Root>().unwrap().r#type, "object");
    }

    #[test]
    fn other_values_are_refused_and_unparseable_texts_say_why() {
        for text in ["[]", "1", "\"s\"", "null", "{"] {
            assert!(SchemaText::from_text(text).is_err(), "{text}");
            assert!(serde_json::from_str::<SchemaText>(text).is_err(), "{text}");
        }
        assert!(SchemaText::try_from(json!([1])).is_err());
        // Valid JSON a `Value` cannot hold: kept, and the error is given when asked.
        let deep = format!(r#"{{"a":{}{}}}"#, "[".repeat(200), "]".repeat(200));
        let schema = SchemaText::from_text(deep.clone()).unwrap();
        assert_eq!(schema.as_str(), deep);
        assert!(schema.value().is_err());
        assert!(schema.get("a").is_none() && schema["a"].is_null());
        let huge = SchemaText::from_text(r#"{"maximum":1e400}"#).unwrap();
        assert!(
            huge.value()
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
    }

    #[test]
    fn built_from_members_it_is_their_compact_text() {
        let members = json!({"type": "object", "b": [1, 2]});
        let schema = SchemaText::try_from(members.clone()).unwrap();
        assert_eq!(schema.as_str(), r#"{"b":[1,2],"type":"object"}"#);
        assert!(schema.is_parsed());
        assert_eq!(schema, members);
        assert_eq!(
            schema,
            SchemaText::from_text(r#"{"type": "object", "b": [1, 2]}"#).unwrap()
        );
        assert_ne!(
            schema,
            SchemaText::from_text(r#"{"type":"object"}"#).unwrap()
        );
        assert_eq!(format!("{schema}"), schema.as_str());
        assert_eq!(
            format!("{schema:?}"),
            format!("SchemaText({})", schema.as_str())
        );
    }
}
