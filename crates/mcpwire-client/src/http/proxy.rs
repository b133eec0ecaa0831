//! How an `https://` URL is reached through an HTTP proxy: a CONNECT tunnel (hyper-util's
//! `Tunnel`) to the proxy that `HTTPS_PROXY` / `ALL_PROXY` name unless `NO_PROXY` exempts the
//! host (hyper-util's `Matcher`, read as curl reads them), or to a proxy the application
//! names. TLS runs inside the tunnel, end to end with the server: the proxy sees only the
//! host and port. An `http://` URL is always reached directly. [`Route`] is the way to one
//! endpoint; [`Routes`] decides it for each URL it is asked to reach (the authorization
//! server's metadata and token requests, which go to hosts other than the endpoint's).

use std::error::Error as StdError;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
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
        if !https {
            return Ok(Route::Direct(tcp));
        }
        Routes::new(setting, tcp).route(endpoint)
    }
}

/// The route to each URL asked for, decided per URL under one [`ProxySetting`]: a CONNECT
/// tunnel for an `https://` URL the setting sends through a proxy, else a direct TCP
/// connection.
#[derive(Clone)]
pub(crate) struct Routes {
    /// `None`: no proxy at all.
    matcher: Option<Arc<Matcher>>,
    tcp: HttpConnector,
}

impl Routes {
    /// The routes of `setting` over `tcp` (the environment is read here, once).
    pub(crate) fn new(setting: &ProxySetting, tcp: HttpConnector) -> Self {
        let matcher = match setting {
            ProxySetting::Off => None,
            ProxySetting::Environment => Some(Matcher::from_env()),
            ProxySetting::Url(url) => Some(Matcher::builder().https(url.as_str()).build()),
        };
        Self {
            matcher: matcher.map(Arc::new),
            tcp,
        }
    }

    /// The route to `uri`; a proxy that is not `http://` is an error (the CONNECT goes to
    /// it in the clear).
    pub(crate) fn route(&self, uri: &Uri) -> Result<Route, TransportError> {
        let direct = || Ok(Route::Direct(self.tcp.clone()));
        if uri.scheme_str() != Some("https") {
            return direct();
        }
        let Some(intercept) = self.matcher.as_ref().and_then(|m| m.intercept(uri)) else {
            return direct();
        };
        let proxy = intercept.uri().clone();
        if proxy.scheme_str() != Some("http") {
            return Err(TransportError::Http(format!(
                "the proxy {proxy}: only http:// proxies are supported (the TLS runs inside the tunnel)"
            )));
        }
        let tunnel = Tunnel::new(proxy, self.tcp.clone());
        Ok(Route::Tunnel(match intercept.basic_auth() {
            Some(auth) => tunnel.with_auth(auth.clone()),
            None => tunnel,
        }))
    }
}

impl Service<Uri> for Routes {
    type Response = TokioIo<TcpStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<TokioIo<TcpStream>, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        // Each call builds its route, which is ready once its TCP connector is, and
        // hyper-util's TCP connector always is.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        match self.route(&uri) {
            Ok(mut route) => Box::pin(async move {
                std::future::poll_fn(|cx| route.poll_ready(cx)).await?;
                route.call(uri).await
            }),
            Err(error) => Box::pin(std::future::ready(Err(error.into()))),
        }
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
