//! Arguments for a tool from its own `inputSchema` (`--tools`): a proptest strategy of
//! objects the schema accepts, and arguments it refuses, each one class of defect (a wrong
//! type, a missing required member, an undeclared member, a value out of range).
//!
//! The generators only propose: every candidate is validated against the schema itself
//! (jsonschema), so a valid case is valid and an invalid one invalid whatever the generators
//! miss, and an invalid case names the schema path the validator refused it at.

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Just, Union};
use serde_json::{Map, Value, json};

/// How deep `$ref`s and nested schemas are followed when generating.
const MAX_DEPTH: u8 = 6;
/// The name of the member no schema declares.
pub const UNDECLARED: &str = "mcpwire_undeclared";

/// One class of invalid arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// A member of a type its schema does not allow.
    WrongType,
    /// A required member left out.
    MissingRequired,
    /// A member the schema does not declare, where `additionalProperties` is false.
    Undeclared,
    /// A number, string length, array length or enum value out of its range.
    OutOfRange,
}

impl Defect {
    /// How the report names the defect.
    pub fn name(self) -> &'static str {
        match self {
            Defect::WrongType => "wrong type",
            Defect::MissingRequired => "missing required member",
            Defect::Undeclared => "undeclared member",
            Defect::OutOfRange => "out of range",
        }
    }
}

/// Arguments the tool's schema refuses.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidArguments {
    /// The defect.
    pub defect: Defect,
    /// The member changed (empty for the object itself).
    pub member: String,
    /// The arguments.
    pub arguments: Value,
    /// Where the validator refused them: the schema path and the instance path.
    pub schema_path: String,
    /// The validator's message.
    pub why: String,
}

/// A tool's input schema, compiled.
pub struct InputSchema {
    schema: Value,
    validator: jsonschema::Validator,
}

impl InputSchema {
    /// Compiles `schema`; `Err` says why it cannot be used (not an object, not JSON Schema).
    pub fn new(schema: &Value) -> Result<InputSchema, String> {
        if !schema.is_object() {
            return Err("its inputSchema is not an object".into());
        }
        let validator = mcpwire_proptest::untrusted_schema::untrusted_validator(schema)
            .map_err(|error| format!("its inputSchema does not compile: {error}"))?;
        Ok(InputSchema {
            schema: schema.clone(),
            validator,
        })
    }

    /// Whether `arguments` satisfy the schema.
    pub fn accepts(&self, arguments: &Value) -> bool {
        self.validator.is_valid(arguments)
    }

    /// The first error the validator reports for `arguments`: (schema path, message).
    pub fn first_error(&self, arguments: &Value) -> Option<(String, String)> {
        self.validator.iter_errors(arguments).next().map(|error| {
            let at = error.instance_path().to_string();
            let at = if at.is_empty() { "/".to_owned() } else { at };
            (error.schema_path().to_string(), format!("at {at}: {error}"))
        })
    }

    /// Whether every error for `arguments` is an undeclared member.
    fn only_undeclared(&self, arguments: &Value) -> bool {
        self.validator.iter_errors(arguments).all(|e| {
            e.schema_path()
                .to_string()
                .ends_with("/additionalProperties")
        })
    }

    /// A strategy of candidate arguments (most, not all, satisfy the schema: filter with
    /// [`InputSchema::accepts`]).
    pub fn candidates(&self) -> BoxedStrategy<Value> {
        strategy(&self.schema, &self.schema, 0)
            .prop_map(|value| match value {
                Value::Object(_) => value,
                _ => Value::Object(Map::new()),
            })
            .boxed()
    }

    /// Arguments the schema refuses, derived from `base` (which it accepts): per declared
    /// member a wrong type and a value out of range, per required member its absence, and an
    /// undeclared member where `additionalProperties` is false. Each is kept only when the
    /// validator refuses it.
    pub fn invalid_from(&self, base: &Value) -> Vec<InvalidArguments> {
        let Some(base) = base.as_object() else {
            return Vec::new();
        };
        let root = &self.schema;
        let schema = merged(root, root);
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let mut proposals: Vec<(Defect, String, Map<String, Value>)> = Vec::new();
        for (name, sub) in &properties {
            let sub = merged(root, sub);
            if let Some(wrong) = wrong_type(&sub) {
                let mut arguments = base.clone();
                arguments.insert(name.clone(), wrong);
                proposals.push((Defect::WrongType, name.clone(), arguments));
            }
            for outside in out_of_range(&sub) {
                let mut arguments = base.clone();
                arguments.insert(name.clone(), outside);
                proposals.push((Defect::OutOfRange, name.clone(), arguments));
            }
        }
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let mut arguments = base.clone();
            if arguments.remove(name).is_some() {
                proposals.push((Defect::MissingRequired, name.to_owned(), arguments));
            }
        }
        if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
            let mut arguments = base.clone();
            arguments.insert(UNDECLARED.into(), json!(1));
            proposals.push((Defect::Undeclared, UNDECLARED.into(), arguments));
        }
        proposals
            .into_iter()
            .filter_map(|(defect, member, arguments)| {
                let arguments = Value::Object(arguments);
                let (schema_path, why) = self.first_error(&arguments)?;
                // Another defect must show as more than an undeclared member (which is judged
                // at its own, strict, level).
                if defect != Defect::Undeclared && self.only_undeclared(&arguments) {
                    return None;
                }
                Some(InvalidArguments {
                    defect,
                    member,
                    arguments,
                    schema_path,
                    why,
                })
            })
            .collect()
    }
}

/// Follows local `$ref`s (`#/...`) from `schema`, at most a few times.
fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
        else {
            break;
        };
        match root.pointer(target) {
            Some(next) => schema = next,
            None => break,
        }
    }
    schema
}

/// `schema` with its `$ref` followed and its `allOf` branches folded in (properties and
/// required lists joined; other keywords of later branches win).
fn merged(root: &Value, schema: &Value) -> Value {
    let schema = resolve(root, schema);
    let Some(branches) = schema.get("allOf").and_then(Value::as_array) else {
        return schema.clone();
    };
    let mut out = schema.as_object().cloned().unwrap_or_default();
    out.remove("allOf");
    for branch in branches {
        let branch = merged(root, branch);
        let Some(branch) = branch.as_object() else {
            continue;
        };
        for (key, value) in branch {
            match (key.as_str(), out.get_mut(key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    mine.extend(theirs.clone());
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    mine.extend(theirs.iter().cloned());
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Value::Object(out)
}

/// The JSON types `schema` allows (`None`: not restricted by `type`).
fn types(schema: &Value) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(one) => Some(vec![one.as_str()]),
        Value::Array(many) => Some(many.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// A value of a JSON type `schema` does not allow, if it restricts the type.
fn wrong_type(schema: &Value) -> Option<Value> {
    let allowed = types(schema)?;
    let has = |t: &str| allowed.contains(&t);
    let candidates = [
        ("string", json!("mcpwire")),
        ("boolean", json!(true)),
        ("object", json!({})),
        ("array", json!([])),
        ("null", Value::Null),
    ];
    if !has("number") && !has("integer") {
        return Some(json!(7));
    }
    candidates
        .into_iter()
        .find(|(t, _)| !has(t))
        .map(|(_, value)| value)
}

/// Values just outside `schema`'s declared range: numbers below `minimum` / above `maximum`,
/// strings and arrays past their length bounds, a string outside an `enum`.
fn out_of_range(schema: &Value) -> Vec<Value> {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    let integer = types(schema).is_some_and(|t| t.contains(&"integer") && !t.contains(&"number"));
    let as_number = |x: f64| {
        if integer && x.fract() == 0.0 && x.abs() < 9e15 {
            json!(x as i64)
        } else {
            json!(x)
        }
    };
    let mut out = Vec::new();
    if let Some(min) = number("minimum").or(number("exclusiveMinimum")) {
        out.push(as_number(min.floor() - 1.0));
    }
    if let Some(max) = number("maximum").or(number("exclusiveMaximum")) {
        out.push(as_number(max.ceil() + 1.0));
    }
    if let Some(max) = count("maxLength").filter(|m| *m < 4096) {
        out.push(Value::String("x".repeat(max as usize + 1)));
    }
    if let Some(min) = count("minLength").filter(|m| (1..4096).contains(m)) {
        out.push(Value::String("x".repeat(min as usize - 1)));
    }
    if let Some(max) = count("maxItems").filter(|m| *m < 256) {
        let item = schema
            .get("items")
            .and_then(|i| i.get("enum"))
            .and_then(|e| e.get(0))
            .cloned()
            .unwrap_or(json!(0));
        out.push(Value::Array(vec![item; max as usize + 1]));
    }
    if let Some(Value::Array(allowed)) = schema.get("enum")
        && allowed.iter().all(Value::is_string)
    {
        out.push(json!("mcpwire-not-in-enum"));
    }
    out
}

fn strategy(root: &Value, schema: &Value, depth: u8) -> BoxedStrategy<Value> {
    let schema = merged(root, schema);
    if depth > MAX_DEPTH {
        return Just(Value::Null).boxed();
    }
    if let Some(value) = schema.get("const") {
        return Just(value.clone()).boxed();
    }
    if let Some(Value::Array(values)) = schema.get("enum")
        && !values.is_empty()
    {
        return proptest::sample::select(values.clone()).boxed();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key)
            && !branches.is_empty()
        {
            let options: Vec<BoxedStrategy<Value>> = branches
                .iter()
                .map(|b| strategy(root, b, depth + 1))
                .collect();
            return Union::new(options).boxed();
        }
    }
    let kinds: Vec<&str> = match types(&schema) {
        Some(kinds) if !kinds.is_empty() => kinds,
        _ if schema.get("properties").is_some() => vec!["object"],
        _ if schema.get("items").is_some() => vec!["array"],
        _ => vec!["string", "integer", "boolean"],
    };
    let options: Vec<BoxedStrategy<Value>> = kinds
        .iter()
        .map(|kind| of_type(root, &schema, kind, depth))
        .collect();
    Union::new(options).boxed()
}

fn of_type(root: &Value, schema: &Value, kind: &str, depth: u8) -> BoxedStrategy<Value> {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    match kind {
        "null" => Just(Value::Null).boxed(),
        "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
        "integer" => {
            let low = number("minimum")
                .map(f64::ceil)
                .or(number("exclusiveMinimum").map(|m| m.floor() + 1.0));
            let high = number("maximum")
                .map(f64::floor)
                .or(number("exclusiveMaximum").map(|m| m.ceil() - 1.0));
            let (low, high) = bounds(low, high, 20.0);
            let (low, high) = (low as i64, high as i64);
            if low > high {
                return Just(json!(low)).boxed();
            }
            (low..=high).prop_map(|n| json!(n)).boxed()
        }
        "number" => {
            let (low, high) = bounds(
                number("minimum").or(number("exclusiveMinimum")),
                number("maximum").or(number("exclusiveMaximum")),
                20.0,
            );
            if low >= high {
                return Just(json!(low)).boxed();
            }
            prop_oneof![
                ((low.ceil() as i64)..=(high.floor() as i64)).prop_map(|n| json!(n)),
                (low..high).prop_map(|x| json!(x)),
            ]
            .boxed()
        }
        "string" => string(schema),
        "array" => {
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            let min = count("minItems").unwrap_or(0).min(8) as usize;
            let max = count("maxItems").map_or(min + 3, |m| (m as usize).min(min + 3));
            let max = max.max(min);
            proptest::collection::vec(strategy(root, &items, depth + 1), min..=max)
                .prop_map(Value::Array)
                .boxed()
        }
        "object" => object(root, schema, depth),
        _ => Just(Value::Null).boxed(),
    }
}

/// `[low, high]` from optional bounds: a missing side lies `span` away from the other.
fn bounds(low: Option<f64>, high: Option<f64>, span: f64) -> (f64, f64) {
    let clamp = |x: f64| x.clamp(-1e15, 1e15);
    match (low, high) {
        (Some(low), Some(high)) => (clamp(low), clamp(high)),
        (Some(low), None) => (clamp(low), clamp(low) + span),
        (None, Some(high)) => (clamp(high) - span, clamp(high)),
        (None, None) => (-span, span),
    }
}

fn string(schema: &Value) -> BoxedStrategy<Value> {
    let fixed = match schema.get("format").and_then(Value::as_str) {
        Some("uri" | "url" | "iri") => Some("https://example.com/mcpwire"),
        Some("email") => Some("check@example.com"),
        Some("date-time") => Some("2025-01-01T00:00:00Z"),
        Some("date") => Some("2025-01-01"),
        Some("time") => Some("00:00:00Z"),
        Some("uuid") => Some("00000000-0000-4000-8000-000000000000"),
        Some("ipv4") => Some("127.0.0.1"),
        _ => None,
    };
    if let Some(fixed) = fixed {
        return Just(Value::String(fixed.to_owned())).boxed();
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && let Ok(strategy) = proptest::string::string_regex(pattern)
    {
        return strategy.prop_map(Value::String).boxed();
    }
    let min = schema
        .get("minLength")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(64);
    let max = schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .map_or(min + 12, |m| m.min(min + 12))
        .max(min);
    proptest::string::string_regex(&format!("[a-z0-9 ._-]{{{min},{max}}}"))
        .map(|s| s.prop_map(Value::String).boxed())
        .unwrap_or_else(|_| Just(Value::String("x".repeat(min as usize))).boxed())
}

fn object(root: &Value, schema: &Value, depth: u8) -> BoxedStrategy<Value> {
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_owned))
        .collect();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut members: Vec<BoxedStrategy<(String, Option<Value>)>> = Vec::new();
    for (name, sub) in &properties {
        let value = strategy(root, sub, depth + 1);
        let name = name.clone();
        if required.contains(&name) {
            members.push(value.prop_map(move |v| (name.clone(), Some(v))).boxed());
        } else {
            members.push(
                proptest::option::of(value)
                    .prop_map(move |v| (name.clone(), v))
                    .boxed(),
            );
        }
    }
    for name in required.iter().filter(|r| !properties.contains_key(*r)) {
        members.push(Just((name.clone(), Some(json!("x")))).boxed());
    }
    members
        .prop_map(|members| {
            Value::Object(
                members
                    .into_iter()
                    .filter_map(|(name, value)| value.map(|v| (name, v)))
                    .collect(),
            )
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    fn schema() -> InputSchema {
        InputSchema::new(&json!({
            "type": "object",
            "properties": {
                "count": { "type": "integer", "minimum": 1, "maximum": 10 },
                "name": { "type": "string", "maxLength": 5 },
                "mode": { "enum": ["a", "b"] }
            },
            "required": ["count"],
            "additionalProperties": false
        }))
        .expect("compiles")
    }

    #[test]
    fn candidates_mostly_satisfy_the_schema() {
        let schema = schema();
        let mut runner = TestRunner::deterministic();
        let strategy = schema.candidates();
        let valid = (0..50)
            .filter(|_| schema.accepts(&strategy.new_tree(&mut runner).unwrap().current()))
            .count();
        assert_eq!(valid, 50);
    }

    #[test]
    fn each_defect_is_refused_at_its_schema_path() {
        let schema = schema();
        let base = json!({ "count": 3 });
        let invalid = schema.invalid_from(&base);
        let paths: Vec<(Defect, &str, &str)> = invalid
            .iter()
            .map(|i| (i.defect, i.member.as_str(), i.schema_path.as_str()))
            .collect();
        assert!(
            paths.contains(&(Defect::WrongType, "count", "/properties/count/type")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::OutOfRange, "count", "/properties/count/minimum")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::OutOfRange, "count", "/properties/count/maximum")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::OutOfRange, "name", "/properties/name/maxLength")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::OutOfRange, "mode", "/properties/mode/enum")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::MissingRequired, "count", "/required")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&(Defect::Undeclared, UNDECLARED, "/additionalProperties")),
            "{paths:?}"
        );
        assert!(invalid.iter().all(|i| !schema.accepts(&i.arguments)));
    }
}
