//! Schemas the generator does not support are errors naming the JSON pointer, never panics;
//! and arbitrary schema-shaped documents never make it panic.

use proptest::prelude::*;

fn generate(schema: &serde_json::Value) -> Result<String, String> {
    mcpwire_codegen::generate_snapshot(schema.to_string().as_bytes(), "odd.json")
        .map_err(|e| e.to_string())
}

/// A `not` decode cannot decide is left out with a warning naming it, never silently.
#[test]
fn an_undecidable_not_is_a_warning_naming_its_pointer() {
    use serde_json::json;
    for (schema, pointer) in [
        // `required` where the value need not be an object.
        (
            json!({"$defs": {"A": {"not": {"required": ["a"]}}}}),
            "#/$defs/A/not",
        ),
        (
            json!({"$defs": {"A": {"type": "string", "not": {"pattern": "^x"}}}}),
            "#/$defs/A/not",
        ),
    ] {
        let (_, warnings) = mcpwire_codegen::generate_module_with_warnings(
            schema.to_string().as_bytes(),
            "odd.json",
            &mcpwire_codegen::emit::Flavor {
                protocol: "test schema".into(),
                file: "odd.json".into(),
                reference: None,
                methods: false,
                jsonrpc: false,
                strategies_feature: None,
                strategies_file: None,
                target: mcpwire_codegen::emit::Target::support_crate(),
                root_name: None,
                warn_unenforced: false,
                inner_doc: true,
                allow_name_lints: false,
            },
            mcpwire_codegen::Options::default(),
        )
        .unwrap_or_else(|e| panic!("{schema}: {e}"));
        let named: Vec<&String> = warnings
            .iter()
            .filter(|w| w.contains("`not` not enforced") && w.contains(pointer))
            .collect();
        assert_eq!(named.len(), 1, "{schema}: {warnings:?}");
    }
}

#[test]
fn unsupported_constructs_name_their_pointer() {
    use serde_json::json;
    let defs = |def: serde_json::Value| json!({"$defs": {"A": def}});
    for (schema, pointer) in [
        (
            defs(json!({"unevaluatedProperties": false})),
            "#/$defs/A/unevaluatedProperties",
        ),
        (defs(json!({"not": {}})), "#/$defs/A/not"),
        (
            defs(json!({"type": "string", "not": {"type": "string"}})),
            "#/$defs/A/not",
        ),
        (defs(json!({"enum": []})), "#/$defs/A/enum"),
        (json!({"title": "only"}), "#"),
        (
            defs(json!({"type": "object", "properties": {"a": {"unevaluatedProperties": false}}})),
            "#/$defs/A/properties/a/unevaluatedProperties",
        ),
        (
            defs(json!({"$ref": "#/$defs/A/properties/b"})),
            "#/$defs/A/$ref",
        ),
        (defs(json!({"$ref": "#/$defs/Missing"})), "#/$defs/A/$ref"),
        (defs(json!({"const": {"a": 1}})), "#/$defs/A/const"),
        (defs(json!({"type": "decimal"})), "#/$defs/A/type"),
        (defs(json!({"type": 5})), "#/$defs/A/type"),
        (defs(json!({"anyOf": {}})), "#/$defs/A/anyOf"),
        (
            defs(json!({"type": "object", "properties": []})),
            "#/$defs/A/properties",
        ),
        (
            defs(json!({"type": "object", "properties": {}, "required": ["b"]})),
            "#/$defs/A/required/0",
        ),
        (defs(json!({"type": ["string", "null"]})), "#/$defs/A"),
        (defs(json!({"$ref": "#/$defs/A"})), "#/$defs/A"),
        (
            defs(
                json!({"type": "object", "additionalProperties": {"allOf": [{"$ref": "#/$defs/A"}]}}),
            ),
            "#/$defs/A/additionalProperties",
        ),
        (
            defs(json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]})),
            "#/$defs/A/anyOf",
        ),
        (
            json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}),
            "#/$defs/A",
        ),
        (defs(json!(false)), "#/$defs/A"),
        (defs(json!("string")), "#/$defs/A"),
        (json!({"$defs": []}), "#/$defs"),
    ] {
        let err = generate(&schema).expect_err(&schema.to_string());
        assert!(
            err.contains(&format!("odd.json: {pointer}")),
            "{schema}: {err}"
        );
    }
    // Variants of one JSON type that only decoding tells apart: the first is tried first.
    let two_enums = defs(json!({"anyOf": [{"enum": ["a"]}, {"enum": ["b"]}, {"type": "integer"}]}));
    assert!(generate(&two_enums).is_ok());
    let err = mcpwire_codegen::generate_snapshot(b"{not json", "odd.json").unwrap_err();
    assert!(err.to_string().contains("not a JSON document"), "{err}");
}

/// A JSON value shaped like a schema: keywords, odd names, nesting.
fn schema_like() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{Value, json};
    let name = prop_oneof![
        Just("a".to_owned()),
        Just("my-type".to_owned()),
        Just("Self".to_owned()),
        Just("self".to_owned()),
        Just("type".to_owned()),
        Just("2x".to_owned()),
        Just("".to_owned()),
        Just("ü".to_owned()),
        Just("extra".to_owned()),
        "[a-zA-Z_ /~-]{1,6}",
    ];
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer"})),
        Just(json!({"type": "number"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"type": "boolean"})),
        Just(json!({})),
        Just(json!(true)),
        Just(json!({"const": "x"})),
        Just(json!({"const": 3})),
        Just(json!({"enum": ["a", "b", "Self"]})),
        Just(json!({"$ref": "#/$defs/a"})),
        Just(json!({"$ref": "#/$defs/my-type"})),
        Just(json!({"type": "object", "additionalProperties": false})),
    ];
    let schema = leaf.prop_recursive(3, 24, 4, move |inner| {
        let name = name.clone();
        prop_oneof![
            (
                proptest::collection::btree_map(name.clone(), inner.clone(), 0..4),
                proptest::collection::vec(name, 0..3),
                prop_oneof![Just(None), Just(Some(json!(false))), Just(Some(json!({})))],
            )
                .prop_map(|(props, required, additional)| {
                    let mut object =
                        json!({"type": "object", "properties": props, "required": required});
                    if let Some(a) = additional {
                        object["additionalProperties"] = a;
                    }
                    object
                }),
            proptest::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"anyOf": v})),
            proptest::collection::vec(inner.clone(), 1..4).prop_map(|v| json!({"oneOf": v})),
            proptest::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"allOf": v})),
            inner
                .clone()
                .prop_map(|i| json!({"type": "array", "items": i})),
            inner.prop_map(|i| json!({"type": "object", "additionalProperties": i})),
        ]
    });
    proptest::collection::btree_map(
        prop_oneof![
            Just("a".to_owned()),
            Just("my-type".to_owned()),
            "[a-zA-Z0-9_-]{1,5}"
        ],
        schema,
        1..5,
    )
    .prop_map(|defs| json!({"$defs": defs.into_iter().collect::<serde_json::Map<String, Value>>()}))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever the schema, the generator returns source that parses or an error naming a
    /// pointer — it never panics.
    #[test]
    fn arbitrary_schemas_never_panic(schema in schema_like()) {
        match generate(&schema) {
            Ok(source) => prop_assert!(source.contains("@generated")),
            Err(e) => prop_assert!(e.contains('#'), "error without a pointer: {}", e),
        }
    }
}
