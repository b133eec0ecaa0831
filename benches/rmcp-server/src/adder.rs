//! The server's one tool, `add`, on rmcp's `#[tool]` macros: the same work and result as the
//! mcpwire-server example's `add` (`crates/mcpwire-server/examples/mcp_server.rs`), because the
//! end-to-end rows of `cargo xtask bench` compare the two: `structuredContent` `{"sum":N}` plus
//! that JSON as a text block (`Json<Sum>`), and an overflow is a tool error.
//!
//! The bench crate (`benches/`) compiles this same file as its `rmcp_adder` module, so the
//! in-process rows serve exactly the tool this binary serves over stdio.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

/// The arguments of `add`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
}

/// The structured result of `add`.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Sum {
    /// `a + b`.
    pub sum: i64,
}

/// The server. `#[tool_handler]` routes calls through `Self::tool_router()`, which
/// `#[tool_router]` generates from the `#[tool]` methods. Serve it with
/// `rmcp::ServiceExt::serve`.
#[derive(Debug, Clone, Copy)]
pub struct Adder;

#[tool_router]
impl Adder {
    #[tool(description = "Add two integers")]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> Result<Json<Sum>, String> {
        a.checked_add(b)
            .map(|sum| Json(Sum { sum }))
            .ok_or_else(|| "the sum overflows i64".to_owned())
    }
}

#[tool_handler]
impl ServerHandler for Adder {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}
