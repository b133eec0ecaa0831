//! The transport abstraction: how the client hands frames to a server and hears its frames.
//!
//! A transport moves whole JSON-RPC frames; it never parses them. The client tells it, with
//! each outgoing frame, what it already knows about that frame ([`OutgoingFrame`]: its kind,
//! method, the name HTTP routes on, the protocol version, the `Mcp-Param-*` values), so a
//! transport that needs them for headers (Streamable HTTP) does not parse the frame again.
//!
//! Everything the server sends arrives on one channel ([`IncomingSender`]), whatever path it
//! took (stdout lines of a child process; the JSON or SSE answer of a POST; the GET stream).
//! The transport ends it with [`Incoming::Closed`] (or by dropping the sender): the client
//! then fails every pending call, so a server that exits is never a hang.
//!
//! Lifecycle: [`Transport::open`] starts the transport and gives back a [`Connection`];
//! [`Connection::close`] ends it explicitly, and dropping the connection must end it too
//! (stdio kills the child's process group; HTTP deletes its session as best it can).

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use mcpwire::peer::OutgoingId;
use tokio::sync::mpsc;

/// A boxed, `Send` future: what the object-safe transport methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How many incoming frames may wait for the client's reader before a transport's reads
/// wait (back-pressure, so a fast server cannot grow memory without bound).
pub const INCOMING_CAPACITY: usize = 64;

/// What kind of JSON-RPC message an [`OutgoingFrame`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// A request the client sent; its response is awaited under this id.
    Request(OutgoingId),
    /// A notification (no response).
    Notification,
    /// The client's response to a request the server sent.
    Response,
}

/// One frame the client sends, with what it knows about it.
#[derive(Debug, Clone)]
pub struct OutgoingFrame {
    /// The JSON-RPC message, one JSON value without a line terminator.
    pub bytes: Vec<u8>,
    /// Request, notification or response.
    pub kind: FrameKind,
    /// The method of a request or notification (`None` for responses): HTTP's `Mcp-Method`.
    pub method: Option<Cow<'static, str>>,
    /// The name the request is about, where MCP routes on one: the tool of `tools/call`, the
    /// prompt of `prompts/get`, the URI of `resources/read` (HTTP's `Mcp-Name`).
    pub name: Option<String>,
    /// The protocol version the frame is sent under (`None` before negotiation settled one,
    /// i.e. for `initialize` itself): HTTP's `MCP-Protocol-Version`.
    pub protocol_version: Option<&'static str>,
    /// The values of the tool parameters the tool's input schema marks with `x-mcp-header`,
    /// as `(header suffix, value)`: HTTP sends each as `Mcp-Param-<suffix>`. Empty unless the
    /// negotiated version has these headers.
    pub param_headers: Vec<(String, String)>,
}

impl OutgoingFrame {
    /// A frame with only its bytes and kind known (no method, name, version or headers).
    pub fn new(bytes: Vec<u8>, kind: FrameKind) -> Self {
        Self {
            bytes,
            kind,
            method: None,
            name: None,
            protocol_version: None,
            param_headers: Vec::new(),
        }
    }

    /// The request id when the frame is a request.
    pub fn request_id(&self) -> Option<OutgoingId> {
        match self.kind {
            FrameKind::Request(id) => Some(id),
            _ => None,
        }
    }
}

/// What a transport delivers to the client.
#[derive(Debug)]
pub enum Incoming {
    /// One frame the server sent: a JSON-RPC message or batch, without line terminator. It
    /// may be anything (malformed frames are the client's to judge).
    Frame(Vec<u8>),
    /// The transport knows the response to this request will never arrive (an HTTP POST
    /// answered with an error status, an SSE stream that ended and could not be resumed):
    /// the call fails with `error`. The connection stays open.
    Lost {
        /// The request that will get no response.
        id: OutgoingId,
        /// Why.
        error: TransportError,
    },
    /// The transport dropped a frame it could not take (larger than its bound): reported
    /// as a violation; the connection stays open.
    Discarded(TransportError),
    /// The connection ended (the child exited, the session is gone): every pending call
    /// fails with this error, and nothing more is read.
    Closed(TransportError),
}

/// The sending half of the incoming channel, given to [`Transport::open`].
#[derive(Debug, Clone)]
pub struct IncomingSender(mpsc::Sender<Incoming>);

impl IncomingSender {
    /// Delivers one event; waits while the client's reader is [`INCOMING_CAPACITY`] events
    /// behind. Returns `false` when the client is gone (the transport should stop reading).
    pub async fn send(&self, incoming: Incoming) -> bool {
        self.0.send(incoming).await.is_ok()
    }

    /// Delivers one frame (see [`send`](Self::send)).
    pub async fn frame(&self, bytes: Vec<u8>) -> bool {
        self.send(Incoming::Frame(bytes)).await
    }

    /// Whether the client stopped listening.
    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// The receiving half of the incoming channel: what the client's reader task reads.
#[derive(Debug)]
pub struct IncomingReceiver(mpsc::Receiver<Incoming>);

impl IncomingReceiver {
    /// The next event; `None` once every sender is dropped (treated as [`Incoming::Closed`]).
    pub async fn recv(&mut self) -> Option<Incoming> {
        self.0.recv().await
    }
}

/// A new incoming channel holding at most [`INCOMING_CAPACITY`] events.
pub fn incoming_channel() -> (IncomingSender, IncomingReceiver) {
    let (sender, receiver) = mpsc::channel(INCOMING_CAPACITY);
    (IncomingSender(sender), IncomingReceiver(receiver))
}

/// A way to reach a server, not yet started (a command to spawn, a URL to post to).
pub trait Transport: Send + 'static {
    /// Starts the transport. From now on every frame the server sends goes to `incoming`,
    /// and the end of the connection is reported there ([`Incoming::Closed`]).
    fn open(
        self: Box<Self>,
        incoming: IncomingSender,
    ) -> BoxFuture<'static, Result<Box<dyn Connection>, TransportError>>;
}

/// A started transport. Methods take `&self`: the client sends concurrently (requests,
/// notifications, its responses to the server), and the connection orders or parallelises
/// them as its medium allows. Dropping it must end the connection (no child process or task
/// outlives it).
pub trait Connection: Send + Sync + 'static {
    /// Hands one frame to the server. `Ok` once it is on its way (written to the child's
    /// stdin; for HTTP, once the POST was accepted and its answer, if any, is being read into
    /// the incoming channel). An error means the frame did not reach the server; the client
    /// then fails the call it belongs to.
    fn send(&self, frame: OutgoingFrame) -> BoxFuture<'_, Result<(), TransportError>>;

    /// Ends the connection (kill the child's process group; HTTP: DELETE the session).
    /// Idempotent; after it, [`send`](Self::send) fails with [`TransportError::Closed`].
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// Why a transport could not deliver, or stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The connection is closed (by the client, or it ended before).
    Closed,
    /// The server process exited; its status as text (`exit status: 1`, `signal: 9`).
    Exited(String),
    /// An I/O error (spawn, read, write, connect), as text.
    Io(String),
    /// The server answered at the HTTP level with something the transport cannot use (a
    /// status, a content type), as text naming it.
    Http(String),
    /// The server ended the session (HTTP 404 to a request naming it): start a new one with
    /// a new client.
    SessionExpired,
    /// A frame larger than the transport's bound was received or would be sent.
    FrameTooLarge {
        /// The bound, in bytes.
        limit: usize,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Closed => f.write_str("the connection is closed"),
            Self::Exited(status) => write!(f, "the server exited ({status})"),
            Self::Io(error) => write!(f, "I/O error: {error}"),
            Self::Http(error) => write!(f, "HTTP: {error}"),
            Self::SessionExpired => f.write_str("the server ended the session (HTTP 404)"),
            Self::FrameTooLarge { limit } => write!(f, "frame larger than {limit} bytes"),
        }
    }
}

impl std::error::Error for TransportError {}

impl From<std::io::Error> for TransportError {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error.to_string())
    }
}
