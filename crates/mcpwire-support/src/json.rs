//! [`Json`] and [`JsonObject`]: a value the schema leaves free (`{}`, `true`, an object with
//! any members), kept as its JSON text.
//!
//! The schemas leave some members entirely to the sender: a tool's `arguments` and
//! `structuredContent`, `_meta`, the properties of an input schema, members a definition does
//! not declare. The generated types keep such a value as the text it came as, not as a
//! `serde_json::Value`:
//!
//! - **exact**: numbers keep their spelling (`1e3`, `18446744073709551616`, `-0`), members
//!   their order, strings their escapes; encoding writes the text back unchanged;
//! - **cheap**: decoding one is a scan and one copy, with no tree of maps and strings built
//!   for a value nobody may look at (a large `structuredContent`, the schemas of a `tools/list`
//!   result), and no recursion limit;
//! - **typed when you want it**: [`Json::parse`] decodes it into your own type (a tool's
//!   argument struct) straight from the text, with the precision the text has;
//!   [`Json::to_value`] gives a `serde_json::Value`.
//!
//! Decoding keeps what the deserializer reads: serde_json reading text (`from_str`,
//! `from_slice`, `from_reader`) hands over the exact text; any other deserializer (a
//! `serde_json::Value` through `from_value`, serde's buffer in a `#[serde(flatten)]`) hands
//! over a value, which is written as its compact text (see [`RawJson`]). Encoding
//! with serde_json writes the text as it is (`to_string`, `to_writer`, `to_value` parses it);
//! other formats see the serde_json raw-value struct, as with `serde_json::value::RawValue`.
//!
//! Two values are equal when their texts are, or else when they parse to equal
//! `serde_json::Value`s (so `{"a": 1}` equals `{"a":1}`).
//!
//! ```
//! use mcpwire_support::{Json, JsonObject};
//!
//! let args: JsonObject = serde_json::from_str(r#"{"count": 18446744073709551617, "f": 1e3}"#).unwrap();
//! assert_eq!(args.text(), r#"{"count": 18446744073709551617, "f": 1e3}"#);
//! assert_eq!(serde_json::to_string(&args).unwrap(), args.text());
//!
//! #[derive(serde::Deserialize)]
//! struct Args {
//!     count: u128,
//! }
//! assert_eq!(args.parse::<Args>().unwrap().count, 18446744073709551617);
//!
//! let any = Json::from(serde_json::json!([1, "two"]));
//! assert_eq!(any.text(), r#"[1,"two"]"#);
//! assert!(serde_json::from_str::<JsonObject>("[1]").is_err());
//! ```
//!
//! [`RawJson`]: crate::RawJson

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, Unexpected};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::{RAW_VALUE_TOKEN, RawJson};

/// Any JSON value, kept as its text (see the [crate documentation](crate)).
#[derive(Clone)]
pub struct Json(Box<str>);

impl Json {
    /// Checks that `text` is one JSON value (surrounding whitespace allowed and dropped) and
    /// keeps it. No recursion limit applies.
    ///
    /// ```
    /// use mcpwire_support::Json;
    /// assert_eq!(Json::from_text(" [1.50] ").unwrap().text(), "[1.50]");
    /// assert!(Json::from_text("[1,").is_err());
    /// ```
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        let text = text.into();
        let raw: &RawValue = serde_json::from_str(&text)?;
        if raw.get().len() == text.len() {
            Ok(Json(text.into_boxed_str()))
        } else {
            Ok(Json(raw.get().into()))
        }
    }

    /// The text serde_json writes for `value`, kept as it is: what serde_json writes is one
    /// JSON value, so it is not read again.
    ///
    /// ```
    /// use mcpwire_support::Json;
    ///
    /// #[derive(serde::Serialize)]
    /// struct Sum { sum: i64, of: [i64; 2] }
    ///
    /// let json = Json::written(&Sum { sum: 3, of: [1, 2] }).unwrap();
    /// assert_eq!(json.text(), r#"{"sum":3,"of":[1,2]}"#);
    /// ```
    pub fn written<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        serde_json::to_string(value).map(|text| Json(text.into_boxed_str()))
    }

    /// The compact text of a `serde_json::Value`.
    pub fn from_value(value: &Value) -> Self {
        Json(value.to_string().into_boxed_str())
    }

    /// The `null` value.
    pub fn null() -> Self {
        Json("null".into())
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The JSON text, owned.
    pub fn into_text(self) -> String {
        self.0.into_string()
    }

    /// Decodes the text as a `T` (serde_json's `from_str`, with its recursion limit).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(&self.0)
    }

    /// The value as a `serde_json::Value` (numbers as `Value` holds them: an integer beyond
    /// `u64` becomes an `f64`).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        self.parse()
    }

    /// [`to_value`](Self::to_value) at any depth: without serde_json's recursion limit, on
    /// a stack that grows as needed.
    ///
    /// ```
    /// use mcpwire_support::Json;
    ///
    /// let deep = Json::from_text(format!("{}{}", "[".repeat(300), "]".repeat(300))).unwrap();
    /// assert!(deep.to_value().is_err());
    /// assert!(deep.to_value_unbounded().unwrap().is_array());
    /// ```
    pub fn to_value_unbounded(&self) -> Result<Value, serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_str(&self.0);
        deserializer.disable_recursion_limit();
        let growing = serde_stacker::Deserializer::new(&mut deserializer);
        let value = Value::deserialize(growing)?;
        deserializer.end()?;
        Ok(value)
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        &*self.0 == "null"
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        self.0.starts_with('{')
    }
}

impl Default for Json {
    /// `null`, as `serde_json::Value::default()`.
    fn default() -> Self {
        Json::null()
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        Json::from_value(&value)
    }
}

impl From<&Value> for Json {
    fn from(value: &Value) -> Self {
        Json::from_value(value)
    }
}

impl From<Map<String, Value>> for Json {
    fn from(members: Map<String, Value>) -> Self {
        JsonObject::from(members).into()
    }
}

impl From<JsonObject> for Json {
    fn from(object: JsonObject) -> Self {
        object.0
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 || matches!((self.to_value(), other.to_value()), (Ok(a), Ok(b)) if a == b)
    }
}

impl PartialEq<Value> for Json {
    /// Whether the text parses to `other`.
    fn eq(&self, other: &Value) -> bool {
        self.to_value().is_ok_and(|value| value == *other)
    }
}

impl PartialEq<Json> for Value {
    fn eq(&self, other: &Json) -> bool {
        other == self
    }
}

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Json({})", self.0)
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut raw = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
        raw.serialize_field(RAW_VALUE_TOKEN, &*self.0)?;
        raw.end()
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(deserializer)?;
        Ok(Json(raw.into_cow().into()))
    }
}

/// A JSON object with any members, kept as its text (see the [crate documentation](crate)).
///
/// Decoding refuses any other JSON value, as the schema does.
#[derive(Clone, PartialEq)]
pub struct JsonObject(Json);

impl JsonObject {
    /// Checks that `text` is one JSON object (surrounding whitespace allowed and dropped) and
    /// keeps it.
    ///
    /// ```
    /// use mcpwire_support::JsonObject;
    /// assert_eq!(JsonObject::from_text(r#"{"a": 1e3}"#).unwrap().text(), r#"{"a": 1e3}"#);
    /// assert!(JsonObject::from_text("[]").is_err());
    /// ```
    pub fn from_text(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        Self::from_json(Json::from_text(text)?)
    }

    /// An empty object.
    pub fn new() -> Self {
        JsonObject(Json("{}".into()))
    }

    /// The JSON text.
    pub fn text(&self) -> &str {
        self.0.text()
    }

    /// The object as a [`Json`].
    pub fn as_json(&self) -> &Json {
        &self.0
    }

    /// Decodes the text as a `T` (serde_json's `from_str`, with its recursion limit).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        self.0.parse()
    }

    /// The object as a `serde_json::Value` (numbers as `Value` holds them).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        self.0.to_value()
    }

    /// The members as a `serde_json::Map` (numbers as `Value` holds them).
    pub fn to_map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        self.parse()
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.text()[1..].trim_start().starts_with('}')
    }

    /// Keeps `text`, which the caller wrote as one compact JSON object.
    pub(crate) fn from_written_text(text: String) -> Self {
        JsonObject(Json(text.into_boxed_str()))
    }

    fn from_json<E: de::Error>(json: Json) -> Result<Self, E> {
        if json.is_object() {
            Ok(JsonObject(json))
        } else {
            Err(E::invalid_type(unexpected(json.text()), &"a JSON object"))
        }
    }
}

impl Default for JsonObject {
    /// `{}`.
    fn default() -> Self {
        JsonObject::new()
    }
}

impl From<Map<String, Value>> for JsonObject {
    fn from(members: Map<String, Value>) -> Self {
        JsonObject(Json::from_value(&Value::Object(members)))
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for JsonObject {
    /// The object of these members (a repeated name keeps its last value).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(members: I) -> Self {
        members
            .into_iter()
            .map(|(name, value)| (name.into(), value.into()))
            .collect::<Map<String, Value>>()
            .into()
    }
}

impl TryFrom<Value> for JsonObject {
    type Error = serde_json::Error;

    /// The value's text, when it is an object.
    fn try_from(value: Value) -> Result<Self, Self::Error> {
        Self::from_json(Json::from(value))
    }
}

impl TryFrom<Json> for JsonObject {
    type Error = serde_json::Error;

    /// The value, when it is an object.
    fn try_from(json: Json) -> Result<Self, Self::Error> {
        Self::from_json(json)
    }
}

/// `Debug` (`$name(<text>)`), `Display` (the text) and `Serialize` (as the wrapped value) of
/// a newtype over a JSON text with a `text()` method.
macro_rules! text_newtype_impls {
    ($name:ident) => {
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.text())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.text())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
    };
}
pub(crate) use text_newtype_impls;

text_newtype_impls!(JsonObject);

impl<'de> Deserialize<'de> for JsonObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_json(Json::deserialize(deserializer)?)
    }
}

/// What a JSON text that is not an object holds, for the error naming it.
pub(crate) fn unexpected(text: &str) -> Unexpected<'static> {
    match text.as_bytes().first() {
        Some(b'[') => Unexpected::Seq,
        Some(b'"') => Unexpected::Other("string"),
        Some(b't') => Unexpected::Bool(true),
        Some(b'f') => Unexpected::Bool(false),
        Some(b'n') => Unexpected::Unit,
        _ => Unexpected::Other("number"),
    }
}

#[cfg(feature = "schemars")]
mod schema {
    use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

    impl JsonSchema for super::Json {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "AnyValue".into()
        }

        fn inline_schema() -> bool {
            true
        }

        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!(true)
        }
    }

    impl JsonSchema for super::JsonObject {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "Object".into()
        }

        fn inline_schema() -> bool {
            true
        }

        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({"type": "object"})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TEXT: &str =
        r#"{"big": 18446744073709551617, "f": 1e3, "z": -0, "s": "a\u00e9\"", "n": [1.50]}"#;

    #[test]
    fn text_decodes_and_encodes_back_unchanged() {
        let object: JsonObject = serde_json::from_str(TEXT).unwrap();
        assert_eq!(object.text(), TEXT);
        assert_eq!(serde_json::to_string(&object).unwrap(), TEXT);
        let any: Json = serde_json::from_slice(TEXT.as_bytes()).unwrap();
        assert_eq!(serde_json::to_string(&any).unwrap(), TEXT);
        let mut reader = serde_json::Deserializer::from_reader(TEXT.as_bytes());
        assert_eq!(Json::deserialize(&mut reader).unwrap().text(), TEXT);
        // Inside a document, pretty-printed: the text is written as it came.
        let wrapped = json!({"k": 1});
        let mut doc: Map<String, Value> = wrapped.as_object().unwrap().clone();
        doc.insert("v".into(), serde_json::to_value(&object).unwrap());
        assert_eq!(doc["v"]["n"], json!([1.5]));
        assert_eq!(
            serde_json::to_string(&vec![any.clone(), Json::null()]).unwrap(),
            format!("[{TEXT},null]")
        );
    }

    #[test]
    fn other_deserializers_give_the_values_compact_text() {
        let value: Value = serde_json::from_str(TEXT).unwrap();
        let object = JsonObject::deserialize(value.clone()).unwrap();
        assert_eq!(object.text(), value.to_string());
        // The same value, another spelling: equal.
        assert_eq!(object, serde_json::from_str::<JsonObject>(TEXT).unwrap());
        assert_ne!(
            object,
            serde_json::from_str::<JsonObject>(r#"{"big": 1}"#).unwrap()
        );
    }

    #[test]
    fn an_object_refuses_other_values_and_names_them() {
        for (text, found) in [
            ("[1]", "sequence"),
            ("\"x\"", "string"),
            ("true", "boolean `true`"),
            ("null", "null"),
            ("1.5", "number"),
        ] {
            let err = serde_json::from_str::<JsonObject>(text).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("invalid type: {found}, expected a JSON object"),
                "{text}"
            );
            assert!(serde_json::from_str::<Json>(text).is_ok(), "{text}");
        }
        assert!(JsonObject::try_from(json!([])).is_err());
        assert!(JsonObject::try_from(json!({})).unwrap().is_empty());
        assert!(!JsonObject::from_text(" { \"a\" : 1 } ").unwrap().is_empty());
        assert!(JsonObject::from_text("{ }").unwrap().is_empty());
    }

    #[test]
    fn no_recursion_limit_on_decode() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let text = format!("{{\"a\":{deep}}}");
        let object: JsonObject = serde_json::from_str(&text).unwrap();
        assert_eq!(object.text().len(), text.len());
        assert!(Json::from_text(deep).is_ok());
        assert!(Json::from_text("[".repeat(10)).is_err());
    }

    #[test]
    fn values_parse_into_a_users_types() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Args {
            big: u128,
            f: f64,
        }
        let object = JsonObject::from_text(TEXT).unwrap();
        assert_eq!(
            object.parse::<Args>().unwrap(),
            Args {
                big: 18446744073709551617,
                f: 1000.0
            }
        );
        assert_eq!(object.to_map().unwrap()["s"], json!("a\u{e9}\""));
        assert_eq!(Json::default(), Json::from(Value::Null));
        assert!(Json::default().is_null());
        assert_eq!(Json::from_text("[1.0, {}]").unwrap(), json!([1.0, {}]));
        assert_ne!(json!([1]), Json::from_text("[2]").unwrap());
        assert_eq!(format!("{}", Json::from(json!({"a": [1]}))), r#"{"a":[1]}"#);
    }
}
