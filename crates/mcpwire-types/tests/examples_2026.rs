//! Every upstream 2026-07-28 example decodes as its definition's generated type, re-encodes
//! to an equal JSON value, validates against the upstream definition, and is accepted by the
//! `schemars` schema of the generated type. Each also decodes from its file's text on the fast
//! path (`support::fast_json`) to what serde_json decodes.

use crate::common;

use mcpwire_types::mcp::v2026_07_28 as v;

#[test]
fn every_example_round_trips_and_validates_upstream() {
    let schema = common::schema("2026-07-28");
    let examples = common::examples_2026();
    assert!(
        !examples.is_empty(),
        "no examples found under {}",
        common::mcp_dir().display()
    );
    let mut failures = Vec::new();
    let mut validators = std::collections::BTreeMap::new();
    for (def, file, value) in &examples {
        let validator = validators
            .entry(def.clone())
            .or_insert_with(|| common::validator(&schema, def));
        let upstream = common::errors(validator, value);
        if !upstream.is_empty() {
            failures.push(format!("{def}/{file}: upstream validation: {upstream:?}"));
        }
        match v::roundtrip(def, value.clone()) {
            None => failures.push(format!("{def}/{file}: no generated definition {def}")),
            Some(Err(e)) => failures.push(format!("{def}/{file}: does not decode: {e}")),
            Some(Ok(back)) if back != *value => failures.push(format!(
                "{def}/{file}: re-encoded differently:\n  in:  {value}\n  out: {back}"
            )),
            Some(Ok(_)) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} examples of {} definitions round-trip and validate",
        examples.len(),
        validators.len()
    );
}

/// Decodes a text as the visited definition on the fast path and with serde_json, and
/// compares what each encodes back.
struct FastAndSerdeJson<'a>(&'a str);

impl mcpwire_types::support::DefinitionVisitor for FastAndSerdeJson<'_> {
    type Output = Result<(), String>;

    fn visit<T: serde::de::DeserializeOwned + serde::Serialize + 'static>(self) -> Self::Output {
        let json: T = serde_json::from_str(self.0).map_err(|e| format!("serde_json: {e}"))?;
        let fast: T = mcpwire_types::support::fast_json::try_from_str(self.0)
            .ok_or("the fast path gave up")?;
        let (json, fast) = (
            serde_json::to_string(&json).map_err(|e| e.to_string())?,
            serde_json::to_string(&fast).map_err(|e| e.to_string())?,
        );
        if json == fast {
            Ok(())
        } else {
            Err(format!(
                "decoded differently:\n  serde_json: {json}\n  fast:       {fast}"
            ))
        }
    }
}

#[test]
fn every_example_decodes_on_the_fast_path_as_serde_json_decodes_it() {
    let root = common::mcp_dir().join("2026-07-28").join("examples");
    let examples = common::examples_2026();
    let mut failures = Vec::new();
    for (def, file, _) in &examples {
        let text = std::fs::read_to_string(root.join(def).join(file)).expect("example text");
        match v::visit_definition(def, FastAndSerdeJson(&text)) {
            None => failures.push(format!("{def}/{file}: no generated definition {def}")),
            Some(Err(e)) => failures.push(format!("{def}/{file}: {e}")),
            Some(Ok(())) => {}
        }
    }
    assert_eq!(examples.len(), 129, "the upstream examples");
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// Two examples are valid only through a branch their authors did not mean; they decode as the
/// schema says, and keep every member.
#[test]
fn examples_valid_only_through_another_branch_decode_as_the_schema_says() {
    let example = |def: &str, file: &str| {
        common::examples_2026()
            .into_iter()
            .find(|(d, f, _)| d == def && f == file)
            .map(|(_, _, v)| v)
            .unwrap_or_else(|| panic!("example {def}/{file} is missing"))
    };
    // It lacks `cacheScope` and `ttlMs`, which `ReadResourceResult` requires; it validates as
    // an `InputRequiredResult` carrying undeclared members (`contents`), which are kept.
    let value = example(
        "ReadResourceResultResponse",
        "read-resource-result-response.json",
    );
    let decoded: v::ReadResourceResultResponse = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(decoded.result.variant_name(), "InputRequiredResult");
    assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
    // It carries `id`, which `ListRootsRequest` does not declare (nor forbid): kept.
    let value = example("ListRootsRequest", "list-roots-request.json");
    let decoded: v::ListRootsRequest = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(decoded.extra["id"].text(), r#""list-roots-example""#);
    assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
}

#[test]
fn schemars_schema_of_each_generated_type_accepts_the_examples() {
    let examples = common::examples_2026();
    let mut failures = Vec::new();
    for (def, file, value) in &examples {
        let schema = v::json_schema(def).unwrap_or_else(|| panic!("no generated definition {def}"));
        let schema = serde_json::to_value(&schema).expect("schema is JSON");
        let validator = jsonschema::options()
            .build(&schema)
            .unwrap_or_else(|e| panic!("{def}: schemars schema does not compile: {e}"));
        let errors = common::errors(&validator, value);
        if !errors.is_empty() {
            failures.push(format!("{def}/{file}: {errors:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} examples rejected:\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}
