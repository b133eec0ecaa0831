//! The endpoint's address and the HTTP client that reaches it: hyper-util's pooled client
//! over hyper-rustls (`http://` in the clear, `https://` with rustls, directly or through a
//! proxy's tunnel; HTTP/2 where the server offers it by ALPN, else HTTP/1.1), every
//! connection bounded in time by
//! [`HttpLimits::connect_timeout`](super::HttpLimits), TLS handshake included. The session's
//! GET stream gets an HTTP/1.1 connection of its own that tells when its request was written.

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper::header::{HOST, HeaderValue};
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper::{Request, Response, Uri};
use hyper_rustls::{HttpsConnector, MaybeHttpsStream};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use rustls::RootCertStore;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tower_service::Service;

use super::proxy::{ProxySetting, Route};
use super::tls::{TrustRoots, describe};
use crate::transport::TransportError;

/// The body every request of the client carries (a JSON frame, or nothing).
pub(crate) type Body = Full<Bytes>;

/// Where the MCP endpoint is: what to connect to and what to write in the request line.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    /// The URL, parsed: every request's target (the client writes its path in the request
    /// line of HTTP/1.1, its parts in the pseudo-headers of HTTP/2).
    pub(crate) uri: Uri,
    /// The `Host` header.
    pub(crate) host: String,
    /// The path and query of the request line.
    pub(crate) path: String,
    /// The URL as given, for messages.
    pub(crate) url: String,
    /// Whether the URL is `https://`.
    pub(crate) https: bool,
}

impl Endpoint {
    /// The endpoint of an `http://` or `https://` URL.
    pub(crate) fn parse(url: &str) -> Result<Self, TransportError> {
        let uri: Uri = url
            .parse()
            .map_err(|error| TransportError::Http(format!("`{url}` is not a URL: {error}")))?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            Some(other) => {
                return Err(TransportError::Http(format!(
                    "`{url}`: only http:// and https:// URLs are supported, not {other}://"
                )));
            }
            None => {
                return Err(TransportError::Http(format!(
                    "`{url}` has no scheme; write it as http://HOST:PORT/PATH or https://HOST/PATH"
                )));
            }
        };
        let Some(host) = uri.host() else {
            return Err(TransportError::Http(format!("`{url}` has no host")));
        };
        Ok(Self {
            host: uri
                .authority()
                .map_or_else(|| host.to_owned(), |a| a.as_str().to_owned()),
            path: uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned()),
            url: url.to_owned(),
            https,
            uri,
        })
    }
}

/// The stream of one connection: TCP, with TLS over it for `https://`.
type Stream = MaybeHttpsStream<TokioIo<TcpStream>>;

/// hyper-rustls's connector (over a direct TCP connection or a proxy's CONNECT tunnel) with
/// one bound on the whole connect: TCP, tunnel and TLS handshake.
#[derive(Clone)]
pub(crate) struct Connector {
    inner: HttpsConnector<Route>,
    timeout: Duration,
}

impl Connector {
    /// A connector with `tls` (its roots, and the protocols its ALPN offers) on `route`.
    fn new(tls: rustls::ClientConfig, timeout: Duration, route: Route) -> Self {
        Self {
            inner: HttpsConnector::from((route, tls)),
            timeout,
        }
    }
}

/// hyper-util's TCP connector: any scheme (hyper-rustls adds the TLS), no Nagle delay
/// (requests are small and latency-bound), at most `timeout` for the TCP connect.
fn tcp(timeout: Duration) -> HttpConnector {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_nodelay(true);
    tcp.set_connect_timeout(Some(timeout));
    tcp
}

type BoxError = Box<dyn StdError + Send + Sync>;

impl Service<Uri> for Connector {
    type Response = Stream;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Stream, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let timeout = self.timeout;
        let connecting = self.inner.call(uri.clone());
        Box::pin(async move {
            match tokio::time::timeout(timeout, connecting).await {
                Ok(connected) => connected,
                Err(_) => Err(format!(
                    "connecting to {} took longer than {timeout:?}",
                    uri.authority().map_or("the server", |a| a.as_str())
                )
                .into()),
            }
        })
    }
}

/// How the client connects (see [`HttpTransport`](super::HttpTransport)'s settings).
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub(crate) roots: TrustRoots,
    pub(crate) proxy: ProxySetting,
    pub(crate) http2: bool,
    pub(crate) max_idle: usize,
    pub(crate) connect_timeout: Duration,
}

/// The client of one endpoint: pooled connections, and connections of their own on request.
pub(crate) struct Pool {
    endpoint: Endpoint,
    max_idle: usize,
    /// The pool's connector: HTTP/2 where offered, else HTTP/1.1.
    connector: Connector,
    /// The connector of the connections of their own (HTTP/1.1).
    own: Connector,
    client: Mutex<Client<Connector, Body>>,
}

impl Pool {
    /// The client of `endpoint`. The platform's roots are read only for an `https://` URL.
    pub(crate) fn new(endpoint: Endpoint, settings: Settings) -> Result<Self, TransportError> {
        // The platform's store is read once, and only for https:// (plain http:// never uses
        // TLS: its configuration trusts nothing).
        let store = if endpoint.https {
            settings.roots.store()?
        } else {
            RootCertStore::empty()
        };
        let tls = |alpn: &[&[u8]]| super::tls::config(store.clone(), alpn);
        let pooled: &[&[u8]] = if settings.http2 {
            &[b"h2", b"http/1.1"]
        } else {
            &[b"http/1.1"]
        };
        let timeout = settings.connect_timeout;
        let route = Route::new(&endpoint.uri, endpoint.https, &settings.proxy, tcp(timeout))?;
        let connector = Connector::new(tls(pooled)?, timeout, route.clone());
        let own = Connector::new(tls(&[b"http/1.1"])?, timeout, route);
        let client = Mutex::new(build(&connector, settings.max_idle));
        Ok(Self {
            endpoint,
            max_idle: settings.max_idle,
            connector,
            own,
            client,
        })
    }

    pub(crate) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Sends `request` on a pooled connection (or a new one) and returns the response head;
    /// its body streams from the connection, which goes back to the pool once the body was
    /// read to its end.
    pub(crate) async fn send(
        &self,
        request: Request<Body>,
    ) -> Result<Response<hyper::body::Incoming>, TransportError> {
        let client = self
            .client
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        client
            .request(request)
            .await
            .map_err(|error| self.failed(&error))
    }

    fn failed(&self, error: &(dyn StdError + 'static)) -> TransportError {
        TransportError::Io(format!(
            "HTTP request to {} failed: {}",
            self.endpoint.url,
            describe(error)
        ))
    }

    /// [`send`](Self::send) on an HTTP/1.1 connection of its own that drops `written` once
    /// the request has been written whole (handed to the OS), before its answer: for a
    /// request whose answer a server may hold back (the GET stream) but whose arrival must
    /// precede later ones. `written` is dropped too when the request cannot be sent.
    pub(crate) async fn send_signalled(
        &self,
        mut request: Request<Body>,
        written: oneshot::Sender<()>,
    ) -> Result<Response<hyper::body::Incoming>, TransportError> {
        let stream = self
            .own
            .clone()
            .call(self.endpoint.uri.clone())
            .await
            .map_err(|error| self.failed(&*error))?;
        let stream = WriteSignal {
            inner: stream,
            wrote: false,
            written: Some(written),
        };
        let (mut sender, connection) = http1::handshake(stream)
            .await
            .map_err(|error| self.failed(&error))?;
        // The connection task ends when the sender is dropped and its last answer is done.
        tokio::spawn(async move {
            let _ = connection.await;
        });
        // HTTP/1.1 on a connection of its own: origin-form and a `Host` header.
        let host = HeaderValue::from_str(&self.endpoint.host)
            .map_err(|error| TransportError::Http(format!("the Host header: {error}")))?;
        request.headers_mut().insert(HOST, host);
        *request.uri_mut() = self
            .endpoint
            .path
            .parse()
            .map_err(|error| TransportError::Http(format!("the request target: {error}")))?;
        sender
            .send_request(request)
            .await
            .map_err(|error| self.failed(&error))
    }

    /// Drops every idle connection (a new, empty pool takes the old one's place).
    pub(crate) fn clear(&self) {
        let fresh = build(&self.connector, self.max_idle);
        *self.client.lock().unwrap_or_else(PoisonError::into_inner) = fresh;
    }
}

/// A pooled client on `connector`.
fn build(connector: &Connector, max_idle: usize) -> Client<Connector, Body> {
    Client::builder(TokioExecutor::new())
        .pool_timer(TokioTimer::new())
        .timer(TokioTimer::new())
        .pool_max_idle_per_host(max_idle)
        .build(connector.clone())
}

/// A connection's stream that drops `written` at the first flush after bytes were written:
/// hyper flushes once it has written a request whole, so that is when the request is on its
/// way, whatever the server does with it.
struct WriteSignal {
    inner: Stream,
    wrote: bool,
    written: Option<oneshot::Sender<()>>,
}

impl Read for WriteSignal {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
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

impl Write for WriteSignal {
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
        assert_eq!(endpoint.host, "localhost:8080");
        assert_eq!(endpoint.path, "/mcp?x=1");
        let v6 = Endpoint::parse("http://[::1]/").expect("a URL");
        assert_eq!(v6.host, "[::1]");
        let tls = Endpoint::parse("https://example.com/mcp").expect("a URL");
        assert_eq!(tls.host, "example.com");
        assert!(tls.https);
        let bare = Endpoint::parse("http://127.0.0.1:9").expect("a URL");
        assert_eq!(bare.path, "/");
        for (url, needle) in [
            ("ftp://example.com/mcp", "only http:// and https://"),
            ("localhost:8080", "no scheme"),
            ("http//x y", "not a URL"),
        ] {
            let error = Endpoint::parse(url).expect_err(url).to_string();
            assert!(error.contains(needle), "{url}: {error}");
        }
    }
}
