//! # TLS for `https://` endpoints (feature `http`)
//!
//! rustls on its `ring` provider. A server's certificate must chain to one of the
//! [`TrustRoots`]: the platform's roots (read with `rustls-native-certs`: the system's
//! certificate store, or the files `SSL_CERT_FILE` / `SSL_CERT_DIR` name) and any private CA
//! added as PEM. The platform's roots are read once per process. The same roots serve
//! [`HttpTransport`](crate::HttpTransport) and `mcpwire check --http https://…`.

use std::sync::{Arc, OnceLock};

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

/// The rustls this crate builds its TLS configurations with (re-exported so that a caller's
/// configuration types are the same ones).
pub use rustls;

use crate::transport::TransportError;

/// The certificates an `https://` server's certificate may chain to: the platform's roots
/// (unless turned off) and any private CA added.
///
/// ```
/// use mcpwire_client::tls::TrustRoots;
/// let roots = TrustRoots::platform();
/// // A private CA, read from its PEM file:
/// // let roots = roots.add_pem(&std::fs::read("ca.pem")?)?;
/// # let _ = roots;
/// ```
#[derive(Debug, Clone)]
pub struct TrustRoots {
    platform: bool,
    added: Vec<CertificateDer<'static>>,
}

impl Default for TrustRoots {
    fn default() -> Self {
        Self::platform()
    }
}

impl TrustRoots {
    /// The platform's roots only.
    pub fn platform() -> Self {
        Self {
            platform: true,
            added: Vec::new(),
        }
    }

    /// No roots at all: only what [`add_pem`](Self::add_pem) adds is trusted.
    pub fn none() -> Self {
        Self {
            platform: false,
            added: Vec::new(),
        }
    }

    /// Whether the platform's roots are trusted (default `true`).
    pub fn with_platform(mut self, platform: bool) -> Self {
        self.platform = platform;
        self
    }

    /// Adds every certificate of a PEM text (`-----BEGIN CERTIFICATE-----` blocks) as a
    /// root: a private CA. A text with no certificate, or one that is not PEM, is an error
    /// naming why.
    pub fn add_pem(mut self, pem: &[u8]) -> Result<Self, TransportError> {
        let mut found = 0;
        for certificate in CertificateDer::pem_slice_iter(pem) {
            let certificate = certificate.map_err(|error| {
                TransportError::Io(format!("the CA certificates are not valid PEM: {error}"))
            })?;
            self.added.push(certificate);
            found += 1;
        }
        if found == 0 {
            return Err(TransportError::Io(
                "the CA PEM holds no certificate (no -----BEGIN CERTIFICATE----- block)".into(),
            ));
        }
        Ok(self)
    }

    /// The root store: the platform's roots (those it could read) and the added ones. No
    /// root at all is an error saying why, rather than a handshake that cannot succeed.
    pub fn store(&self) -> Result<RootCertStore, TransportError> {
        let mut store = RootCertStore::empty();
        let mut problems = Vec::new();
        if self.platform {
            let (certificates, errors) = platform_roots();
            problems.extend(errors.iter().cloned());
            store.add_parsable_certificates(certificates.iter().cloned());
        }
        for certificate in &self.added {
            store.add(certificate.clone()).map_err(|error| {
                TransportError::Io(format!("a CA certificate cannot be a root: {error}"))
            })?;
        }
        if store.is_empty() {
            let why = if !self.platform {
                "the platform's roots are off and no CA was added".to_owned()
            } else if problems.is_empty() {
                "the platform's certificate store is empty and no CA was added".to_owned()
            } else {
                format!(
                    "the platform's certificate store could not be read ({}) and no CA was added",
                    problems.join("; ")
                )
            };
            return Err(TransportError::Io(format!(
                "no root certificate to verify an https server with: {why}"
            )));
        }
        Ok(store)
    }

    /// A rustls client configuration trusting these roots, offering `alpn` (such as
    /// `[b"h2", b"http/1.1"]`) in the handshake.
    pub fn client_config(&self, alpn: &[&[u8]]) -> Result<rustls::ClientConfig, TransportError> {
        config(self.store()?, alpn)
    }
}

/// A configuration on rustls's `ring` provider with its safe default protocol versions,
/// trusting `store` and offering `alpn`.
pub(crate) fn config(
    store: RootCertStore,
    alpn: &[&[u8]],
) -> Result<rustls::ClientConfig, TransportError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| TransportError::Io(format!("TLS configuration: {error}")))?
        .with_root_certificates(store)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|protocol| protocol.to_vec()).collect();
    Ok(config)
}

/// The platform's roots and the errors met reading them, read once per process (the first
/// `https://` connection pays for the files; every later one shares them).
fn platform_roots() -> &'static (Vec<CertificateDer<'static>>, Vec<String>) {
    static ROOTS: OnceLock<(Vec<CertificateDer<'static>>, Vec<String>)> = OnceLock::new();
    ROOTS.get_or_init(|| {
        let native = rustls_native_certs::load_native_certs();
        let errors = native.errors.iter().map(ToString::to_string).collect();
        (native.certs, errors)
    })
}

/// An error and its sources, joined with `: ` (hyper's errors name the layer; the cause,
/// such as rustls's "invalid peer certificate: UnknownIssuer", is a source).
pub(crate) fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pem_without_certificates_is_refused() {
        let error = TrustRoots::none()
            .add_pem(b"not pem")
            .expect_err("no certificate");
        assert!(error.to_string().contains("no certificate"), "{error}");
    }

    #[test]
    fn no_roots_at_all_is_an_error_not_a_silent_failure() {
        let error = TrustRoots::none().client_config(&[]).expect_err("no roots");
        assert!(error.to_string().contains("no root certificate"), "{error}");
    }
}
