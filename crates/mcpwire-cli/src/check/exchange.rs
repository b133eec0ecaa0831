//! One exchange with the server under test: the frames sent back for one input frame.

use std::fmt;
use std::time::Duration;

use mcpwire_proptest::json::{Frame, JsonKind, object_members, read_frame};
use serde_json::Value;

use super::cases::CheckCase;
use super::route_headers::RouteHeaders;

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
    /// The first [`KEPT_SERVER_FRAMES`] of those, each with whether the input's reply had
    /// already come (`--protocol` judges progress notifications by them).
    pub server_frames: Vec<ServerFrame>,
    /// The HTTP status and headers, over HTTP.
    pub http: Option<HttpMeta>,
    /// Why the exchange did not complete, if it did not.
    pub fault: Option<Fault>,
    /// A reply longer than the checker reads, with the bytes seen.
    pub too_long: Option<usize>,
    /// Replies to earlier cases that arrived during this exchange, by case index.
    pub late: Vec<(usize, Vec<u8>)>,
    /// How many of `replies` carry no usable id and were attributed by arrival order.
    pub by_order: usize,
    /// How many of those carry an id but were attributed by arrival order because the input's
    /// own id is unreadable (so no reply can match it by id).
    pub by_order_input_id_unreadable: usize,
    /// How many of `replies` arrived after the case's window had closed (attributed by id).
    pub arrived_late: usize,
    /// Over HTTP, where a follow-up ([`Target::exchange_followed`]) travels on a connection
    /// of its own: the answer came before the server acknowledged the follow-up, so the
    /// follow-up may have come after the work was done.
    pub answered_before_follow: bool,
}

/// Server-initiated messages kept per exchange (the rest are only counted), so a server that
/// floods notifications cannot grow the checker's memory.
pub const KEPT_SERVER_FRAMES: usize = 256;

/// A server-initiated request or notification seen during an exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerFrame {
    /// The frame.
    pub frame: Vec<u8>,
    /// Whether a reply to the input had come before it.
    pub after_reply: bool,
}

impl Exchange {
    /// Counts a server-initiated message and keeps it (the first [`KEPT_SERVER_FRAMES`]).
    pub fn server_message(&mut self, frame: Vec<u8>) {
        self.server_messages += 1;
        if self.server_frames.len() < KEPT_SERVER_FRAMES {
            let after_reply = !self.replies.is_empty();
            self.server_frames.push(ServerFrame { frame, after_reply });
        }
    }
}

/// What a stdio server wrote that belongs to no case: collected over the whole run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leftovers {
    /// Late replies to earlier cases seen in the final drain, by case index.
    pub late: Vec<(usize, Vec<u8>)>,
    /// Replies whose id matches nothing the checker sent (the first few).
    pub unknown: Vec<Vec<u8>>,
    /// How many such replies.
    pub unknown_count: usize,
    /// Stdout lines that are not the protocol (the first few).
    pub noise: Vec<Vec<u8>>,
    /// How many such lines.
    pub noise_count: usize,
}

/// A server under test, reachable over some transport.
pub trait Target {
    /// Sends case `index`'s frame and collects what the server sends back for it.
    fn exchange(&mut self, index: usize, case: &CheckCase) -> Exchange;
    /// The profile the session runs under (after the handshake).
    fn profile(&self) -> &'static mcpwire_types::ProfileFacts;
    /// A one-line description, e.g. `stdio: node server.js` or `http://127.0.0.1:3000/mcp`.
    fn describe(&self) -> String;
    /// How many times the server was restarted.
    fn restarts(&self) -> usize {
        0
    }
    /// Whether the transport is HTTP (blank frames and byte order marks are not sent over HTTP).
    fn is_http(&self) -> bool {
        false
    }
    /// The handshake's exchanges (`initialize`, `server/discover`), judged like any case.
    fn handshake(&mut self) -> Vec<(CheckCase, Exchange)>;
    /// Sets how long one case's reply is awaited from now on (`--tool-timeout` for tool
    /// calls, which may do real work).
    fn set_timeout(&mut self, timeout: Duration);
    /// While on, every case's own reply is awaited a little after the sentinel's (shrinking
    /// must not mistake a late reply for a missing one).
    fn set_patient(&mut self, _patient: bool) {}
    /// Sends `case` with exactly the routing headers `route` (MCP 2026-07-28 over HTTP);
    /// `None` where the transport has no headers.
    fn exchange_with_headers(
        &mut self,
        _index: usize,
        _case: &CheckCase,
        _route: &RouteHeaders,
    ) -> Option<Exchange> {
        None
    }

    /// Sends `frame` (an `initialize`) as the first message of a new session of its own, and
    /// collects the reply carrying its id; the session is then ended. `None` where the
    /// transport cannot start one (the run's session is not touched either way).
    fn fresh_session(&mut self, _frame: &[u8]) -> Option<Exchange> {
        None
    }

    /// Sends a body-less HTTP `method` (GET, DELETE) to the endpoint within the run's
    /// session and returns the status; `None` where the transport is not HTTP.
    fn bare_status(&mut self, _method: &str) -> Option<Result<u16, String>> {
        None
    }

    /// Sends `case`, then `follow` (a notification about it, such as its cancellation) right
    /// behind it, then the sentinel, and collects what comes back as for
    /// [`exchange`](Target::exchange); `None` where the transport cannot send them in order
    /// on one stream.
    fn exchange_followed(
        &mut self,
        _index: usize,
        _case: &CheckCase,
        _follow: &[u8],
    ) -> Option<Exchange> {
        None
    }

    /// Ends the run: waits for stragglers and returns what belongs to no case.
    fn finish(&mut self) -> Leftovers {
        Leftovers::default()
    }
}

/// What a reply frame's id says about whom it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyKey {
    /// The exact JSON text of its `id` member (not `null`).
    Id(String),
    /// No usable id: omitted, `null`, or the frame is not an object.
    NoId,
}

/// The id a reply carries, as exact JSON text (never through f64).
///
/// ```
/// use mcpwire_cli::check::exchange::{ReplyKey, reply_key};
/// assert_eq!(reply_key(br#"{"jsonrpc":"2.0","id":1e3,"result":{}}"#), ReplyKey::Id("1e3".into()));
/// assert_eq!(reply_key(br#"{"jsonrpc":"2.0","id":null,"error":{}}"#), ReplyKey::NoId);
/// assert_eq!(reply_key(b"[1]"), ReplyKey::NoId);
/// ```
pub fn reply_key(frame: &[u8]) -> ReplyKey {
    let Frame::Value {
        text,
        kind: JsonKind::Object,
    } = read_frame(frame)
    else {
        return ReplyKey::NoId;
    };
    match object_members(text).iter().find(|m| m.key == "id") {
        Some(member) if member.value != "null" => ReplyKey::Id(member.value.to_owned()),
        _ => ReplyKey::NoId,
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

/// Appends replies that arrived after their case's window to that case: by id, or (without a
/// usable id, between windows) by arrival order, which the case's note then says.
pub fn attribute_late(results: &mut [(CheckCase, Exchange)], late: &[(usize, Vec<u8>)]) {
    for (index, reply) in late {
        if let Some((_, exchange)) = results.get_mut(*index) {
            exchange.replies.push(reply.clone());
            if reply_key(reply) == ReplyKey::NoId {
                exchange.by_order += 1;
            } else {
                exchange.arrived_late += 1;
            }
        }
    }
}
