//! The corpus modules compiled under `#![deny(warnings)]` in one test target, and checked on
//! the wire against the `jsonschema` crate: every instance in `<name>.instances.json` gets
//! the same verdict from the generated root type as from the validator (`valid` ones also
//! round-trip unchanged), except the `unenforced` ones, which only a keyword the generator
//! lists in its warning refuses. Recursive types' strategies produce values both accept.
#![deny(warnings)]

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/expr.rs"]
mod expr;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/jsonrpc_service.rs"]
mod jsonrpc_service;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/linked_list.rs"]
mod linked_list;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/not.rs"]
mod not;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/nullable_items.rs"]
mod nullable_items;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/pattern_properties.rs"]
mod pattern_properties;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/ref_siblings.rs"]
mod ref_siblings;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/root_object.rs"]
mod root_object;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/tree.rs"]
mod tree;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/tuples.rs"]
mod tuples;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/value_enums.rs"]
mod value_enums;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/draft2020_12_metaschema.rs"]
mod draft2020_12_metaschema;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/refs_across_files.rs"]
mod refs_across_files;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/draft07_metaschema.rs"]
mod draft07_metaschema;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/lsp_meta_model.rs"]
mod lsp_meta_model;

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "corpus/generated/openrpc_meta.rs"]
mod openrpc_meta;

/// The form a `build.rs` writes, included as `include!` would be from `OUT_DIR`.
#[allow(dead_code)]
mod tree_included {
    include!("corpus/generated/tree.include.rs");
}

use std::path::Path;

use serde_json::Value;

type Roundtrip = fn(&str, Value) -> Option<Result<Value, String>>;

/// Each corpus schema: file stem, root definition name, the module's `roundtrip`.
const CORPUS: &[(&str, &str, Roundtrip)] = &[
    (
        "draft2020_12_metaschema",
        "CoreAndValidationSpecificationsMetaSchema",
        draft2020_12_metaschema::roundtrip,
    ),
    (
        "draft07_metaschema",
        "CoreSchemaMetaSchema",
        draft07_metaschema::roundtrip,
    ),
    ("lsp_meta_model", "MetaModel", lsp_meta_model::roundtrip),
    (
        "refs_across_files",
        "Envelope",
        refs_across_files::roundtrip,
    ),
    ("openrpc_meta", "openrpcDocument", openrpc_meta::roundtrip),
    ("expr", "Expr", expr::roundtrip),
    ("jsonrpc_service", "CalcRequest", jsonrpc_service::roundtrip),
    ("linked_list", "List", linked_list::roundtrip),
    ("not", "Guarded", not::roundtrip),
    ("nullable_items", "Samples", nullable_items::roundtrip),
    (
        "pattern_properties",
        "Scores",
        pattern_properties::roundtrip,
    ),
    ("ref_siblings", "Labeled", ref_siblings::roundtrip),
    ("root_object", "Order", root_object::roundtrip),
    ("tree", "Tree", tree::roundtrip),
    ("tuples", "Point", tuples::roundtrip),
    ("value_enums", "Settings", value_enums::roundtrip),
];

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// The schema the validator checks an instance of definition `name` against: the document
/// itself when `name` is its root, else the document with its root pointing at the
/// definition (the 2020-12 metaschema: the validator's own copy). A `$ref` to the network (which the generator does not fetch and keeps as any
/// value, with a warning) is any value here too, and an unknown `$schema` is draft-07.
fn validated_as(mut schema: Value, name: &str) -> Value {
    // The 2020-12 metaschema is split over files the validator knows by their URLs.
    let metaschema_2020_12 = "https://json-schema.org/draft/2020-12/schema";
    if schema.get("$id").and_then(Value::as_str) == Some(metaschema_2020_12) {
        return serde_json::json!({ "$ref": metaschema_2020_12 });
    }
    fn unfetched(value: &mut Value) {
        match value {
            Value::Object(map) => {
                let remote = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|r| r.contains("://"));
                if remote {
                    map.remove("$ref");
                }
                map.values_mut().for_each(unfetched);
            }
            Value::Array(items) => items.iter_mut().for_each(unfetched),
            _ => {}
        }
    }
    unfetched(&mut schema);
    let known = ["http://json-schema.org/draft-07/schema#"];
    if let Some(Value::String(uri)) = schema.get("$schema")
        && !known.contains(&uri.as_str())
    {
        schema["$schema"] = Value::from(known[0]);
    }
    let container = ["$defs", "definitions"]
        .into_iter()
        .find(|k| schema.get(k).is_some_and(|d| d.get(name).is_some()));
    if let Some(container) = container {
        schema["$ref"] = Value::from(format!("#/{container}/{name}"));
    }
    schema
}

#[test]
fn verdicts_match_the_jsonschema_crate() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, root, roundtrip) in CORPUS {
        // A schema naming other files is validated joined into one document.
        let path = corpus().join(format!("{name}.schema.json"));
        let joined = mcpwire_codegen::bundle::bundle(&path).unwrap();
        let schema = validated_as(joined, root);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let instances = read(&corpus().join(format!("{name}.instances.json")));
        let warnings =
            std::fs::read_to_string(corpus().join(format!("generated/{name}.warnings"))).unwrap();
        for (kind, list) in instances.as_object().unwrap() {
            for instance in list.as_array().unwrap() {
                checked += 1;
                let expected = validator.is_valid(instance);
                let ours = roundtrip(root, instance.clone()).expect("root definition");
                match (kind.as_str(), expected, &ours) {
                    ("valid", true, Ok(back)) if back == instance => {}
                    ("invalid", false, Err(_)) => {}
                    // Refused only by a keyword the generator said it does not enforce.
                    ("unenforced", false, Ok(_)) if warnings.contains("not enforced") => {}
                    _ => failures.push(format!(
                        "{name} {kind} {instance}: jsonschema valid={expected}, ours={ours:?}"
                    )),
                }
            }
        }
    }
    assert!(checked >= 100, "only {checked} instances");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_included_form_decodes_like_the_module() {
    let value = serde_json::json!({"value": 1, "children": [{"value": 2, "children": []}]});
    assert_eq!(
        tree_included::roundtrip("Tree", value.clone()),
        tree::roundtrip("Tree", value)
    );
}

#[test]
fn decode_errors_say_which_variant_and_why() {
    let refused = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "unknown", "params": []});
    let err = jsonrpc_service::roundtrip("CalcRequest", refused)
        .unwrap()
        .unwrap_err();
    assert!(err.contains("method"), "{err}");
}

#[test]
fn recursive_strategies_end_and_produce_valid_values() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    type Definition =
        fn(&str) -> Option<proptest::strategy::BoxedStrategy<mcpwire_support::strategy::Sample>>;
    let cases: [(&str, &str, Definition); 4] = [
        ("tree", "Tree", tree::strategies::definition),
        ("linked_list", "List", linked_list::strategies::definition),
        ("expr", "Expr", expr::strategies::definition),
        (
            "lsp_meta_model",
            "MetaModel",
            lsp_meta_model::strategies::definition,
        ),
    ];
    let count: usize = std::env::var("CORPUS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let mut runner = TestRunner::deterministic();
    for (name, root, definition) in cases {
        let schema = validated_as(read(&corpus().join(format!("{name}.schema.json"))), root);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let strategy = definition(root).expect("root definition");
        for _ in 0..count {
            let sample = strategy.new_tree(&mut runner).unwrap().current();
            assert_eq!(sample.decoded, Ok(()), "{name}: {}", sample.json);
            assert!(validator.is_valid(&sample.json), "{name}: {}", sample.json);
        }
    }
}
