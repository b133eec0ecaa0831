//! Tool parameters mirrored in `Mcp-Param-*` headers (MCP 2026-07-28, SEP-2243): the one
//! rule both sides hold, so that a client never sends what a server refuses.
//!
//! A property of a tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent both in the
//! arguments and as an `Mcp-Param-Name` header. A declaration is valid when its name is a
//! non-empty HTTP token (RFC 9110 `tchar`: visible ASCII without separators, so no space,
//! colon, control or non-ASCII character), unique among the tool's declarations ignoring
//! case, and on a property whose `type` is `string`, `integer` or `boolean` (alone, or with
//! `null`): `number`, `object`, `array` and `null` cannot be mirrored. A client must not call
//! a tool with an invalid declaration.
//!
//! The text of a mirrored value ([`param_header_text`]): a string as it is, an integer in
//! decimal, a boolean as `true` or `false`; `null` (like an absent argument) sends no
//! header. Any other value cannot be mirrored. On the wire the text is spelled as
//! [`encode_value`](super::encode_value) spells it (`=?base64?…?=` for text that is not
//! plain visible ASCII, or that has leading or trailing whitespace).

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};

/// The prefix of mirrored-parameter header names (header names ignore case).
pub const PARAM_HEADER_PREFIX: &str = "mcp-param-";

/// One valid `x-mcp-header` declaration of a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The property of the input schema (the argument's name).
    pub property: String,
    /// The header name after `Mcp-Param-`, as declared.
    pub header: String,
}

/// Why a tool's `x-mcp-header` declarations, or a value to mirror, break the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeaderError {
    /// The property concerned.
    pub property: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParamHeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "property `{}`: {}", self.property, self.reason)
    }
}

impl std::error::Error for ParamHeaderError {}

/// The `x-mcp-header` declarations of a tool whose input schema is `input_schema`, or the
/// first that breaks the rule.
///
/// ```
/// use mcpwire::http::param_headers;
/// let schema = serde_json::json!({"type": "object", "properties": {
///     "region": {"type": "string", "x-mcp-header": "Region"},
///     "score": {"type": "number", "x-mcp-header": "Score"},
/// }});
/// let error = param_headers(schema.as_object().unwrap()).unwrap_err();
/// assert_eq!(error.property, "score");
/// ```
pub fn param_headers(
    input_schema: &Map<String, Value>,
) -> Result<Vec<ParamHeader>, ParamHeaderError> {
    let Some(properties) = input_schema.get("properties").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let mut seen = HashSet::new();
    let mut declared = Vec::new();
    for (property, schema) in properties {
        let Some(mark) = schema.get("x-mcp-header") else {
            continue;
        };
        let error = |reason: String| ParamHeaderError {
            property: property.clone(),
            reason,
        };
        let Some(name) = mark.as_str() else {
            return Err(error("x-mcp-header is not a string".into()));
        };
        if name.is_empty() {
            return Err(error("x-mcp-header is empty".into()));
        }
        if let Some(bad) = name.chars().find(|c| !is_token_char(*c)) {
            return Err(error(format!(
                "x-mcp-header {name:?} has the character {bad:?}, which a header name cannot have"
            )));
        }
        if !mirrorable_type(schema.get("type")) {
            return Err(error(
                "x-mcp-header on a property whose type is not string, integer or boolean".into(),
            ));
        }
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(error(format!(
                "x-mcp-header {name:?} is declared twice (header names ignore case)"
            )));
        }
        declared.push(ParamHeader {
            property: property.clone(),
            header: name.to_owned(),
        });
    }
    Ok(declared)
}

/// The text a mirrored argument's header carries (before [`encode_value`](super::encode_value)):
/// `Ok(None)` for `null` (no header), `Err` with the reason for a value that cannot be
/// mirrored (a fraction, an array, an object).
///
/// ```
/// use mcpwire::http::param_header_text;
/// use serde_json::json;
/// assert_eq!(param_header_text(&json!("us west")), Ok(Some("us west".to_owned())));
/// assert_eq!(param_header_text(&json!(42)), Ok(Some("42".to_owned())));
/// assert_eq!(param_header_text(&json!(false)), Ok(Some("false".to_owned())));
/// assert_eq!(param_header_text(&json!(null)), Ok(None));
/// assert!(param_header_text(&json!([1])).is_err());
/// ```
pub fn param_header_text(value: &Value) -> Result<Option<String>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(text) => Ok(Some(text.clone())),
        Value::Bool(flag) => Ok(Some(flag.to_string())),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(Some(n.to_string())),
        Value::Number(n) => match n.as_f64() {
            // A whole number written with a fraction (`3.0`) is an integer to JSON Schema.
            Some(x) if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 => {
                Ok(Some(format!("{}", x as i64)))
            }
            _ => Err(format!(
                "{n} is not an integer, which a header cannot carry"
            )),
        },
        Value::Array(_) => Err("an array cannot be carried in a header".into()),
        Value::Object(_) => Err("an object cannot be carried in a header".into()),
    }
}

/// Whether `c` may appear in an HTTP field name (RFC 9110 `tchar`).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Whether a property's `type` can be mirrored: `string`, `integer` or `boolean`, alone or
/// with `null`.
fn mirrorable_type(kind: Option<&Value>) -> bool {
    let allowed = |name: &str| matches!(name, "string" | "integer" | "boolean");
    match kind {
        Some(Value::String(name)) => allowed(name),
        Some(Value::Array(names)) => {
            let mut primitives = 0;
            for name in names {
                match name.as_str() {
                    Some(name) if allowed(name) => primitives += 1,
                    Some("null") => {}
                    _ => return false,
                }
            }
            primitives == 1
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(properties: Value) -> Map<String, Value> {
        let schema = json!({ "type": "object", "properties": properties });
        schema.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn invalid_declarations_say_why() {
        for (properties, needle) in [
            (
                json!({"v": {"type": "string", "x-mcp-header": ""}}),
                "empty",
            ),
            (
                json!({"v": {"type": "object", "x-mcp-header": "Data"}}),
                "type",
            ),
            (
                json!({"v": {"type": "array", "x-mcp-header": "Items"}}),
                "type",
            ),
            (
                json!({"v": {"type": "null", "x-mcp-header": "Nil"}}),
                "type",
            ),
            (
                json!({"v": {"type": "number", "x-mcp-header": "Score"}}),
                "type",
            ),
            (
                json!({"v": {"type": ["string", "integer"], "x-mcp-header": "Two"}}),
                "type",
            ),
            (json!({"v": {"x-mcp-header": "Untyped"}}), "type"),
            (
                json!({"a": {"type": "string", "x-mcp-header": "Region"},
                    "b": {"type": "string", "x-mcp-header": "region"}}),
                "twice",
            ),
            (
                json!({"v": {"type": "string", "x-mcp-header": "My Region"}}),
                "' '",
            ),
            (
                json!({"v": {"type": "string", "x-mcp-header": "Region:Primary"}}),
                "':'",
            ),
            (
                json!({"v": {"type": "string", "x-mcp-header": "R\u{e9}gion"}}),
                "character",
            ),
            (
                json!({"v": {"type": "string", "x-mcp-header": "Region\t1"}}),
                "character",
            ),
            (
                json!({"v": {"type": "string", "x-mcp-header": 5}}),
                "not a string",
            ),
        ] {
            let error =
                param_headers(&schema(properties.clone())).expect_err(&properties.to_string());
            assert!(error.to_string().contains(needle), "{properties}: {error}");
        }
    }

    #[test]
    fn valid_declarations_are_listed_and_values_have_one_text() {
        let declared = param_headers(&schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "verbose": {"type": ["boolean", "null"], "x-mcp-header": "Verbose"},
            "query": {"type": "string"},
        })))
        .expect("valid");
        let names: Vec<_> = declared
            .iter()
            .map(|d| (&*d.property, &*d.header))
            .collect();
        assert_eq!(names, [("region", "Region"), ("verbose", "Verbose")]);
        assert!(
            param_headers(&Map::new())
                .expect("no properties")
                .is_empty()
        );
        let text = |v: Value| param_header_text(&v);
        assert_eq!(text(json!("")), Ok(Some(String::new())));
        assert_eq!(text(json!(-7)), Ok(Some("-7".into())));
        assert_eq!(
            text(json!(18446744073709551615u64)),
            Ok(Some("18446744073709551615".into()))
        );
        assert_eq!(text(json!(3.0)), Ok(Some("3".into())));
        assert_eq!(text(json!(true)), Ok(Some("true".into())));
        assert!(text(json!(3.5)).unwrap_err().contains("not an integer"));
        assert!(text(json!({"a": 1})).unwrap_err().contains("object"));
    }
}
