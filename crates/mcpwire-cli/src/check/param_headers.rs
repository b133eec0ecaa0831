//! The `Mcp-Param-*` headers of MCP 2026-07-28's Streamable HTTP (Custom Headers from Tool
//! Parameters): a property of a tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent
//! in the arguments and mirrored as `Mcp-Param-Name`. "When constructing a `tools/call`
//! request via HTTP transport, the client MUST: … Inspect the tool's `inputSchema` for
//! properties marked with `x-mcp-header` … Append a `Mcp-Param-{Name}: {Value}` header", and
//! a server that declares them refuses a call without them (400, -32020), so a checker that
//! left them out would blame the server for refusing a non-conforming client.
//!
//! The checker learns each tool's declarations from the `tools/list` replies of its session
//! (as a client does) and mirrors, in every `tools/call` POST, each declared argument the
//! call has, spelled as the rule both sides hold says ([`mcpwire::http::param_headers`],
//! [`mcpwire::http::param_header_text`]). An argument the rule cannot mirror (an array, an
//! object, a fraction: only calls with arguments the schema refuses have one) gets no
//! header, and the tool's declarations that break the rule give none either: the server's
//! answer to such a call is then judged as a refusal.

use std::collections::HashMap;

use mcpwire::http::{ParamHeader, param_header_text, param_headers};
use serde_json::{Map, Value};

use super::route_headers::header_value;

/// The `x-mcp-header` declarations of the tools the session listed, by tool name.
#[derive(Debug, Clone, Default)]
pub struct ToolParams {
    tools: HashMap<String, Vec<ParamHeader>>,
}

impl ToolParams {
    /// Reads the tools of `replies` if `request` is a `tools/list` (every page adds its
    /// tools; a tool listed again replaces what was known of it).
    pub fn learn(&mut self, request: &[u8], replies: &[Vec<u8>]) {
        let is_list = serde_json::from_slice::<Value>(request)
            .ok()
            .is_some_and(|body| body.get("method").and_then(Value::as_str) == Some("tools/list"));
        if !is_list {
            return;
        }
        for reply in replies {
            let Ok(reply) = serde_json::from_slice::<Value>(reply) else {
                continue;
            };
            let Some(tools) = reply.pointer("/result/tools").and_then(Value::as_array) else {
                continue;
            };
            for tool in tools {
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let declared = tool
                    .get("inputSchema")
                    .and_then(Value::as_object)
                    .and_then(|schema| param_headers(schema).ok())
                    .unwrap_or_default();
                self.tools.insert(name.to_owned(), declared);
            }
        }
    }

    /// The `Mcp-Param-*` headers of `body` (a `tools/call` of a listed tool): `(name, value)`
    /// with the name after `Mcp-Param-` and the value spelled for the wire.
    pub fn headers(&self, body: &[u8]) -> Vec<(String, String)> {
        let Ok(body) = serde_json::from_slice::<Value>(body) else {
            return Vec::new();
        };
        if body.get("method").and_then(Value::as_str) != Some("tools/call") {
            return Vec::new();
        }
        let Some(declared) = body
            .pointer("/params/name")
            .and_then(Value::as_str)
            .and_then(|name| self.tools.get(name))
        else {
            return Vec::new();
        };
        let empty = Map::new();
        let arguments = body
            .pointer("/params/arguments")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        declared
            .iter()
            .filter_map(|declaration| {
                let text = param_header_text(arguments.get(&declaration.property)?).ok()??;
                Some((declaration.header.clone(), header_value(&text)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn learned() -> ToolParams {
        let mut params = ToolParams::default();
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let reply = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "h", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "priority": {"type": "integer", "x-mcp-header": "Priority"},
                "query": {"type": "string"}}}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {
                "score": {"type": "number", "x-mcp-header": "Score"}}}}
        ]}});
        params.learn(list, &[reply.to_string().into_bytes()]);
        params
    }

    fn call(name: &str, arguments: Value) -> Vec<u8> {
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
        .to_string()
        .into_bytes()
    }

    #[test]
    fn declared_arguments_are_mirrored() {
        let params = learned();
        let mut headers = params.headers(&call(
            "h",
            json!({"region": "caf\u{e9}", "priority": 3, "query": "q"}),
        ));
        headers.sort();
        assert_eq!(
            headers,
            [
                ("Priority".to_owned(), "3".to_owned()),
                ("Region".to_owned(), "=?base64?Y2Fmw6k=?=".to_owned()),
            ]
        );
        // Absent, null and unmirrorable arguments get no header; nor do other methods,
        // unknown tools, or tools whose declarations break the rule.
        assert!(
            params
                .headers(&call("h", json!({"region": null, "priority": [1]})))
                .is_empty()
        );
        assert!(params.headers(&call("bad", json!({"score": 1}))).is_empty());
        assert!(
            params
                .headers(&call("other", json!({"region": "x"})))
                .is_empty()
        );
        assert!(
            params
                .headers(br#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
                .is_empty()
        );
    }
}
