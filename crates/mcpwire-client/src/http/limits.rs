//! The bounds of the Streamable HTTP transport: what a server can make the client hold or
//! wait for.

use std::time::Duration;

/// The bounds of one [`HttpTransport`](super::HttpTransport). Every field has a default
/// ([`HttpLimits::default`]); change them with the transport's builder methods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpLimits {
    /// The longest `application/json` answer read (default 16 MiB, as stdio's frame bound):
    /// a longer one is dropped and its request fails.
    pub max_response_bytes: usize,
    /// The longest SSE event held (default 16 MiB): a longer one is dropped while it is read
    /// and reported as a violation.
    pub max_event_bytes: usize,
    /// How many times in a row a stream is resumed without the server sending a message in
    /// between (default 5); then the request it answers fails (the GET stream stops).
    pub max_reconnects: u32,
    /// The longest wait before resuming a stream, whatever the server's `retry` asks (default
    /// 10 s).
    pub max_retry_wait: Duration,
    /// The wait before resuming a stream when the server gave no `retry` (default 1 s).
    pub default_retry: Duration,
    /// The longest wait for a connection: TCP connect and, for `https://`, the TLS handshake
    /// (default 10 s).
    pub connect_timeout: Duration,
    /// The longest wait for the answer's head (status and headers) to a POSTed request
    /// (default `None`: as long as the call waits, its timeout or until its future is
    /// dropped). Its body (an SSE stream may run long) is not bounded by it.
    pub response_timeout: Option<Duration>,
    /// The longest wait for the answer to a notification or a response the client POSTs, and
    /// for the DELETE that ends a session (default 10 s).
    pub ack_timeout: Duration,
    /// How many idle connections are kept for reuse (default 8).
    pub max_idle_connections: usize,
    /// The longest the session's next request after `notifications/initialized` waits for
    /// the server to answer the GET that opens the session's stream (default 1 s). Once the
    /// GET's head arrived the server has taken it, so a request sent after it cannot reach
    /// the server first (on another connection) and find no stream open; a server that
    /// holds the GET's head back until it has an event delays that request this long at
    /// most.
    pub stream_open_wait: Duration,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            max_response_bytes: crate::DEFAULT_MAX_FRAME_BYTES,
            max_event_bytes: crate::DEFAULT_MAX_FRAME_BYTES,
            max_reconnects: 5,
            max_retry_wait: Duration::from_secs(10),
            default_retry: Duration::from_secs(1),
            connect_timeout: Duration::from_secs(10),
            response_timeout: None,
            ack_timeout: Duration::from_secs(10),
            max_idle_connections: 8,
            stream_open_wait: Duration::from_secs(1),
        }
    }
}
