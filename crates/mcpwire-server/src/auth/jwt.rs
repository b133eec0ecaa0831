//! [`JwtValidator`]: access tokens as JWTs signed by the issuer, checked against its JWKS with
//! the `jsonwebtoken` crate.

use std::time::Duration;

use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::fetch::{Fetcher, UrlPolicy};
use super::jwks::{Jwks, Source};
use super::{AuthConfigError, Identity, TokenError, TokenValidator, ValidateFuture};

/// The asymmetric algorithms a token may be signed with. Never `none` (which `jsonwebtoken`
/// cannot even read), never HMAC (a public key must not become a shared secret).
const ASYMMETRIC: [Algorithm; 9] = [
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::EdDSA,
];

/// Builds a [`JwtValidator`].
#[derive(Debug, Clone)]
pub struct JwtValidatorBuilder {
    issuer: String,
    audience: String,
    jwks_url: Option<String>,
    loopback_http: bool,
    leeway: Duration,
    max_age: Duration,
    min_refetch: Duration,
    roots_pem: Vec<Vec<u8>>,
}

impl JwtValidatorBuilder {
    /// Also trusts the CA certificates of `pem` for the issuer's documents (an issuer whose
    /// certificate a private CA issued); the platform's roots stay trusted.
    pub fn root_certificates_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.roots_pem.push(pem.into());
        self
    }

    /// Fetches the keys from `url` instead of the `jwks_uri` of the issuer's metadata.
    pub fn jwks_url(mut self, url: impl Into<String>) -> Self {
        self.jwks_url = Some(url.into());
        self
    }

    /// Allows `http://` for an issuer and a JWKS on a loopback host (`localhost`,
    /// `127.0.0.0/8`, `[::1]`), for development and tests; off by default (https only).
    pub fn allow_loopback_http(mut self, allow: bool) -> Self {
        self.loopback_http = allow;
        self
    }

    /// How far `exp` and `nbf` may be off, for clocks that differ (default 30 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// How long fetched keys are used before they are fetched again (default 1 hour).
    pub fn jwks_max_age(mut self, max_age: Duration) -> Self {
        self.max_age = max_age;
        self
    }

    /// The least time between two fetches caused by a token naming an unknown key (default
    /// 30 s): a flood of tokens with made-up `kid`s costs the issuer one fetch per interval.
    pub fn min_refetch_interval(mut self, interval: Duration) -> Self {
        self.min_refetch = interval;
        self
    }

    /// The validator; fails when the issuer or the JWKS URL is not `https://` (or loopback
    /// `http://` when allowed).
    pub fn build(self) -> Result<JwtValidator, AuthConfigError> {
        let policy = UrlPolicy {
            loopback_http: self.loopback_http,
        };
        policy.check(&self.issuer)?;
        let source = match self.jwks_url {
            Some(url) => {
                policy.check(&url)?;
                Source::Url(url)
            }
            None => Source::Issuer(self.issuer.clone()),
        };
        let fetcher = Fetcher::new(policy, &self.roots_pem)?;
        Ok(JwtValidator {
            jwks: Jwks::new(source, fetcher, self.max_age, self.min_refetch),
            issuer: self.issuer,
            audience: self.audience,
            leeway: self.leeway,
        })
    }
}

/// Validates JWT access tokens: signed with an asymmetric algorithm by a key of the
/// issuer's JWKS (fetched and cached, fetched again on an unknown `kid` at most once per
/// interval), `iss` the issuer, `aud` naming the resource (RFC 8707), within `exp` and
/// `nbf` give or take the leeway, with a `sub`.
pub struct JwtValidator {
    issuer: String,
    audience: String,
    leeway: Duration,
    jwks: Jwks,
}

impl std::fmt::Debug for JwtValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtValidator")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl JwtValidator {
    /// Starts building a validator for tokens `issuer` issues for `audience` (the
    /// resource's canonical URI, as given to
    /// [`ResourceServer::builder`](super::ResourceServer::builder)).
    pub fn builder(issuer: impl Into<String>, audience: impl Into<String>) -> JwtValidatorBuilder {
        JwtValidatorBuilder {
            issuer: issuer.into(),
            audience: audience.into(),
            jwks_url: None,
            loopback_http: false,
            leeway: Duration::from_secs(30),
            max_age: Duration::from_secs(3600),
            min_refetch: Duration::from_secs(30),
            roots_pem: Vec::new(),
        }
    }

    async fn check(&self, token: &str) -> Result<Identity, TokenError> {
        let invalid = |why: String| TokenError::Invalid(why);
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| invalid(format!("header: {e}")))?;
        if !ASYMMETRIC.contains(&header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let keys = self.jwks.keys_for(header.kid.as_deref()).await?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = self.leeway.as_secs();
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let mut last = String::from("no key for its algorithm");
        for key in keys
            .iter()
            .filter(|key| key.algorithms.contains(&header.alg))
        {
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key.decoding, &validation) {
                Ok(data) => {
                    return Identity::from_claims(data.claims)
                        .ok_or_else(|| invalid("no string sub".to_owned()));
                }
                Err(e) => last = e.to_string(),
            }
        }
        Err(invalid(last))
    }
}

impl TokenValidator for JwtValidator {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(self.check(token))
    }
}
