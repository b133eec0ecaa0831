//! Tool parameters mirrored in HTTP headers (MCP 2026-07-28, SEP-2243), the client's side: a
//! property of a tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent both in the
//! arguments and as an `Mcp-Param-Name` header (the HTTP transport encodes the value).
//!
//! A declaration is valid when its name is a non-empty HTTP token (visible ASCII without
//! separators: no space, colon, control or non-ASCII character), unique among the tool's
//! declarations ignoring case, and on a property whose `type` is `string`, `integer` or
//! `boolean` (optionally with `null`). A tool with any invalid declaration must not be
//! used: [`check`] says why, and listings leave such tools out.
//!
//! A call mirrors each declared parameter it has: a string as it is, an integer or boolean
//! as its JSON text; a parameter that is absent or `null` sends no header.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::describe::ToolDescription;
use crate::violation::{Rule, Violation};

/// Leaves out of `tools` every tool whose `x-mcp-header` declarations are invalid, reporting
/// each as a violation of the server.
pub(crate) fn retain_valid(tools: &mut Vec<ToolDescription>, report: impl Fn(Violation)) {
    tools.retain(|tool| match check(&tool.input_schema) {
        Ok(_) => true,
        Err(reason) => {
            report(Violation::new(
                Rule::ResultShape,
                format!("tool `{}` is left out: {reason}", tool.name),
            ));
            false
        }
    });
}

/// The `(property, header name)` pairs a tool declares, or why its declarations are invalid.
pub(crate) fn check(input_schema: &Value) -> Result<Vec<(String, String)>, String> {
    let Some(properties) = input_schema.get("properties").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let mut seen = HashSet::new();
    let mut declared = Vec::new();
    for (property, schema) in properties {
        let Some(mark) = schema.get("x-mcp-header") else {
            continue;
        };
        let Some(name) = mark.as_str() else {
            return Err(format!(
                "property `{property}`: x-mcp-header is not a string"
            ));
        };
        if name.is_empty() {
            return Err(format!("property `{property}`: x-mcp-header is empty"));
        }
        if let Some(bad) = name.chars().find(|c| !is_token_char(*c)) {
            return Err(format!(
                "property `{property}`: x-mcp-header {name:?} has the character {bad:?}, which a header name cannot have"
            ));
        }
        if !primitive(schema.get("type")) {
            return Err(format!(
                "property `{property}`: x-mcp-header on a property whose type is not string, integer or boolean"
            ));
        }
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(format!(
                "x-mcp-header {name:?} is declared twice (header names ignore case)"
            ));
        }
        declared.push((property.clone(), name.to_owned()));
    }
    Ok(declared)
}

/// The `Mcp-Param-*` values of one call: `(header name, value)` for each declared parameter
/// `arguments` has (not `null`). Declarations that are invalid give no headers.
pub(crate) fn values(
    input_schema: &Value,
    arguments: &Map<String, Value>,
) -> Vec<(String, String)> {
    let Ok(declared) = check(input_schema) else {
        return Vec::new();
    };
    declared
        .into_iter()
        .filter_map(|(property, header)| {
            let value = match arguments.get(&property)? {
                Value::String(text) => text.clone(),
                value @ (Value::Number(_) | Value::Bool(_)) => value.to_string(),
                _ => return None,
            };
            Some((header, value))
        })
        .collect()
}

/// Whether `c` may appear in an HTTP field name (RFC 9110 `tchar`).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Whether a property's `type` is one a header can carry: `string`, `integer` or `boolean`,
/// alone or with `null`.
fn primitive(kind: Option<&Value>) -> bool {
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

    fn schema(properties: Value) -> Value {
        json!({ "type": "object", "properties": properties })
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
            let error = check(&schema(properties.clone())).expect_err(&properties.to_string());
            assert!(error.contains(needle), "{properties}: {error}");
        }
    }

    #[test]
    fn declared_parameters_are_mirrored_when_present() {
        let schema = schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": ["boolean", "null"], "x-mcp-header": "Verbose"},
            "debug": {"type": "boolean", "x-mcp-header": "Debug"},
            "query": {"type": "string"},
        }));
        let arguments = json!({"region": "us west", "priority": 42, "verbose": null,
                               "debug": false, "query": "q"});
        let mut headers = values(&schema, arguments.as_object().expect("an object"));
        headers.sort();
        assert_eq!(
            headers,
            vec![
                ("Debug".to_owned(), "false".to_owned()),
                ("Priority".to_owned(), "42".to_owned()),
                ("Region".to_owned(), "us west".to_owned()),
            ]
        );
        assert!(values(&json!({"type": "object"}), &Map::new()).is_empty());
    }
}
