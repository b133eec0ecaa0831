//! The `add` tool of `crates/mcpwire-server/examples/mcp_server.rs`, as that example declares
//! it (typed `i64` operands, a structured `{sum}` result, an overflow is a tool error), on an
//! [`McpServer`] with only that tool: what the in-process rows serve.

use mcpwire_server::{Context, McpServer, McpServerBuilder, Structured};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

async fn add(Add { a, b }: Add, _: Context) -> Result<Structured<Sum>, &'static str> {
    a.checked_add(b)
        .map(|sum| Structured(Sum { sum }))
        .ok_or("the sum overflows i64")
}

/// The server: `add` only, built with the public builder.
pub fn server() -> McpServer {
    builder().build().expect("the add tool's schemas fit MCP")
}

/// The builder of [`server`], for servers that add more to it.
pub fn builder() -> McpServerBuilder {
    McpServer::builder("mcpwire-bench-adder", "0.0.0").tool("add", "Add two integers", add)
}
