//! Plausible values from a JSON Schema: what the walk sends as tool arguments and as the
//! content of an accepted elicitation form.
//!
//! A value is, in this order of preference: the schema's `const`, `default`, first of
//! `examples`, first of `enum`; otherwise one of its `type`, within its bounds (`minimum`,
//! `maximum`, `minLength`, `minItems`, `format`). Objects get their required members (and
//! members with a default); `$ref`s to `#/$defs/…` or `#/definitions/…` are followed, at most
//! [`MAX_DEPTH`] levels deep, and `anyOf`/`oneOf` take their first branch that is not `null`.

use serde_json::{Map, Value, json};

/// How deep the sample of a nested (or recursive) schema goes.
const MAX_DEPTH: usize = 8;

/// The arguments of a tool whose input schema is `schema` (always an object).
pub fn arguments(schema: &Value) -> Value {
    match value(schema, schema, 0) {
        Value::Object(map) => Value::Object(map),
        _ => Value::Object(Map::new()),
    }
}

/// The content of an accepted form whose `requestedSchema` is `schema`: every property
/// (a form's fields are flat and primitive), not only the required ones.
pub fn form(schema: &Value) -> Map<String, Value> {
    let mut content = Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            content.insert(name.clone(), value(schema, property, 1));
        }
    }
    content
}

/// A value of `schema`, whose `$ref`s resolve in `root`.
fn value(root: &Value, schema: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    let Some(object) = schema.as_object() else {
        // `true` (anything) or a malformed schema: a string is as good as anything.
        return json!("sample");
    };
    if let Some(target) = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| resolve(root, r))
    {
        return value(root, target, depth + 1);
    }
    for key in ["const", "default"] {
        if let Some(given) = object.get(key) {
            return given.clone();
        }
    }
    for key in ["examples", "enum"] {
        if let Some(first) = object
            .get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
        {
            return first.clone();
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = object.get(key).and_then(Value::as_array) {
            let branch = branches
                .iter()
                .find(|b| b.get("type").and_then(Value::as_str) != Some("null"));
            if let Some(branch) = branch {
                return value(root, branch, depth + 1);
            }
        }
    }
    match type_of(object) {
        "object" => sample_object(root, object, depth),
        "array" => sample_array(root, object, depth),
        "integer" => number(object, true),
        "number" => number(object, false),
        "boolean" => Value::Bool(true),
        "null" => Value::Null,
        _ => string(object),
    }
}

/// The schema's type: its `type`, the first that is not `null` of a list of types, or
/// what its keywords imply.
fn type_of(object: &Map<String, Value>) -> &str {
    match object.get("type") {
        Some(Value::String(kind)) => kind,
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null"),
        _ if object.contains_key("properties") => "object",
        _ if object.contains_key("items") => "array",
        _ => "string",
    }
}

/// `#/$defs/Name` or `#/definitions/Name` in `root`.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

fn sample_object(root: &Value, object: &Map<String, Value>, depth: usize) -> Value {
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            if required.contains(&name.as_str()) || property.get("default").is_some() {
                out.insert(name.clone(), value(root, property, depth + 1));
            }
        }
    }
    Value::Object(out)
}

fn sample_array(root: &Value, object: &Map<String, Value>, depth: usize) -> Value {
    let count = object
        .get("minItems")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .min(16);
    let items = object.get("items").cloned().unwrap_or(json!({}));
    Value::Array((0..count).map(|_| value(root, &items, depth + 1)).collect())
}

/// A number within the schema's bounds: its minimum, else 1 (below its maximum).
fn number(object: &Map<String, Value>, integer: bool) -> Value {
    let bound = |key: &str| object.get(key).and_then(Value::as_f64);
    let mut chosen = match (bound("minimum"), bound("exclusiveMinimum")) {
        (Some(min), _) => min,
        (None, Some(min)) => min + 1.0,
        (None, None) => 1.0,
    };
    if let Some(max) = bound("maximum").or(bound("exclusiveMaximum").map(|m| m - 1.0)) {
        chosen = chosen.min(max);
    }
    if integer {
        json!(chosen.ceil() as i64)
    } else {
        json!(chosen)
    }
}

/// A string of the schema's `format`, at least `minLength` long.
fn string(object: &Map<String, Value>) -> Value {
    let text = match object.get("format").and_then(Value::as_str) {
        Some("uri" | "url") => "https://example.com/".to_owned(),
        Some("email") => "user@example.com".to_owned(),
        Some("date") => "2026-01-01".to_owned(),
        Some("date-time") => "2026-01-01T00:00:00Z".to_owned(),
        _ => "sample".to_owned(),
    };
    let min = object.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let pad = min.saturating_sub(text.chars().count()).min(1024);
    Value::String(text + &"x".repeat(pad))
}
