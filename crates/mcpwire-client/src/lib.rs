//! A typed MCP client over the mcpwire runtime: it speaks to a server over stdio (a child
//! process) or Streamable HTTP, under every MCP version.
//!
//! The client core is transport-neutral: a [`Transport`] moves whole frames, the client
//! session (request ids, pending calls, server-initiated requests, notifications) sits on
//! top of the sans-IO [`mcpwire::peer::Peer`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod calls;
mod client;
mod describe;
mod elicit;
mod error;
mod handlers;
#[cfg(feature = "http")]
mod http;
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
mod tool_headers;
pub mod transport;
mod versions;
mod violation;

pub use calls::{
    Completion, CompletionTarget, MAX_INPUT_ROUNDS, MAX_LIST_PAGES, PromptResult,
    PromptResultMessage, ReadResult, ToolCallResult, TypedToolResult,
};
pub use client::{Client, ClientBuilder, DEFAULT_MAX_SERVING, DEFAULT_REQUEST_TIMEOUT};
pub use describe::{
    Page, PromptArgument, PromptDescription, ResourceDescription, TemplateDescription,
    ToolDescription,
};
pub use elicit::{ElicitAnswer, FormElicitation, UrlElicitation, apply_defaults};
pub use error::ClientError;
pub use handlers::{HandlerResult, Root};
#[cfg(feature = "http")]
pub use http::{HttpLimits, HttpTransport};
pub use listen::{ListenEvent, ListenFilter, SUBSCRIPTION_CAPACITY, Subscription};
pub use mcpwire_model::Version;
pub use meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY,
    SUBSCRIPTION_ID_KEY,
};
pub use negotiate::Handshake;
pub use notify::{ListKind, LogMessage, ProgressEvent};
pub use options::{CallOptions, PROGRESS_STREAM_CAPACITY, ProgressStream};
pub use stdio::{ChildProcess, DEFAULT_EXIT_GRACE, MAX_STDERR_LINE, Stderr};
pub use stream::{DEFAULT_MAX_FRAME_BYTES, StreamTransport};
pub use transport::{Connection, Transport, TransportError};
pub use versions::DEFAULT_VERSION;
pub use violation::{Rule, Violation};
