//! Unions decode by the JSON Schema meaning of `anyOf` / `oneOf`: a value valid through any
//! branch decodes (the issue's "valid but rejected" inputs, each checked against the upstream
//! schema first), and decoding then re-encoding loses no member.

use crate::common;

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

/// A union of objects reads its members straight from the deserializer (its strings decoded
/// on the way, the rest as raw text), so each way serde_json can hand it over must give the
/// same value: borrowed text, bytes, a reader (owned text), and a `serde_json::Value`.
#[test]
fn a_union_decodes_alike_from_every_serde_json_input() {
    fn every_input<T>(text: &str) -> Vec<T>
    where
        T: serde::de::DeserializeOwned + serde::Serialize,
    {
        vec![
            serde_json::from_str(text).unwrap(),
            serde_json::from_slice(text.as_bytes()).unwrap(),
            serde_json::from_reader(text.as_bytes()).unwrap(),
            serde_json::from_value(serde_json::from_str(text).unwrap()).unwrap(),
        ]
    }
    // Escaped strings (decoded once while the union reads its object), a listed string member
    // holding a number (kept by the blob variant as an undeclared member), a nested union and
    // an id that keeps its text.
    let text = r#"{"type":"resource","resource":{"uri":"file:///a\u0020b","mimeType":"text/plain","text":"line\n\"quoted\"\ttab \ud83d\ude00","_meta":{"k":[1,{"x":"y"}]}},"annotations":{"priority":0.5,"lastModified":"2025-01-01T00:00:00Z"}}"#;
    let decoded = every_input::<v::ContentBlock>(text);
    for block in &decoded {
        assert_eq!(block, &decoded[0]);
        let v::ContentBlock::EmbeddedResource(resource) = block else {
            panic!("an embedded resource: {block:?}")
        };
        let v::EmbeddedResourceResource::TextResourceContents(contents) = &resource.resource else {
            panic!("text contents: {:?}", resource.resource)
        };
        assert_eq!(contents.uri, "file:///a b");
        assert_eq!(contents.text, "line\n\"quoted\"\ttab \u{1f600}");
    }
    let blob = r#"{"type":"resource","resource":{"uri":"file:///a","blob":"AAAA","text":5}}"#;
    for block in every_input::<v::ContentBlock>(blob) {
        let back: Value = serde_json::to_value(&block).unwrap();
        assert_eq!(back["resource"]["text"], json!(5), "{back}");
        assert_eq!(back["resource"]["uri"], json!("file:///a"), "{back}");
        assert_eq!(back["resource"]["blob"], json!("AAAA"), "{back}");
    }
    // The response's id keeps its spelling; the result is kept member for member.
    let message = r#"{"jsonrpc":"2.0","id":1e3,"result":{"resultType":"complete","_meta":{"progressToken":7}}}"#;
    for decoded in every_input::<v::JSONRPCMessage>(message).iter().take(3) {
        let back = serde_json::to_string(decoded).unwrap();
        assert!(back.contains(r#""id":1e3"#), "{back}");
        let back: Value = serde_json::from_str(&back).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(message).unwrap());
    }
}
