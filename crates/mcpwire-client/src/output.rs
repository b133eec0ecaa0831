//! The check of a tool's output against what `tools/list` said of it: a tool with an
//! `outputSchema` must return `structuredContent` on success, and (feature
//! `output-schema`) that content must validate against the schema.
//!
//! Why a feature: full JSON Schema validation needs the `jsonschema` crate, a large
//! dependency an agent host may not want; without the feature the presence check still
//! holds and [`Client::call_tool_typed`](crate::Client::call_tool_typed) still checks the
//! shape through the Rust type it decodes into.

use crate::calls::ToolCallResult;
use crate::describe::ToolDescription;
use crate::error::ClientError;

/// Checks `result` against `tool`'s `outputSchema` (nothing to check for a tool error or
/// a tool without one).
pub(crate) fn check_output(
    tool: &ToolDescription,
    result: &ToolCallResult,
) -> Result<(), ClientError> {
    let Some(schema) = &tool.output_schema else {
        return Ok(());
    };
    if result.is_error {
        return Ok(());
    }
    let error = |reason: String| ClientError::Output {
        tool: tool.name.clone(),
        reason,
    };
    let Some(structured) = &result.structured_content else {
        return Err(error(
            "the tool declares an outputSchema but the result has no structuredContent".into(),
        ));
    };
    validate(schema, structured).map_err(error)
}

#[cfg(feature = "output-schema")]
fn validate(schema: &serde_json::Value, instance: &serde_json::Value) -> Result<(), String> {
    let validator = jsonschema::validator_for(schema)
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
fn validate(_schema: &serde_json::Value, _instance: &serde_json::Value) -> Result<(), String> {
    Ok(())
}
