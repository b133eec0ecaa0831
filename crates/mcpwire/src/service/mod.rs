//! Async serving, the one driver: concurrent async handlers over the sans-IO
//! [`Peer`](crate::peer::Peer), with an `AsyncCallContext` that sends notifications and
//! progress, makes typed requests to the other side and observes cancellation.
//!
//! The [`Session`] itself needs tokio's `sync` primitives only: the blocking
//! [`Server`](crate::Server) polls it in place, with no runtime. Running it on tokio (async
//! handlers, `AsyncCallContext`, `PeerHandle`, `serve`, `serve_stdio`, `spawn`,
//! `AsyncFrameReader`) needs the feature `tokio`; the example below does.
//!
//! - [`Router`](crate::Router): method → handler, registered synchronous or async
//!   ([`Router::request_async`](crate::Router::request_async)) with typed params; async
//!   handlers get the shared state as `Arc<S>` and an [`AsyncCallContext`].
//! - [`Session`]: one conversation, independent of the transport: frames in
//!   ([`Session::receive`]), each with the [`Sink`] its output goes to, as typed
//!   [`Outgoing`] replies and messages.
//! - [`serve`] / [`serve_stdio`]: a session over a byte stream, one message per line,
//!   with graceful shutdown at end of input; [`spawn`] does the same on a task and hands back
//!   a [`PeerHandle`], which is how a client talks to a server.
//!
//! Handlers run concurrently, at most [`Options::max_concurrency`] at once. A handler that
//! panics is answered -32603 with its id and the session goes on. When the other side sends
//! `notifications/cancelled` for a request in flight, its [`CancellationToken`] fires and its
//! reply is not sent (MCP: the receiver does not answer a cancelled request).
//!
//! An in-process client and server over a pipe:
//!
//! ```
//! # #[cfg(not(feature = "tokio"))] fn main() {}
//! # #[cfg(feature = "tokio")] fn main() {
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use std::sync::Arc;
//! use mcpwire::{Profile, Router, RpcError};
//! use mcpwire::peer::Ping;
//! use mcpwire::service::{self, AsyncCallContext, Session};
//!
//! let router = Router::<()>::new()
//!     .request_async("ping", |_: Arc<()>, _: (), _: AsyncCallContext| async {
//!         Ok::<_, RpcError>(serde_json::json!({}))
//!     });
//! let server = Session::new(Profile::latest_mcp(), (), router);
//! let client = Session::new(Profile::latest_mcp(), (), Router::new());
//!
//! let (client_io, server_io) = tokio::io::duplex(4096);
//! let (server_in, server_out) = tokio::io::split(server_io);
//! let (client_in, client_out) = tokio::io::split(client_io);
//! let (_, served) = service::spawn(server, server_in, server_out);
//! let (to_server, connection) = service::spawn(client.clone(), client_in, client_out);
//!
//! let pong = to_server.request::<Ping>(&()).await.unwrap();
//! assert!(pong.is_empty());
//!
//! // The client hangs up: its output closes, the server sees end of input; both return.
//! client.close();
//! connection.await.unwrap().unwrap();
//! served.await.unwrap().unwrap();
//! # });
//! # }
//! ```

// Without features `tokio` and `http` the docs still name the items they add (docs.rs builds
// with all features), whose links then have nothing to resolve to.
#![cfg_attr(not(feature = "http"), allow(rustdoc::broken_intra_doc_links))]

mod cancel;
#[cfg(feature = "tokio")]
pub(crate) mod catch;
mod context;
pub(crate) mod core;
#[cfg(feature = "tokio")]
mod frames;
#[cfg(feature = "tokio")]
mod handle;
#[cfg(feature = "tokio")]
mod in_place;
#[cfg(feature = "tokio")]
mod io;
mod observe;
#[cfg(feature = "tokio")]
mod outbound;
pub mod queue;
mod session;
mod sink;
#[cfg(feature = "tokio")]
mod stdio_streams;
mod trace;

pub use crate::context::Attachment;
pub use cancel::CancellationToken;
#[cfg(feature = "tokio")]
pub(crate) use catch::BoxFuture;
#[cfg(feature = "tokio")]
pub(crate) use context::Live;
pub use observe::Observer;
#[cfg(feature = "http")]
pub(crate) use session::Handlers;
pub use session::{MAX_CONCURRENCY, Options, SESSION_BUSY, Session};
pub use sink::{Closed, Outgoing, Sink, SinkReceiver};
#[cfg(feature = "tokio")]
pub use {
    context::AsyncCallContext,
    frames::AsyncFrameReader,
    handle::{PeerHandle, RequestError},
    io::{serve, serve_stdio, spawn},
    outbound::{Outbound, PendingResponse, RequestGuard},
};
