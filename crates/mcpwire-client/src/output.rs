//! The check of a tool's output against what `tools/list` said of it: a tool with an
//! `outputSchema` must return `structuredContent` on success, and (feature
//! `output-schema`) that content must validate against the schema.
//!
//! Why a feature: full JSON Schema validation needs the `jsonschema` crate, a large
//! dependency an agent host may not want; without the feature the presence check still
//! holds and [`Client::call_tool_typed`](crate::Client::call_tool_typed) still checks the
//! shape through the Rust type it decodes into.

use crate::error::ClientError;
use mcpwire_model::{SchemaText, ToolResult};
use serde_json::Value;

/// Checks `result` of the tool `name` against the `outputSchema` it was listed with (nothing
/// to check for a tool error or a tool without one). The schema is parsed the first time a
/// result is checked against it (feature `output-schema`) and kept with it.
pub(crate) fn check_output(
    name: &str,
    output_schema: Option<&SchemaText>,
    result: &ToolResult,
) -> Result<(), ClientError> {
    let Some(schema) = output_schema else {
        return Ok(());
    };
    if result.is_error() {
        return Ok(());
    }
    let error = |reason: String| ClientError::Output {
        tool: name.to_owned(),
        reason,
    };
    let Some(structured) = result.structured_content() else {
        return Err(error(
            "the tool declares an outputSchema but the result has no structuredContent".into(),
        ));
    };
    validate(schema, structured).map_err(error)
}

#[cfg(feature = "output-schema")]
fn validate(schema: &SchemaText, instance: &Value) -> Result<(), String> {
    let schema = schema
        .value()
        .map_err(|e| format!("the outputSchema cannot be read: {e}"))?;
    // The schema is the server's: its patterns run on the `regex` crate's automata (linear in
    // the string); only patterns that need backtracking fall back to fancy-regex, at 10,000
    // steps a string instead of jsonschema's default 1,000,000 (issue 46).
    let validator = jsonschema::options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(schema)
        .or_else(|_| {
            jsonschema::options()
                .with_pattern_options(
                    jsonschema::PatternOptions::fancy_regex().backtrack_limit(10_000),
                )
                .build(schema)
        })
        .map_err(|e| format!("the outputSchema is not a valid JSON Schema: {e}"))?;
    match validator.iter_errors(instance).next() {
        None => Ok(()),
        Some(e) => Err(format!(
            "structuredContent at \"{}\" does not match the outputSchema: {e}",
            e.instance_path()
        )),
    }
}

#[cfg(not(feature = "output-schema"))]
fn validate(_schema: &SchemaText, _instance: &Value) -> Result<(), String> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> SchemaText {
        let schema = json!({"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]});
        SchemaText::try_from(schema).expect("an object")
    }

    fn check_output(result: &ToolResult) -> Result<(), ClientError> {
        super::check_output("add", Some(&schema()), result)
    }

    fn result(structured: Option<serde_json::Value>, is_error: bool) -> ToolResult {
        match (structured, is_error) {
            (_, true) => ToolResult::error("failed"),
            (Some(value), false) => ToolResult::structured(&value),
            (None, false) => ToolResult::text("no structure"),
        }
    }

    #[test]
    fn a_tool_with_an_output_schema_must_return_matching_structured_content() {
        assert!(check_output(&result(Some(json!({"sum": 5})), false)).is_ok());
        // A tool error need not match.
        assert!(check_output(&result(None, true)).is_ok());
        // Nor a tool listed without an output schema.
        assert!(super::check_output("add", None, &result(None, false)).is_ok());
        let missing = check_output(&result(None, false)).unwrap_err();
        assert!(
            missing.to_string().contains("no structuredContent"),
            "{missing}"
        );
        let wrong = check_output(&result(Some(json!({"sum": "five"})), false));
        if cfg!(feature = "output-schema") {
            let wrong = wrong.unwrap_err().to_string();
            assert!(wrong.contains("\"/sum\""), "{wrong}");
        } else {
            assert!(wrong.is_ok());
        }
    }
}
