//! Differential tests against the upstream schemas, per version: every value the upstream
//! definition accepts decodes with the generated type, and what the generated type encodes
//! back is accepted by the upstream definition too. Values come from the 2026-07-28 examples
//! (each tried against every version that has the definition) plus values built in Rust.

use crate::common;

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
                [("text".to_owned(), mcpwire_types::JsonObject::new())]
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

/// The keywords the generated types do not enforce: value constraints that leave the Rust type
/// unchanged. An input failing only these decodes (the documented leniencies, README "The
/// generated types"); anything else the schema refuses must not decode.
const NOT_ENFORCED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "format",
];

/// `schema` without the keywords of [`NOT_ENFORCED`] (property names are left alone).
fn lenient(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !NOT_ENFORCED.contains(&k.as_str()))
                .map(|(k, v)| {
                    let v = if k == "properties" || k == "$defs" || k == "definitions" {
                        match v {
                            Value::Object(props) => Value::Object(
                                props.iter().map(|(n, s)| (n.clone(), lenient(s))).collect(),
                            ),
                            other => other.clone(),
                        }
                    } else {
                        lenient(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(lenient).collect()),
        other => other.clone(),
    }
}

/// The mutations of one example: an undeclared member at each object position; each integer
/// written as `n.0`, as `1e3`, as 2^63 and as 2^64; the discriminating constants (`type`,
/// `mode`, `resultType`) swapped for the other values the corpus uses. With `full`, also each
/// member removed and undeclared members of other JSON types.
fn mutations(
    value: &Value,
    swaps: &BTreeMap<String, Vec<Value>>,
    full: bool,
) -> Vec<(String, Value)> {
    let mut spots = Vec::new();
    common::positions(value, "", &mut spots);
    let mut out = Vec::new();
    let edit = |pointer: &str, f: &dyn Fn(&mut Value)| {
        let mut copy = value.clone();
        f(copy.pointer_mut(pointer).expect("pointer from positions"));
        copy
    };
    let mut extras = vec![json!("v")];
    if full {
        extras.extend([json!(null), json!({"a": [1, {}]}), json!(1e3), json!(-7)]);
    }
    for (pointer, is_object) in &spots {
        if *is_object {
            for extra in &extras {
                out.push((
                    format!("x-extra={extra} at `{pointer}`"),
                    edit(pointer, &|v| {
                        v.as_object_mut()
                            .unwrap()
                            .insert("x-extra".into(), extra.clone());
                    }),
                ));
            }
            let object = value.pointer(pointer).and_then(Value::as_object).unwrap();
            for (member, options) in swaps {
                if !object.contains_key(member) {
                    continue;
                }
                for option in options.iter().filter(|o| object.get(member) != Some(o)) {
                    out.push((
                        format!("{member}={option} at `{pointer}`"),
                        edit(pointer, &|v| {
                            v[member.as_str()] = option.clone();
                        }),
                    ));
                }
            }
            if full {
                for member in object.keys() {
                    out.push((
                        format!("without `{member}` at `{pointer}`"),
                        edit(pointer, &|v| {
                            v.as_object_mut().unwrap().remove(member);
                        }),
                    ));
                }
            }
        } else {
            let n = value.pointer(pointer).and_then(Value::as_f64).unwrap();
            for (label, spelled) in [
                ("as n.0", format!("{n:.1}")),
                ("as 1e3", "1e3".to_owned()),
                ("as 2^63", "9223372036854775808".to_owned()),
                ("as 2^64", "18446744073709551616".to_owned()),
            ] {
                let replacement: Value = serde_json::from_str(&spelled).unwrap();
                out.push((
                    format!("integer {label} at `{pointer}`"),
                    edit(pointer, &|v| *v = replacement.clone()),
                ));
            }
        }
    }
    out
}

/// The one re-encoding leniency: an integer constant (the error `code`s are the only ones in
/// MCP) is a zero-sized marker and is written back in plain digits, `-32602.0` as `-32602`.
fn constant_respelled(label: &str, back: &Value, input: &Value) -> bool {
    fn same_value(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
            }
            _ => a == b,
        }
    }
    label.starts_with("integer as n.0 at `") && label.ends_with("/code`") && same_value(back, input)
}

/// The values the corpus uses for each discriminating member.
fn swap_values(corpus: &[(String, String, Value)]) -> BTreeMap<String, Vec<Value>> {
    fn walk(value: &Value, out: &mut BTreeMap<String, Vec<Value>>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    if ["type", "mode", "resultType"].contains(&k.as_str()) && v.is_string() {
                        let seen = out.entry(k.clone()).or_default();
                        if !seen.contains(v) {
                            seen.push(v.clone());
                        }
                    }
                    walk(v, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for (_, _, value) in corpus {
        walk(value, &mut out);
    }
    out
}

/// Every upstream example and its mutations, as every version's definition of the same name,
/// against the `jsonschema` crate's verdict: valid ⇒ decodes; decodes ⇒ valid once the
/// not-enforced keywords ([`NOT_ENFORCED`]) are dropped; decodes ⇒ encodes back equal.
/// `MCPWIRE_DIFFERENTIAL_FULL=1` adds member removals and undeclared members of every JSON
/// type (about 5× the cases).
///
/// Two upstream examples are valid only through a branch their authors did not mean
/// (`ListRootsRequest/list-roots-request.json` carries an undeclared `id`;
/// `ReadResourceResultResponse/read-resource-result-response.json` lacks `cacheScope`/`ttlMs`
/// and is an `InputRequiredResult`): they are checked like the others, and pinned in
/// `examples_2026.rs`.
#[test]
fn examples_and_their_mutations_agree_with_the_json_schema_verdict() {
    let full = std::env::var_os("MCPWIRE_DIFFERENTIAL_FULL").is_some_and(|v| v != "0");
    let corpus = common::examples_2026();
    let swaps = swap_values(&corpus);
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (version, roundtrip, definitions) in VERSIONS {
        let schema = common::schema(version);
        let relaxed = lenient(&schema);
        let mut validators: BTreeMap<String, (jsonschema::Validator, jsonschema::Validator)> =
            BTreeMap::new();
        let (mut cases, mut valid, mut lenient_only) = (0, 0, 0);
        for (def, file, example) in &corpus {
            if !definitions.contains(&def.as_str()) {
                continue;
            }
            let (strict, loose) = validators.entry(def.clone()).or_insert_with(|| {
                (
                    common::validator(&schema, def),
                    common::validator(&relaxed, def),
                )
            });
            let mut inputs = vec![("as published".to_owned(), example.clone())];
            inputs.extend(mutations(example, &swaps, full));
            for (label, input) in inputs {
                cases += 1;
                let is_valid = strict.is_valid(&input);
                valid += usize::from(is_valid);
                let outcome = roundtrip(def, input.clone()).expect("listed definition");
                let case = format!("{version} {def}/{file} {label}");
                match outcome {
                    Err(e) if is_valid => failures.push(format!("{case}: valid but rejected: {e}")),
                    Err(_) => {}
                    Ok(back) => {
                        if !is_valid {
                            if loose.is_valid(&input) {
                                lenient_only += 1;
                            } else {
                                failures.push(format!(
                                    "{case}: invalid upstream but decodes: {:?}",
                                    common::errors(strict, &input)
                                ));
                            }
                        }
                        if back != input && !constant_respelled(&label, &back, &input) {
                            failures.push(format!(
                                "{case}: re-encoded differently\n  in:  {input}\n  out: {back}"
                            ));
                        }
                    }
                }
            }
        }
        report.push(format!(
            "{version}: {cases} cases, {valid} valid upstream, {lenient_only} decoded by a documented leniency"
        ));
    }
    eprintln!("{}", report.join("\n"));
    let shown: Vec<&String> = failures.iter().take(40).collect();
    assert!(
        failures.is_empty(),
        "{} disagreements with the JSON Schema verdict (first 40):\n{}",
        failures.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
