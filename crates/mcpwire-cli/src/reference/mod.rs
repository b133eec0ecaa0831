//! The reference server behind `mcpwire serve`.
//!
//! Under an MCP profile it answers `initialize` (negotiating the protocol version and switching
//! the server's profile to it), `ping`, `tools/list` and `tools/call` of one `echo` tool, with
//! params and results typed by the negotiated version's generated types. Under `jsonrpc-2.0` it
//! also answers the methods of the JSON-RPC 2.0 specification's section 7 examples. Everything
//! else is answered by the wire rules of the `mcpwire` runtime.
//!
//! ```
//! use mcpwire::Profile;
//!
//! let mut server = mcpwire_cli::reference::server(Profile::jsonrpc_2_0());
//! let reply = server.handle_frame(br#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#);
//! assert_eq!(reply.as_deref(), Some(&br#"{"jsonrpc":"2.0","id":1,"result":19}"#[..]));
//! ```

mod mcp_methods;
mod spec_methods;

use mcpwire::{Profile, ProtocolEvent, Router, Server};

/// What the reference server remembers between frames.
#[derive(Debug, Default)]
pub struct ReferenceState {
    /// Notifications received (any method, valid envelope).
    pub notifications_seen: u64,
    /// Response-shaped messages received; the reference server sends no requests, so every one
    /// is unsolicited and only counted.
    pub responses_seen: u64,
    /// The protocol version agreed by `initialize`, if any.
    pub negotiated_version: Option<&'static str>,
}

/// The reference server for `profile`, with fresh state.
pub fn server(profile: Profile) -> Server<ReferenceState> {
    Server::new(profile, ReferenceState::default(), router())
}

/// The reference server's router (the same for every profile: the MCP handlers pick the
/// generated types of the profile in force).
pub fn router() -> Router<ReferenceState> {
    let router = Router::new().on_event(|state: &mut ReferenceState, _event: ProtocolEvent| {
        state.responses_seen += 1;
    });
    mcp_methods::register(spec_methods::register(router))
}
