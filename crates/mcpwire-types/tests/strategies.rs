//! The generated proptest strategies (feature `proptest`): for every MCP version and every
//! definition, generated values validate against the upstream schema definition (formats
//! checked) and decode back through the generated type to an equal value.
//!
//! Runs `MCPWIRE_PROPTEST_CASES` cases per definition (default 6).
#![cfg(feature = "proptest")]

mod common;

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

/// Runs every definition's strategy; returns one line per failing definition.
fn check_all(
    label: &str,
    doc: &Value,
    names: &[&str],
    strategy: impl Fn(&str) -> Option<BoxedStrategy<Sample>>,
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
                .map_err(|e| TestCaseError::fail(format!("{e}\n  value: {}", sample.json)))
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
            let failures = check_all($version, &doc, m::DEFINITIONS, m::strategies::definition);
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
    let failures = check_all("jsonrpc", &doc, m::DEFINITIONS, m::strategies::definition);
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
