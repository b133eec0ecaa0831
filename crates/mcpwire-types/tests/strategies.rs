//! The generated proptest strategies (feature `proptest`): for every MCP version and every
//! definition, generated values validate against the upstream schema definition (formats
//! checked) and decode back through the generated type to an equal value. Respelled with a
//! fraction on every whole number (`3` → `3.0`, still an `integer` to JSON Schema), each value
//! still validates and decodes to the same numbers.
//!
//! Runs `MCPWIRE_PROPTEST_CASES` cases per definition (default 6).
#![cfg(feature = "proptest")]

use crate::common;

use std::collections::BTreeMap;

use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};

use mcpwire_types::support::strategy::Sample;

fn cases() -> u32 {
    std::env::var("MCPWIRE_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(6)
}

/// A format-checking validator for every definition of `doc`.
fn validators(doc: &Value, names: &[&str]) -> BTreeMap<String, jsonschema::Validator> {
    let (key, dialect) = if doc.get("$defs").is_some() {
        ("$defs", "https://json-schema.org/draft/2020-12/schema")
    } else {
        ("definitions", "http://json-schema.org/draft-07/schema#")
    };
    names
        .iter()
        .map(|name| {
            let wrapper = json!({
                "$schema": dialect,
                key: doc[key].clone(),
                "allOf": [{ "$ref": format!("#/{key}/{name}") }],
            });
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&wrapper)
                .unwrap_or_else(|e| panic!("definition {name}: {e}"));
            ((*name).to_owned(), validator)
        })
        .collect()
}

/// `value` with every whole number of at most 2^53 in magnitude written with a fraction
/// (`3` → `3.0`); `None` when it has no such number.
fn with_fractions(value: &Value) -> Option<Value> {
    fn walk(value: &Value, changed: &mut bool) -> Value {
        match value {
            Value::Number(n) => match n.as_i64() {
                Some(i) if i.unsigned_abs() <= 1 << 53 => {
                    *changed = true;
                    Value::from(i as f64)
                }
                _ => value.clone(),
            },
            Value::Array(items) => items.iter().map(|v| walk(v, changed)).collect(),
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), walk(v, changed)))
                    .collect(),
            ),
            _ => value.clone(),
        }
    }
    let mut changed = false;
    let respelled = walk(value, &mut changed);
    changed.then_some(respelled)
}

/// `value` with every number as a float, so that `3` and `3.0` compare equal.
fn numbers_as_floats(value: &Value) -> Value {
    match value {
        Value::Number(n) => n.as_f64().map_or(Value::Null, Value::from),
        Value::Array(items) => items.iter().map(numbers_as_floats).collect(),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), numbers_as_floats(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// Decodes a value as a named definition and encodes it back (a module's `roundtrip`).
type Roundtrip = fn(&str, Value) -> Option<Result<Value, String>>;

/// Runs every definition's strategy; returns one line per failing definition.
fn check_all(
    label: &str,
    doc: &Value,
    names: &[&str],
    strategy: impl Fn(&str) -> Option<BoxedStrategy<Sample>>,
    roundtrip: Roundtrip,
) -> Vec<String> {
    let validators = validators(doc, names);
    let mut failures = Vec::new();
    for name in names {
        let strategy = strategy(name).unwrap_or_else(|| panic!("{label}: no strategy for {name}"));
        let validator = &validators[*name];
        let mut runner = TestRunner::new(Config {
            cases: cases(),
            failure_persistence: None,
            ..Config::default()
        });
        let outcome = runner.run(&strategy, |sample| {
            let errors: Vec<String> = validator
                .iter_errors(&sample.json)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            if !errors.is_empty() {
                return Err(TestCaseError::fail(format!(
                    "invalid against the schema: {errors:?}\n  value: {}",
                    sample.json
                )));
            }
            sample
                .decoded
                .clone()
                .map_err(|e| TestCaseError::fail(format!("{e}\n  value: {}", sample.json)))?;
            let Some(respelled) = with_fractions(&sample.json) else {
                return Ok(());
            };
            if !validator.is_valid(&respelled) {
                return Err(TestCaseError::fail(format!(
                    "the schema refuses whole numbers written with a fraction: {respelled}"
                )));
            }
            let decoded = roundtrip(name, respelled.clone())
                .expect("a known definition")
                .map_err(|e| TestCaseError::fail(format!("{e}\n  value: {respelled}")))?;
            if numbers_as_floats(&decoded) != numbers_as_floats(&sample.json) {
                return Err(TestCaseError::fail(format!(
                    "respelled {respelled}\n  decoded as {decoded}"
                )));
            }
            Ok(())
        });
        if let Err(e) = outcome {
            failures.push(format!("{label} {name}: {e}"));
        }
    }
    failures
}

macro_rules! version_test {
    ($feature:literal, $test:ident, $module:ident, $version:literal) => {
        #[cfg(feature = $feature)]
        #[test]
        fn $test() {
            use mcpwire_types::mcp::$module as m;
            let doc = common::schema($version);
            let failures = check_all(
                $version,
                &doc,
                m::DEFINITIONS,
                m::strategies::definition,
                m::roundtrip,
            );
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
    };
}

version_test!(
    "v2024_11_05",
    v2024_11_05_values_are_valid_and_round_trip,
    v2024_11_05,
    "2024-11-05"
);
version_test!(
    "v2025_03_26",
    v2025_03_26_values_are_valid_and_round_trip,
    v2025_03_26,
    "2025-03-26"
);
version_test!(
    "v2025_06_18",
    v2025_06_18_values_are_valid_and_round_trip,
    v2025_06_18,
    "2025-06-18"
);
version_test!(
    "v2025_11_25",
    v2025_11_25_values_are_valid_and_round_trip,
    v2025_11_25,
    "2025-11-25"
);
version_test!(
    "v2026_07_28",
    v2026_07_28_values_are_valid_and_round_trip,
    v2026_07_28,
    "2026-07-28"
);

#[test]
fn jsonrpc_values_are_valid_and_round_trip() {
    use mcpwire_types::jsonrpc as m;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../schema/jsonrpc-2.0.schema.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(path).expect("schema")).expect("JSON");
    let failures = check_all(
        "jsonrpc",
        &doc,
        m::DEFINITIONS,
        m::strategies::definition,
        m::roundtrip,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn strategies_cover_every_definition_and_nothing_else() {
    use mcpwire_types::jsonrpc as m;
    for name in m::DEFINITIONS {
        assert!(m::strategies::definition(name).is_some(), "{name}");
    }
    assert!(m::strategies::definition("NoSuchDefinition").is_none());
}
