//! A typed MCP client over the mcpwire runtime: it speaks to a server over stdio (a child
//! process) or Streamable HTTP, under every MCP version.
//!
//! The client core is transport-neutral: a [`Transport`] moves whole frames, the client
//! session (request ids, pending calls, server-initiated requests, notifications) sits on
//! top of the sans-IO [`mcpwire::peer::Peer`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod stdio;
mod stream;
pub mod transport;
mod violation;

pub use error::ClientError;
pub use stdio::{ChildProcess, DEFAULT_EXIT_GRACE, MAX_STDERR_LINE, Stderr};
pub use stream::{DEFAULT_MAX_FRAME_BYTES, StreamTransport};
pub use transport::{Connection, Transport, TransportError};
pub use violation::{Rule, Violation};
