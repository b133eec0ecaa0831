//! Hand-written support for the generated code: constant checks, union decoding helpers,
//! the unknown-method carrier and schemars helpers. Not meant to be used directly.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Proptest strategy helpers of the generated `strategies` modules.
#[cfg(feature = "proptest")]
pub mod strategy;

mod integer;
pub use integer::{Integer, NotAnInteger, is_whole_number_text};

mod object;
pub use object::{Member, MemberName};

mod schema_decode;

mod definition;
pub use definition::{DefinitionVisitor, RoundtripText, RoundtripValue};

mod depth;
pub use depth::with_unbounded_depth;

mod raw;
pub(crate) use raw::RAW_VALUE_TOKEN;
pub use raw::RawJson;

mod scan;
pub(crate) use scan::first_non_object_member;

mod structure;
pub use structure::escaped_bytes;

mod shape;
pub use shape::{Items, Members, Shape};

mod capture;
pub use capture::MemberValue;

mod members_de;

mod union;
pub use schema_decode::{
    BySchema, SchemaDecode, by_schema, double_option_by_schema, is_integer, non_null_by_schema,
    nullable_by_schema,
};
pub use union::{
    Choice, NO_VARIANT, UNKNOWN_METHOD, UnionInfo, decode_null, decode_object_variant,
    decode_union, decode_variant,
};

/// Whether a method name is a request, a notification, or neither in a given version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// A request method (a reply is expected).
    Request,
    /// A notification method (never replied to).
    Notification,
    /// Not a method this version defines.
    Unknown,
}

/// A call whose `method` a version does not define: the method name, the raw `params`,
/// and every other member as it came (kept as text, see [`crate::Json`]).
///
/// ```
/// use mcpwire_types::support::UnknownMethod;
/// let m: UnknownMethod = serde_json::from_str(r#"{"method":"x/y","params":{"a":1e3},"id":7}"#).unwrap();
/// assert_eq!(m.method, "x/y");
/// assert_eq!(m.params.unwrap().text(), r#"{"a":1e3}"#);
/// assert_eq!(m.other["id"], serde_json::json!(7));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct UnknownMethod {
    /// The method name.
    pub method: String,
    /// The raw `params`, when present (a present `null` is `Some`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<crate::Json>,
    /// Every other member (`jsonrpc`, `id`, ...).
    #[serde(flatten)]
    pub other: BTreeMap<String, crate::Json>,
}

impl<'de> Deserialize<'de> for UnknownMethod {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = UnknownMethod;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object with a string `method`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<UnknownMethod, A::Error> {
                use serde::de::Error;
                let (mut method, mut params, mut other) = (None, None, BTreeMap::new());
                while let Some(name) = map.next_key::<String>()? {
                    match name.as_str() {
                        "method" if method.is_some() => {
                            return Err(A::Error::duplicate_field("method"));
                        }
                        "method" => method = Some(map.next_value::<String>()?),
                        "params" if params.is_some() => {
                            return Err(A::Error::duplicate_field("params"));
                        }
                        "params" => params = Some(map.next_value::<crate::Json>()?),
                        _ if other.contains_key(&name) => {
                            return Err(A::Error::custom(format_args!("duplicate field `{name}`")));
                        }
                        _ => {
                            let value = map.next_value::<crate::Json>()?;
                            other.insert(name, value);
                        }
                    }
                }
                Ok(UnknownMethod {
                    method: method.ok_or_else(|| A::Error::missing_field("method"))?,
                    params,
                    other,
                })
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// Decodes a string and checks it equals `expected`.
pub fn expect_str<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: &'static str,
) -> Result<(), D::Error> {
    struct Visitor(&'static str);
    impl serde::de::Visitor<'_> for Visitor {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "the string {:?}", self.0)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
            if v == self.0 {
                Ok(())
            } else {
                Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
    }
    deserializer.deserialize_str(Visitor(expected))
}

/// Decodes an integer (any whole JSON number, see [`SchemaDecode`]) and checks it equals
/// `expected`.
pub fn expect_int<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: i64,
) -> Result<(), D::Error> {
    schema_decode::expect_integer(deserializer, expected)
}

/// Decodes a boolean that must be `expected` (a `const: true` / `const: false` marker).
pub fn expect_bool<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: bool,
) -> Result<(), D::Error> {
    let found = bool::deserialize(deserializer)?;
    if found == expected {
        Ok(())
    } else {
        Err(serde::de::Error::custom(format_args!(
            "expected the constant {expected}, found {found}"
        )))
    }
}

/// Decodes a number that must equal `expected` (a `const: 0.5` marker): any spelling of the
/// same value (`0.5`, `5e-1`) matches, as in JSON Schema.
pub fn expect_number<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: f64,
) -> Result<(), D::Error> {
    let found = serde_json::Number::deserialize(deserializer)?;
    if found.as_f64() == Some(expected) {
        Ok(())
    } else {
        Err(serde::de::Error::custom(format_args!(
            "expected the constant {expected}, found {found}"
        )))
    }
}

/// For an optional member that may not be `null`: present → `Some(value)`; `null` is decoded
/// as a `T` (and so rejected unless `T` admits it).
pub fn non_null<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// For a required member that may be `null`: `null` → `None`, a value → `Some(value)`.
pub fn nullable<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(deserializer)
}

/// For an optional nullable member: absent → `None`, `null` → `Some(None)`, a value →
/// `Some(Some(value))`.
pub fn double_option<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}

/// The error when no variant of `union` admits a value.
pub fn no_variant<E: serde::de::Error>(union: &str, detail: &str) -> E {
    E::custom(format_args!("{union}: no variant matches: {detail}"))
}

/// `{"anyOf": [...]}` of the given subschemas.
#[cfg(feature = "schemars")]
pub fn any_of_schema(parts: Vec<schemars::Schema>) -> schemars::Schema {
    schemars::json_schema!({ "anyOf": parts })
}

/// Decodes `value` as `T` and encodes it back. The error says where, as ``at `/pointer`: …``
/// (see [`error_pointer`]). A `Value` holds a number written with a fraction or an exponent,
/// or beyond `u64`, as an `f64`, so such an integer comes back in that spelling (`1e3` →
/// `1000.0`); [`roundtrip_text`] keeps the spelling.
pub fn roundtrip<T: DeserializeOwned + Serialize>(value: Value) -> Result<Value, String> {
    let decoded: T = serde_path_to_error::deserialize(value).map_err(|e| {
        let pointer = json_pointer(e.path());
        if pointer.is_empty() {
            e.into_inner().to_string()
        } else {
            format!("at `{pointer}`: {}", e.into_inner())
        }
    })?;
    serde_json::to_value(&decoded).map_err(|e| e.to_string())
}

/// Decodes JSON `text` as `T` with serde_json (every integer keeps its spelling, see
/// [`Integer`]) and encodes it back as text. The error says where, as ``at `/pointer`: …``
/// (see [`error_pointer`]).
///
/// ```
/// use mcpwire_types::mcp::v2026_07_28::JSONRPCMessage;
/// use mcpwire_types::support::roundtrip_text;
///
/// let text = r#"{"id":1e3,"jsonrpc":"2.0","method":"ping"}"#;
/// assert_eq!(roundtrip_text::<JSONRPCMessage>(text).unwrap(), text);
/// ```
pub fn roundtrip_text<T: DeserializeOwned + Serialize>(text: &str) -> Result<String, String> {
    let decoded: T = from_text(text)?;
    serde_json::to_string(&decoded).map_err(|e| e.to_string())
}

/// Decodes JSON `text` as `T` with serde_json, like `serde_json::from_str` (every integer
/// keeps its spelling, see [`Integer`]), with an error that says where, as
/// ``at `/pointer`: …`` (see [`error_pointer`]), instead of at which line and column.
///
/// ```
/// use mcpwire_types::mcp::v2025_11_25::CallToolResult;
/// use mcpwire_types::support::{error_pointer, from_text};
///
/// let err = from_text::<CallToolResult>(r#"{"content":[{"type":"text"}]}"#).unwrap_err();
/// assert_eq!(error_pointer(&err), "/content/0/text");
/// assert!(!err.contains(" line "), "{err}");
/// ```
pub fn from_text<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let decoded: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let pointer = json_pointer(e.path());
        let message = depth::message_without_position(e.inner());
        if pointer.is_empty() {
            message
        } else {
            format!("at `{pointer}`: {message}")
        }
    })?;
    deserializer
        .end()
        .map_err(|e| depth::message_without_position(&e))?;
    Ok(decoded)
}

/// Renders a serde path as an RFC 6901 JSON pointer (`""` for the whole value).
///
/// ```
/// let value = serde_json::json!({"a/b": [1, "x"]});
/// let err = serde_path_to_error::deserialize::<_, std::collections::BTreeMap<String, Vec<u8>>>(value)
///     .unwrap_err();
/// assert_eq!(mcpwire_types::support::json_pointer(err.path()), "/a~1b/1");
/// ```
pub fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => push_pointer_token(&mut pointer, &index.to_string()),
            Segment::Map { key } => push_pointer_token(&mut pointer, key),
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}

/// Appends one reference token to an RFC 6901 pointer, escaping `~` and `/`.
pub fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
}

/// The member a serde ``missing field `name` `` error is about. serde reports that error at
/// the enclosing object; a pointer should name the member that is missing.
pub fn missing_member(message: &str) -> Option<&str> {
    let at = message.rfind("missing field `")?;
    message[at + "missing field `".len()..].split('`').next()
}

/// The JSON pointer a decode error of the generated types points at: the pointers its
/// message gives (``at `/x` ``, one per nested union), joined, plus the member a
/// ``missing field `name` `` is about.
///
/// ```
/// use mcpwire_types::mcp::v2025_06_18::ClientRequest;
/// use mcpwire_types::support::error_pointer;
///
/// let bad = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}});
/// let err = serde_json::from_value::<ClientRequest>(bad).unwrap_err().to_string();
/// assert_eq!(error_pointer(&err), "/params/name");
/// ```
pub fn error_pointer(message: &str) -> String {
    let mut pointer = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("at `/") {
        let tail = &rest[at + 4..];
        let Some(end) = tail.find('`') else { break };
        pointer.push_str(&tail[..end]);
        rest = &tail[end..];
    }
    if let Some(member) = missing_member(message) {
        push_pointer_token(&mut pointer, member);
    }
    pointer
}
