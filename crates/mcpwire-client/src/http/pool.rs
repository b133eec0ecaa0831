//! The endpoint's address and the HTTP client that reaches it: hyper-util's pooled client
//! over hyper-rustls (`http://` in the clear, `https://` with rustls, directly or through a
//! proxy's tunnel; HTTP/2 where the server offers it by ALPN, else HTTP/1.1), every
//! connection bounded in time by
//! [`HttpLimits::connect_timeout`](super::HttpLimits), TLS handshake included.

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Request, Response, Uri};
use hyper_rustls::{HttpsConnector, MaybeHttpsStream};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use rustls::RootCertStore;
use tokio::net::TcpStream;
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
        if uri.host().is_none() {
            return Err(TransportError::Http(format!("`{url}` has no host")));
        }
        Ok(Self {
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
        let pooled: &[&[u8]] = if settings.http2 {
            &[b"h2", b"http/1.1"]
        } else {
            &[b"http/1.1"]
        };
        let timeout = settings.connect_timeout;
        let route = Route::new(&endpoint.uri, endpoint.https, &settings.proxy, tcp(timeout))?;
        let tls = super::tls::config(store, pooled)?;
        let connector = Connector::new(tls, timeout, route);
        let client = Mutex::new(build(&connector, settings.max_idle));
        Ok(Self {
            endpoint,
            max_idle: settings.max_idle,
            connector,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_http_or_https_urls_with_a_host() {
        let endpoint = Endpoint::parse("http://localhost:8080/mcp?x=1").expect("a URL");
        assert!(!endpoint.https);
        assert_eq!(
            endpoint.uri.path_and_query().map(|p| p.as_str()),
            Some("/mcp?x=1")
        );
        assert!(Endpoint::parse("http://[::1]/").is_ok());
        let tls = Endpoint::parse("https://example.com/mcp").expect("a URL");
        assert!(tls.https);
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
