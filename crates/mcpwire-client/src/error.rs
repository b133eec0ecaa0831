//! The errors of client calls: [`ClientError`].

use std::fmt;
use std::time::Duration;

use mcpwire::RpcError;

use crate::transport::TransportError;
use crate::violation::Violation;

/// Why a client call failed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ClientError {
    /// The transport failed or the connection is closed (the server exited, the client was
    /// closed): every pending call gets this.
    Transport(TransportError),
    /// The server answered with a JSON-RPC error response.
    Rpc(RpcError),
    /// The server broke a wire rule on this call's response.
    Protocol(Violation),
    /// No response within the call's timeout; `notifications/cancelled` was sent.
    Timeout {
        /// The method called.
        method: String,
        /// The timeout that expired.
        after: Duration,
    },
    /// The negotiated version has no such method (nothing was sent).
    NotInVersion {
        /// The method.
        method: String,
        /// The negotiated version.
        version: &'static str,
    },
    /// Version negotiation failed (no common version, no answer to the handshake).
    Negotiation(String),
    /// The request's params or the arguments did not serialize to a JSON object.
    Params(String),
    /// Too many calls are pending at once (nothing was sent).
    TooManyPending {
        /// The bound.
        max: usize,
    },
    /// A tool result's structured content does not match the tool's `outputSchema`, or does
    /// not decode into the type asked for.
    Output {
        /// The tool.
        tool: String,
        /// Where and why.
        reason: String,
    },
}

impl ClientError {
    /// The JSON-RPC error the server answered with, if that is what this is.
    pub fn rpc(&self) -> Option<&RpcError> {
        match self {
            ClientError::Rpc(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Transport(error) => write!(f, "transport: {error}"),
            ClientError::Rpc(error) => write!(
                f,
                "the server answered error {}: {}",
                error.code(),
                error.message()
            ),
            ClientError::Protocol(violation) => violation.fmt(f),
            ClientError::Timeout { method, after } => {
                write!(f, "{method}: no response within {after:?}")
            }
            ClientError::NotInVersion { method, version } => {
                write!(f, "MCP {version} has no method {method}")
            }
            ClientError::Negotiation(reason) => write!(f, "version negotiation: {reason}"),
            ClientError::Params(reason) => write!(f, "params: {reason}"),
            ClientError::TooManyPending { max } => write!(f, "{max} calls are already pending"),
            ClientError::Output { tool, reason } => {
                write!(f, "tool `{tool}` output: {reason}")
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl From<TransportError> for ClientError {
    fn from(error: TransportError) -> Self {
        ClientError::Transport(error)
    }
}

impl From<Violation> for ClientError {
    fn from(violation: Violation) -> Self {
        ClientError::Protocol(violation)
    }
}
