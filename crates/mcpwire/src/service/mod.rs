//! Async serving, the one driver: concurrent async handlers over the sans-IO
//! [`Peer`](crate::peer::Peer), with a [`AsyncContext`] that sends notifications and
//! progress, makes typed requests to the other side and observes cancellation.
//!
//! - [`Router`](crate::Router): method → handler, registered synchronous or async
//!   ([`Router::request_async`](crate::Router::request_async)) with typed params; async
//!   handlers get the shared state as `Arc<S>` and an [`AsyncContext`].
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
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use std::sync::Arc;
//! use mcpwire::{Profile, Router, RpcError};
//! use mcpwire::peer::Ping;
//! use mcpwire::service::{self, AsyncContext, Session};
//!
//! let router = Router::<()>::new()
//!     .request_async("ping", |_: Arc<()>, _: (), _: AsyncContext| async {
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
//! ```

mod cancel;
mod catch;
mod context;
mod core;
mod frames;
mod handle;
mod io;
pub mod queue;
mod session;
mod sink;
mod trace;

pub use cancel::CancellationToken;
pub(crate) use catch::BoxFuture;
pub use context::{AsyncContext, Attachment};
pub use frames::AsyncFrameReader;
pub use handle::{PeerHandle, RequestError};
pub use io::{serve, serve_stdio, spawn};
pub use session::{MAX_CONCURRENCY, Options, SESSION_BUSY, Session};
pub use sink::{Closed, Outgoing, Sink, SinkReceiver};
