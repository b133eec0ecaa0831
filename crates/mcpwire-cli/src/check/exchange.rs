//! One exchange with the server under test: the frames sent back for one input frame.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

/// The HTTP side of an exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpMeta {
    /// The response status.
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body's length in bytes.
    pub body_len: usize,
}

/// Why an exchange did not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The server process exited (and is restarted for the next case).
    Exited {
        /// The exit status as the OS reports it.
        status: String,
        /// The end of the server's stderr.
        stderr: String,
    },
    /// No reply to the sentinel (stdio) or no response (HTTP) within the timeout; the server
    /// is killed and restarted (stdio).
    NoReply {
        /// The timeout.
        timeout: Duration,
        /// The id waited for.
        id: String,
    },
    /// The transport failed (connection refused, broken pipe, restart failed).
    Transport(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Exited { status, stderr } if stderr.is_empty() => {
                write!(f, "server exited ({status})")
            }
            Fault::Exited { status, stderr } => write!(
                f,
                "server exited ({status}); its stderr ends with: {stderr}"
            ),
            Fault::NoReply { timeout, id } => write!(
                f,
                "no reply within {:.1}s to id {id}",
                timeout.as_secs_f64()
            ),
            Fault::Transport(message) => f.write_str(message),
        }
    }
}

/// What the server did with one input frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exchange {
    /// The frames attributed to the input, in arrival order (server-initiated requests and
    /// notifications removed).
    pub replies: Vec<Vec<u8>>,
    /// Server-initiated requests and notifications seen meanwhile (ignored by the rules).
    pub server_messages: usize,
    /// The HTTP status and headers, over HTTP.
    pub http: Option<HttpMeta>,
    /// Why the exchange did not complete, if it did not.
    pub fault: Option<Fault>,
}

/// A server under test, reachable over some transport.
pub trait Target {
    /// Sends one frame and collects what the server sends back for it.
    fn exchange(&mut self, frame: &[u8]) -> Exchange;
    /// The profile the session runs under (after the handshake).
    fn profile(&self) -> &'static mcpwire_types::ProfileFacts;
    /// A one-line description, e.g. `stdio: node server.js` or `http://127.0.0.1:3000/mcp`.
    fn describe(&self) -> String;
    /// How many times the server was restarted.
    fn restarts(&self) -> usize {
        0
    }
    /// Whether the transport is HTTP (blank frames are not sent over HTTP).
    fn is_http(&self) -> bool {
        false
    }
}

/// Whether a frame the server wrote is a server-initiated request or notification (an object
/// with a string `method` and neither `result` nor `error`) rather than a reply.
///
/// ```
/// use mcpwire_cli::check::exchange::is_server_message;
/// assert!(is_server_message(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#));
/// assert!(!is_server_message(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
/// assert!(!is_server_message(b"not json"));
/// ```
pub fn is_server_message(frame: &[u8]) -> bool {
    match serde_json::from_slice::<Value>(frame) {
        Ok(Value::Object(object)) => {
            matches!(object.get("method"), Some(Value::String(_)))
                && !object.contains_key("result")
                && !object.contains_key("error")
        }
        _ => false,
    }
}

/// Whether a frame is the reply to the call whose id is the string `id`.
///
/// ```
/// use mcpwire_cli::check::exchange::is_reply_to;
/// assert!(is_reply_to(br#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#, "s-1"));
/// assert!(!is_reply_to(br#"{"jsonrpc":"2.0","id":"s-12","result":{}}"#, "s-1"));
/// ```
pub fn is_reply_to(frame: &[u8], id: &str) -> bool {
    let needle = id.as_bytes();
    if !frame.windows(needle.len()).any(|w| w == needle) {
        return false;
    }
    match serde_json::from_slice::<Value>(frame) {
        Ok(Value::Object(object)) => {
            object.get("id").and_then(Value::as_str) == Some(id) && !object.contains_key("method")
        }
        _ => false,
    }
}

/// A frame without its line ending (`\n`, `\r\n`).
pub fn trim_line_end(frame: &[u8]) -> &[u8] {
    let frame = frame.strip_suffix(b"\n").unwrap_or(frame);
    frame.strip_suffix(b"\r").unwrap_or(frame)
}
