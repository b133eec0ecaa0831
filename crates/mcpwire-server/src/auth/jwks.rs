//! The issuer's signing keys (its JWKS): fetched when first needed, kept for a while, and
//! fetched again, at most once per interval, when a token names a key not among them (the
//! issuer rotated its keys).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};

use super::TokenError;
use super::fetch::Fetcher;

/// At most this many keys are read from a JWKS.
const MAX_KEYS: usize = 64;

/// One verification key and the algorithms it may verify.
#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) decoding: DecodingKey,
    pub(crate) algorithms: Vec<Algorithm>,
}

/// The keys of one fetch.
struct KeySet {
    by_kid: HashMap<String, Key>,
    without_kid: Vec<Key>,
    fetched: Instant,
}

/// Where the JWKS is.
#[derive(Debug, Clone)]
pub(crate) enum Source {
    /// A URL given in the configuration.
    Url(String),
    /// The `jwks_uri` of this issuer's metadata (RFC 8414, else OpenID discovery).
    Issuer(String),
}

/// The cache.
pub(crate) struct Jwks {
    source: Source,
    fetcher: Fetcher,
    /// How long a fetched set is used before it is fetched again.
    max_age: Duration,
    /// The least time between two fetches caused by unknown keys.
    min_refetch: Duration,
    current: Mutex<Option<Arc<KeySet>>>,
    /// Held while fetching (one fetch at a time), with the time of the last fetch and the
    /// JWKS URL once discovered.
    fetching: tokio::sync::Mutex<(Option<Instant>, Option<String>)>,
}

impl Jwks {
    pub(crate) fn new(
        source: Source,
        fetcher: Fetcher,
        max_age: Duration,
        min_refetch: Duration,
    ) -> Jwks {
        Jwks {
            source,
            fetcher,
            max_age,
            min_refetch,
            current: Mutex::new(None),
            fetching: tokio::sync::Mutex::new((None, None)),
        }
    }

    fn current(&self) -> Option<Arc<KeySet>> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The keys a token with `kid` may be verified with (every key without a kid when the
    /// token names none). Fetches when nothing fresh is held, or when `kid` is unknown and
    /// the last fetch is older than the refetch interval.
    pub(crate) async fn keys_for(&self, kid: Option<&str>) -> Result<Vec<Key>, TokenError> {
        if let Some(set) = self.current()
            && set.fetched.elapsed() < self.max_age
            && let Some(keys) = lookup(&set, kid)
        {
            return Ok(keys);
        }
        let mut fetching = self.fetching.lock().await;
        // Another request may have fetched while this one waited.
        let held = self.current();
        if let Some(set) = &held
            && set.fetched.elapsed() < self.max_age
        {
            if let Some(keys) = lookup(set, kid) {
                return Ok(keys);
            }
            let recent = fetching
                .0
                .is_some_and(|last| last.elapsed() < self.min_refetch);
            if recent {
                return Err(TokenError::Invalid(format!(
                    "no key {kid:?} in the issuer's JWKS"
                )));
            }
        }
        fetching.0 = Some(Instant::now());
        let url = match (&self.source, &fetching.1) {
            (Source::Url(url), _) => url.clone(),
            (Source::Issuer(_), Some(url)) => url.clone(),
            (Source::Issuer(issuer), None) => {
                let url = self.discover(issuer).await?;
                fetching.1 = Some(url.clone());
                url
            }
        };
        let document = self
            .fetcher
            .json(&url)
            .await
            .map_err(TokenError::Unavailable)?;
        let set = Arc::new(read_set(&document));
        tracing::debug!(
            url,
            keys = set.by_kid.len() + set.without_kid.len(),
            "JWKS fetched"
        );
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&set));
        lookup(&set, kid)
            .ok_or_else(|| TokenError::Invalid(format!("no key {kid:?} in the issuer's JWKS")))
    }

    /// The `jwks_uri` of the issuer's metadata: RFC 8414's well-known URI (the segment
    /// inserted before the issuer's path), else OpenID Connect's (appended to it). The
    /// document must name the same issuer (RFC 8414 §3.3).
    async fn discover(&self, issuer: &str) -> Result<String, TokenError> {
        let trimmed = issuer.trim_end_matches('/');
        let (origin, path) = split_origin(trimmed);
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{trimmed}/.well-known/openid-configuration"),
        ];
        let mut last_error = String::new();
        for url in candidates {
            match self.fetcher.json(&url).await {
                Ok(document) => {
                    if document.get("issuer").and_then(|v| v.as_str()) != Some(issuer) {
                        return Err(TokenError::Unavailable(format!(
                            "{url} names another issuer than {issuer}"
                        )));
                    }
                    let jwks_uri = document
                        .get("jwks_uri")
                        .and_then(|v| v.as_str())
                        .ok_or_else(|| TokenError::Unavailable(format!("{url} has no jwks_uri")))?;
                    self.fetcher
                        .policy()
                        .check(jwks_uri)
                        .map_err(|e| TokenError::Unavailable(e.to_string()))?;
                    return Ok(jwks_uri.to_owned());
                }
                Err(why) => last_error = why,
            }
        }
        Err(TokenError::Unavailable(last_error))
    }
}

/// `https://host[:port]` and the rest (the path, possibly empty) of an issuer URL.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

fn lookup(set: &KeySet, kid: Option<&str>) -> Option<Vec<Key>> {
    match kid {
        Some(kid) => set.by_kid.get(kid).map(|key| vec![key.clone()]),
        None if set.without_kid.is_empty() => None,
        None => Some(set.without_kid.clone()),
    }
}

/// The signing keys of a JWKS document: public asymmetric keys only (a symmetric `oct` key
/// is never used, whatever the document says), not those marked for encryption; a key that
/// cannot be read is skipped.
fn read_set(document: &serde_json::Value) -> KeySet {
    let mut set = KeySet {
        by_kid: HashMap::new(),
        without_kid: Vec::new(),
        fetched: Instant::now(),
    };
    let keys = document
        .get("keys")
        .and_then(|keys| keys.as_array())
        .map(Vec::as_slice)
        .unwrap_or_default();
    for value in keys.iter().take(MAX_KEYS) {
        let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone()) else {
            continue;
        };
        if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption)) {
            continue;
        }
        let mut algorithms = algorithms_of(&jwk.algorithm);
        if let Some(declared) = jwk.common.key_algorithm {
            let declared = serde_json::to_value(declared).ok();
            algorithms.retain(|alg| serde_json::to_value(alg).ok() == declared);
        }
        if algorithms.is_empty() {
            continue;
        }
        let Ok(decoding) = DecodingKey::from_jwk(&jwk) else {
            continue;
        };
        let key = Key {
            decoding,
            algorithms,
        };
        match jwk.common.key_id {
            Some(kid) => {
                set.by_kid.insert(kid, key);
            }
            None => set.without_kid.push(key),
        }
    }
    set
}

/// The asymmetric algorithms a key of these parameters verifies; none for a symmetric key.
fn algorithms_of(parameters: &AlgorithmParameters) -> Vec<Algorithm> {
    match parameters {
        AlgorithmParameters::RSA(_) => vec![
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => vec![Algorithm::ES256],
            EllipticCurve::P384 => vec![Algorithm::ES384],
            _ => Vec::new(),
        },
        AlgorithmParameters::OctetKeyPair(okp) if okp.curve == EllipticCurve::Ed25519 => {
            vec![Algorithm::EdDSA]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_encryption_keys_are_never_read() {
        let document = serde_json::json!({"keys": [
            {"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"},
            {"kty": "EC", "kid": "enc", "use": "enc", "crv": "P-256",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
             "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty": "EC", "kid": "sig", "crv": "P-256",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
             "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
        ]});
        let set = read_set(&document);
        assert_eq!(set.by_kid.keys().collect::<Vec<_>>(), ["sig"]);
        assert_eq!(set.by_kid["sig"].algorithms, [Algorithm::ES256]);
    }

    #[test]
    fn the_issuer_path_follows_the_well_known_segment() {
        assert_eq!(
            split_origin("https://as.example/tenant"),
            ("https://as.example", "/tenant")
        );
        assert_eq!(
            split_origin("https://as.example"),
            ("https://as.example", "")
        );
    }
}
