//! Fetching the issuer's documents (its metadata, its JWKS): HTTPS through rustls with the
//! platform's roots; plain `http://` only to a loopback host, and only when allowed.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::{Method, Request, Uri, header};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use mcpwire::http::Bytes;

use super::AuthConfigError;

/// The largest document read (a JWKS of a few dozen keys fits many times over).
const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// How long a fetch may take, connection included.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Which URLs may be fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UrlPolicy {
    /// `http://` to a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`) is allowed.
    pub(crate) loopback_http: bool,
}

impl UrlPolicy {
    /// `url` parsed, when the policy allows it: `https://`, or `http://` on loopback when
    /// allowed.
    pub(crate) fn check(self, url: &str) -> Result<Uri, AuthConfigError> {
        let bad = |why: &str| AuthConfigError::BadUrl(format!("{url:?}: {why}"));
        let uri: Uri = url.parse().map_err(|_| bad("not a URL"))?;
        let host = uri.host().ok_or_else(|| bad("no host"))?;
        match uri.scheme_str() {
            Some("https") => Ok(uri),
            Some("http") if self.loopback_http && is_loopback(host) => Ok(uri),
            Some("http") if is_loopback(host) => Err(bad(
                "plain http is allowed only to a loopback host, and only when asked for explicitly",
            )),
            _ => Err(bad("only https is allowed")),
        }
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A client for the issuer's documents.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
    policy: UrlPolicy,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Fetcher {
    /// A client trusting the platform's roots and the certificates of `extra_roots_pem`
    /// (a private CA).
    pub(crate) fn new(
        policy: UrlPolicy,
        extra_roots_pem: &[Vec<u8>],
    ) -> Result<Fetcher, AuthConfigError> {
        use rustls::pki_types::CertificateDer;
        use rustls::pki_types::pem::PemObject;
        let mut roots = rustls::RootCertStore::empty();
        let native = rustls_native_certs::load_native_certs();
        for cert in native.certs {
            // A certificate the platform lists but rustls cannot read is skipped.
            let _ = roots.add(cert);
        }
        for pem in extra_roots_pem {
            let bad = |why: String| AuthConfigError::BadCertificate(why);
            let mut found = false;
            for cert in CertificateDer::pem_slice_iter(pem) {
                let cert = cert.map_err(|e| bad(e.to_string()))?;
                roots.add(cert).map_err(|e| bad(e.to_string()))?;
                found = true;
            }
            if !found {
                return Err(bad("no certificate in the PEM given".to_owned()));
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| AuthConfigError::BadUrl(format!("TLS: {e}")))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(config)
            .https_or_http()
            .enable_http1()
            .build();
        Ok(Fetcher {
            client: Client::builder(TokioExecutor::new()).build(connector),
            policy,
        })
    }

    pub(crate) fn policy(&self) -> UrlPolicy {
        self.policy
    }

    /// The JSON document at `url` (checked against the policy), which must answer 200 within
    /// [`FETCH_TIMEOUT`] and be at most [`MAX_DOCUMENT_BYTES`].
    pub(crate) async fn json(&self, url: &str) -> Result<serde_json::Value, String> {
        self.send(url, Method::GET, None, None).await
    }

    /// The JSON answer to a form POST (`application/x-www-form-urlencoded`) to `url`, with
    /// `authorization` as the `Authorization` header, under the same rules as [`json`](Self::json).
    pub(crate) async fn post_form(
        &self,
        url: &str,
        form: String,
        authorization: &str,
    ) -> Result<serde_json::Value, String> {
        self.send(url, Method::POST, Some(form), Some(authorization))
            .await
    }

    async fn send(
        &self,
        url: &str,
        method: Method,
        form: Option<String>,
        authorization: Option<&str>,
    ) -> Result<serde_json::Value, String> {
        let uri = self.policy.check(url).map_err(|e| e.to_string())?;
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::ACCEPT, "application/json");
        if form.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        }
        if let Some(value) = authorization {
            request = request.header(header::AUTHORIZATION, value);
        }
        let request = request
            .body(Full::new(Bytes::from(form.unwrap_or_default())))
            .map_err(|e| format!("{url}: {e}"))?;
        let fetch = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| format!("{url}: {e}"))?;
            if !response.status().is_success() {
                return Err(format!("{url}: {}", response.status()));
            }
            let body = Limited::new(response.into_body(), MAX_DOCUMENT_BYTES)
                .collect()
                .await
                .map_err(|e| format!("{url}: {e}"))?
                .to_bytes();
            serde_json::from_slice(&body).map_err(|e| format!("{url}: not JSON: {e}"))
        };
        tokio::time::timeout(FETCH_TIMEOUT, fetch)
            .await
            .map_err(|_| format!("{url}: no answer within {FETCH_TIMEOUT:?}"))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_only_on_loopback_and_only_when_allowed() {
        let strict = UrlPolicy {
            loopback_http: false,
        };
        let loose = UrlPolicy {
            loopback_http: true,
        };
        assert!(strict.check("https://as.example/jwks").is_ok());
        assert!(strict.check("http://127.0.0.1:9/jwks").is_err());
        assert!(loose.check("http://127.0.0.1:9/jwks").is_ok());
        assert!(loose.check("http://[::1]:9/jwks").is_ok());
        assert!(loose.check("http://localhost/jwks").is_ok());
        assert!(loose.check("http://as.example/jwks").is_err());
        assert!(loose.check("ftp://127.0.0.1/jwks").is_err());
    }
}
