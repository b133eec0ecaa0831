//! Unions decode by the JSON Schema meaning of `anyOf` / `oneOf`: a value valid through any
//! branch decodes (the issue's "valid but rejected" inputs, each checked against the upstream
//! schema first), and decoding then re-encoding loses no member.

mod common;

use mcpwire_types::mcp::{v2025_11_25, v2026_07_28 as v};
use serde_json::{Value, json};

/// Checks that `value` is valid upstream as `def` of `version`, decodes with `roundtrip`, and
/// re-encodes equal; returns nothing, panicking with the reason otherwise.
fn valid_and_lossless(
    version: &str,
    roundtrip: fn(&str, Value) -> Option<Result<Value, String>>,
    def: &str,
    value: Value,
) {
    let schema = common::schema(version);
    let errors = common::errors(&common::validator(&schema, def), &value);
    assert!(
        errors.is_empty(),
        "{def} {value} is invalid upstream: {errors:?}"
    );
    let back = roundtrip(def, value.clone())
        .expect("definition exists")
        .unwrap_or_else(|e| panic!("{def} {value}: valid upstream but does not decode: {e}"));
    assert_eq!(back, value, "{def}: re-encoded differently");
}

fn latest(def: &str, value: Value) {
    valid_and_lossless("2026-07-28", v::roundtrip, def, value);
}

#[test]
fn an_optional_constant_of_another_value_rules_a_variant_out() {
    let value = json!({"mode": "url", "message": "m", "url": "https://x",
        "requestedSchema": {"type": "object", "properties": {}}});
    latest("ElicitRequestParams", value.clone());
    let decoded: v::ElicitRequestParams = serde_json::from_value(value).unwrap();
    assert_eq!(decoded.variant_name(), "ElicitRequestURLParams");
}

#[test]
fn a_failing_chosen_variant_falls_back_to_the_next_admitting_one() {
    // `content` points at `CallToolResult`, whose `content` is an array: another result takes it.
    latest(
        "ServerResult",
        json!({"resultType": "complete", "content": "done"}),
    );
    // `blob` makes it blob contents; `text` is then an undeclared member of any type.
    let value =
        json!({"type": "resource", "resource": {"uri": "file:///a", "blob": "AAAA", "text": 5}});
    latest("EmbeddedResource", value.clone());
    // `result: null` is no result object; the error response admits it as an undeclared member.
    let message = json!({"jsonrpc": "2.0", "id": 1, "result": null, "error": {"code": -32601, "message": "x"}});
    latest("JSONRPCMessage", message.clone());
    let decoded: v::JSONRPCMessage = serde_json::from_value(message).unwrap();
    assert_eq!(decoded.variant_name(), "JSONRPCErrorResponse");
}

#[test]
fn members_of_the_branch_not_taken_are_kept() {
    latest(
        "CallToolResultResponse",
        json!({"jsonrpc": "2.0", "id": 1,
            "result": {"resultType": "input_required", "requestState": "s1", "content": []}}),
    );
    valid_and_lossless(
        "2025-11-25",
        v2025_11_25::roundtrip,
        "JSONRPCMessage",
        json!({"jsonrpc": "2.0", "id": 1, "method": "x", "result": {}}),
    );
}

#[test]
fn when_nothing_matches_the_error_leads_with_the_chosen_variant() {
    let err = serde_json::from_value::<v::ContentBlock>(json!({"type": "text", "text": 5}))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("ContentBlock: decoding as variant `TextContent` (chosen because member `type` is \"text\") failed at `/text`"),
        "{err}"
    );
    assert_eq!(mcpwire_types::support::error_pointer(&err), "/text");
}

#[test]
fn integers_beyond_i64_decode_exactly_and_ids_keep_their_text() {
    use mcpwire_types::support::Integer;
    // 2^63: beyond i64, a valid `integer` upstream; decoded and written back digit for digit.
    let text =
        r#"{"name":"a","size":9223372036854775808,"type":"resource_link","uri":"file:///a"}"#;
    let link: v::ResourceLink = serde_json::from_str(text).unwrap();
    assert_eq!(link.size.as_ref().and_then(Integer::as_u64), Some(1 << 63));
    assert_eq!(serde_json::to_string(&link).unwrap(), text);
    latest("ResourceLink", serde_json::from_str(text).unwrap());
    // Never refused while schema-valid: 2^64 and a whole number written with an exponent.
    for id in ["18446744073709551616", "1e3", "2.0", "-0"] {
        let value: Value = serde_json::from_str(id).unwrap();
        latest("RequestId", value);
    }
    // An id built from the runtime's raw id text is written back as that text.
    for raw in ["1e3", "-0", "18446744073709551616", "9007199254740993"] {
        let id = v::RequestId::Integer(Integer::from_json_text(raw).unwrap());
        assert_eq!(serde_json::to_string(&id).unwrap(), raw);
    }
    let id: v::RequestId = serde_json::from_str("\"1e3\"").unwrap();
    assert_eq!(serde_json::to_string(&id).unwrap(), "\"1e3\"");
    assert!(serde_json::from_str::<v::RequestId>("1.5").is_err());
}
