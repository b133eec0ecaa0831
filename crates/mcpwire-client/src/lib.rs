//! # mcpwire-client: a typed MCP client for every MCP version
//!
//! Connect to a server over stdio (a child process, [`ChildProcess`]) or any byte stream
//! ([`StreamTransport`]; Streamable HTTP plugs in through the same [`Transport`] trait), agree
//! on a version, and call it with typed arguments and typed results:
//!
//! ```no_run
//! use mcpwire_client::{CallOptions, ChildProcess, Client, ElicitAnswer, Version};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize)]
//! struct Sum {
//!     sum: i64,
//! }
//!
//! # async fn demo() -> Result<(), mcpwire_client::ClientError> {
//! let client = Client::builder("my-host", "1.0.0")
//!     .protocol_version(Version::V2025_11_25)
//!     // Registering a handler declares its capability.
//!     .on_elicitation(|form| async move {
//!         println!("the server asks: {}", form.message);
//!         Ok(ElicitAnswer::Decline)
//!     })
//!     .on_logging(|message| eprintln!("[{}] {}", message.level, message.data))
//!     .connect(ChildProcess::new("my-mcp-server"))
//!     .await?;
//!
//! for tool in client.list_all_tools().await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//! let added = client
//!     .call_tool_typed::<_, Sum>("add", &serde_json::json!({"a": 2, "b": 3}), &CallOptions::new())
//!     .await?;
//! assert_eq!(added.output.sum, 5);
//! client.close().await;
//! # Ok(()) }
//! ```
//!
//! ## What the client does for you
//!
//! - **Negotiation** ([`ClientBuilder::protocol_version`]): 2024-11-05 … 2025-11-25 by
//!   `initialize` (the server may answer an older version; the client follows it), and
//!   2026-07-28 by `server/discover`, falling back to `initialize` when the server does not
//!   speak it. Under 2026-07-28 every request states the version, the client's capabilities
//!   and its info in `_meta`, and input-required results are answered by the same handlers
//!   that answer server requests under earlier versions, then retried with `requestState`.
//! - **The version's rules, held** on what the server sends: the id types of its profile,
//!   the methods it may send, and (by default, [`ClientBuilder::check_results`]) the schema
//!   of each result. A breach is [`ClientError::Protocol`] naming the [`Rule`] on the call it
//!   concerns, or goes to [`ClientBuilder::on_violation`]; it never panics, hangs, or stops
//!   the reader.
//! - **One model with the server**: tool results ([`ToolResult`], [`Content`] blocks),
//!   prompts ([`PromptResult`]), resource contents ([`EmbeddedResource`]) and completions
//!   ([`CompletionPage`]) are `mcpwire-model`'s version-neutral types, read from the
//!   version's generated types, the same ones `mcpwire-server` sends from.
//! - **Calls**: listing (one [`Page`] at a time or every page), [`Client::call_tool`] and
//!   [`Client::call_tool_typed`] (structured output checked against the listed
//!   `outputSchema`; full JSON Schema validation with the `output-schema` feature), reading
//!   resources, getting prompts, completion, subscriptions (`resources/subscribe`, or
//!   [`Client::listen`] under 2026-07-28), the log level, and any other method through
//!   [`Client::request`].
//! - **What the server asks**: sampling, elicitation (form mode with the schema's defaults
//!   filled in, SEP-1034; URL mode) and roots, by async handlers; a capability is declared
//!   exactly when its handler is registered.
//! - **Notifications**: progress per call ([`CallOptions::on_progress`],
//!   [`CallOptions::progress_stream`]), log messages, list changes and resource updates to
//!   callbacks.
//! - **Cancellation and time**: dropping a call's future sends `notifications/cancelled`;
//!   every call has a timeout (default [`DEFAULT_REQUEST_TIMEOUT`]) that may restart at each
//!   progress notification, within an overall bound. A server that exits, or a transport
//!   that fails, fails every pending call at once.
//!
//! ## Writing a transport
//!
//! A [`Transport`] is opened with the sending half of the incoming channel
//! ([`transport::IncomingSender`]) and returns a [`Connection`] that sends whole frames.
//! Each [`transport::OutgoingFrame`] carries what the client knows about it (kind, method,
//! the name HTTP routes on, the protocol version, the `Mcp-Param-*` values), so a transport
//! never parses what it sends.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "oauth")]
pub mod auth;
mod calls;
mod client;
mod describe;
mod elicit;
mod error;
mod handlers;
#[cfg(feature = "http")]
mod http;
mod known_tools;
mod listen;
mod meta;
mod negotiate;
mod notify;
mod options;
mod output;
mod result_check;
mod session;
mod stdio;
mod stream;
mod tasks;
#[cfg(feature = "http")]
mod tool_headers;
pub mod transport;
mod versions;
mod violation;

pub use calls::{CompletionTarget, MAX_INPUT_ROUNDS, MAX_LIST_PAGES, TypedToolResult, result_text};
pub use client::{Client, ClientBuilder, DEFAULT_MAX_SERVING, DEFAULT_REQUEST_TIMEOUT};
pub use describe::Page;
pub use elicit::{FormElicitation, UrlElicitation, apply_defaults};
pub use error::ClientError;
pub use handlers::{HandlerResult, Root};
/// TLS for `https://` endpoints: the roots a server's certificate may chain to.
#[cfg(feature = "http")]
pub use http::tls;
#[cfg(feature = "http")]
pub use http::{HttpLimits, HttpTransport};
pub use listen::{ListenEvent, ListenFilter, SUBSCRIPTION_CAPACITY, Subscription};
pub use mcpwire_model::Version;
pub use mcpwire_model::content::{Content, ContentKind, EmbeddedResource, ResourceContents, Role};
pub use mcpwire_model::result::wire::CompletionPage;
pub use mcpwire_model::{
    Annotations, Change, ElicitAnswer, ElicitReply, Form, ListKind, PromptArgumentEntry,
    PromptEntry, PromptMessage, PromptResult, ResourceEntry, ResourceTemplateEntry, SampledBlock,
    SampledContent, SampledToolResult, SampledToolUse, SamplingReply, SamplingRequest, SchemaText,
    ToolChoice, ToolChoiceMode, ToolHints, ToolInfo, ToolResult,
};
pub use meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY,
    SUBSCRIPTION_ID_KEY,
};
pub use negotiate::Handshake;
pub use notify::{LogMessage, ProgressEvent};
pub use options::{CallOptions, PROGRESS_STREAM_CAPACITY, ProgressStream};
pub use stdio::{ChildProcess, DEFAULT_EXIT_GRACE, MAX_STDERR_LINE, Stderr};
pub use stream::{DEFAULT_MAX_FRAME_BYTES, StreamTransport};
pub use tasks::{TASKS_EXTENSION, TaskState, TaskStatus, ToolCall};
pub use transport::{Connection, Transport, TransportError};
pub use versions::DEFAULT_VERSION;
pub use violation::{Rule, Violation};
