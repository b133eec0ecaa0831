//! # Streamable HTTP: the MCP transport for any server (feature `http`)
//!
//! [`HttpServer`] serves one MCP endpoint over HTTP/1.1 (hyper 1 on tokio) for any
//! [`HttpService`]: the transport hands each POST body to a [`SessionHandler`] and sends back
//! the frames it causes. [`AsyncServer`] puts an async [`crate::service::Session`] behind it
//! (notifications, progress and requests to the client on the POST's SSE stream, cancellation
//! when the session ends); [`SyncServer`], a thin wrapper of the same adapter, a synchronous
//! [`crate::Server`] turned into its session ([`crate::Server::into_session`]).
//!
//! ```no_run
//! use mcpwire::http::{HttpConfig, HttpServer, SyncServer};
//! use mcpwire::{CallContext, Profile, Router, RpcError, Server};
//!
//! fn main() -> std::io::Result<()> {
//!     let service = SyncServer::new(|| {
//!         let router = Router::new().request("ping", |_: &(), _: (), _: &mut CallContext<'_>| {
//!             Ok::<_, RpcError>(serde_json::json!({}))
//!         });
//!         Server::new(Profile::mcp("2025-11-25").unwrap(), (), router)
//!     });
//!     let config = HttpConfig::default().bind("127.0.0.1:8080".parse().unwrap());
//!     let server = HttpServer::bind(config, service)?;
//!     eprintln!("listening on {}", server.url());
//!     server.run_blocking()
//! }
//! ```
//!
//! ## The interface
//!
//! One incoming frame (the POST body) → the frames it causes. [`SessionHandler::handle`]
//! receives the frame and an [`Outbound`], a bounded sender; it returns the reply (`None`
//! when nothing is to be answered). When the handler returns without sending anything, the
//! reply goes out as `application/json` (202 with no body when there is no reply). As soon as
//! it sends a frame first (progress, logging, a request to the client), the answer becomes a
//! `text/event-stream`: those frames, then the reply, then the stream ends. Unsolicited
//! messages go through [`SessionOpening::unsolicited`] to the session's GET stream.
//!
//! ## What the transport does, and the sentence of the specification it rests on
//!
//! Quotations are from the MCP Streamable HTTP transport of 2025-03-26, 2025-06-18,
//! 2025-11-25 and 2026-07-28 (stateless mode).
//!
//! | behaviour | specification |
//! |---|---|
//! | one endpoint path, [`HttpConfig::path`] (default `/mcp`); any other path is 404 | "The server MUST provide a single HTTP endpoint path … that supports both POST and GET methods." |
//! | `Origin` not on the allow-list: 403 with an id-less JSON-RPC error; `Host` not on the allow-list: 403 (the DNS-rebinding case: the browser sends the attacker's name) | "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS rebinding attacks. If the `Origin` header is present and invalid, servers MUST respond with HTTP 403 Forbidden." |
//! | binds `127.0.0.1` by default; another address needs [`HttpConfig::allow_remote`] and prints a warning | "When running locally, servers SHOULD bind only to localhost (127.0.0.1) rather than all network interfaces (0.0.0.0)." |
//! | more than one `Host` header: 400 | RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field and to any request message that contains more than one Host header field line" |
//! | POST `Content-Encoding` other than `identity`: 415 (no coding is decoded) | RFC 9110 §8.4: a server that does not accept a content coding of a request body responds 415 |
//! | POST `Content-Type` other than `application/json`: 415 | "The body of the POST request MUST be a single JSON-RPC request, notification, or response." |
//! | POST `Accept` that admits no `application/json`: 406; one that admits no `text/event-stream` closes the handler's [`Outbound`] (the reply still comes as JSON); no `Accept` admits both | "The client MUST include an `Accept` header, listing both `application/json` and `text/event-stream` as supported content types." |
//! | only notifications or responses, accepted: 202, no body | "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body." |
//! | rejected input: 400 — unreadable input with the handler's id-less error reply, a readable but invalid message with its -32600 reply carrying the id, a batch beyond [`HttpConfig::max_batch_len`] with the transport's id-less -32600 | "If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request). The HTTP response body MAY comprise a JSON-RPC error response that has no `id`." |
//! | a request: 200 `application/json`, or `text/event-stream` when the handler streams | "If the input is a JSON-RPC request, the server MUST either return `Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`, to return one JSON object." |
//! | SSE: the handler's frames, then the reply, then the stream ends; its sender is closed after the reply | "The server MAY send JSON-RPC requests and notifications before sending the JSON-RPC response. … After the JSON-RPC response has been sent, the server SHOULD terminate the SSE stream." |
//! | with sessions, a client that leaves does not cancel the handler (its [`Outbound`] closes) | "Disconnection SHOULD NOT be interpreted as the client cancelling its request." (2025-03-26 to 2025-11-25) |
//! | stateless mode: a client that leaves before its answer is complete cancels the request: the handler's future is dropped and its session ends ([`AsyncServer`] fires the handlers' cancellation tokens) | 2026-07-28: a client cancels a request by closing its response stream |
//! | GET: the session's SSE stream of unsolicited messages when the service offers them ([`HttpService::unsolicited_messages`]), else 405 with `Allow`; `Accept` without `text/event-stream`: 406; one GET stream per session (another: 409), no message sent twice | "The server MUST either return `Content-Type: text/event-stream` in response to this HTTP GET, or else return HTTP 405 Method Not Allowed" and "The server MUST send each of its JSON-RPC messages on only one of the connected streams." |
//! | a successful `initialize` (a `result` reply) without a session gets `Mcp-Session-Id`: 128 bits from the OS's secure random source, 32 hex digits | "A server using the Streamable HTTP transport MAY assign a session ID at initialization time … The session ID SHOULD be globally unique and cryptographically secure … MUST only contain visible ASCII characters." |
//! | any other POST without the header: 400 | "Servers that require a session ID SHOULD respond to requests without an `Mcp-Session-Id` header (other than initialization) with HTTP 400 Bad Request." |
//! | an unknown, ended, evicted or expired session: 404 | "The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found." |
//! | DELETE with a known session: 204, the session ends (its GET stream too); without the header 400, unknown 404 | "Clients that no longer need a particular session … SHOULD send an HTTP DELETE to the MCP endpoint with the `Mcp-Session-Id` header, to explicitly terminate the session." |
//! | `MCP-Protocol-Version` not in [`HttpConfig::protocol_versions`], or within a session not the version its `initialize` agreed: 400; absent: accepted | "If the server receives a request with an invalid or unsupported `MCP-Protocol-Version`, it MUST respond with `400 Bad Request`." and "if the server does not receive an `MCP-Protocol-Version` header … the server SHOULD assume protocol version `2025-03-26`." |
//! | stateless mode ([`HttpConfig::stateless`], MCP 2026-07-28): a fresh handler per POST, no session ids, `Mcp-Session-Id` ignored, GET and DELETE 405 | "HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`. An `Mcp-Session-Id` header on a request: ignore it, and do not mint or echo session IDs." |
//! | both eras ([`Eras::Both`], the default, with a service that names [`HttpService::stateless_versions`]): a POST whose `_meta` states a protocol version, or whose `MCP-Protocol-Version` names one of those versions, is served as in stateless mode (its `Mcp-Session-Id` ignored; `initialize` so stated 404); any other as with sessions; GET and DELETE naming such a version 405 | "A dual-era server selects its behavior from how the client opens: A request carrying modern per-request `_meta` is served statelessly according to this revision. An `initialize` request selects legacy semantics, scoped to ... the session (HTTP) ... A dual-era server MAY serve both eras concurrently on the same endpoint or process." (2026-07-28, Versioning and Compatibility) |
//! | stateless mode, a message naming an MCP version: `MCP-Protocol-Version` and `Mcp-Method` required, `Mcp-Name` for `tools/call`, `resources/read` and `prompts/get`; each must match the body (values may be `=?base64?…?=`); missing, mismatched or invalid: 400 with error -32020 | "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body." (2026-07-28) |
//! | stateless mode: a reply with -32601 (a method the version lacks, such as `initialize`, or one the server does not offer) is sent with 404; -32602 and -32020 to -32022 with 400 | required by the official conformance suite's 2026-07-28 requirement set (SEP-2575 scenarios); the 2026-07-28 schema itself names a status only for -32020 to -32022 (400) |
//! | a page on an allowed origin gets CORS headers (`Access-Control-Allow-Origin`: its origin, `Mcp-Session-Id` exposed) and an answer to its preflight `OPTIONS`; no other origin gets past the 403 | (browsers need CORS to read a cross-origin answer; the allow-list above is what admits an origin) |
//! | SSE responses carry `X-Accel-Buffering: no` and `Cache-Control: no-cache` | "When initiating an SSE stream, servers SHOULD include the `X-Accel-Buffering: no` header in the HTTP response." |
//! | with [`HttpConfig::event_store`]: every event of a session's POST streams and of its GET stream has an id (`{stream}-{n}`), kept in the [`EventStore`]; from 2025-11-25 a priming event (id, `retry`, empty data) opens the stream; [`Outbound::close_connection`] ends the connection early, after a `retry` field | "Servers MAY attach an `id` field to their SSE events … If present, the ID MUST be globally unique across all streams within that session" and "The server SHOULD immediately send an SSE event consisting of an event ID and an empty data field in order to prime the client to reconnect" and "If the server does close the connection prior to terminating the SSE stream, it SHOULD send an SSE event with a standard `retry` field before closing the connection." (2025-11-25) |
//! | GET with `Last-Event-ID`: the events after it on its stream, then the rest of that stream (of the session's GET stream: the unsolicited messages that come next, on the same stream; 409 while that stream is open on another connection); an id of another session's stream (indistinguishable from an unknown one), a malformed one, or one whose successors the store dropped: 400 | "The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected … The server MUST NOT replay messages that would have been delivered on a different stream." |
//! | a GET with `Last-Event-ID` naming a session this server does not hold: with an event store shared by several processes, served from the store when the stream belongs to that session (the process that wrote it may be gone); otherwise 404 as for any unknown session | (several processes behind one endpoint: the store, not the process, holds the stream) |
//! | with [`HttpConfig::health_check`]: `GET /healthz` answers `{"status":"up"\|"down","checks":…}` with 200 or 503; with an `Origin` header 403 (no page reads it); other methods 405 | (operations: probes and load balancers) |
//! | with [`HttpConfig::session_id_tag`]: every session id minted here starts with that byte, so a load balancer routes each session to its process | (sticky routing by `Mcp-Session-Id`; see `scripts/cluster/nginx.conf.template`) |
//!
//! ## Limits (what input cannot make the server hold)
//!
//! - Bodies: at most [`HttpConfig::max_body_bytes`] (a declared larger `Content-Length` is
//!   413 before any byte is read, one that grows past it 413 too); a body that ends early is
//!   400; one that is not complete within [`HttpConfig::body_timeout`] is 408. All bodies in
//!   memory at once share [`HttpConfig::body_budget_bytes`]: a body holds the bytes that have
//!   arrived (a declared `Content-Length` reserves nothing) until it has been decoded, never
//!   while its handler runs; a chunk beyond the budget gets 503 with `Retry-After`.
//! - Connections: at most [`HttpConfig::max_connections`] (reached: the longest idle one is
//!   closed to make room; with none idle the rest wait in a listen backlog of
//!   [`HttpConfig::listen_backlog`]), of which one client (as for sessions below) holds at
//!   most [`HttpConfig::max_connections_per_peer`] (beyond: 429 and the connection closes); a
//!   connection that has sent nothing yet counts as idle only once older than
//!   [`HttpConfig::fresh_connection_grace`] (1 s: its request head may be on its way); a
//!   request head must arrive within [`HttpConfig::header_timeout`] (hyper's timer; the
//!   connection is closed), at most 64 KiB (431);
//!   a kept-alive connection without a request in progress closes after
//!   [`HttpConfig::idle_timeout`]. Accept errors (such as running out of file descriptors) back
//!   off up to one second instead of spinning.
//! - Sessions: at most [`HttpConfig::max_sessions`]; unused ones end after
//!   [`HttpConfig::session_idle_timeout`] (swept on a timer); when the table is full an idle
//!   session of the client holding the most sessions is evicted, its least recently used one
//!   (none idle: 503); one client (an IPv4 address, an IPv6 /64, all loopback addresses
//!   together) holds at most [`HttpConfig::max_sessions_per_peer`] (at its share a new
//!   session ends its own least recently used idle one; none idle: 429), so one client cannot
//!   push out the others' sessions nor lock itself out by never sending DELETE.
//! - Answers: a client that reads nothing of its answer for [`HttpConfig::write_timeout`], or
//!   reads it slower than [`HttpConfig::min_write_rate`] once behind, loses its connection;
//!   answers not yet taken by their clients share [`HttpConfig::response_budget_bytes`] (a
//!   JSON answer that does not fit: 503). Not bounded: how long a GET stream stays open while
//!   it is read (it counts against [`HttpConfig::max_connections`] and keeps its session in
//!   use).
//! - Time: in stateless mode a request whose answer is not complete within
//!   [`HttpConfig::request_timeout`] (default 5 minutes) is cancelled and answered -32001
//!   with its id.
//! - Handling: every connection is its own task on a multi-threaded runtime; [`SyncServer`]
//!   reads frames (its synchronous handlers running in place) on the blocking pool behind a
//!   per-session lock, so one session's long batch delays neither the accept loop nor another
//!   session.

mod blocking_adapter;
mod body;
mod classify;
mod config;
mod cors;
mod deadline;
mod endpoint;
mod event_store;
mod exchange;
mod forwarded;
/// The sending side of one response stream's frames (see [`crate::service::queue`]).
pub(crate) type FrameSender = crate::service::queue::Sender<hyper::body::Bytes>;
/// The receiving side of one response stream's frames.
pub(crate) type FrameReceiver = crate::service::queue::Receiver<hyper::body::Bytes>;
mod guard;
mod handler;
mod headers;
mod health;
mod listener;
mod origin;
mod race;
mod repoll;
mod request_state;
mod response;
mod response_budget;
mod resumable;
mod routing;
mod session_adapter;
mod session_id;
mod sessions;
pub mod sse;
mod tower;
mod write_timeout;

pub use blocking_adapter::SyncServer;
pub use config::{Eras, HttpConfig};
pub use event_store::{
    EventId, EventStore, MemoryEventStore, StoreError, StoreFuture, StoreResult, StoredEvents,
    StreamId,
};
pub use forwarded::TrustedProxy;
pub use guard::{Caller, Gate, Guard, GuardFuture, MessageTarget};
pub use handler::{HandlerReply, HttpService, Outbound, SessionHandler, SessionOpening};
pub use headers::{METHOD_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER};
pub use health::{HEALTH_PATH, Health, HealthCheck};
/// The byte buffer frames travel in (re-exported from hyper).
pub use hyper::body::Bytes;
pub use hyper::header::HeaderMap;
pub use listener::{HttpServer, shutdown_signal};
pub use request_state::ENDED_FOR_SHARE;
pub use response::ResponseBody;
pub use routing::{
    NAME_HEADER, PARAM_HEADER_PREFIX, ParamHeader, ParamHeaderError,
    decode_value as decode_header_value, encode_value as encode_header_value, param_header_text,
    param_headers,
};
pub use session_adapter::{AsyncServer, AsyncSession};
pub use session_id::SessionId;
pub use tower::{McpEndpoint, PeerAddr};
