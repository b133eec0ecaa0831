//! # Streamable HTTP: the client side of MCP's HTTP transport (feature `http`)
//!
//! [`HttpTransport`] reaches a server at an `http://` or `https://` URL. Each frame the client
//! sends is one POST; what the server sends comes back as the POST's answer (one JSON
//! message, or an SSE stream), and, in a session, on the session's own GET stream.
//!
//! | behaviour | specification |
//! |---|---|
//! | every POST: `Content-Type: application/json`, `Accept: application/json, text/event-stream` | "The client MUST include an `Accept` header, listing both `application/json` and `text/event-stream` as supported content types." |
//! | the `Mcp-Session-Id` of the answer to `initialize` is sent on every later request; none under a stateless version | "If an `Mcp-Session-Id` is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the `Mcp-Session-Id` header on all of their subsequent HTTP requests." |
//! | `MCP-Protocol-Version` on every request after the handshake | "the client MUST include the `MCP-Protocol-Version: <protocol-version>` HTTP header on all subsequent requests to the MCP server" (2025-06-18 and later) |
//! | a 404 to a request that named the session: every pending call fails with [`TransportError::SessionExpired`](crate::TransportError::SessionExpired), and so does every later one (build a new client to start a new session) | "When a client receives HTTP 404 in response to a request containing an `Mcp-Session-Id`, it MUST start a new session by sending a new `InitializeRequest` without a session ID attached." |
//! | after `notifications/initialized`, the GET stream of the session: the next request waits until the server answered the GET's head, at most [`HttpLimits::stream_open_wait`] (a server may hold its headers back until it has an event), so the server never reads it before the GET; a 405 leaves it closed; it is reopened (after its last event id) when it ends | "The client MAY issue an HTTP GET to the MCP endpoint. This can be used to open an SSE stream, allowing the server to communicate to the client, without the client first sending data via HTTP POST." |
//! | an SSE stream that ends before its request's answer is resumed with GET and `Last-Event-ID`, after the stream's `retry` time | "If the client wishes to resume after a disconnection … it SHOULD issue an HTTP GET to the MCP endpoint, and include the `Last-Event-ID` header" and "the client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect" (2025-11-25) |
//! | on close (and when dropped), DELETE with the session id | "Clients that no longer need a particular session … SHOULD send an HTTP DELETE to the MCP endpoint with the `Mcp-Session-Id` header" |
//! | a frame under a stateless version (2026-07-28) carries `Mcp-Method`, `Mcp-Name` (the tool, prompt or resource URI) and `Mcp-Param-*` (tool parameters marked `x-mcp-header`), values that are not plain visible ASCII as `=?base64?…?=` | SEP-2243, the standard request headers of 2026-07-28 |
//! | `notifications/cancelled` also closes the stream awaiting the cancelled request's answer | 2026-07-28: a client cancels a request by closing its response stream |
//! | a redirect (3xx) is not followed: the request fails with [`TransportError::Http`](crate::TransportError::Http) naming the status and the `Location` (so no header, `Authorization` included, ever goes to another origin) | the MCP specification permits no redirect of the endpoint; HTTP leaves following one to the client |
//! | a request whose POST is answered with an error status and no JSON-RPC response to it fails with [`TransportError::Http`](crate::TransportError::Http) naming the status; a JSON-RPC error in the body is the call's error | "If the server cannot accept the input, it MUST return an HTTP error status code … The HTTP response body MAY comprise a JSON-RPC error response" |
//!
//! ## TLS and HTTP versions
//!
//! An `https://` URL is reached with rustls (its `ring` provider). The server's certificate must
//! chain to the platform's roots or to a private CA added with
//! [`HttpTransport::add_root_pem`] (see [`tls::TrustRoots`]); a certificate that does not fails
//! the connection at once with the reason ("invalid peer certificate: UnknownIssuer"). The
//! handshake offers HTTP/2 and HTTP/1.1 by ALPN: HTTP/2 where the server picks it (its
//! requests share one connection), HTTP/1.1 otherwise, and always for `http://`.
//!
//! An `https://` endpoint is reached through the HTTP proxy that `HTTPS_PROXY` (or
//! `ALL_PROXY`, lower case too) names, by a CONNECT tunnel with TLS inside it, unless
//! `NO_PROXY` exempts its host ([`HttpTransport::proxy`] names one instead,
//! [`HttpTransport::no_proxy`] turns them off). An `http://` endpoint is always reached
//! directly. With OAuth, each `https://` metadata, registration and token request is routed
//! the same way, `NO_PROXY` read against its own host.
//!
//! ## Limits ([`HttpLimits`])
//!
//! A JSON answer is read up to [`HttpLimits::max_response_bytes`], an SSE event up to
//! [`HttpLimits::max_event_bytes`] (a longer one is dropped while it is read and reported as a
//! violation); a stream is resumed at most [`HttpLimits::max_reconnects`] times in a row
//! without a message, each wait at most [`HttpLimits::max_retry_wait`]; connecting (TCP and
//! TLS handshake) waits at most [`HttpLimits::connect_timeout`], a POSTed notification or
//! response and the DELETE at most [`HttpLimits::ack_timeout`]. Requests wait for their
//! answer's head at most [`HttpLimits::response_timeout`] if it is set, and otherwise as long
//! as the call does (its timeout, or until its future is dropped: that stops the read of its
//! answer). At most [`HttpLimits::max_idle_connections`] HTTP/1.1 connections are kept for
//! reuse.

#[cfg(feature = "oauth")]
mod authorized;
mod connection;
mod limits;
mod pool;
mod probe;
pub(crate) mod proxy;
mod request;
mod stream;
pub mod tls;

use std::sync::Arc;
use std::time::Duration;

use hyper::header::{HeaderName, HeaderValue};

pub use limits::HttpLimits;

use crate::transport::{BoxFuture, Connection, IncomingSender, Transport, TransportError};
use connection::{HttpConnection, Shared};
use pool::{Endpoint, Pool, Settings};
use proxy::ProxySetting;
use tls::TrustRoots;

/// A server reached over Streamable HTTP at an `http://` or `https://` URL.
///
/// ```no_run
/// # async fn run() -> Result<(), mcpwire_client::ClientError> {
/// use mcpwire_client::{Client, HttpTransport};
/// let transport = HttpTransport::new("http://127.0.0.1:8080/mcp")?;
/// let client = Client::builder("my-host", "1.0.0").connect(transport).await?;
/// client.close().await;
///
/// // A server whose certificate a private CA issued, given one minute to connect:
/// let pem = std::fs::read("ca.pem").expect("the CA's PEM file");
/// let transport = HttpTransport::new("https://mcp.internal.example/mcp")?
///     .add_root_pem(&pem)?
///     .connect_timeout(std::time::Duration::from_secs(60));
/// # let _ = transport;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct HttpTransport {
    endpoint: Endpoint,
    limits: HttpLimits,
    standalone: bool,
    headers: Vec<(HeaderName, HeaderValue)>,
    roots: TrustRoots,
    proxy: ProxySetting,
    http2: bool,
    #[cfg(feature = "oauth")]
    oauth: Option<crate::auth::OAuth>,
}

impl HttpTransport {
    /// A transport to the MCP endpoint at `url` (`http://HOST:PORT/PATH` or
    /// `https://HOST:PORT/PATH`); an URL that is not one is an error naming why.
    pub fn new(url: &str) -> Result<Self, TransportError> {
        Ok(Self {
            endpoint: Endpoint::parse(url)?,
            limits: HttpLimits::default(),
            standalone: true,
            headers: Vec::new(),
            roots: TrustRoots::platform(),
            proxy: ProxySetting::Environment,
            http2: true,
            #[cfg(feature = "oauth")]
            oauth: None,
        })
    }

    /// Reaches an `https://` endpoint through the HTTP proxy at `url` (`http://HOST:PORT`,
    /// `http://USER:PASSWORD@HOST:PORT` for basic authentication) by a CONNECT tunnel,
    /// whatever the environment says; with OAuth, the `https://` metadata and authorization
    /// servers too. A URL that is not `http://` is an error.
    pub fn proxy(mut self, url: &str) -> Result<Self, TransportError> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|error| TransportError::Http(format!("the proxy `{url}`: {error}")))?;
        if uri.scheme_str() != Some("http") || uri.host().is_none() {
            return Err(TransportError::Http(format!(
                "the proxy `{url}`: write it as http://HOST:PORT (only http:// proxies are supported)"
            )));
        }
        self.proxy = ProxySetting::Url(url.to_owned());
        Ok(self)
    }

    /// Reaches the endpoint (and, with OAuth, the authorization server) directly, whatever
    /// `HTTPS_PROXY` says (by default an `https://` URL goes through the proxy `HTTPS_PROXY`
    /// or `ALL_PROXY` names, unless `NO_PROXY` exempts its host).
    pub fn no_proxy(mut self) -> Self {
        self.proxy = ProxySetting::Off;
        self
    }

    /// Trusts the certificates of a PEM text (a private CA) besides the platform's roots, for
    /// an `https://` URL; a text holding no certificate is an error.
    pub fn add_root_pem(mut self, pem: &[u8]) -> Result<Self, TransportError> {
        self.roots = self.roots.add_pem(pem)?;
        Ok(self)
    }

    /// Whether the platform's roots are trusted (default `true`); without them, only the CAs
    /// added with [`add_root_pem`](Self::add_root_pem) are.
    pub fn platform_roots(mut self, trusted: bool) -> Self {
        self.roots = self.roots.with_platform(trusted);
        self
    }

    /// Whether HTTP/2 is offered in the TLS handshake of an `https://` URL (default `true`);
    /// without it every request goes over HTTP/1.1.
    pub fn http2(mut self, offered: bool) -> Self {
        self.http2 = offered;
        self
    }

    /// The longest wait for a connection, TLS handshake included
    /// ([`HttpLimits::connect_timeout`], default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.limits.connect_timeout = timeout;
        self
    }

    /// The longest wait for the head of the answer to a request
    /// ([`HttpLimits::response_timeout`], default none: the call's timeout).
    pub fn response_timeout(mut self, timeout: Duration) -> Self {
        self.limits.response_timeout = Some(timeout);
        self
    }

    /// Sets every bound at once (see [`HttpLimits`]).
    pub fn limits(mut self, limits: HttpLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether to open the session's GET stream once initialized (default `true`): without
    /// it the server can reach the client only while answering a request.
    pub fn server_stream(mut self, open: bool) -> Self {
        self.standalone = open;
        self
    }

    /// Adds a header to every request (such as `Authorization`); an invalid name or value
    /// is an error.
    pub fn header(mut self, name: &str, value: &str) -> Result<Self, TransportError> {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|error| TransportError::Http(format!("header name {name:?}: {error}")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|error| TransportError::Http(format!("header value of {name}: {error}")))?;
        self.headers.push((name, value));
        Ok(self)
    }
}

#[cfg(feature = "oauth")]
impl HttpTransport {
    /// Answers the server's `401` with OAuth 2.1 (feature `oauth`): discovery, registration
    /// and the authorization code flow as `oauth` says (see [`crate::auth`]); the request is
    /// sent again with `Authorization: Bearer …`, and a `403 insufficient_scope` asks for
    /// more scopes up to [`OAuth::max_step_ups`](crate::auth::OAuth::max_step_ups) times.
    pub fn oauth(mut self, oauth: crate::auth::OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }
}

impl Transport for HttpTransport {
    fn open(
        self: Box<Self>,
        incoming: IncomingSender,
    ) -> BoxFuture<'static, Result<Box<dyn Connection>, TransportError>> {
        let Self {
            endpoint,
            limits,
            standalone,
            headers,
            roots,
            proxy,
            http2,
            #[cfg(feature = "oauth")]
            oauth,
        } = *self;
        Box::pin(async move {
            #[cfg(feature = "oauth")]
            let auth = oauth.map(|oauth| {
                Arc::new(crate::auth::Authorizer::new(
                    oauth,
                    &endpoint.url,
                    roots.clone(),
                    proxy.clone(),
                ))
            });
            #[cfg(not(feature = "oauth"))]
            let auth = ();
            let settings = Settings {
                roots,
                proxy,
                http2,
                max_idle: limits.max_idle_connections,
                connect_timeout: limits.connect_timeout,
            };
            let pool = Pool::new(endpoint, settings)?;
            let shared = Arc::new(Shared::new(
                pool, limits, incoming, standalone, headers, auth,
            ));
            let connection: Box<dyn Connection> = Box::new(HttpConnection { shared });
            Ok(connection)
        })
    }
}
