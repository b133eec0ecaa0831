//! Shared helpers: where the upstream schemas are and validators for one definition.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::{Value, json};

/// The upstream MCP schema folder (`MCP_SCHEMA_DIR`, default `../shared/schemas/mcp` from
/// the workspace root).
pub fn mcp_dir() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("MCP_SCHEMA_DIR") {
        Some(d) if !d.is_empty() => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                workspace.join(d)
            }
        }
        _ => workspace.join("../shared/schemas/mcp"),
    }
}

/// The parsed upstream schema of `version`.
pub fn schema(version: &str) -> Value {
    let path = mcp_dir().join(version).join("schema.json");
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set MCP_SCHEMA_DIR)", path.display()));
    serde_json::from_slice(&bytes).expect("schema is JSON")
}

/// A validator for definition `name` of `doc` (draft-07 or 2020-12).
pub fn validator(doc: &Value, name: &str) -> jsonschema::Validator {
    let (key, dialect) = if doc.get("$defs").is_some() {
        ("$defs", "https://json-schema.org/draft/2020-12/schema")
    } else {
        ("definitions", "http://json-schema.org/draft-07/schema#")
    };
    let wrapper = json!({
        "$schema": dialect,
        key: doc[key].clone(),
        "allOf": [{ "$ref": format!("#/{key}/{name}") }],
    });
    jsonschema::options()
        .build(&wrapper)
        .unwrap_or_else(|e| panic!("definition {name}: {e}"))
}

/// Validation errors of `instance` against `validator`, as text.
pub fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Every example of 2026-07-28: (definition, file name, value), sorted.
pub fn examples_2026() -> Vec<(String, String, Value)> {
    let root = mcp_dir().join("2026-07-28").join("examples");
    let mut out = Vec::new();
    let mut defs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    defs.sort();
    for dir in defs {
        let def = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            if file.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let value: Value =
                serde_json::from_slice(&std::fs::read(&file).unwrap()).expect("example is JSON");
            out.push((
                def.clone(),
                file.file_name().unwrap().to_string_lossy().into_owned(),
                value,
            ));
        }
    }
    out
}

/// JSON pointers of every object (`true`) and every integer (`false`) inside `value`.
pub fn positions(value: &Value, pointer: &str, out: &mut Vec<(String, bool)>) {
    match value {
        Value::Object(map) => {
            out.push((pointer.to_owned(), true));
            for (k, v) in map {
                let token = k.replace('~', "~0").replace('/', "~1");
                positions(v, &format!("{pointer}/{token}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                positions(v, &format!("{pointer}/{i}"), out);
            }
        }
        Value::Number(n) if n.is_i64() || n.is_u64() => out.push((pointer.to_owned(), false)),
        _ => {}
    }
}
