//! How an `https://` endpoint is reached through an HTTP proxy: a CONNECT tunnel (hyper-util's
//! `Tunnel`) to the proxy that `HTTPS_PROXY` / `ALL_PROXY` name unless `NO_PROXY` exempts the
//! host (hyper-util's `Matcher`, read as curl reads them), or to a proxy the application
//! names. TLS runs inside the tunnel, end to end with the server: the proxy sees only the
//! host and port. An `http://` endpoint is always reached directly.

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::proxy::Tunnel;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tower_service::Service;

use crate::transport::TransportError;

type BoxError = Box<dyn StdError + Send + Sync>;

/// Which proxy an `https://` endpoint is reached through.
#[derive(Debug, Clone, Default)]
pub(crate) enum ProxySetting {
    /// `HTTPS_PROXY` / `https_proxy`, else `ALL_PROXY` / `all_proxy`, unless `NO_PROXY` /
    /// `no_proxy` names the host (the default).
    #[default]
    Environment,
    /// None: always directly.
    Off,
    /// This proxy (`http://HOST:PORT`, user and password allowed).
    Url(String),
}

/// The way to the server: a TCP connection to it, or a CONNECT tunnel through a proxy.
#[derive(Clone)]
pub(crate) enum Route {
    Direct(HttpConnector),
    Tunnel(Tunnel<HttpConnector>),
}

impl Route {
    /// The route to `endpoint` under `setting` over `tcp`; a proxy that is not `http://` is
    /// an error (the CONNECT goes to it in the clear).
    pub(crate) fn new(
        endpoint: &Uri,
        https: bool,
        setting: &ProxySetting,
        tcp: HttpConnector,
    ) -> Result<Self, TransportError> {
        let matcher = match setting {
            _ if !https => return Ok(Route::Direct(tcp)),
            ProxySetting::Off => return Ok(Route::Direct(tcp)),
            ProxySetting::Environment => Matcher::from_env(),
            ProxySetting::Url(url) => Matcher::builder().https(url.as_str()).build(),
        };
        let Some(intercept) = matcher.intercept(endpoint) else {
            return Ok(Route::Direct(tcp));
        };
        let proxy = intercept.uri().clone();
        if proxy.scheme_str() != Some("http") {
            return Err(TransportError::Http(format!(
                "the proxy {proxy}: only http:// proxies are supported (the TLS runs inside the tunnel)"
            )));
        }
        let tunnel = Tunnel::new(proxy, tcp);
        Ok(Route::Tunnel(match intercept.basic_auth() {
            Some(auth) => tunnel.with_auth(auth.clone()),
            None => tunnel,
        }))
    }
}

impl Service<Uri> for Route {
    type Response = TokioIo<TcpStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<TokioIo<TcpStream>, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        match self {
            Route::Direct(tcp) => tcp.poll_ready(cx).map_err(Into::into),
            Route::Tunnel(tunnel) => tunnel.poll_ready(cx).map_err(Into::into),
        }
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        match self {
            Route::Direct(tcp) => {
                let connecting = tcp.call(uri);
                Box::pin(async move { connecting.await.map_err(Into::into) })
            }
            Route::Tunnel(tunnel) => {
                let connecting = tunnel.call(uri);
                Box::pin(async move { connecting.await.map_err(Into::into) })
            }
        }
    }
}
