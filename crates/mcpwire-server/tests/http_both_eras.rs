//! One endpoint, both eras (MCP 2026-07-28, "Versioning and Compatibility": a dual-era
//! server): a client that sends `initialize` gets a session (2025-11-25 and earlier), a
//! request that states a 2026-07-28 version (in `_meta` or `MCP-Protocol-Version`) is served
//! statelessly, on the same URL of the same process; and what each request that mixes the
//! two eras gets. Raw HTTP/1.1 on loopback, statuses and bodies as a client sees them.
#![cfg(feature = "http")]

use crate::http_support;

use std::net::SocketAddr;

use http_support::{ACCEPT, JSON, Reply, Running, request, start};
use mcpwire::Profile;
use mcpwire::http::{Eras, HttpConfig};
use mcpwire_server::{Context, McpServer, ToolResult};
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    /// The text sent back.
    text: String,
}

fn server(profile: Profile) -> McpServer {
    McpServer::builder("both-eras", "1.0.0")
        .tool(
            "echo",
            "Returns its text",
            |Echo { text }: Echo, _: Context| async move { ToolResult::text(text) },
        )
        .profile(profile)
        .build()
        .unwrap()
}

/// The server behind the transport with its default settings: both eras.
fn serve() -> Running {
    start(
        HttpConfig::default(),
        server(Profile::latest_mcp()).http_service(),
    )
}

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

fn meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// POSTs `body` with the JSON content headers and `extra`.
fn post(addr: SocketAddr, extra: &[(&str, &str)], body: &Value) -> Reply {
    let mut headers = vec![JSON, ACCEPT];
    headers.extend_from_slice(extra);
    request(addr, "POST", &headers, body.to_string().as_bytes())
}

fn body(id: u64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

/// A 2026-07-28 request with its routing headers, plus `extra` headers.
fn modern(addr: SocketAddr, id: u64, method: &str, params: Value, extra: &[(&str, &str)]) -> Reply {
    let mut headers = vec![("MCP-Protocol-Version", MODERN), ("Mcp-Method", method)];
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(name) = name.as_deref() {
        headers.push(("Mcp-Name", name));
    }
    headers.extend_from_slice(extra);
    post(addr, &headers, &body(id, method, params))
}

/// Opens a 2025-11-25 session as an SDK client does (`initialize`, then
/// `notifications/initialized`) and returns its id.
fn open_session(addr: SocketAddr) -> String {
    let init = body(
        1,
        "initialize",
        json!({
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": { "name": "t", "version": "1" }
        }),
    );
    let reply = post(addr, &[], &init);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["result"]["protocolVersion"], LEGACY);
    let session = reply.session();
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let reply = post(
        addr,
        &[
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", LEGACY),
        ],
        &initialized,
    );
    assert_eq!(reply.status, 202, "{}", reply.text());
    session
}

/// `tools/call` of `echo` in `session`, under its version.
fn call_in_session(addr: SocketAddr, session: &str, id: u64, text: &str) -> Reply {
    let call = body(
        id,
        "tools/call",
        json!({ "name": "echo", "arguments": { "text": text } }),
    );
    post(
        addr,
        &[
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", LEGACY),
        ],
        &call,
    )
}

/// Asserts the status, the error code and the echoed id of an error answer; returns the body.
fn assert_error(reply: &Reply, status: u16, code: i64, id: Value) -> Value {
    assert_eq!(reply.status, status, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["error"]["code"], code, "{}", reply.text());
    assert_eq!(body.get("id"), Some(&id), "{}", reply.text());
    body
}

/// A 2026-07-28 `server/discover`, answered 200 statelessly: its result.
fn discovered(addr: SocketAddr, id: u64) -> Value {
    let params = json!({ "_meta": meta(MODERN) });
    let reply = modern(addr, id, "server/discover", params, &[]);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_no_session(&reply);
    reply.json()["result"].clone()
}

/// A stateless answer names no session: none is minted or echoed.
fn assert_no_session(reply: &Reply) {
    assert_eq!(reply.header("mcp-session-id"), None, "{reply:?}");
}

#[test]
fn an_initialize_client_and_a_2026_client_share_one_url() {
    let running = serve();
    let addr = running.addr;
    let session = open_session(addr);

    // The 2026-07-28 client: discover, then call, each POST on its own.
    let result = &discovered(addr, 2);
    let supported = result["supportedVersions"].as_array().unwrap();
    for version in [MODERN, LEGACY] {
        assert!(supported.contains(&json!(version)), "{result}");
    }
    assert_eq!(result["resultType"], "complete");
    assert!(result["capabilities"]["tools"].is_object(), "{result}");

    let params = json!({ "name": "echo", "arguments": { "text": "new" }, "_meta": meta(MODERN) });
    let call = modern(addr, 3, "tools/call", params, &[]);
    assert_eq!(call.status, 200, "{}", call.text());
    assert_no_session(&call);
    let reply = call.json();
    assert_eq!(reply["id"], 3);
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "new", "{reply}");

    // The session goes on beside it, under 2025-11-25 (no resultType in its results).
    let call = call_in_session(addr, &session, 4, "old");
    assert_eq!(call.status, 200, "{}", call.text());
    let reply = call.json();
    assert_eq!(reply["id"], 4);
    assert_eq!(reply["result"]["content"][0]["text"], "old", "{reply}");
    assert_eq!(reply["result"].get("resultType"), None, "{reply}");
}

#[test]
fn a_request_stating_2026_in_meta_is_stateless_even_with_a_session_id() {
    let running = serve();
    let addr = running.addr;
    let session = open_session(addr);
    // "A request carrying modern per-request `_meta` is served statelessly"; its
    // Mcp-Session-Id is ignored, and not echoed.
    let params = json!({ "name": "echo", "arguments": { "text": "x" }, "_meta": meta(MODERN) });
    let call = modern(
        addr,
        5,
        "tools/call",
        params,
        &[("Mcp-Session-Id", &session)],
    );
    assert_eq!(call.status, 200, "{}", call.text());
    assert_no_session(&call);
    assert_eq!(call.json()["result"]["resultType"], "complete");
    // Ignored even when it names no session at all (no 404).
    let params = json!({ "_meta": meta(MODERN) });
    let unknown = "0123456789abcdef0123456789abcdef";
    let discover = modern(
        addr,
        6,
        "server/discover",
        params,
        &[("Mcp-Session-Id", unknown)],
    );
    assert_eq!(discover.status, 200, "{}", discover.text());
    assert_no_session(&discover);
    // The session is untouched.
    assert_eq!(call_in_session(addr, &session, 7, "still").status, 200);
}

#[test]
fn a_2026_header_without_meta_is_a_2026_request_missing_its_meta() {
    let running = serve();
    let addr = running.addr;
    // No session: the 2026-07-28 rules (-32602 for the missing `_meta`, 400), not the
    // legacy "initialize first".
    let reply = modern(addr, 8, "server/discover", json!({}), &[]);
    let error = assert_error(&reply, 400, -32602, json!(8));
    assert_eq!(error["error"]["data"]["pointer"], "/_meta", "{error}");
    assert_no_session(&reply);
    // With a session id too: the header states the era; the session id is ignored.
    let session = open_session(addr);
    let reply = modern(
        addr,
        9,
        "tools/list",
        json!({}),
        &[("Mcp-Session-Id", &session)],
    );
    assert_error(&reply, 400, -32602, json!(9));
}

#[test]
fn initialize_under_2026_headers_is_a_method_2026_lacks() {
    let running = serve();
    let addr = running.addr;
    let init = json!({
        "protocolVersion": LEGACY,
        "capabilities": {},
        "clientInfo": { "name": "t", "version": "1" },
        "_meta": meta(MODERN)
    });
    // Stated in `_meta` and the header, or in the header alone: 404, -32601, no session.
    for params in [init.clone(), {
        let mut bare = init.clone();
        bare.as_object_mut().unwrap().remove("_meta");
        bare
    }] {
        let reply = modern(addr, 10, "initialize", params, &[]);
        let error = assert_error(&reply, 404, -32601, json!(10));
        let message = error["error"]["message"].as_str().unwrap();
        // It says what to do instead, naming the versions of each era.
        for named in ["server/discover", MODERN, LEGACY] {
            assert!(message.contains(named), "{message}");
        }
        assert_no_session(&reply);
    }
}

#[test]
fn unknown_and_mismatched_versions() {
    let running = serve();
    let addr = running.addr;
    // An unknown version stated per request: UnsupportedProtocolVersionError, 400.
    let params = json!({ "_meta": meta("1900-01-01") });
    let headers = [
        ("MCP-Protocol-Version", "1900-01-01"),
        ("Mcp-Method", "server/discover"),
    ];
    let reply = post(addr, &headers, &body(11, "server/discover", params));
    let error = assert_error(&reply, 400, -32022, json!(11));
    assert_eq!(error["error"]["data"]["requested"], "1900-01-01");
    assert_eq!(error["error"]["data"]["supported"], json!([MODERN]));
    // `_meta` says 2026-07-28, the header the legacy version: HeaderMismatch, 400.
    let headers = [
        ("MCP-Protocol-Version", LEGACY),
        ("Mcp-Method", "tools/list"),
    ];
    let params = json!({ "_meta": meta(MODERN) });
    let reply = post(addr, &headers, &body(12, "tools/list", params));
    assert_error(&reply, 400, -32020, json!(12));
    // An unknown version in the header alone, without a session or in one: 400.
    let session = open_session(addr);
    for extra in [vec![], vec![("Mcp-Session-Id", session.as_str())]] {
        let mut headers = vec![("MCP-Protocol-Version", "1900-01-01")];
        headers.extend(extra);
        let reply = post(addr, &headers, &body(13, "tools/list", json!({})));
        let error = assert_error(&reply, 400, -32600, json!(13));
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains("1900-01-01"), "{message}");
    }
}

#[test]
fn a_request_stating_no_2026_version_is_a_legacy_one() {
    let running = serve();
    let addr = running.addr;
    // No version anywhere (2025-03-26 assumed), or a legacy one, and no session: 400, "send
    // initialize first" (what a dual-era client falls back on: not a modern error).
    for extra in [vec![], vec![("MCP-Protocol-Version", LEGACY)]] {
        let reply = post(addr, &extra, &body(14, "tools/list", json!({})));
        let error = assert_error(&reply, 400, -32600, json!(14));
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains("initialize"), "{message}");
        assert_no_session(&reply);
    }
}

#[test]
fn get_and_delete_are_the_sessions_and_405_under_2026() {
    let running = serve();
    let addr = running.addr;
    let session = open_session(addr);
    for method in ["GET", "DELETE"] {
        let headers = [
            ACCEPT,
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Session-Id", session.as_str()),
        ];
        let reply = request(addr, method, &headers, b"");
        assert_eq!(reply.status, 405, "{method}: {}", reply.text());
        assert_eq!(reply.header("allow"), Some("POST"), "{method}");
    }
    // The session's own DELETE ends it.
    let headers = [
        ("MCP-Protocol-Version", LEGACY),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let reply = request(addr, "DELETE", &headers, b"");
    assert_eq!(reply.status, 204, "{}", reply.text());
    assert_eq!(call_in_session(addr, &session, 15, "gone").status, 404);
}

#[test]
fn one_era_only_when_asked_or_when_the_server_starts_under_a_legacy_version() {
    let discover = |addr| {
        modern(
            addr,
            16,
            "server/discover",
            json!({ "_meta": meta(MODERN) }),
            &[],
        )
    };
    // Legacy only by configuration, or because sessions start under 2025-11-25 (which
    // cannot answer a 2026-07-28 request): the 2026-07-28 request is one without a session.
    let legacy_profile = Profile::mcp(LEGACY).unwrap();
    for running in [
        start(
            HttpConfig::default().eras(Eras::Legacy),
            server(Profile::latest_mcp()).http_service(),
        ),
        start(HttpConfig::default(), server(legacy_profile).http_service()),
    ] {
        let reply = discover(running.addr);
        let error = assert_error(&reply, 400, -32600, json!(16));
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("Mcp-Session-Id")
        );
        open_session(running.addr);
    }
    // Modern only (`--stateless`): no sessions.
    let running = start(
        HttpConfig::default().stateless(true),
        server(Profile::latest_mcp()).http_service(),
    );
    assert_eq!(discover(running.addr).status, 200);
    let init = body(
        1,
        "initialize",
        json!({ "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }),
    );
    let reply = post(running.addr, &[], &init);
    assert_error(&reply, 404, -32601, json!(1));
    assert_no_session(&reply);
}

/// The same endpoint as a tower service (`McpEndpoint`) mounted in an axum `Router`: both
/// eras on its one path too (HttpServer and McpEndpoint answer through one `Endpoint`).
#[test]
fn the_tower_endpoint_serves_both_eras_too() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let endpoint = mcpwire::http::McpEndpoint::new(
        HttpConfig::default(),
        server(Profile::latest_mcp()).http_service(),
    );
    let app = axum::Router::new().route_service("/mcp", endpoint);
    let served = runtime.spawn(async move { axum::serve(listener, app).await });
    let session = open_session(addr);
    assert_eq!(call_in_session(addr, &session, 2, "old").status, 200);
    assert_eq!(discovered(addr, 3)["resultType"], "complete");
    served.abort();
}
