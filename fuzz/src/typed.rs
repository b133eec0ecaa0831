//! `typed`: the generated MCP types against the upstream JSON Schemas.
//!
//! The first input byte picks the MCP version; the rest is parsed as JSON. Oracle: a value
//! the upstream schema accepts as `JSONRPCMessage` decodes with the generated type, and what
//! the type encodes back is accepted by the schema too.

use std::path::PathBuf;
use std::sync::OnceLock;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::{Value, json};

type Roundtrip = fn(&str, Value) -> Option<Result<Value, String>>;

const VERSIONS: [(&str, Roundtrip); 5] = [
    ("2024-11-05", v2024_11_05::roundtrip),
    ("2025-03-26", v2025_03_26::roundtrip),
    ("2025-06-18", v2025_06_18::roundtrip),
    ("2025-11-25", v2025_11_25::roundtrip),
    ("2026-07-28", v2026_07_28::roundtrip),
];

/// The upstream schema folder: `MCP_SCHEMA_DIR`, else `shared/schemas/mcp` beside the
/// repository.
fn schema_dir() -> PathBuf {
    match std::env::var_os("MCP_SCHEMA_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/schemas/mcp"),
    }
}

/// A validator for `JSONRPCMessage` of `version`.
fn validator(version: &str) -> jsonschema::Validator {
    let path = schema_dir().join(version).join("schema.json");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set MCP_SCHEMA_DIR)", path.display()));
    let doc: Value = serde_json::from_slice(&bytes).expect("the schema is JSON");
    let (key, dialect) = if doc.get("$defs").is_some() {
        ("$defs", "https://json-schema.org/draft/2020-12/schema")
    } else {
        ("definitions", "http://json-schema.org/draft-07/schema#")
    };
    let wrapper = json!({
        "$schema": dialect,
        key: doc[key].clone(),
        "allOf": [{ "$ref": format!("#/{key}/JSONRPCMessage") }],
    });
    jsonschema::options()
        .build(&wrapper)
        .expect("the schema compiles")
}

fn validators() -> &'static [jsonschema::Validator] {
    static VALIDATORS: OnceLock<Vec<jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| VERSIONS.iter().map(|(v, _)| validator(v)).collect())
}

/// Runs the oracle on one input.
pub fn check(data: &[u8]) {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let index = usize::from(selector) % VERSIONS.len();
    let (version, roundtrip) = VERSIONS[index];
    // The schema validator and the typed decode recurse: keep to depths real messages have.
    if mcpwire::scan::validate(text).is_ok_and(|info| info.depth > 64) {
        return;
    }
    let Ok(value) = serde_json::from_slice::<Value>(text) else {
        return;
    };
    let validator = &validators()[index];
    if !validator.is_valid(&value) {
        return;
    }
    let back = match roundtrip("JSONRPCMessage", value.clone()) {
        Some(Ok(back)) => back,
        other => panic!("{version}: schema-valid {value} did not decode: {other:?}"),
    };
    let errors: Vec<String> = validator
        .iter_errors(&back)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{version}: {value} encodes back as {back}, which the schema refuses: {errors:?}"
    );
}
