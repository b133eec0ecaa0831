//! Profile facts come from the schemas: changing a schema changes the facts.

use mcpwire_codegen::facts::derive;
use serde_json::json;

fn schema(
    id_type: serde_json::Value,
    error_required: &[&str],
    batch: bool,
    params: &str,
) -> Vec<u8> {
    let mut message = vec![
        json!({"$ref": "#/$defs/JSONRPCRequest"}),
        json!({"$ref": "#/$defs/JSONRPCErrorResponse"}),
    ];
    if batch {
        message.push(json!({"type": "array", "items": {"$ref": "#/$defs/JSONRPCRequest"}}));
    }
    serde_json::to_vec(&json!({"$defs": {
        "RequestId": {"type": id_type},
        "JSONRPCRequest": {"type": "object", "properties": {"id": {"$ref": "#/$defs/RequestId"}, "method": {"type": "string"},
            "params": {"type": params}}, "required": ["id", "method"]},
        "JSONRPCErrorResponse": {"type": "object", "properties": {"id": {"$ref": "#/$defs/RequestId"}, "error": {}}, "required": error_required},
        "JSONRPCMessage": {"anyOf": message}
    }}))
    .unwrap()
}

#[test]
fn facts_follow_the_schema() {
    let a = derive(
        &schema(
            json!(["string", "integer"]),
            &["error", "id"],
            false,
            "object",
        ),
        "a.json",
        "mcp-a",
        Some("a"),
    )
    .unwrap();
    assert!(a.id_string && a.id_integer && !a.id_number && !a.id_null);
    assert!(a.error_response_requires_id && !a.batches && a.params_object && !a.params_array);
    assert_eq!(a.schema_sha256.len(), 64);

    let b = derive(
        &schema(
            json!(["string", "number", "null"]),
            &["error"],
            true,
            "array",
        ),
        "b.json",
        "b",
        None,
    )
    .unwrap();
    assert!(b.id_string && b.id_integer && b.id_number && b.id_null);
    assert!(!b.error_response_requires_id && b.batches && !b.params_object && b.params_array);
}

#[test]
fn upstream_and_project_schemas_give_the_documented_profiles() {
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let dir = mcpwire_codegen::mcp_schema_dir(workspace);
    if !dir.is_dir() {
        eprintln!("SKIPPED: MCP schemas not found at {}", dir.display());
        return;
    }
    let rpc = std::fs::read(workspace.join(mcpwire_codegen::JSONRPC_SCHEMA)).unwrap();
    let rpc = derive(&rpc, "x", "jsonrpc-2.0", None).unwrap();
    assert!(
        rpc.id_string
            && rpc.id_number
            && rpc.id_null
            && rpc.error_response_requires_id
            && rpc.batches
    );
    assert!(rpc.params_object && rpc.params_array);
    for schema in mcpwire_codegen::read_mcp_schemas(&dir).unwrap() {
        let f = derive(&schema.bytes, "x", "mcp", Some(&schema.version)).unwrap();
        let v = schema.version.as_str();
        assert!(
            f.id_string && f.id_integer && !f.id_number && !f.id_null,
            "{v}"
        );
        assert_eq!(f.error_response_requires_id, v <= "2025-06-18", "{v}");
        assert_eq!(f.batches, v == "2025-03-26", "{v}");
        assert!(f.params_object && !f.params_array, "{v}");
    }
}
