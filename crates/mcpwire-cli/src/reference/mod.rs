//! The reference server behind `mcpwire serve`.
//!
//! Under an MCP profile it is an [`McpServer`] of `mcpwire-server` (the workspace's one MCP
//! server implementation) with one `echo` tool: `initialize` negotiates the protocol version
//! and switches the session to it, `ping`, `tools/list` and `tools/call` are typed by the
//! version in force, and 2026-07-28 is served statelessly through `server/discover`. Under
//! `jsonrpc-2.0` it is a blocking [`Server`] answering the methods of the JSON-RPC 2.0
//! specification's section 7 examples. Everything else is answered by the wire rules of the
//! `mcpwire` runtime.
//!
//! ```
//! use mcpwire::Profile;
//!
//! let mut server = mcpwire_cli::reference::spec_server(Profile::jsonrpc_2_0());
//! let reply = server.handle_frame(br#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#);
//! assert_eq!(reply.as_deref(), Some(&br#"{"jsonrpc":"2.0","id":1,"result":19}"#[..]));
//! ```

mod spec_methods;

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use mcpwire::{Profile, ProtocolEvent, Router, Server};
use mcpwire_server::{Context, McpServer, McpServerBuilder, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;

/// The name the reference server reports about itself.
const SERVER_NAME: &str = "mcpwire-reference";

/// What the `jsonrpc-2.0` reference server remembers between frames.
#[derive(Debug, Default)]
pub struct ReferenceState {
    /// Notifications received (any method, valid envelope).
    pub notifications_seen: AtomicU64,
    /// Response-shaped messages received; the reference server sends no requests, so every one
    /// is unsolicited and only counted.
    pub responses_seen: AtomicU64,
}

/// The `jsonrpc-2.0` reference server under `profile`, with fresh state: the methods of the
/// JSON-RPC 2.0 specification's examples.
pub fn spec_server(profile: Profile) -> Server<ReferenceState> {
    let router = Router::new().on_event(|state: &ReferenceState, _event: ProtocolEvent| {
        state.responses_seen.fetch_add(1, Ordering::Relaxed);
    });
    Server::new(
        profile,
        ReferenceState::default(),
        spec_methods::register(router),
    )
}

/// The arguments of the `echo` tool.
#[derive(Deserialize, JsonSchema)]
struct Echo {
    /// The text to send back.
    text: String,
}

/// The MCP reference server: every session starts under `profile` (an MCP version, with the
/// operator's limits, which `initialize` keeps when it switches to the version agreed).
pub fn mcp_server(profile: Profile) -> McpServer {
    mcp_server_builder(profile)
        .build()
        .expect("the echo tool's schema fits MCP")
}

/// The builder of [`mcp_server`], for a caller that adds to it (`mcpwire serve --redis`).
pub fn mcp_server_builder(profile: Profile) -> McpServerBuilder {
    McpServer::builder(SERVER_NAME, env!("CARGO_PKG_VERSION"))
        .tool(
            "echo",
            "Returns its text",
            |Echo { text }: Echo, _: Context| async move { ToolResult::text(text) },
        )
        .profile(profile)
}

/// Whether `profile` is served by the MCP server (it names an MCP version) rather than by the
/// specification's examples.
pub fn is_mcp(profile: &Profile) -> bool {
    profile.protocol_version().is_some()
}

/// Serves the reference server for `profile` over stdin and stdout until stdin ends.
pub fn serve_stdio(profile: Profile) -> io::Result<()> {
    if !is_mcp(&profile) {
        return spec_server(profile).serve_stdio();
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(mcp_server(profile).serve_stdio())
}
