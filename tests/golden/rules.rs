//! Golden tests for wire rules 2–11 of docs/wire-rules.md (rule 1, framing, is in
//! `golden/serve.rs`): exact reply bytes from `Server::handle_frame`.

use mcpwire::{MissingId, Profile, ProtocolEvent, ResponseDefect};
use mcpwire_tests::golden::{
    error_line, nested_arrays, reply, reply_bytes, reply_under, request, server, server_for,
};

const PARSE_NULL: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
const PARSE_OMIT: &str = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
const INVALID_NULL: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
const INVALID_OMIT: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#;

#[test]
fn rule_02_parse_errors_are_32700_without_id() {
    let bad: Vec<&[u8]> = vec![
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"} x", // trailing non-whitespace
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}{}", // two values
        b"{\"jsonrpc\":\"2.0\",\"id\":NaN,\"method\":\"echo\"}", // NaN
        b"{\"jsonrpc\":\"2.0\",\"id\":Infinity,\"method\":\"e\"}", // Infinity
        b"{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"echo\"}",  // leading zero
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",}",  // trailing comma
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\tb\"}",   // raw control character
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\\x\"}",    // bad escape
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",   // invalid UTF-8
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"",    // truncated
        b"{'jsonrpc':'2.0'}",                                    // single quotes
        b"",                                                     // nothing
        b"   ",                                                  // whitespace only
        b"\xEF\xBB\xBF",                                         // a BOM only
    ];
    for frame in bad {
        let shown = String::from_utf8_lossy(frame);
        assert_eq!(
            reply_bytes(&mut server_for("jsonrpc-2.0"), frame).unwrap(),
            PARSE_NULL,
            "{shown}"
        );
        assert_eq!(
            reply_bytes(&mut server_for("mcp-2025-06-18"), frame).unwrap(),
            PARSE_NULL,
            "{shown}"
        );
        assert_eq!(
            reply_bytes(&mut server_for("mcp-2025-11-25"), frame).unwrap(),
            PARSE_OMIT,
            "{shown}"
        );
    }
    // Valid JSON is never a parse error, however odd.
    let got = reply_under(
        "jsonrpc-2.0",
        " \t{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[1e-7,\"\\u00e9\"]}\r\n ",
    );
    assert_eq!(
        got.unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":[1e-7,"é"]}"#
    );
    // A leading byte order mark is ignored.
    let got = reply_bytes(
        &mut server_for("jsonrpc-2.0"),
        b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}",
    );
    assert_eq!(got.unwrap(), r#"{"jsonrpc":"2.0","id":1,"result":null}"#);
}

#[test]
fn rule_03_top_level_must_be_an_object_or_allowed_batch() {
    for frame in ["1", "\"s\"", "null", "true", "-0.5"] {
        assert_eq!(
            reply_under("jsonrpc-2.0", frame).unwrap(),
            INVALID_NULL,
            "{frame}"
        );
        assert_eq!(
            reply_under("mcp-2025-11-25", frame).unwrap(),
            INVALID_OMIT,
            "{frame}"
        );
    }
    let batch = format!("[{}]", request("1", "echo", Some("{}")));
    let answered = r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#;
    assert_eq!(reply_under("jsonrpc-2.0", &batch).unwrap(), answered);
    assert_eq!(reply_under("mcp-2025-03-26", &batch).unwrap(), answered);
    assert_eq!(reply_under("mcp-2024-11-05", &batch).unwrap(), INVALID_NULL);
    assert_eq!(reply_under("mcp-2025-06-18", &batch).unwrap(), INVALID_NULL);
    assert_eq!(reply_under("mcp-2025-11-25", &batch).unwrap(), INVALID_OMIT);
    // A batch the profile does not allow is still checked for JSON validity first.
    assert_eq!(reply_under("mcp-2025-11-25", "[1,]").unwrap(), PARSE_OMIT);
}

#[test]
fn rule_04_id_recovery_uses_the_single_id_member() {
    // Recovered: answered with the id, whatever else is wrong.
    assert_eq!(
        reply_under(
            "mcp-2025-11-25",
            r#"{"jsonrpc":"2.0","id":"x","method":"echo","params":[1]}"#
        )
        .unwrap(),
        error_line(Some(r#""x""#), -32600, "Invalid Request", false)
    );
    // Missing: a valid call without id is a notification (no reply)...
    assert_eq!(
        reply_under("mcp-2025-11-25", r#"{"jsonrpc":"2.0","method":"echo"}"#),
        None
    );
    // ...and an invalid one is answered without an id.
    assert_eq!(
        reply_under(
            "mcp-2025-11-25",
            r#"{"jsonrpc":"2.0","method":"echo","params":1}"#
        )
        .unwrap(),
        INVALID_OMIT
    );
    // Duplicated or forbidden: unrecoverable.
    assert_eq!(
        reply_under(
            "mcp-2025-11-25",
            r#"{"jsonrpc":"2.0","id":1,"id":1,"method":"echo"}"#
        )
        .unwrap(),
        INVALID_OMIT
    );
    assert_eq!(
        reply_under(
            "mcp-2025-11-25",
            r#"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#
        )
        .unwrap(),
        INVALID_OMIT
    );
    // An "id" inside params is not the id.
    assert_eq!(
        reply_under(
            "jsonrpc-2.0",
            r#"{"jsonrpc":"2.0","method":"x","params":{"id":5},"id":6}"#
        )
        .unwrap(),
        error_line(Some("6"), -32601, "Method not found", true)
    );
}

#[test]
fn rule_05_classification_by_method_result_error() {
    let mut server = server_for("jsonrpc-2.0");
    // method + id → request
    assert_eq!(
        reply(&mut server, &request("1", "echo", Some("[2]"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":[2]}"#
    );
    // method without id → notification
    assert_eq!(
        reply(
            &mut server,
            r#"{"jsonrpc":"2.0","method":"log","params":["n"]}"#
        ),
        None
    );
    assert_eq!(
        server.state().notifications(),
        vec![("log".to_owned(), r#"["n"]"#.to_owned())]
    );
    // result/error without method → response (never answered)
    assert_eq!(
        reply(&mut server, r#"{"jsonrpc":"2.0","id":1,"result":5}"#),
        None
    );
    // none of them → invalid, with the id when readable
    assert_eq!(
        reply(&mut server, r#"{"jsonrpc":"2.0","id":7}"#).unwrap(),
        error_line(Some("7"), -32600, "Invalid Request", true)
    );
    assert_eq!(
        reply(&mut server, r#"{"jsonrpc":"2.0"}"#).unwrap(),
        INVALID_NULL
    );
    assert_eq!(reply(&mut server, "{}").unwrap(), INVALID_NULL);
}

#[test]
fn rule_06_call_validity() {
    let with_id = |id| error_line(Some(id), -32600, "Invalid Request", true);
    for (frame, want) in [
        (r#"{"jsonrpc":"2.0 ","id":1,"method":"echo"}"#, with_id("1")),
        (r#"{"jsonrpc":2.0,"id":1,"method":"echo"}"#, with_id("1")),
        (
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"echo"}"#,
            with_id("1"),
        ),
        (r#"{"jsonrpc":null,"id":1,"method":"echo"}"#, with_id("1")),
        (r#"{"jsonrpc":"2.0","id":1,"method":null}"#, with_id("1")),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":["echo"]}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","method":"echo"}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"\u0072pc.echo"}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":null}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":"a"}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":3}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{},"params":{}}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","result":1}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"echo","error":{"code":1,"message":"m"}}"#,
            with_id("1"),
        ),
        (
            r#"{"jsonrpc":"2.0","method":"echo","params":3}"#,
            INVALID_NULL.to_owned(),
        ),
        (
            r#"{"jsonrpc":"1.0","method":"log"}"#,
            INVALID_NULL.to_owned(),
        ),
    ] {
        let mut server = server_for("jsonrpc-2.0");
        assert_eq!(reply(&mut server, frame).unwrap(), want, "{frame}");
        assert!(
            server.state().notifications().is_empty() && server.state().requests() == 0,
            "{frame} ran a handler"
        );
    }
    // Escaped "2.0" and escaped method names are fine; unknown members are ignored.
    assert_eq!(
        reply_under(
            "jsonrpc-2.0",
            r#"{"jsonrpc":"\u0032.0","id":1,"method":"\u0065cho","params":[],"extra":{"x":[1]}}"#
        )
        .unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"result":[]}"#
    );
    // MCP admits object params only.
    assert_eq!(
        reply_under("mcp-2025-11-25", &request("2", "echo", Some("[1]"))).unwrap(),
        error_line(Some("2"), -32600, "Invalid Request", false)
    );
    assert_eq!(
        reply_under("mcp-2025-11-25", &request("2", "echo", Some("{}"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"result":{}}"#
    );
}

#[test]
fn rule_07_request_dispatch_outcomes_carry_the_id() {
    let mut server = server_for("jsonrpc-2.0");
    assert_eq!(
        reply(&mut server, &request("\"u\"", "unknown/method", None)).unwrap(),
        r#"{"jsonrpc":"2.0","id":"u","error":{"code":-32601,"message":"Method not found"}}"#
    );
    assert_eq!(
        reply(
            &mut server,
            &request("2", "count", Some(r#"{"count":"three"}"#))
        )
        .unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/count","reason":"invalid type: string \"three\", expected u32"}}}"#
    );
    assert_eq!(
        reply(&mut server, &request("3", "count", Some(r#"{}"#))).unwrap(),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/count","reason":"missing field `count`"}}}"#
    );
    assert_eq!(
        reply(&mut server, &request("4", "subtract", Some("[1]"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"data did not match any variant of untagged enum SubtractParams"}}}"#
    );
    assert_eq!(
        reply(&mut server, &request("5", "fail", Some("{}"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"boom","data":{"why":"asked to"}}}"#
    );
    assert_eq!(
        reply(&mut server, &request("6", "panic", Some("{}"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32603,"message":"Internal error"}}"#
    );
    // The server survives the panic.
    assert_eq!(
        reply(&mut server, &request("7", "sum", Some("[1,2]"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":7,"result":3}"#
    );
    // Notifications never get a reply: unknown method, bad params, panicking handler.
    for frame in [
        r#"{"jsonrpc":"2.0","method":"unknown/method"}"#,
        r#"{"jsonrpc":"2.0","method":"count","params":{"count":"three"}}"#,
        r#"{"jsonrpc":"2.0","method":"panic","params":{}}"#,
    ] {
        assert_eq!(reply(&mut server, frame), None, "{frame}");
    }
    assert_eq!(
        reply(&mut server, &request("8", "sum", Some("[3]"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":8,"result":3}"#
    );
}

#[test]
fn rule_08_responses_are_never_answered() {
    let mut server = server_for("jsonrpc-2.0");
    let responses = [
        r#"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#,
        r#"{"jsonrpc":"2.0","id":"e","error":{"code":-32000,"message":"no","data":[1]}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":1,"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"1.0","id":3,"result":1}"#,
        r#"{"jsonrpc":"2.0","id":4,"error":"a string"}"#,
        r#"{"jsonrpc":"2.0","id":true,"result":1}"#,
        r#"{"jsonrpc":"2.0","result":1}"#,
    ];
    for frame in responses {
        assert_eq!(reply(&mut server, frame), None, "{frame}");
    }
    let events = &server.state().events();
    assert_eq!(events.len(), responses.len());
    assert!(
        matches!(&events[0], ProtocolEvent::Result { id, result } if id.raw() == "1" && result == r#"{"ok":true}"#)
    );
    assert!(
        matches!(&events[1], ProtocolEvent::Error { id: Some(id), error } if id.raw() == "\"e\"" && error.code() == -32000 && error.data().unwrap().get() == "[1]")
    );
    assert!(matches!(&events[2], ProtocolEvent::Error { error, .. } if error.code() == -32700));
    let defects: Vec<_> = events[3..]
        .iter()
        .map(|e| match e {
            ProtocolEvent::MalformedResponse { defect, .. } => *defect,
            other => panic!("not malformed: {other:?}"),
        })
        .collect();
    assert_eq!(
        defects,
        [
            ResponseDefect::ResultAndError,
            ResponseDefect::Jsonrpc,
            ResponseDefect::ErrorObject,
            ResponseDefect::Id,
            ResponseDefect::Id
        ]
    );
    // Without method, result or error, an id makes it an invalid request answered with the id.
    assert_eq!(
        reply(&mut server, r#"{"jsonrpc":"2.0","id":5,"params":{}}"#).unwrap(),
        error_line(Some("5"), -32600, "Invalid Request", true)
    );
}

#[test]
fn rule_09_batches() {
    let mut server = server_for("jsonrpc-2.0");
    assert_eq!(reply(&mut server, "[]").unwrap(), INVALID_NULL);
    assert_eq!(reply(&mut server, " [ \n ] ").unwrap(), INVALID_NULL);
    // Mixed: request, notification, response, non-object, nested array, invalid call.
    let frame = format!(
        "[{},{},{},42,[{}],{}]",
        request("1", "sum", Some("[1,1]")),
        r#"{"jsonrpc":"2.0","method":"log","params":["x"]}"#,
        r#"{"jsonrpc":"2.0","id":9,"result":0}"#,
        request("2", "sum", Some("[2]")),
        r#"{"jsonrpc":"2.0","id":3,"method":5}"#,
    );
    assert_eq!(
        reply(&mut server, &frame).unwrap(),
        format!(
            r#"[{{"jsonrpc":"2.0","id":1,"result":2}},{INVALID_NULL},{INVALID_NULL},{}]"#,
            error_line(Some("3"), -32600, "Invalid Request", true)
        )
    );
    // Only notifications and responses: nothing at all.
    let quiet = r#"[{"jsonrpc":"2.0","method":"log"},{"jsonrpc":"2.0","id":1,"result":1}]"#;
    assert_eq!(reply(&mut server, quiet), None);
    // Any invalid JSON anywhere: one parse error, nothing runs.
    let before = server.state().requests();
    let broken = format!("[{},{{]", request("1", "sum", Some("[1]")));
    assert_eq!(reply(&mut server, &broken).unwrap(), PARSE_NULL);
    assert_eq!(server.state().requests(), before);
    // The batch-size limit: one -32600 for the whole frame.
    let mut limited = server_for("jsonrpc-2.0");
    limited.set_profile(Profile::jsonrpc_2_0().with_max_batch_len(Some(2)));
    let three = format!("[{0},{0},{0}]", request("1", "sum", Some("[1]")));
    assert_eq!(reply(&mut limited, &three).unwrap(), INVALID_NULL);
    assert_eq!(limited.state().requests(), 0);
    let two = format!("[{0},{0}]", request("1", "sum", Some("[1]")));
    assert_eq!(
        reply(&mut limited, &two).unwrap(),
        r#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":1,"result":1}]"#
    );
    // MCP 2025-03-26 has batches and requires an id in error responses: `null` inside.
    assert_eq!(
        reply_under("mcp-2025-03-26", "[true]").unwrap(),
        format!("[{INVALID_NULL}]")
    );
}

#[test]
fn rule_10_reply_shape_and_missing_id_spelling() {
    for profile in Profile::all() {
        let mut server = server(profile.clone());
        let got = reply(&mut server, "{").unwrap();
        let want = if profile.facts().error_response_requires_id {
            PARSE_NULL
        } else {
            PARSE_OMIT
        };
        assert_eq!(got, want, "{}", profile.name());
        // The override.
        let mut server = server_for(profile.name());
        server.set_profile(profile.clone().with_missing_id(MissingId::Omit));
        assert_eq!(
            reply(&mut server, "{").unwrap(),
            PARSE_OMIT,
            "{}",
            profile.name()
        );
        server.set_profile(profile.clone().with_missing_id(MissingId::Null));
        assert_eq!(
            reply(&mut server, "{").unwrap(),
            PARSE_NULL,
            "{}",
            profile.name()
        );
    }
    // Opt-in error details name the defect.
    let mut server = server(Profile::jsonrpc_2_0().with_error_details(true));
    assert_eq!(
        reply(&mut server, r#"{"jsonrpc":"1.0","id":3,"method":"echo"}"#).unwrap(),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"jsonrpc must be exactly \"2.0\""}}}"#
    );
    assert_eq!(
        reply(&mut server, "[1,]").unwrap(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"reason":"not valid JSON: unexpected character at byte 3"}}}"#
    );
    // Error data and results never break the line.
    let got = reply_under(
        "jsonrpc-2.0",
        &request("1", "echo", Some("[\"a\\nb\", {\n\"k\" : 1}]")),
    )
    .unwrap();
    assert_eq!(got, r#"{"jsonrpc":"2.0","id":1,"result":["a\nb",{"k":1}]}"#);
}

#[test]
fn rule_11_deep_params_keep_the_id_and_hit_the_typed_depth_limit() {
    let deep = nested_arrays(100_000, "");
    let frame = format!(r#"{{"jsonrpc":"2.0","params":{deep},"id":"deep","method":"echo"}}"#);
    assert_eq!(
        reply_under("jsonrpc-2.0", &frame).unwrap(),
        r#"{"jsonrpc":"2.0","id":"deep","error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 100000 deep exceed the limit of 256"}}}"#
    );
    // The default limit (256) is past serde_json's own 128 levels: at the limit the typed
    // decode runs, on a stack that grows.
    for depth in [128, 200, 256] {
        let at_limit = request("1", "echo", Some(&nested_arrays(depth, "")));
        assert_eq!(
            reply_under("jsonrpc-2.0", &at_limit).unwrap(),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{}}}"#,
                nested_arrays(depth, "")
            ),
            "{depth}"
        );
    }
    let over = request("1", "echo", Some(&nested_arrays(257, "")));
    assert_eq!(
        reply_under("jsonrpc-2.0", &over).unwrap(),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 257 deep exceed the limit of 256"}}}"#
    );
    // The limit is configurable both ways.
    let mut small = server(Profile::jsonrpc_2_0().with_max_params_depth(64));
    let got = reply(
        &mut small,
        &request("2", "echo", Some(&nested_arrays(65, ""))),
    );
    assert_eq!(
        got.unwrap(),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 65 deep exceed the limit of 64"}}}"#
    );
    // A limit far past serde_json's: the decode runs and a type error is still -32602 with the
    // id and its pointer. (`params::tests` decodes 100,000 levels on a 256 KiB stack.)
    let mut server = server(Profile::jsonrpc_2_0().with_max_params_depth(1_000_000));
    let got = reply(
        &mut server,
        &request("3", "sum", Some(&nested_arrays(100_000, ""))),
    )
    .unwrap();
    assert_eq!(
        got,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/0","reason":"invalid type: sequence, expected i64"}}}"#
    );
}
