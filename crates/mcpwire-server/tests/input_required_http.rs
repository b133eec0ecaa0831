//! The 2026-07-28 input-required round trip with the `mcp_server` example (its `greet` tool
//! unchanged) over Streamable HTTP in stateless mode: every POST gets a fresh session, so the retry can only be answered from what it carries
//! (`inputResponses` and the sealed `requestState`). Raw HTTP/1.1 on a loopback socket; every
//! result is validated against the 2026-07-28 schema.
#![cfg(feature = "http")]

use crate::example;
use crate::http_support;
use crate::support;

use std::net::SocketAddr;

use example::Example;
use http_support::{ACCEPT, JSON, request};
use mcpwire_server::Version;
use serde_json::{Value, json};

/// POSTs one `tools/call`, with the routing headers 2026-07-28 asks for, and returns its
/// validated result.
fn call_tool(addr: SocketAddr, id: u64, params: &Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params });
    let name = params["name"].as_str().unwrap();
    let headers = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", name),
    ];
    let reply = request(addr, "POST", &headers, body.to_string().as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("mcp-session-id"), None);
    let response = reply.json();
    assert_eq!(response["id"], id);
    let result = response["result"].clone();
    support::assert_valid_result(Version::V2026_07_28, "tools/call", &result);
    result
}

#[test]
fn the_example_greet_asks_and_greets_across_two_independent_posts() {
    let example = Example::start(&["--stateless"]);
    let addr = example.addr;
    let meta = support::Client::meta(json!({ "elicitation": {} }));
    let first = json!({ "_meta": meta, "name": "greet", "arguments": {} });
    let asked = call_tool(addr, 1, &first);
    assert_eq!(asked["resultType"], "input_required");
    let requests = asked["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1);
    let (key, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");

    let mut retry = first.clone();
    retry["inputResponses"] = json!({ key: { "action": "accept", "content": { "name": "Ada" } } });
    retry["requestState"] = asked["requestState"].clone();
    let done = call_tool(addr, 2, &retry);
    assert_eq!(done["resultType"], "complete");
    assert_eq!(done["content"][0]["text"], "Hello, Ada!");

    // A client without the capability is greeted plainly, with no round trip.
    let plain =
        json!({ "_meta": support::Client::meta(json!({})), "name": "greet", "arguments": {} });
    assert_eq!(
        call_tool(addr, 3, &plain)["content"][0]["text"],
        "Hello, stranger!"
    );
}
