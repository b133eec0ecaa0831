//! Differential tests against the upstream schemas, per version: every value the upstream
//! definition accepts decodes with the generated type, and what the generated type encodes
//! back is accepted by the upstream definition too. Values come from the 2026-07-28 examples
//! (each tried against every version that has the definition) plus values built in Rust.

mod common;

use std::collections::BTreeMap;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::{Value, json};

type Roundtrip = fn(&str, Value) -> Option<Result<Value, String>>;

const VERSIONS: [(&str, Roundtrip, &[&str]); 5] = [
    (
        "2024-11-05",
        v2024_11_05::roundtrip,
        v2024_11_05::DEFINITIONS,
    ),
    (
        "2025-03-26",
        v2025_03_26::roundtrip,
        v2025_03_26::DEFINITIONS,
    ),
    (
        "2025-06-18",
        v2025_06_18::roundtrip,
        v2025_06_18::DEFINITIONS,
    ),
    (
        "2025-11-25",
        v2025_11_25::roundtrip,
        v2025_11_25::DEFINITIONS,
    ),
    (
        "2026-07-28",
        v2026_07_28::roundtrip,
        v2026_07_28::DEFINITIONS,
    ),
];

/// Hand-written messages, each tried as the named definition in every version.
fn extra_samples() -> Vec<(String, String, Value)> {
    let samples = [
        (
            "JSONRPCMessage",
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        ),
        (
            "JSONRPCMessage",
            json!({"jsonrpc": "2.0", "id": "x", "result": {}}),
        ),
        (
            "JSONRPCMessage",
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no such method"}}),
        ),
        (
            "JSONRPCMessage",
            json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]),
        ),
        ("ClientRequest", json!({"method": "ping"})),
        (
            "ClientRequest",
            json!({"method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}}),
        ),
        (
            "ClientNotification",
            json!({"method": "notifications/initialized"}),
        ),
        (
            "ServerResult",
            json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}),
        ),
        (
            "ServerResult",
            json!({"content": [{"type": "text", "text": "hi"}], "isError": false}),
        ),
        ("ClientResult", json!({"roots": [{"uri": "file:///tmp"}]})),
        ("ProgressToken", json!(9007199254740993u64)),
        ("RequestId", json!("abc")),
        ("LoggingLevel", json!("warning")),
    ];
    samples
        .into_iter()
        .enumerate()
        .map(|(i, (d, v))| (d.to_owned(), format!("sample-{i}"), v))
        .collect()
}

#[test]
fn generated_types_agree_with_upstream_definitions_in_every_version() {
    let mut corpus = common::examples_2026();
    corpus.extend(extra_samples());
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (version, roundtrip, definitions) in VERSIONS {
        let schema = common::schema(version);
        let mut validators: BTreeMap<String, jsonschema::Validator> = BTreeMap::new();
        let (mut checked, mut skipped) = (0, 0);
        for (def, file, value) in &corpus {
            if !definitions.contains(&def.as_str()) {
                continue;
            }
            let validator = validators
                .entry(def.clone())
                .or_insert_with(|| common::validator(&schema, def));
            if !validator.is_valid(value) {
                skipped += 1; // not a value of this version's definition
                continue;
            }
            checked += 1;
            match roundtrip(def, value.clone()).expect("listed definition") {
                Err(e) => failures.push(format!(
                    "{version} {def}/{file}: valid upstream but does not decode: {e}"
                )),
                Ok(back) => {
                    let errors = common::errors(validator, &back);
                    if !errors.is_empty() {
                        failures.push(format!("{version} {def}/{file}: encoded value rejected upstream: {errors:?}\n  {back}"));
                    }
                }
            }
        }
        report.push(format!(
            "{version}: {checked} values checked, {skipped} not valid in this version"
        ));
        assert!(checked > 0, "{version}: nothing checked");
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn values_built_in_rust_validate_upstream() {
    use v2025_06_18 as v;
    let tool = v::Tool {
        name: "echo".into(),
        title: None,
        description: Some("Echoes its input".into()),
        input_schema: v::ToolInputSchema {
            r#type: v::TypeObject,
            properties: Some(
                [("text".to_owned(), [].into_iter().collect())]
                    .into_iter()
                    .collect(),
            ),
            required: Some(vec!["text".into()]),
            extra: Default::default(),
        },
        output_schema: None,
        annotations: None,
        meta: None,
        extra: Default::default(),
    };
    let result = v::ListToolsResult {
        meta: None,
        next_cursor: None,
        tools: vec![tool],
        extra: Default::default(),
    };
    let request = v::CallToolRequest {
        method: v::MethodToolsCall,
        params: v::CallToolRequestParams {
            name: "echo".into(),
            arguments: Some([("text".to_owned(), json!("hi"))].into_iter().collect()),
            extra: Default::default(),
        },
        extra: Default::default(),
    };
    let schema = common::schema("2025-06-18");
    for (def, value) in [
        ("ListToolsResult", serde_json::to_value(&result).unwrap()),
        ("CallToolRequest", serde_json::to_value(&request).unwrap()),
        (
            "ClientRequest",
            serde_json::to_value(v::ClientRequest::CallToolRequest(request.clone())).unwrap(),
        ),
        (
            "ServerResult",
            serde_json::to_value(v::ServerResult::ListToolsResult(result.clone())).unwrap(),
        ),
    ] {
        let errors = common::errors(&common::validator(&schema, def), &value);
        assert!(errors.is_empty(), "{def}: {value} rejected: {errors:?}");
    }
    assert_eq!(
        serde_json::to_value(&request).unwrap()["method"],
        "tools/call"
    );
}
