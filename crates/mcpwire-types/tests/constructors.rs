//! Building values: `new(required…)` with `with_*` setters, `Default` where every member is
//! optional, `From<variant>` for unions, and the tool-result helpers — each value encodes to
//! the JSON expected and validates against the upstream definition.

use crate::common;

use mcpwire_types::mcp::{v2024_11_05, v2025_06_18, v2025_11_25, v2026_07_28 as v};
use serde_json::{Value, json};

fn valid(version: &str, def: &str, value: &Value) {
    let errors = common::errors(&common::validator(&common::schema(version), def), value);
    assert!(
        errors.is_empty(),
        "{version} {def}: {value} rejected: {errors:?}"
    );
}

#[test]
fn unions_are_built_from_their_variants() {
    let block = v::ContentBlock::from(v::TextContent::new("hi"));
    let value = serde_json::to_value(&block).unwrap();
    assert_eq!(value, json!({"type": "text", "text": "hi"}));
    valid("2026-07-28", "ContentBlock", &value);
    let id: v::RequestId = "abc".to_owned().into();
    assert_eq!(serde_json::to_value(&id).unwrap(), json!("abc"));
    let id = v::RequestId::from(mcpwire_types::support::Integer::from(7_i64));
    assert_eq!(serde_json::to_value(&id).unwrap(), json!(7));
}

#[test]
fn structs_take_their_required_members_and_set_the_others() {
    // Required members in the schema's `required` order: `inputSchema`, `name`.
    let tool = v2025_06_18::Tool::new(
        v2025_06_18::ToolInputSchema::new().with_required(vec!["text".to_owned()]),
        "echo",
    )
    .with_title("Echo")
    .with_description("Echoes its input")
    .with_extra_member("x-vendor", json!({"tier": 1}));
    let value = serde_json::to_value(&tool).unwrap();
    assert_eq!(
        value,
        json!({"name": "echo", "title": "Echo", "description": "Echoes its input",
            "inputSchema": {"type": "object", "required": ["text"]}, "x-vendor": {"tier": 1}})
    );
    valid("2025-06-18", "Tool", &value);
    // Every member optional: `Default`, encoded as `{}`.
    let capabilities = v::ClientCapabilities::default();
    assert_eq!(serde_json::to_value(&capabilities).unwrap(), json!({}));
    assert_eq!(capabilities, v::ClientCapabilities::new());
}

#[test]
fn tool_results_have_text_and_error_helpers_in_every_version() {
    let cases = [
        (
            "2024-11-05",
            serde_json::to_value(v2024_11_05::CallToolResult::text("done")).unwrap(),
            serde_json::to_value(v2024_11_05::CallToolResult::error_text("boom")).unwrap(),
        ),
        (
            "2025-11-25",
            serde_json::to_value(v2025_11_25::CallToolResult::text("done")).unwrap(),
            serde_json::to_value(v2025_11_25::CallToolResult::error_text("boom")).unwrap(),
        ),
        (
            "2026-07-28",
            serde_json::to_value(v::CallToolResult::text("done")).unwrap(),
            serde_json::to_value(v::CallToolResult::error_text("boom")).unwrap(),
        ),
    ];
    for (version, ok, err) in cases {
        assert_eq!(
            ok["content"],
            json!([{"type": "text", "text": "done"}]),
            "{version}"
        );
        assert_eq!(ok.get("isError"), None, "{version}");
        assert_eq!(err["content"][0]["text"], "boom", "{version}");
        assert_eq!(err["isError"], true, "{version}");
        valid(version, "CallToolResult", &ok);
        valid(version, "CallToolResult", &err);
    }
    assert_eq!(
        serde_json::to_value(v::CallToolResult::text("done")).unwrap()["resultType"],
        "complete"
    );
}
