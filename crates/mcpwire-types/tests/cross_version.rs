//! Behaviour users rely on across versions: one message decodes the same in every version
//! that defines it, method enums route by method name, unknown methods keep their params,
//! decode errors name the variant and the member, and `ErrorCode` knows each version's codes.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::support::MethodKind;
use serde_json::{Value, json};

/// Decodes `value` as `T`, re-encodes it, and returns both the typed value and the JSON.
fn decode<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> (T, Value) {
    let typed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("{value} does not decode: {e}"));
    let back = serde_json::to_value(&typed).unwrap();
    (typed, back)
}

/// Versions whose method unions hold bare `{method, params}` calls (from 2025-11-25 on they
/// hold whole JSON-RPC requests with `jsonrpc` and `id`).
macro_rules! for_bare_call_versions {
    ($body:ident) => {{
        $body!(v2024_11_05);
        $body!(v2025_03_26);
        $body!(v2025_06_18);
    }};
}

macro_rules! for_versions_before_2026 {
    ($body:ident) => {{
        for_bare_call_versions!($body);
        $body!(v2025_11_25);
    }};
}

#[test]
fn a_jsonrpc_request_decodes_the_same_in_every_version() {
    let message =
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"cursor": "c1"}});
    macro_rules! check {
        ($v:ident) => {{
            let (typed, back) = decode::<$v::JSONRPCMessage>(&message);
            assert!(
                matches!(typed, $v::JSONRPCMessage::JSONRPCRequest(_)),
                "{}: {typed:?}",
                stringify!($v)
            );
            assert_eq!(back, message, "{}", stringify!($v));
        }};
    }
    for_versions_before_2026!(check);
    check!(v2026_07_28);
}

#[test]
fn a_notification_and_responses_decode_as_their_variants_in_every_version() {
    let notification =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let plain_result = json!({"jsonrpc": "2.0", "id": "a", "result": {}});
    let result_2026 = json!({"jsonrpc": "2.0", "id": "a", "result": {"resultType": "complete"}});
    let mut result = &plain_result;
    macro_rules! check {
        ($v:ident) => {{
            let (typed, back) = decode::<$v::JSONRPCMessage>(&notification);
            assert!(
                matches!(typed, $v::JSONRPCMessage::JSONRPCNotification(_)),
                "{}: {typed:?}",
                stringify!($v)
            );
            assert_eq!(back, notification);
            let (_, back) = decode::<$v::JSONRPCMessage>(result);
            assert_eq!(&back, result, "{}", stringify!($v));
        }};
    }
    for_versions_before_2026!(check);
    result = &result_2026;
    check!(v2026_07_28);
}

#[test]
fn ping_and_tools_list_route_to_their_own_variants() {
    let bare = (
        json!({"method": "ping"}),
        json!({"method": "tools/list", "params": {"cursor": "next"}}),
    );
    let full = (
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "next"}}),
    );
    let (mut ping, mut list) = (&bare.0, &bare.1);
    macro_rules! check {
        ($v:ident) => {{
            let (typed, back) = decode::<$v::ClientRequest>(ping);
            assert!(
                matches!(typed, $v::ClientRequest::PingRequest(_)),
                "{}: {typed:?}",
                stringify!($v)
            );
            assert_eq!(&back, ping);
            let (typed, back) = decode::<$v::ClientRequest>(list);
            assert!(
                matches!(typed, $v::ClientRequest::ListToolsRequest(_)),
                "{}: tools/list became {typed:?}",
                stringify!($v)
            );
            assert_eq!(&back, list);
        }};
    }
    for_bare_call_versions!(check);
    (ping, list) = (&full.0, &full.1);
    check!(v2025_11_25);
}

#[test]
fn tools_list_routes_to_list_tools_in_2026() {
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let typed: v2026_07_28::ClientRequest = serde_json::from_value(list).unwrap();
    assert!(
        matches!(typed, v2026_07_28::ClientRequest::ListToolsRequest(_)),
        "{typed:?}"
    );
}

#[test]
fn an_initialize_request_decodes_the_same_where_defined() {
    let bare = json!({"method": "initialize", "params": {
        "protocolVersion": "2024-11-05",
        "capabilities": {"roots": {"listChanged": true}},
        "clientInfo": {"name": "probe", "version": "1.0"}}});
    let mut full = bare.clone();
    full["jsonrpc"] = json!("2.0");
    full["id"] = json!(0);
    let mut init = &bare;
    macro_rules! check {
        ($v:ident) => {{
            let (typed, back) = decode::<$v::ClientRequest>(init);
            assert!(
                matches!(typed, $v::ClientRequest::InitializeRequest(_)),
                "{}: {typed:?}",
                stringify!($v)
            );
            assert_eq!(&back, init, "{}", stringify!($v));
        }};
    }
    for_bare_call_versions!(check);
    init = &full;
    check!(v2025_11_25);
}

#[test]
fn a_tools_list_result_decodes_the_same_where_defined() {
    let result = json!({"tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]});
    macro_rules! check {
        ($v:ident) => {{
            let (typed, back) = decode::<$v::ServerResult>(&result);
            assert!(
                matches!(typed, $v::ServerResult::ListToolsResult(_)),
                "{}: {typed:?}",
                stringify!($v)
            );
            assert_eq!(back, result, "{}", stringify!($v));
        }};
    }
    for_versions_before_2026!(check);
    let empty = json!({});
    let (typed, _) = decode::<v2025_06_18::ServerResult>(&empty);
    assert!(
        matches!(typed, v2025_06_18::ServerResult::Result(_)),
        "the empty result is the fallback: {typed:?}"
    );
}

#[test]
fn unknown_methods_keep_their_params() {
    let call = json!({"method": "vendor/custom", "params": {"deep": [1, {"x": null}]}, "id": 3});
    let (typed, back) = decode::<v2025_06_18::ClientRequest>(&call);
    match typed {
        v2025_06_18::ClientRequest::Unknown(u) => {
            assert_eq!(u.method, "vendor/custom");
            assert_eq!(
                u.params.as_ref().unwrap(),
                &json!({"deep": [1, {"x": null}]})
            );
        }
        other => panic!("expected Unknown, got {other:?}"),
    }
    assert_eq!(back, call);
}

#[test]
fn method_kind_classifies_requests_notifications_and_unknown() {
    assert_eq!(v2024_11_05::method_kind("tools/list"), MethodKind::Request);
    assert_eq!(v2024_11_05::method_kind("ping"), MethodKind::Request);
    assert_eq!(
        v2024_11_05::method_kind("sampling/createMessage"),
        MethodKind::Request
    );
    assert_eq!(
        v2024_11_05::method_kind("notifications/initialized"),
        MethodKind::Notification
    );
    assert_eq!(
        v2024_11_05::method_kind("elicitation/create"),
        MethodKind::Unknown
    );
    assert_eq!(
        v2025_06_18::method_kind("elicitation/create"),
        MethodKind::Request
    );
    assert_eq!(v2025_11_25::method_kind("tasks/get"), MethodKind::Request);
    assert_eq!(v2026_07_28::method_kind("tools/call"), MethodKind::Request);
    assert_eq!(
        v2026_07_28::method_kind("rpc.discover"),
        MethodKind::Unknown
    );
    assert!(v2025_03_26::REQUEST_METHODS.contains(&"completion/complete"));
    assert!(v2025_03_26::NOTIFICATION_METHODS.contains(&"notifications/progress"));
}

#[test]
fn decode_errors_name_the_variant_and_the_member() {
    let bad = json!({"method": "tools/call", "params": {"name": 5}});
    let err = serde_json::from_value::<v2025_06_18::ClientRequest>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`CallToolRequest`"), "{err}");
    assert!(err.contains("at `/params/name`"), "{err}");
    assert_eq!(mcpwire_types::support::error_pointer(&err), "/params/name");
    assert!(err.contains("`method` is \"tools/call\""), "{err}");

    let missing = json!({"type": "image", "data": "AA=="});
    let err = serde_json::from_value::<v2025_06_18::ContentBlock>(missing)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`ImageContent`") && err.contains("mimeType"),
        "{err}"
    );
    assert_eq!(mcpwire_types::support::error_pointer(&err), "/mimeType");

    let wrong_const =
        serde_json::from_value::<v2025_06_18::PingRequest>(json!({"method": "tools/list"}));
    assert!(wrong_const.unwrap_err().to_string().contains("\"ping\""));
}

#[test]
fn error_codes_include_each_versions_constants() {
    assert_eq!(
        v2026_07_28::ErrorCode::from_code(-32020),
        v2026_07_28::ErrorCode::HeaderMismatch
    );
    assert_eq!(
        v2026_07_28::ErrorCode::from_code(-32021),
        v2026_07_28::ErrorCode::MissingRequiredClientCapability
    );
    assert_eq!(
        v2026_07_28::ErrorCode::from_code(-32022),
        v2026_07_28::ErrorCode::UnsupportedProtocolVersion
    );
    assert_eq!(
        v2025_11_25::ErrorCode::from_code(-32042),
        v2025_11_25::ErrorCode::URLElicitationRequired
    );
    assert_eq!(
        v2024_11_05::ErrorCode::from_code(-32042),
        v2024_11_05::ErrorCode::Other(-32042)
    );
    assert_eq!(
        v2024_11_05::ErrorCode::from_code(-32601),
        v2024_11_05::ErrorCode::MethodNotFound
    );
    assert_eq!(
        serde_json::to_value(v2026_07_28::ErrorCode::HeaderMismatch).unwrap(),
        json!(-32020)
    );
    let code: v2026_07_28::ErrorCode = serde_json::from_value(json!(-32603)).unwrap();
    assert_eq!(code, v2026_07_28::ErrorCode::InternalError);
}

#[test]
fn jsonrpc_base_types_discriminate_batches_and_responses() {
    use mcpwire_types::jsonrpc::{Message, RequestId};
    let batch =
        json!([{"jsonrpc": "2.0", "method": "a", "id": 1}, {"jsonrpc": "2.0", "method": "b"}]);
    let (typed, back) = decode::<Message>(&batch);
    assert!(matches!(typed, Message::BatchRequest(_)), "{typed:?}");
    assert_eq!(back, batch);
    let replies = json!([{"jsonrpc": "2.0", "result": 1, "id": 1}, {"jsonrpc": "2.0", "error": {"code": -32601, "message": "m"}, "id": null}]);
    let (typed, back) = decode::<Message>(&replies);
    assert!(matches!(typed, Message::BatchResponse(_)), "{typed:?}");
    assert_eq!(back, replies);
    let id: RequestId = serde_json::from_str("9007199254740993").unwrap();
    assert_eq!(
        serde_json::to_string(&id).unwrap(),
        "9007199254740993",
        "number ids keep their value"
    );
    assert!(serde_json::from_str::<RequestId>("true").is_err());
}

#[test]
fn unions_name_the_variant_they_hold() {
    let typed: v2025_06_18::ClientRequest =
        serde_json::from_value(json!({"method": "tools/list"})).unwrap();
    assert_eq!(typed.variant_name(), "ListToolsRequest");
    let typed: v2025_06_18::ClientRequest = serde_json::from_value(json!({"method": "x"})).unwrap();
    assert_eq!(typed.variant_name(), "Unknown");
}

/// A definition the same in several versions is one Rust type under each version's path:
/// a value built through one version's path is the other's (this compiles only when the
/// generator shares them), and decodes and encodes the same through either.
#[test]
fn a_definition_alike_in_several_versions_is_one_type() {
    let older: v2025_06_18::Annotations = v2025_11_25::Annotations::new().with_priority(1);
    let newer: v2026_07_28::Annotations = older.clone();
    assert_eq!(
        std::any::TypeId::of::<v2025_06_18::Annotations>(),
        std::any::TypeId::of::<v2026_07_28::Annotations>()
    );
    assert_eq!(
        serde_json::to_value(&newer).unwrap(),
        json!({"priority": 1})
    );
    // A definition that changed keeps a type per version.
    assert_ne!(
        std::any::TypeId::of::<v2025_11_25::Tool>(),
        std::any::TypeId::of::<v2026_07_28::Tool>()
    );
}
