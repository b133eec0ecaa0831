//! The inputs of the two upstream SDK fixes mcpwire generalises (invalid requests answered
//! with the id they carry instead of being dropped or answered without it), plus the deep
//! nesting and id cases those fixes missed. Exact reply bytes.

use mcpwire_tests::golden::{error_line, nested_arrays, reply_under, request, server_for};

const MCP: &str = "mcp-2025-06-18"; // error responses require an id → "id":null
const MCP_OMIT: &str = "mcp-2025-11-25"; // id optional in error responses → omitted

fn invalid_with_id(id: &str) -> String {
    error_line(Some(id), -32600, "Invalid Request", true)
}

#[test]
fn jsonrpc_1_0_is_answered_with_its_id() {
    for profile in ["jsonrpc-2.0", MCP, MCP_OMIT] {
        let got = reply_under(
            profile,
            r#"{"jsonrpc":"1.0","id":3,"method":"echo","params":{}}"#,
        );
        assert_eq!(got.unwrap(), invalid_with_id("3"), "{profile}");
    }
}

#[test]
fn missing_jsonrpc_is_answered_with_its_id() {
    for profile in ["jsonrpc-2.0", MCP, MCP_OMIT] {
        let got = reply_under(profile, r#"{"id":4,"method":"echo","params":{}}"#);
        assert_eq!(got.unwrap(), invalid_with_id("4"), "{profile}");
    }
}

#[test]
fn numeric_method_is_answered_with_its_id() {
    for profile in ["jsonrpc-2.0", MCP, MCP_OMIT] {
        let got = reply_under(
            profile,
            r#"{"jsonrpc":"2.0","id":8,"method":123,"params":{}}"#,
        );
        assert_eq!(got.unwrap(), invalid_with_id("8"), "{profile}");
    }
}

#[test]
fn rpc_prefixed_method_is_reserved() {
    let got = reply_under(
        "jsonrpc-2.0",
        r#"{"jsonrpc":"2.0","id":"r","method":"rpc.discover"}"#,
    );
    assert_eq!(got.unwrap(), invalid_with_id(r#""r""#));
    // Without an id it is still answered: an invalid call is not a notification.
    let got = reply_under(MCP_OMIT, r#"{"jsonrpc":"2.0","method":"rpc.x"}"#);
    assert_eq!(
        got.unwrap(),
        error_line(None, -32600, "Invalid Request", false)
    );
    // `rpc` without the dot is an ordinary (unknown) method.
    let got = reply_under("jsonrpc-2.0", r#"{"jsonrpc":"2.0","id":1,"method":"rpcx"}"#);
    assert_eq!(
        got.unwrap(),
        error_line(Some("1"), -32601, "Method not found", true)
    );
}

#[test]
fn invalid_entry_inside_a_batch_keeps_its_id_and_the_others_run() {
    let frame = r#"[{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2]},{"jsonrpc":"1.0","id":2,"method":"sum"},{"id":3,"method":"sum"},7]"#;
    let got = reply_under("jsonrpc-2.0", frame).unwrap();
    let want = format!(
        r#"[{{"jsonrpc":"2.0","id":1,"result":3}},{},{},{}]"#,
        invalid_with_id("2"),
        invalid_with_id("3"),
        error_line(None, -32600, "Invalid Request", true)
    );
    assert_eq!(got, want);
}

#[test]
fn json_nested_600_deep() {
    // As params of a request: valid JSON, id recovered, refused by the typed decode.
    let frame = request("600", "echo", Some(&nested_arrays(600, "")));
    for profile in ["jsonrpc-2.0", MCP_OMIT] {
        let got = reply_under(profile, &frame);
        // MCP params must be objects; arrays are -32600 there (with the id).
        let want = if profile == "jsonrpc-2.0" {
            r#"{"jsonrpc":"2.0","id":600,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 600 deep exceed the limit of 256"}}}"#.to_owned()
        } else {
            invalid_with_id("600")
        };
        assert_eq!(got.unwrap(), want, "{profile}");
    }
    let object_params = request(
        "601",
        "echo",
        Some(&format!("{}1{}", r#"{"a":"#.repeat(600), "}".repeat(600))),
    );
    assert_eq!(
        reply_under(MCP_OMIT, &object_params).unwrap(),
        r#"{"jsonrpc":"2.0","id":601,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 600 deep exceed the limit of 256"}}}"#
    );
    // As the whole frame: an array of arrays is a batch whose element is not an object.
    let bare = nested_arrays(600, "");
    assert_eq!(
        reply_under("jsonrpc-2.0", &bare).unwrap(),
        format!("[{}]", error_line(None, -32600, "Invalid Request", true))
    );
    assert_eq!(
        reply_under(MCP_OMIT, &bare).unwrap(),
        error_line(None, -32600, "Invalid Request", false)
    );
    // Truncated deep nesting is a parse error, not a crash.
    assert_eq!(
        reply_under(MCP, &bare[..bare.len() - 1]).unwrap(),
        error_line(None, -32700, "Parse error", true)
    );
}

#[test]
fn params_nested_100000_deep_keep_the_id() {
    let deep = format!("{}{}", r#"{"k":["#.repeat(50_000), "]}".repeat(50_000));
    // Id after the deep params.
    let frame = format!(r#"{{"jsonrpc":"2.0","method":"echo","params":{deep},"id":"after"}}"#);
    let got = reply_under(MCP_OMIT, &frame).unwrap();
    assert_eq!(
        got,
        r#"{"jsonrpc":"2.0","id":"after","error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 100000 deep exceed the limit of 256"}}}"#
    );
    // Deep params in an otherwise invalid call: -32600 with the id.
    let frame = format!(r#"{{"jsonrpc":"2.0","id":99,"method":7,"params":{deep}}}"#);
    assert_eq!(
        reply_under(MCP_OMIT, &frame).unwrap(),
        invalid_with_id("99")
    );
    // As a notification: no reply at all.
    let frame = format!(r#"{{"jsonrpc":"2.0","method":"log","params":{deep}}}"#);
    assert_eq!(reply_under(MCP_OMIT, &frame), None);
}

#[test]
fn id_zero_is_preserved() {
    for profile in ["jsonrpc-2.0", MCP, MCP_OMIT] {
        let mut server = server_for(profile);
        let got =
            mcpwire_tests::golden::reply(&mut server, &request("0", "echo", Some(r#"{"x":0}"#)));
        assert_eq!(
            got.unwrap(),
            r#"{"jsonrpc":"2.0","id":0,"result":{"x":0}}"#,
            "{profile}"
        );
        let got = mcpwire_tests::golden::reply(&mut server, &request("0", "nope", None));
        assert_eq!(
            got.unwrap(),
            error_line(Some("0"), -32601, "Method not found", true),
            "{profile}"
        );
    }
}

#[test]
fn forbidden_ids_are_answered_without_an_id_never_as_notifications() {
    for (id, profiles) in [
        ("true", &["jsonrpc-2.0", MCP, MCP_OMIT][..]),
        ("[1]", &["jsonrpc-2.0", MCP, MCP_OMIT][..]),
        ("{\"a\":1}", &["jsonrpc-2.0", MCP, MCP_OMIT][..]),
        ("null", &[MCP, MCP_OMIT][..]),
    ] {
        for &profile in profiles {
            let mut server = server_for(profile);
            let got = mcpwire_tests::golden::reply(&mut server, &request(id, "log", Some("{}")));
            let null_for_missing = profile != MCP_OMIT;
            assert_eq!(
                got.unwrap(),
                error_line(None, -32600, "Invalid Request", null_for_missing),
                "id {id} under {profile}"
            );
            assert!(
                server.state().notifications().is_empty(),
                "id {id} under {profile} ran as a notification"
            );
        }
    }
    // Under plain JSON-RPC 2.0, null is an allowed id and echoed.
    let got = reply_under("jsonrpc-2.0", &request("null", "echo", Some("[1]")));
    assert_eq!(got.unwrap(), r#"{"jsonrpc":"2.0","id":null,"result":[1]}"#);
}
