//! The client against `mcpwire-server` in process, under every MCP version: every call
//! kind, what the server asks, cancellation both ways, progress and timeouts, malformed
//! servers, and a child process that dies mid-call.

mod asks;
mod calls;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "http")]
mod http_get_stream;
#[cfg(feature = "http")]
mod http_settings;
#[cfg(feature = "http")]
mod https;
#[cfg(feature = "http")]
mod legacy_http;
mod listed_schemas;
mod listing_members;
mod malformed;
mod negotiation;
mod notifications;
#[cfg(feature = "oauth")]
mod oauth;
mod retry_version;
mod sampling_meta;
mod sampling_tools;
mod stdio;
mod support;
#[cfg(feature = "http")]
mod tasks;
mod time;
