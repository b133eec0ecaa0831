//! The HTTP rules of MCP 2026-07-28 (stateless mode) and the transport's own errors, as a
//! client sees them on the wire: statuses, error codes, and the id each error echoes (or,
//! without a readable id, how the version spells its absence). Raw HTTP/1.1 on loopback.
#![cfg(feature = "http")]

use crate::http_support;

use std::net::SocketAddr;

use http_support::{ACCEPT, JSON, Reply, Running, request, start};
use mcpwire::http::HttpConfig;
use mcpwire_server::{Context, McpServer, NoArguments, Resource, ResourceContents, ToolResult};
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Mirrored {
    /// Mirrored in `Mcp-Param-Region`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
    /// Not mirrored.
    #[serde(default)]
    query: Option<String>,
}

async fn needs_sampling(_: NoArguments, ctx: Context) -> ToolResult {
    match ctx.sample("hello", 10).await {
        Ok(_) => ToolResult::text("sampled"),
        Err(error) => error.into(),
    }
}

async fn mirrored(args: Mirrored, _: Context) -> ToolResult {
    ToolResult::text(format!("{} {:?}", args.region, args.query))
}

fn server() -> McpServer {
    McpServer::builder("http-2026", "1.0.0")
        .tool("needs_sampling", "Needs sampling", needs_sampling)
        .tool("mirrored", "Mirrors region", mirrored)
        .resource(Resource::new("test://a", "a", |_: Context| async {
            ResourceContents::text("a")
        }))
        .build()
        .unwrap()
}

/// `server()` behind the transport, on the test helper's runtime.
fn serve(stateless: bool) -> Running {
    start(
        HttpConfig::default().stateless(stateless),
        server().http_service(),
    )
}

const VERSION: &str = "2026-07-28";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// POSTs `body` with the JSON content headers and `extra`.
fn post(addr: SocketAddr, extra: &[(&str, &str)], body: &Value) -> Reply {
    let mut headers = vec![JSON, ACCEPT];
    headers.extend_from_slice(extra);
    request(addr, "POST", &headers, body.to_string().as_bytes())
}

/// A 2026-07-28 request with every routing header right.
fn call(addr: SocketAddr, id: Value, method: &str, params: Value) -> Reply {
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut headers = vec![("MCP-Protocol-Version", VERSION), ("Mcp-Method", method)];
    if let Some(name) = name.as_deref() {
        headers.push(("Mcp-Name", name));
    }
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    post(addr, &headers, &body)
}

/// Asserts the status, the error code and the echoed id of an error answer.
fn assert_error(reply: &Reply, status: u16, code: i64, id: Value) -> Value {
    assert_eq!(reply.status, status, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["error"]["code"], code, "{}", reply.text());
    assert_eq!(body.get("id"), Some(&id), "{}", reply.text());
    body
}

#[test]
fn methods_the_version_or_server_lacks_are_404_with_32601_and_the_id() {
    let running = serve(true);
    for (id, method) in [
        (json!(1), "initialize"),
        (json!("p"), "ping"),
        (json!(3), "logging/setLevel"),
        (json!(4), "resources/subscribe"),
        (json!(5), "unknown/method"),
    ] {
        let mut params = json!({ "_meta": meta() });
        if method == "initialize" {
            params["protocolVersion"] = VERSION.into();
        }
        let reply = call(running.addr, id.clone(), method, params);
        assert_error(&reply, 404, -32601, id);
    }
}

#[test]
fn mcp_method_must_be_present_and_match_byte_for_byte() {
    let running = serve(true);
    let body =
        json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": { "_meta": meta() } });
    let version = ("MCP-Protocol-Version", VERSION);
    for method in [None, Some("prompts/list"), Some("TOOLS/LIST")] {
        let mut headers = vec![version];
        headers.extend(method.map(|m| ("Mcp-Method", m)));
        let reply = post(running.addr, &headers, &body);
        let error = assert_error(&reply, 400, -32020, json!(9));
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Header mismatch"),
            "{}",
            reply.text()
        );
    }
    // Header names are case-insensitive; whitespace around a value is not part of it.
    for header in [
        ("mcp-method", "tools/list"),
        ("MCP-METHOD", " tools/list\t"),
    ] {
        let reply = post(running.addr, &[version, header], &body);
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(reply.json()["id"], 9);
    }
}

#[test]
fn mcp_name_must_repeat_the_target_plain_or_base64() {
    let running = serve(true);
    let body = |name: &str| {
        json!({ "jsonrpc": "2.0", "id": "n", "method": "resources/read",
                "params": { "uri": name, "_meta": meta() } })
    };
    let base = [
        ("MCP-Protocol-Version", VERSION),
        ("Mcp-Method", "resources/read"),
    ];
    let with = |name: &'static str| {
        let mut headers = base.to_vec();
        headers.push(("Mcp-Name", name));
        headers
    };
    assert_error(
        &post(running.addr, &base, &body("test://a")),
        400,
        -32020,
        json!("n"),
    );
    assert_error(
        &post(running.addr, &with("test://b"), &body("test://a")),
        400,
        -32020,
        json!("n"),
    );
    // `=?base64?…?=` is decoded; an invalid encoding is refused.
    let encoded = with("=?base64?dGVzdDovL2E=?=");
    let reply = post(running.addr, &encoded, &body("test://a"));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["result"]["contents"][0]["text"], "a");
    let broken = with("=?base64?dGVzdDovL2E?=");
    assert_error(
        &post(running.addr, &broken, &body("test://a")),
        400,
        -32020,
        json!("n"),
    );
}

#[test]
fn the_version_header_must_equal_the_meta_version() {
    let running = serve(true);
    let body = json!({ "jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": { "_meta": meta() } });
    for headers in [
        vec![("Mcp-Method", "server/discover")],
        vec![
            ("Mcp-Method", "server/discover"),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
    ] {
        assert_error(&post(running.addr, &headers, &body), 400, -32020, json!(2));
    }
}

#[test]
fn invalid_meta_is_400_with_32602_and_an_unknown_version_is_400_with_32022() {
    let running = serve(true);
    let no_meta = call(running.addr, json!(101), "server/discover", json!({}));
    assert_error(&no_meta, 400, -32602, json!(101));
    let mut without_version = meta();
    without_version
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/protocolVersion");
    let reply = call(
        running.addr,
        json!(102),
        "server/discover",
        json!({ "_meta": without_version }),
    );
    assert_error(&reply, 400, -32602, json!(102));
    // Header and `_meta` agree on a version this server does not serve.
    let mut future = meta();
    future["io.modelcontextprotocol/protocolVersion"] = "v999.0.0".into();
    let body = json!({ "jsonrpc": "2.0", "id": 301, "method": "server/discover", "params": { "_meta": future } });
    let headers = [
        ("Mcp-Method", "server/discover"),
        ("MCP-Protocol-Version", "v999.0.0"),
    ];
    let reply = post(running.addr, &headers, &body);
    let error = assert_error(&reply, 400, -32022, json!(301));
    assert_eq!(
        error["error"]["data"],
        json!({ "requested": "v999.0.0", "supported": [VERSION] })
    );
}

#[test]
fn an_undeclared_capability_is_400_with_32021_naming_it() {
    let running = serve(true);
    let reply = call(
        running.addr,
        json!(401),
        "tools/call",
        json!({ "name": "needs_sampling", "arguments": {}, "_meta": meta() }),
    );
    let error = assert_error(&reply, 400, -32021, json!(401));
    assert_eq!(
        error["error"]["data"],
        json!({ "requiredCapabilities": { "sampling": {} } })
    );
}

#[test]
fn an_unknown_resource_is_32602_with_its_uri() {
    let running = serve(true);
    let reply = call(
        running.addr,
        json!(7),
        "resources/read",
        json!({ "uri": "test://none", "_meta": meta() }),
    );
    let error = assert_error(&reply, 400, -32602, json!(7));
    assert_eq!(error["error"]["data"]["uri"], "test://none");
}

#[test]
fn mirrored_parameters_are_checked_against_their_headers() {
    let running = serve(true);
    let body = |region: &str| {
        json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "mirrored", "arguments": { "region": region, "query": "q" }, "_meta": meta() } })
    };
    let base = [
        ("MCP-Protocol-Version", VERSION),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "mirrored"),
    ];
    let with = |value: &'static str| {
        let mut headers = base.to_vec();
        headers.push(("Mcp-Param-Region", value));
        headers
    };
    for headers in [with("Hello"), with("=?base64?SGVsbG8=?="), with(" Hello ")] {
        let reply = post(running.addr, &headers, &body("Hello"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(
            reply.json()["result"]["content"][0]["text"],
            "Hello Some(\"q\")"
        );
    }
    for headers in [
        base.to_vec(),
        with("Bye"),
        with("=?base64?SGVsbG8?="),
        with("=?base64?SGVs!!!bG8=?="),
    ] {
        assert_error(
            &post(running.addr, &headers, &body("Hello")),
            400,
            -32020,
            json!(5),
        );
    }
    // What the shared rule cannot mirror is refused even when a header spells its JSON text:
    // a client holding the rule never sends it.
    for (argument, header) in [(json!({"a": 1}), r#"{"a":1}"#), (json!(["x"]), r#"["x"]"#)] {
        let body = json!({ "jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "mirrored", "arguments": { "region": argument }, "_meta": meta() } });
        let mut headers = base.to_vec();
        headers.push(("Mcp-Param-Region", header));
        let error = assert_error(&post(running.addr, &headers, &body), 400, -32020, json!(6));
        let message = error["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("cannot carry argument `region`"),
            "{message}"
        );
    }
}

#[test]
fn transport_errors_echo_the_id_or_spell_its_absence_as_the_version_does() {
    let running = serve(false);
    let list = json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/list" });
    // No session: 400, with the request's id.
    let reply = post(running.addr, &[], &list);
    let body = assert_error(&reply, 400, -32600, json!(7));
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Mcp-Session-Id")
    );
    // An unknown session: 404, with the id (a string id keeps its text).
    let string_id = json!({ "jsonrpc": "2.0", "id": "x\u{e9}", "method": "tools/list" });
    let unknown = [("Mcp-Session-Id", "0123456789abcdef0123456789abcdef")];
    assert_error(
        &post(running.addr, &unknown, &string_id),
        404,
        -32600,
        json!("x\u{e9}"),
    );
    // A refused media type still reads the id.
    let reply = request(
        running.addr,
        "POST",
        &[("Content-Type", "text/plain"), ACCEPT],
        list.to_string().as_bytes(),
    );
    assert_error(&reply, 415, -32600, json!(7));
    // No readable id: 2025-11-25 leaves `id` out, 2025-06-18 writes `"id":null`.
    let unreadable = [("MCP-Protocol-Version", "2025-11-25")];
    let reply = request(running.addr, "POST", &[JSON, ACCEPT, unreadable[0]], b"{");
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(!reply.text().contains("\"id\""), "{}", reply.text());
    let reply = request(
        running.addr,
        "POST",
        &[JSON, ACCEPT, ("MCP-Protocol-Version", "2025-06-18")],
        b"[1",
    );
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert!(reply.text().contains("\"id\":null"), "{}", reply.text());
    // A GET for an unknown session has no id to echo.
    let reply = request(
        running.addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("MCP-Protocol-Version", "2025-11-25"),
            unknown[0],
        ],
        b"",
    );
    assert_eq!(reply.status, 404, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], -32600);
    assert!(!reply.text().contains("\"id\""), "{}", reply.text());
}
