//! The HTTP exchanges of authorization (metadata, registration, token requests): hyper-util's
//! client over hyper-rustls with the transport's roots, through the transport's proxy for
//! `https://` URLs (`HTTPS_PROXY` / `NO_PROXY` by default, as for the endpoint), each exchange
//! bounded in time and its answer in size, redirects never followed. No request it sends
//! carries an access token.

use std::sync::OnceLock;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap};
use hyper::{Method, Request, StatusCode};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use serde::de::DeserializeOwned;

use super::AuthError;
use crate::http::proxy::{ProxySetting, Routes};
use crate::http::tls::{TrustRoots, config, describe};
use rustls::RootCertStore;

/// The longest answer read from a metadata, registration or token endpoint.
pub(crate) const MAX_ANSWER_BYTES: usize = 1 << 20;

type HttpsClient = Client<HttpsConnector<Routes>, Full<Bytes>>;

/// An answer read whole.
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    #[allow(dead_code)]
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

impl Answer {
    /// The body as JSON of type `T`.
    pub(crate) fn json<T: DeserializeOwned>(&self, url: &str) -> Result<T, AuthError> {
        serde_json::from_slice(&self.body).map_err(|error| {
            AuthError::Discovery(format!(
                "the answer of {url} is not the JSON expected: {error}"
            ))
        })
    }
}

/// The client of authorization's exchanges.
pub(crate) struct AuthHttp {
    roots: TrustRoots,
    proxy: ProxySetting,
    timeout: Duration,
    /// Built at the first exchange (reading the platform's roots only then).
    client: OnceLock<Result<HttpsClient, String>>,
}

impl AuthHttp {
    pub(crate) fn new(roots: TrustRoots, proxy: ProxySetting, timeout: Duration) -> Self {
        Self {
            roots,
            proxy,
            timeout,
            client: OnceLock::new(),
        }
    }

    fn client(&self) -> Result<HttpsClient, AuthError> {
        self.client
            .get_or_init(|| {
                let alpn: &[&[u8]] = &[b"h2", b"http/1.1"];
                // Without any root (none trusted, none found), plain http:// still works and
                // an https:// server fails its handshake as untrusted.
                let tls = match self.roots.client_config(alpn) {
                    Ok(tls) => tls,
                    Err(_) => config(RootCertStore::empty(), alpn).map_err(|e| e.to_string())?,
                };
                let mut tcp = HttpConnector::new();
                tcp.enforce_http(false);
                tcp.set_connect_timeout(Some(self.timeout));
                let routes = Routes::new(&self.proxy, tcp);
                let connector = HttpsConnector::from((routes, tls));
                Ok(Client::builder(TokioExecutor::new())
                    .pool_timer(TokioTimer::new())
                    .timer(TokioTimer::new())
                    .build(connector))
            })
            .clone()
            .map_err(AuthError::Http)
    }

    /// Sends `request` and reads its answer whole, within the timeout.
    async fn send(&self, request: Request<Full<Bytes>>) -> Result<Answer, AuthError> {
        let url = request.uri().to_string();
        let client = self.client()?;
        let exchange = async {
            let response = client.request(request).await.map_err(|error| {
                AuthError::Http(format!(
                    "HTTP request to {url} failed: {}",
                    describe(&error)
                ))
            })?;
            let (head, body) = response.into_parts();
            let body = Limited::new(body, MAX_ANSWER_BYTES)
                .collect()
                .await
                .map_err(|error| AuthError::Http(format!("reading the answer of {url}: {error}")))?
                .to_bytes();
            Ok(Answer {
                status: head.status,
                headers: head.headers,
                body,
            })
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| {
                AuthError::Http(format!("no answer from {url} within {:?}", self.timeout))
            })?
    }

    fn request(method: Method, url: &str) -> Result<hyper::http::request::Builder, AuthError> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|error| AuthError::Http(format!("`{url}` is not a URL: {error}")))?;
        Ok(Request::builder()
            .method(method)
            .uri(uri)
            .header(ACCEPT, "application/json"))
    }

    fn built(
        builder: hyper::http::request::Builder,
        body: Full<Bytes>,
    ) -> Result<Request<Full<Bytes>>, AuthError> {
        builder
            .body(body)
            .map_err(|error| AuthError::Http(format!("cannot build the request: {error}")))
    }

    /// GETs `url` (metadata).
    pub(crate) async fn get(&self, url: &str) -> Result<Answer, AuthError> {
        let request = Self::built(Self::request(Method::GET, url)?, Full::default())?;
        self.send(request).await
    }

    /// POSTs a form to `url`, with `Authorization: Basic …` when `basic` is given.
    pub(crate) async fn post_form(
        &self,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<String>,
    ) -> Result<Answer, AuthError> {
        // The serializer is not `Send`: it is done with before the exchange.
        let body = {
            let mut body = form_urlencoded::Serializer::new(String::new());
            for (name, value) in form {
                body.append_pair(name, value);
            }
            body.finish()
        };
        let mut builder = Self::request(Method::POST, url)?
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(basic) = basic {
            builder = builder.header(AUTHORIZATION, basic);
        }
        let request = Self::built(builder, Full::new(Bytes::from(body)))?;
        self.send(request).await
    }

    /// POSTs a JSON document to `url` (dynamic registration).
    pub(crate) async fn post_json(
        &self,
        url: &str,
        json: &serde_json::Value,
    ) -> Result<Answer, AuthError> {
        let builder = Self::request(Method::POST, url)?.header(CONTENT_TYPE, "application/json");
        let request = Self::built(builder, Full::new(Bytes::from(json.to_string())))?;
        self.send(request).await
    }
}
