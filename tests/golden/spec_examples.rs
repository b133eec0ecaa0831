//! The fifteen examples of JSON-RPC 2.0 specification section 7, under the `jsonrpc-2.0`
//! profile. Each test asserts our exact reply bytes (members in mcpwire's order:
//! `jsonrpc`, `id`, `result`/`error`) and that they are the same JSON value as the reply the
//! specification shows (which lists `id` last and uses `"id": null` where no id is known).

use mcpwire_tests::golden::{TestState, assert_same_json, reply, server_for};

fn check(frame: &str, exact: Option<&str>, spec: Option<&str>) -> mcpwire::Server<TestState> {
    let mut server = server_for("jsonrpc-2.0");
    let got = reply(&mut server, frame);
    assert_eq!(got.as_deref(), exact, "frame: {frame}");
    if let (Some(got), Some(spec)) = (&got, spec) {
        assert_same_json(got, spec);
    }
    server
}

#[test]
fn example_01_positional_parameters() {
    check(
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        Some(r#"{"jsonrpc":"2.0","id":1,"result":19}"#),
        Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#),
    );
}

#[test]
fn example_02_positional_parameters_reversed() {
    check(
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
        Some(r#"{"jsonrpc":"2.0","id":2,"result":-19}"#),
        Some(r#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#),
    );
}

#[test]
fn example_03_named_parameters() {
    check(
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
        Some(r#"{"jsonrpc":"2.0","id":3,"result":19}"#),
        Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 3}"#),
    );
}

#[test]
fn example_04_named_parameters_reordered() {
    check(
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
        Some(r#"{"jsonrpc":"2.0","id":4,"result":19}"#),
        Some(r#"{"jsonrpc": "2.0", "result": 19, "id": 4}"#),
    );
}

#[test]
fn example_05_notification_with_params() {
    let server = check(
        r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#,
        None,
        None,
    );
    assert_eq!(
        server.state().notifications(),
        vec![("update".to_owned(), "[1,2,3,4,5]".to_owned())]
    );
}

#[test]
fn example_06_notification_without_params() {
    // `foobar` has no handler: a notification is still never answered.
    let server = check(r#"{"jsonrpc": "2.0", "method": "foobar"}"#, None, None);
    assert!(server.state().notifications().is_empty());
}

#[test]
fn example_07_non_existent_method() {
    check(
        r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
        Some(r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found"}}"#),
        Some(
            r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
        ),
    );
}

#[test]
fn example_08_invalid_json() {
    check(
        r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#),
        Some(
            r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        ),
    );
}

#[test]
fn example_09_invalid_request_object() {
    check(
        r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#),
        Some(
            r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#,
        ),
    );
}

#[test]
fn example_10_batch_invalid_json() {
    check(
        "[\n  {\"jsonrpc\": \"2.0\", \"method\": \"sum\", \"params\": [1,2,4], \"id\": \"1\"},\n  {\"jsonrpc\": \"2.0\", \"method\"\n]",
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#),
        Some(
            r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        ),
    );
}

#[test]
fn example_11_empty_array() {
    check(
        "[]",
        Some(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#),
        Some(
            r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#,
        ),
    );
}

#[test]
fn example_12_invalid_batch_not_empty() {
    check(
        "[1]",
        Some(
            r#"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}]"#,
        ),
        Some(
            r#"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#,
        ),
    );
}

#[test]
fn example_13_invalid_batch() {
    let one = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
    let spec_one = r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#;
    check(
        "[1,2,3]",
        Some(&format!("[{one},{one},{one}]")),
        Some(&format!("[{spec_one},{spec_one},{spec_one}]")),
    );
}

#[test]
fn example_14_batch() {
    let frame = r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]"#;
    let exact = concat!(
        r#"[{"jsonrpc":"2.0","id":"1","result":7},"#,
        r#"{"jsonrpc":"2.0","id":"2","result":19},"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},"#,
        r#"{"jsonrpc":"2.0","id":"5","error":{"code":-32601,"message":"Method not found"}},"#,
        r#"{"jsonrpc":"2.0","id":"9","result":["hello",5]}]"#,
    );
    let spec = r#"[
        {"jsonrpc": "2.0", "result": 7, "id": "1"},
        {"jsonrpc": "2.0", "result": 19, "id": "2"},
        {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
        {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
        {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
    ]"#;
    let server = check(frame, Some(exact), Some(spec));
    assert_eq!(
        server.state().notifications(),
        vec![("notify_hello".to_owned(), "[7]".to_owned())]
    );
}

#[test]
fn example_15_batch_of_notifications_only() {
    let frame = r#"[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]"#;
    let server = check(frame, None, None);
    let notifications = server.state().notifications();
    let methods: Vec<_> = notifications.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(methods, ["notify_sum", "notify_hello"]);
}
