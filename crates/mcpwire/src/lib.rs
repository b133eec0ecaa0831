//! # mcpwire: a JSON-RPC 2.0 / MCP wire runtime that never loses an id
//!
//! ## Writing an MCP server
//!
//! Most users start one layer up, with [`mcpwire-server`](https://docs.rs/mcpwire-server):
//! tools declared from Rust types, every MCP version negotiated, results shaped per version,
//! over stdio or Streamable HTTP. The whole server, three tools (typed integers, progress with
//! cancellation, a question to the user through elicitation):
//!
//! ```rust,ignore
//! use std::time::Duration;
//!
//! use mcpwire_server::{Context, Elicitation, McpServer, NoArguments, Structured, ToolResult};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Add { a: i64, b: i64 }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Sum { sum: i64 }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Countdown { /** Steps, 100 ms each. */ n: u32 }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Name { name: String }
//!
//! async fn add(Add { a, b }: Add, _: Context) -> Result<Structured<Sum>, &'static str> {
//!     a.checked_add(b).map(|sum| Structured(Sum { sum })).ok_or("the sum overflows i64")
//! }
//!
//! async fn countdown(Countdown { n }: Countdown, ctx: Context) -> ToolResult {
//!     for step in 1..=n {
//!         tokio::select! {
//!             _ = ctx.cancelled() => return ToolResult::error("cancelled"),
//!             _ = tokio::time::sleep(Duration::from_millis(100)) => {}
//!         }
//!         ctx.progress(f64::from(step), Some(f64::from(n))).await;
//!     }
//!     ToolResult::text("liftoff")
//! }
//!
//! async fn greet(_: NoArguments, ctx: Context) -> ToolResult {
//!     if !ctx.can_elicit() {
//!         return ToolResult::text("Hello, stranger!");
//!     }
//!     match ctx.elicit::<Name>("What is your name?").await {
//!         Ok(Elicitation::Accepted(Name { name })) => ToolResult::text(format!("Hello, {name}!")),
//!         Ok(_) => ToolResult::text("Hello, stranger!"),
//!         Err(error) => ToolResult::error(error),
//!     }
//! }
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let server = McpServer::builder("mcpwire-example", "0.1.0")
//!         .tool("add", "Add two integers", add)
//!         .tool("countdown", "Count down from n, reporting progress", countdown)
//!         .tool("greet", "Greet the user, asking their name if the client can", greet)
//!         .build()?;
//!     server.serve_stdio().await?;
//!     Ok(())
//! }
//! ```
//!
//! (This block is not compiled here, since `mcpwire-server` depends on this crate; the README
//! compiles the same code, and `tests/docs_examples.rs` keeps the two identical.)
//!
//! ## This crate
//!
//! mcpwire decodes frames with a strict, non-recursive scanner, classifies them by the
//! wire rules of a [`Profile`] (plain JSON-RPC 2.0 or one MCP version, derived from the
//! schemas), routes requests to typed handlers and writes exact reply bytes. Ids are kept
//! as their original JSON text, so `9007199254740993`, `1e3` and `-0` come back exactly as
//! sent; invalid input is answered with the id whenever it can be read; notifications and
//! responses are never answered. The rules are listed in `docs/wire-rules.md`.
//!
//! ### Quick start: the wire layer
//!
//! ```
//! use mcpwire::{CallContext, Profile, Router, RpcError, Server};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Subtract { minuend: i64, subtrahend: i64 }
//!
//! let router = Router::new()
//!     .request("subtract", |_state: &(), p: Subtract, _ctx: &mut CallContext<'_>| {
//!         Ok::<_, RpcError>(p.minuend - p.subtrahend)
//!     });
//! let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
//!
//! // A request: the id comes back with its original text.
//! let reply = server.handle_frame(
//!     br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"subtract","params":{"minuend":42,"subtrahend":23}}"#,
//! );
//! assert_eq!(reply.unwrap(), br#"{"jsonrpc":"2.0","id":9007199254740993,"result":19}"#);
//!
//! // Bad params: -32602 naming the JSON pointer that failed, still with the id.
//! let reply = server.handle_frame(
//!     br#"{"jsonrpc":"2.0","id":"a","method":"subtract","params":{"minuend":"x","subtrahend":1}}"#,
//! );
//! assert_eq!(
//!     String::from_utf8(reply.unwrap()).unwrap(),
//!     r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/minuend","reason":"invalid type: string \"x\", expected i64"}}}"#,
//! );
//!
//! // An invalid request whose id is readable is answered with that id.
//! let reply = server.handle_frame(br#"{"jsonrpc":"1.0","id":3,"method":"subtract"}"#);
//! assert_eq!(
//!     reply.unwrap(),
//!     br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request"}}"#,
//! );
//!
//! // Notifications are never answered.
//! assert_eq!(server.handle_frame(br#"{"jsonrpc":"2.0","method":"subtract"}"#), None);
//! ```
//!
//! To serve over stdio, call [`Server::serve_stdio`]; [`Server::serve`] works over any
//! `BufRead`/`Write`.
//!
//! Underneath, [`peer::Peer`] is a sans-IO conversation (server and client alike): frames in,
//! events out, typed requests to the other side, cancellation and timeouts by the caller's
//! clock. One [`Router`] holds synchronous handlers and, with the `tokio` feature, async ones
//! (`Router::request_async`), each seeing its call through one [`CallContext`] (an async
//! handler's `AsyncCallContext` adds what a running session can do); one dispatch path runs
//! them over the peer, and one driver,
//! `service::Session`, which runs both kinds, async ones concurrently on tokio, with notifications, progress, requests to the
//! other side and cancellation (see `docs/runtime.md`). [`Server`] is its blocking front end:
//! it polls the session's reading of each frame in place and needs no runtime at all (without
//! features the crate builds tokio's `sync` primitives only; frame in, reply bytes out: what the fuzz targets, the property tests and a server that only
//! computes replies want); it runs the synchronous handlers.
//! The lower layers are public too: [`decode()`] classifies a frame without dispatching it,
//! [`reply`] writes reply bytes, [`answer`] is what a handler answers with (a [`ResultReply`]
//! is a reply whose result was serialized into it once), [`scan`] validates JSON without
//! recursion.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod answer;
mod context;
pub mod decode;
mod engine;
pub mod envelope;
pub mod events;
pub mod framing;
#[cfg(feature = "http")]
pub mod http;
pub mod id;
mod negotiate;
pub mod params;
pub mod peer;
pub mod profile;
pub mod reply;
#[cfg(feature = "http")]
mod routed;
pub mod router;
pub mod scan;
pub mod server;
pub mod service;
// A split is made by the HTTP transport only; without it every frame is decoded in full.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
mod split;
mod stdio;
#[cfg(test)]
mod test_support;

pub use answer::{Answer, ResultReply};
pub use context::{Attachment, CallContext};
pub use decode::{
    Decoded, IdProblem, InvalidReason, JsonType, Message, RawNotification, Rejection, Response,
    ResponseBody, ResponseDefect, decode,
};
pub use events::ProtocolEvent;
pub use id::{Id, IdKind, OwnedId};
pub use mcpwire_types::{IdTypes, ParamsTypes, ProfileFacts};
pub use params::RawParams;
pub use profile::{IdPolicy, Limits, MissingId, Profile};
pub use reply::{RpcError, code};
pub use router::Router;
pub use server::Server;
#[cfg(feature = "tokio")]
pub use service::AsyncCallContext;
