//! Results the layer encodes decode through each version's generated types
//! (`mcpwire-types`), so they are what that version's schema defines.

use mcpwire_server::{Content, ToolResult, Version};
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

#[derive(Serialize, JsonSchema)]
struct Point {
    x: i64,
    y: i64,
}

/// Every shape of result a tool can return.
fn results() -> Vec<ToolResult> {
    vec![
        ToolResult::text("plain"),
        ToolResult::error("it failed"),
        ToolResult::structured(&Point { x: 1, y: -2 }),
        ToolResult::content(vec![
            Content::text("two"),
            Content::image("aGk=", "image/png"),
        ]),
    ]
}

/// Decodes `value` as `T` and re-encodes it: what the generated type keeps.
fn through<T: DeserializeOwned + Serialize>(value: &Value) -> Value {
    let typed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("does not decode: {e}\n{value:#}"));
    serde_json::to_value(typed).unwrap()
}

#[test]
fn call_tool_results_decode_as_each_versions_call_tool_result() {
    for result in results() {
        for version in Version::ALL {
            let encoded = result.to_json(version);
            let kept = match version {
                Version::V2024_11_05 => through::<v2024_11_05::CallToolResult>(&encoded),
                Version::V2025_03_26 => through::<v2025_03_26::CallToolResult>(&encoded),
                Version::V2025_06_18 => through::<v2025_06_18::CallToolResult>(&encoded),
                Version::V2025_11_25 => through::<v2025_11_25::CallToolResult>(&encoded),
                Version::V2026_07_28 => through::<v2026_07_28::CallToolResult>(&encoded),
            };
            // Nothing the layer sent is dropped by the version's type: every member is one
            // the version defines.
            assert_eq!(kept, encoded, "{version}");
        }
    }
}

#[test]
fn structured_content_is_only_sent_where_the_version_defines_it() {
    let result = ToolResult::structured(&Point { x: 3, y: 4 });
    for version in Version::ALL {
        let encoded = result.to_json(version);
        let expected = (version >= Version::V2025_06_18).then(|| json!({ "x": 3, "y": 4 }));
        assert_eq!(
            encoded.get("structuredContent").cloned(),
            expected,
            "{version}"
        );
        assert_eq!(encoded["content"][0]["text"], "{\"x\":3,\"y\":4}");
    }
}
