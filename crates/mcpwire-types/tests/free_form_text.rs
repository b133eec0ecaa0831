//! Free-form members (`arguments`, `structuredContent`, `_meta`, undeclared members, the params
//! of an unknown method) are kept as the text they came as: decoding a message and encoding it
//! back gives those members byte for byte, numbers of any size or spelling included, at any
//! depth, and an object member still refuses any other JSON value.

use mcpwire_types::mcp::{v2025_06_18, v2025_11_25, v2026_07_28};

/// Numbers serde_json's `Value` would respell or round, odd spacing, a deep array.
fn free(extra: &str) -> String {
    format!(
        r#"{{"big": 18446744073709551617, "exp": 1e3, "neg": -0, "frac": 2.50, "s": "\u00e9\n"{extra}}}"#
    )
}

fn deep() -> String {
    format!("{}{}", "[".repeat(300), "]".repeat(300))
}

/// Decodes `text` as `T` and encodes it back.
fn roundtrip<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) -> String {
    let value: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    serde_json::to_string(&value).unwrap()
}

#[test]
fn tool_arguments_come_back_as_sent_in_every_version() {
    let arguments = free(&format!(r#", "deep": {}"#, deep()));
    let request = format!(
        r#"{{"method":"tools/call","params":{{"name":"t","arguments":{arguments}}},"jsonrpc":"2.0","id":1}}"#
    );
    let expected = format!(r#""arguments":{arguments}"#);
    for (version, back) in [
        (
            "2025-06-18",
            roundtrip::<v2025_06_18::JSONRPCRequest>(&request),
        ),
        (
            "2025-11-25",
            roundtrip::<v2025_11_25::JSONRPCRequest>(&request),
        ),
        (
            "2025-11-25 ClientRequest",
            roundtrip::<v2025_11_25::ClientRequest>(&request),
        ),
    ] {
        assert!(back.contains(&expected), "{version}: {back}");
    }
    let params: v2025_11_25::CallToolRequestParams =
        serde_json::from_str(&format!(r#"{{"name":"t","arguments":{arguments}}}"#)).unwrap();
    let arguments = params.arguments.unwrap();
    #[derive(serde::Deserialize)]
    struct Big {
        big: u128,
    }
    assert_eq!(arguments.parse::<Big>().unwrap().big, 18446744073709551617);
}

#[test]
fn structured_content_and_meta_come_back_as_sent() {
    let content = free("");
    let meta = free(r#", "io.example/x": {"n": 1E400}"#);
    let result = format!(
        r#"{{"content":[],"structuredContent":{content},"_meta":{meta},"x-undeclared":[1.0,  -0]}}"#
    );
    let back = roundtrip::<v2025_11_25::CallToolResult>(&result);
    assert!(
        back.contains(&format!(r#""structuredContent":{content}"#)),
        "{back}"
    );
    assert!(back.contains(&format!(r#""_meta":{meta}"#)), "{back}");
    assert!(back.contains(r#""x-undeclared":[1.0,  -0]"#), "{back}");
}

#[test]
fn an_unknown_methods_params_and_members_come_back_as_sent() {
    let params = free("");
    let request = format!(r#"{{"jsonrpc":"2.0","id":1e3,"method":"x/unknown","params":{params}}}"#);
    let back = roundtrip::<v2026_07_28::ClientRequest>(&request);
    assert!(back.contains(&format!(r#""params":{params}"#)), "{back}");
    assert!(back.contains(r#""id":1e3"#), "{back}");
}

#[test]
fn an_object_member_refuses_other_values() {
    for arguments in ["[1]", "\"x\"", "7", "null", "true"] {
        let params = format!(r#"{{"name":"t","arguments":{arguments}}}"#);
        let err = serde_json::from_str::<v2025_11_25::CallToolRequestParams>(&params)
            .expect_err(&params)
            .to_string();
        assert!(err.contains("expected a JSON object"), "{params}: {err}");
    }
    // Each property of an input schema is an object too; the schema itself any object.
    let tool = r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":1}}}"#;
    assert!(serde_json::from_str::<v2025_11_25::Tool>(tool).is_err());
    let tool = r#"{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"integer","maximum":1e400}}}}"#;
    assert!(roundtrip::<v2025_11_25::Tool>(tool).contains(r#"{"type":"integer","maximum":1e400}"#));
}
