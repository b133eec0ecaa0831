//! The endpoint's address and a small pool of HTTP/1.1 connections to it: a request takes an
//! idle connection or opens one; a connection whose answer was read to its end goes back.

use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{Request, Response, Uri};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

use crate::transport::TransportError;

/// The body every request of the client carries (a JSON frame, or nothing).
pub(crate) type Body = Full<Bytes>;

/// Where the MCP endpoint is: what to connect to and what to write in the request line.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// `host:port` to connect to (IPv6 hosts in brackets).
    pub(crate) authority: String,
    /// The `Host` header.
    pub(crate) host: String,
    /// The path and query of the request line.
    pub(crate) path: String,
    /// The URL as given, for messages.
    pub(crate) url: String,
}

impl Endpoint {
    /// The endpoint of an `http://` URL.
    pub(crate) fn parse(url: &str) -> Result<Self, TransportError> {
        let uri: Uri = url
            .parse()
            .map_err(|error| TransportError::Http(format!("`{url}` is not a URL: {error}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => {
                return Err(TransportError::Http(format!(
                    "`{url}`: only http:// URLs are supported, not {other}://"
                )));
            }
            None => {
                return Err(TransportError::Http(format!(
                    "`{url}` has no scheme; write it as http://HOST:PORT/PATH"
                )));
            }
        }
        let Some(host) = uri.host() else {
            return Err(TransportError::Http(format!("`{url}` has no host")));
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let port = uri.port_u16().unwrap_or(80);
        let authority = if bare.contains(':') {
            format!("[{bare}]:{port}")
        } else {
            format!("{bare}:{port}")
        };
        Ok(Self {
            authority,
            host: uri
                .authority()
                .map_or_else(|| host.to_owned(), |a| a.as_str().to_owned()),
            path: uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned()),
            url: url.to_owned(),
        })
    }
}

/// Idle connections to one endpoint.
pub(crate) struct Pool {
    endpoint: Endpoint,
    idle: Mutex<Vec<SendRequest<Body>>>,
    max_idle: usize,
    connect_timeout: Duration,
}

/// A connection taken from the pool for one request.
pub(crate) struct Lease {
    sender: SendRequest<Body>,
}

impl Pool {
    pub(crate) fn new(endpoint: Endpoint, max_idle: usize, connect_timeout: Duration) -> Self {
        Self {
            endpoint,
            idle: Mutex::new(Vec::new()),
            max_idle,
            connect_timeout,
        }
    }

    pub(crate) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Sends `request` on an idle connection or a new one and returns the response head
    /// (its body streams from the connection) with the lease to give back once the body was
    /// read to its end.
    pub(crate) async fn send(
        &self,
        request: Request<Body>,
    ) -> Result<(Response<hyper::body::Incoming>, Lease), TransportError> {
        let lease = self.lease().await?;
        self.send_on(lease, request).await
    }

    /// Sends `request` on `lease`'s connection; returns the response head and the lease.
    async fn send_on(
        &self,
        mut lease: Lease,
        request: Request<Body>,
    ) -> Result<(Response<hyper::body::Incoming>, Lease), TransportError> {
        let response = lease.sender.send_request(request).await.map_err(|error| {
            TransportError::Io(format!(
                "HTTP request to {} failed: {error}",
                self.endpoint.url
            ))
        })?;
        Ok((response, lease))
    }

    /// [`send`](Self::send) on a new connection that drops `written` once the request has
    /// been written whole (handed to the OS), before its answer: for a request whose answer
    /// a server may hold back (the GET stream) but whose arrival must precede later ones.
    /// `written` is dropped too when the request cannot be sent.
    pub(crate) async fn send_signalled(
        &self,
        request: Request<Body>,
        written: oneshot::Sender<()>,
    ) -> Result<(Response<hyper::body::Incoming>, Lease), TransportError> {
        let lease = self.connect(Some(written)).await?;
        self.send_on(lease, request).await
    }

    /// Gives a connection back after its answer was read to the end.
    pub(crate) fn give_back(&self, lease: Lease) {
        if lease.sender.is_closed() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < self.max_idle {
            idle.push(lease.sender);
        }
    }

    /// Drops every idle connection.
    pub(crate) fn clear(&self) {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    async fn lease(&self) -> Result<Lease, TransportError> {
        loop {
            let taken = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(mut sender) = taken else { break };
            if sender.is_closed() {
                continue;
            }
            // A connection whose last answer was read to its end is ready at once; one the
            // server closed meanwhile fails here and is dropped.
            let ready = tokio::time::timeout(Duration::from_millis(50), sender.ready()).await;
            if matches!(ready, Ok(Ok(()))) {
                return Ok(Lease { sender });
            }
        }
        self.connect(None).await
    }

    /// A new connection; `written`, if given, is dropped once its first request has been
    /// written whole.
    async fn connect(&self, written: Option<oneshot::Sender<()>>) -> Result<Lease, TransportError> {
        let authority = &self.endpoint.authority;
        let stream = tokio::time::timeout(self.connect_timeout, TcpStream::connect(authority))
            .await
            .map_err(|_| {
                TransportError::Io(format!(
                    "connecting to {authority} took longer than {:?}",
                    self.connect_timeout
                ))
            })?
            .map_err(|error| {
                TransportError::Io(format!("cannot connect to {authority}: {error}"))
            })?;
        // Requests are small and latency-bound: no Nagle delay.
        let _ = stream.set_nodelay(true);
        let stream = WriteSignal {
            inner: stream,
            wrote: false,
            written,
        };
        let (sender, connection) =
            http1::handshake(TokioIo::new(stream))
                .await
                .map_err(|error| {
                    TransportError::Io(format!("HTTP handshake with {authority} failed: {error}"))
                })?;
        // The connection task ends when the sender is dropped and its last answer is done.
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(Lease { sender })
    }
}

/// A connection's stream that drops `written` at the first flush after bytes were written:
/// hyper flushes once it has written a request whole, so that is when the request is on its
/// way, whatever the server does with it.
struct WriteSignal {
    inner: TcpStream,
    wrote: bool,
    written: Option<oneshot::Sender<()>>,
}

impl AsyncRead for WriteSignal {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl WriteSignal {
    /// Notes a write's outcome.
    fn wrote(&mut self, written: &Poll<std::io::Result<usize>>) {
        if matches!(written, Poll::Ready(Ok(n)) if *n > 0) {
            self.wrote = true;
        }
    }
}

impl AsyncWrite for WriteSignal {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let written = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.wrote(&written);
        written
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let written = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.wrote(&written);
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let flushed = Pin::new(&mut self.inner).poll_flush(cx);
        if self.wrote && flushed.is_ready() {
            drop(self.written.take());
        }
        flushed
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_name_host_port_and_path() {
        let endpoint = Endpoint::parse("http://localhost:8080/mcp?x=1").expect("a URL");
        assert_eq!(endpoint.authority, "localhost:8080");
        assert_eq!(endpoint.host, "localhost:8080");
        assert_eq!(endpoint.path, "/mcp?x=1");
        let v6 = Endpoint::parse("http://[::1]/").expect("a URL");
        assert_eq!(v6.authority, "[::1]:80");
        assert_eq!(v6.host, "[::1]");
        let bare = Endpoint::parse("http://127.0.0.1:9").expect("a URL");
        assert_eq!(bare.path, "/");
        for (url, needle) in [
            ("https://example.com/mcp", "only http://"),
            ("localhost:8080", "no scheme"),
            ("http//x y", "not a URL"),
        ] {
            let error = Endpoint::parse(url).expect_err(url).to_string();
            assert!(error.contains(needle), "{url}: {error}");
        }
    }
}
