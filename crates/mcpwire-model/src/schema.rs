//! JSON Schemas of tool arguments, tool outputs, prompt arguments and elicitation forms,
//! derived with schemars (draft 2020-12) and kept whole: `$schema`, `$defs`,
//! `additionalProperties`, titles and descriptions stay as schemars wrote them.

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// Why a Rust type cannot describe MCP tool arguments or output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The Rust type.
    pub type_name: String,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.type_name, self.reason)
    }
}

impl std::error::Error for SchemaError {}

/// The schema of `T` as a JSON object whose root is `type: "object"`, as MCP requires of
/// `inputSchema` and `outputSchema`.
///
/// A root without `type` (an enum of object variants: `oneOf`/`anyOf`) gets
/// `"type": "object"` added; a root of another type is refused.
pub fn object_schema<T: JsonSchema + ?Sized>() -> Result<Map<String, Value>, SchemaError> {
    let schema = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    let refuse = |reason: &str| SchemaError {
        type_name: T::schema_name().into_owned(),
        reason: reason.to_owned(),
    };
    let Value::Object(mut root) = schema.to_value() else {
        return Err(refuse(
            "its schema is `true` or `false`, not an object schema",
        ));
    };
    match root.get("type") {
        None => {
            root.insert("type".into(), "object".into());
        }
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            return Err(refuse(&format!(
                "MCP needs a JSON object here, but its schema has type {other}"
            )));
        }
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// Arguments with a nested type, a doc title and no unknown members.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Order {
        /// Where to ship.
        address: Address,
        count: u32,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        street: String,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    enum Shape {
        Circle { r: f64 },
        Square { side: f64 },
    }

    #[test]
    fn the_schema_is_kept_whole() {
        let schema = object_schema::<Order>().unwrap();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["title"], "Order");
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/Address");
        assert_eq!(
            schema["properties"]["address"]["description"],
            "Where to ship."
        );
        assert_eq!(schema["$defs"]["Address"]["required"][0], "street");
    }

    #[test]
    fn a_union_root_becomes_an_object_and_a_scalar_is_refused() {
        let schema = object_schema::<Shape>().unwrap();
        assert_eq!(schema["type"], "object");
        assert!(schema.contains_key("oneOf"));
        let error = object_schema::<i64>().unwrap_err();
        assert_eq!(error.type_name, "int64");
        assert!(error.reason.contains("\"integer\""), "{}", error.reason);
    }
}
