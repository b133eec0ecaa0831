//! # mcpwire: a JSON-RPC 2.0 / MCP wire runtime that never loses an id
//!
//! mcpwire decodes frames with a strict, non-recursive scanner, classifies them by the
//! wire rules of a [`Profile`] (plain JSON-RPC 2.0 or one MCP version, derived from the
//! schemas), routes requests to typed handlers and writes exact reply bytes. Ids are kept
//! as their original JSON text, so `9007199254740993`, `1e3` and `-0` come back exactly as
//! sent; invalid input is answered with the id whenever it can be read; notifications and
//! responses are never answered. The rules are listed in `docs/wire-rules.md`.
//!
//! ## Quick start
//!
//! ```
//! use mcpwire::{Context, Profile, Router, RpcError, Server};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Subtract { minuend: i64, subtrahend: i64 }
//!
//! let router = Router::new()
//!     .request("subtract", |_state: &mut (), p: Subtract, _ctx: &mut Context<'_>| {
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
//! To serve over stdio, call [`serve_stdio`]; [`serve`] works over any `BufRead`/`Write`.
//!
//! Underneath, [`peer::Peer`] is a sans-IO conversation (server and client alike): frames in,
//! events out, typed requests to the other side, cancellation and timeouts by the caller's
//! clock; [`Server`] is a thin layer over it. With the `tokio` feature, `service` runs async
//! handlers concurrently over it, with notifications, progress, requests to the other side and
//! cancellation (see the README's "Building a server").
//! The lower layers are public too: [`decode()`] classifies a frame without dispatching it,
//! [`reply`] writes reply bytes, [`scan`] validates JSON without recursion.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod decode;
pub mod envelope;
pub mod events;
pub mod framing;
pub mod id;
mod negotiate;
pub mod params;
pub mod peer;
pub mod profile;
pub mod reply;
pub mod router;
mod routes;
pub mod scan;
pub mod server;
#[cfg(feature = "tokio")]
pub mod service;
pub mod stdio;
#[cfg(test)]
mod test_support;

pub use decode::{
    Decoded, IdProblem, InvalidReason, JsonType, Message, Rejection, Response, ResponseBody,
    ResponseDefect, decode,
};
pub use events::ProtocolEvent;
pub use id::{Id, IdKind, OwnedId};
pub use mcpwire_types::{IdTypes, ParamsTypes, ProfileFacts};
pub use params::RawParams;
pub use profile::{IdPolicy, Limits, MissingId, Profile};
pub use reply::{RpcError, code};
pub use router::{Context, Router};
pub use server::Server;
pub use stdio::{serve, serve_stdio};
