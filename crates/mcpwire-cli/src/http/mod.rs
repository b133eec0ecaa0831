//! Streamable HTTP for the reference server: `mcpwire serve --http ADDR`.
//!
//! One endpoint (any path; `/mcp` is the advertised one) takes a POST whose body is one
//! JSON-RPC message or batch. The reply is `application/json`, and the HTTP status follows the
//! MCP transports specification:
//!
//! | input | status | body |
//! |---|---|---|
//! | nothing to answer (notifications, responses) | 202 Accepted | empty |
//! | a reply that carries the request's id (or a batch reply) | 200 OK | the reply |
//! | a reply without an id (unparseable, unreadable id, invalid notification) | 400 Bad Request | the error reply |
//! | a request other than `initialize` without `Mcp-Session-Id` (MCP profiles with a handshake) | 400 Bad Request | an error reply without id |
//! | an unknown `Mcp-Session-Id` | 404 Not Found | an error reply without id |
//! | `Content-Type` not `application/json` | 415 | an error reply without id |
//! | `Accept` that admits no `application/json` | 406 | an error reply without id |
//! | `GET` (no server-initiated stream) and other methods | 405, `Allow: POST, DELETE` | empty |
//! | `DELETE` with a known session | 204, the session ends | empty |
//!
//! A successful `initialize` opens a session: the reply carries a fresh `Mcp-Session-Id` and
//! later requests name it; each session is its own reference server with its negotiated profile.
//! Under `jsonrpc-2.0`, and MCP versions without `initialize`, every POST goes to one shared
//! server and no session is needed.

mod server;
mod sessions;
mod status;

pub use server::{bind, serve, serve_listener};
pub use sessions::Sessions;
pub use status::status_for;
