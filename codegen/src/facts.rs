//! Profile facts derived from a schema: id types, id-less error replies, batches, params.

use serde_json::Value;

use crate::error::{CodegenError, Result};
use crate::header::sha256_hex;
use crate::schema::Document;

/// The facts of one profile, as plain data (rendered into `generated/facts.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// `jsonrpc-2.0` or `mcp-<version>`.
    pub name: String,
    /// The MCP protocol version, `None` for JSON-RPC 2.0.
    pub protocol_version: Option<String>,
    /// `RequestId` admits strings.
    pub id_string: bool,
    /// `RequestId` admits integers.
    pub id_integer: bool,
    /// `RequestId` admits any number.
    pub id_number: bool,
    /// `RequestId` admits null.
    pub id_null: bool,
    /// The error response lists `id` as required.
    pub error_response_requires_id: bool,
    /// A batch (array) branch exists.
    pub batches: bool,
    /// `params` may be an object.
    pub params_object: bool,
    /// `params` may be an array.
    pub params_array: bool,
    /// Schema path relative to its root.
    pub schema_file: String,
    /// sha256 of the schema file.
    pub schema_sha256: String,
}

/// Derives the facts of the schema `bytes` at `file`.
pub fn derive(
    bytes: &[u8],
    file: &str,
    name: &str,
    protocol_version: Option<&str>,
) -> Result<Facts> {
    let doc = Document::parse(bytes).map_err(|e| e.in_file(file))?;
    let fail = |pointer: String, msg: &str| CodegenError::at(pointer, msg).in_file(file);

    let id = doc
        .definition("RequestId")
        .ok_or_else(|| fail("#".into(), "no `RequestId` definition"))?;
    let id_types = types_of(&doc, id, 0);
    if id_types.is_empty() {
        return Err(fail(
            doc.definition_pointer("RequestId"),
            "`RequestId` has no `type`",
        ));
    }
    let has = |t: &str| id_types.iter().any(|x| x == t);

    let error_def = ["JSONRPCErrorResponse", "JSONRPCError", "ErrorResponse"]
        .into_iter()
        .find(|n| doc.definition(n).is_some())
        .ok_or_else(|| {
            fail(
                "#".into(),
                "no error response definition (JSONRPCErrorResponse, JSONRPCError, ErrorResponse)",
            )
        })?;
    let requires_id = doc
        .definition(error_def)
        .and_then(|d| d.get("required"))
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|v| v == "id"));

    let message = ["JSONRPCMessage", "Message"]
        .into_iter()
        .find_map(|n| doc.definition(n));
    let array_branch = message
        .and_then(|m| m.get("anyOf").or_else(|| m.get("oneOf")))
        .and_then(Value::as_array)
        .is_some_and(|branches| {
            branches
                .iter()
                .any(|b| types_of(&doc, b, 0).iter().any(|t| t == "array"))
        });
    let batch_definition = doc.definition_names().iter().any(|n| {
        n.contains("Batch")
            && doc
                .definition(n)
                .is_some_and(|d| types_of(&doc, d, 0).iter().any(|t| t == "array"))
    });

    let request = ["JSONRPCRequest", "Request"]
        .into_iter()
        .find(|n| doc.definition(n).is_some())
        .ok_or_else(|| {
            fail(
                "#".into(),
                "no request definition (JSONRPCRequest, Request)",
            )
        })?;
    let params = doc
        .definition(request)
        .and_then(|d| d.get("properties"))
        .and_then(|p| p.get("params"))
        .ok_or_else(|| {
            fail(
                doc.definition_pointer(request),
                "the request declares no `params`",
            )
        })?;
    let params_types = types_of(&doc, params, 0);

    Ok(Facts {
        name: name.to_owned(),
        protocol_version: protocol_version.map(str::to_owned),
        id_string: has("string"),
        id_integer: has("integer") || has("number"),
        id_number: has("number"),
        id_null: has("null"),
        error_response_requires_id: requires_id,
        batches: array_branch || batch_definition,
        params_object: params_types.iter().any(|t| t == "object"),
        params_array: params_types.iter().any(|t| t == "array"),
        schema_file: file.to_owned(),
        schema_sha256: sha256_hex(bytes),
    })
}

/// The JSON types a schema admits by its `type`, following `$ref`s and union branches.
fn types_of(doc: &Document, schema: &Value, depth: usize) -> Vec<String> {
    if depth > 16 {
        return Vec::new();
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return doc
            .ref_target(reference, "#")
            .ok()
            .and_then(|n| doc.definition(&n))
            .map(|d| types_of(doc, d, depth + 1))
            .unwrap_or_default();
    }
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => {
            let mut out = Vec::new();
            for key in ["anyOf", "oneOf"] {
                for b in schema
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    for t in types_of(doc, b, depth + 1) {
                        if !out.contains(&t) {
                            out.push(t);
                        }
                    }
                }
            }
            out
        }
    }
}
