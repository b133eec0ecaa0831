//! [`IntrospectionValidator`]: opaque access tokens checked at the authorization server's
//! introspection endpoint (RFC 7662), the answers kept in a cache bounded in size and time.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::fetch::{Fetcher, UrlPolicy};
use super::{AuthConfigError, Identity, TokenError, TokenValidator, ValidateFuture};

/// Builds an [`IntrospectionValidator`].
#[derive(Debug, Clone)]
pub struct IntrospectionValidatorBuilder {
    endpoint: String,
    client_id: String,
    client_secret: String,
    audience: String,
    issuer: Option<String>,
    loopback_http: bool,
    cache_ttl: Duration,
    cache_entries: usize,
    roots_pem: Vec<Vec<u8>>,
}

impl IntrospectionValidatorBuilder {
    /// Also trusts the CA certificates of `pem` for the endpoint (as
    /// [`JwtValidatorBuilder::root_certificates_pem`](super::JwtValidatorBuilder::root_certificates_pem)).
    pub fn root_certificates_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.roots_pem.push(pem.into());
        self
    }

    /// The `iss` an answer must name, when it names one.
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Allows an `http://` endpoint on a loopback host (development, tests); off by default.
    pub fn allow_loopback_http(mut self, allow: bool) -> Self {
        self.loopback_http = allow;
        self
    }

    /// How long an answer is reused (default 60 s; never beyond the token's `exp`).
    /// `Duration::ZERO` asks the endpoint about every request.
    pub fn cache_ttl(mut self, ttl: Duration) -> Self {
        self.cache_ttl = ttl;
        self
    }

    /// How many answers are kept at most (default 1024); the oldest go first.
    pub fn cache_entries(mut self, entries: usize) -> Self {
        self.cache_entries = entries;
        self
    }

    /// The validator; fails when the endpoint is not `https://` (or loopback `http://` when
    /// allowed).
    pub fn build(self) -> Result<IntrospectionValidator, AuthConfigError> {
        let policy = UrlPolicy {
            loopback_http: self.loopback_http,
        };
        policy.check(&self.endpoint)?;
        let credentials = format!(
            "{}:{}",
            form_urlencoded::byte_serialize(self.client_id.as_bytes()).collect::<String>(),
            form_urlencoded::byte_serialize(self.client_secret.as_bytes()).collect::<String>()
        );
        Ok(IntrospectionValidator {
            fetcher: Fetcher::new(policy, &self.roots_pem)?,
            authorization: format!("Basic {}", STANDARD.encode(credentials)),
            endpoint: self.endpoint,
            audience: self.audience,
            issuer: self.issuer,
            cache: Cache::new(self.cache_entries, self.cache_ttl),
        })
    }
}

/// Validates opaque access tokens at the authorization server's introspection endpoint
/// (RFC 7662), authenticating with client credentials (HTTP Basic): the answer must be
/// `active`, name this resource in `aud` (RFC 8707), name the issuer when one is set, carry
/// a `sub`, and not be past its `exp`. Answers are cached by the token's SHA-256, at most
/// [`cache_entries`](IntrospectionValidatorBuilder::cache_entries) of them for at most
/// [`cache_ttl`](IntrospectionValidatorBuilder::cache_ttl); refusals are not cached.
pub struct IntrospectionValidator {
    fetcher: Fetcher,
    endpoint: String,
    authorization: String,
    audience: String,
    issuer: Option<String>,
    cache: Cache,
}

impl std::fmt::Debug for IntrospectionValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionValidator")
            .field("endpoint", &self.endpoint)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl IntrospectionValidator {
    /// Starts building a validator asking `endpoint` as the client `client_id` with
    /// `client_secret`, for tokens of `audience` (the resource's canonical URI).
    pub fn builder(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        audience: impl Into<String>,
    ) -> IntrospectionValidatorBuilder {
        IntrospectionValidatorBuilder {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            audience: audience.into(),
            issuer: None,
            loopback_http: false,
            cache_ttl: Duration::from_secs(60),
            cache_entries: 1024,
            roots_pem: Vec::new(),
        }
    }

    async fn check(&self, token: &str) -> Result<Identity, TokenError> {
        let key: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        if let Some(identity) = self.cache.get(&key) {
            return Ok(identity);
        }
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("token", token)
            .append_pair("token_type_hint", "access_token")
            .finish();
        let answer = self
            .fetcher
            .post_form(&self.endpoint, form, &self.authorization)
            .await
            .map_err(TokenError::Unavailable)?;
        let (identity, exp) = self.judge(answer)?;
        self.cache.put(key, identity.clone(), exp);
        Ok(identity)
    }

    /// The identity of an introspection answer, and its `exp`, when it is acceptable.
    fn judge(&self, answer: Value) -> Result<(Identity, Option<u64>), TokenError> {
        let invalid = |why: &str| Err(TokenError::Invalid(why.to_owned()));
        let Value::Object(claims) = answer else {
            return Err(TokenError::Unavailable(
                "the introspection answer is not an object".to_owned(),
            ));
        };
        if claims.get("active") != Some(&Value::Bool(true)) {
            return invalid("inactive");
        }
        let audience_named = match claims.get("aud") {
            Some(Value::String(aud)) => *aud == self.audience,
            Some(Value::Array(auds)) => auds.iter().any(|aud| aud.as_str() == Some(&self.audience)),
            _ => false,
        };
        if !audience_named {
            return invalid("issued for another audience");
        }
        if let Some(issuer) = &self.issuer
            && claims.get("iss").and_then(Value::as_str) != Some(issuer.as_str())
        {
            return invalid("issued by another issuer");
        }
        let exp = claims.get("exp").and_then(Value::as_u64);
        if exp.is_some_and(|exp| exp <= unix_now()) {
            return invalid("expired");
        }
        let identity = Identity::from_claims(claims)
            .ok_or_else(|| TokenError::Invalid("no sub".to_owned()))?;
        Ok((identity, exp))
    }
}

impl TokenValidator for IntrospectionValidator {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(self.check(token))
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Accepted answers by token hash, bounded in entries and in time.
struct Cache {
    max: usize,
    ttl: Duration,
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    map: HashMap<[u8; 32], (Identity, Instant)>,
    /// Insertion order, oldest first (each key once).
    order: VecDeque<[u8; 32]>,
}

impl Cache {
    fn new(max: usize, ttl: Duration) -> Cache {
        Cache {
            max,
            ttl,
            entries: Mutex::default(),
        }
    }

    fn get(&self, key: &[u8; 32]) -> Option<Identity> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let (identity, until) = entries.map.get(key)?;
        (Instant::now() < *until).then(|| identity.clone())
    }

    /// Keeps `identity` until the TTL or its `exp`, whichever comes first; the oldest
    /// entries (expired or not) go when the cache is full.
    fn put(&self, key: [u8; 32], identity: Identity, exp: Option<u64>) {
        let mut ttl = self.ttl;
        if let Some(exp) = exp {
            ttl = ttl.min(Duration::from_secs(exp.saturating_sub(unix_now())));
        }
        if self.max == 0 || ttl.is_zero() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let Entries { map, order } = &mut *entries;
        if map.insert(key, (identity, Instant::now() + ttl)).is_none() {
            order.push_back(key);
        }
        while map.len() > self.max {
            let Some(oldest) = order.pop_front() else {
                break;
            };
            map.remove(&oldest);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(subject: &str) -> Identity {
        Identity::from_claims(
            serde_json::json!({"sub": subject})
                .as_object()
                .unwrap()
                .clone(),
        )
        .unwrap()
    }

    #[test]
    fn the_cache_holds_at_most_its_size_and_forgets_the_oldest() {
        let cache = Cache::new(3, Duration::from_secs(60));
        for n in 0..10u8 {
            cache.put([n; 32], identity(&n.to_string()), None);
            assert!(cache.len() <= 3);
        }
        assert!(cache.get(&[0; 32]).is_none());
        assert_eq!(cache.get(&[9; 32]).unwrap().subject, "9");
    }

    #[test]
    fn an_entry_lives_no_longer_than_the_ttl_nor_the_token() {
        let cache = Cache::new(8, Duration::from_millis(50));
        cache.put([1; 32], identity("a"), None);
        assert!(cache.get(&[1; 32]).is_some());
        std::thread::sleep(Duration::from_millis(80));
        assert!(cache.get(&[1; 32]).is_none());
        // A token expiring now is not kept at all.
        cache.put([2; 32], identity("b"), Some(unix_now()));
        assert!(cache.get(&[2; 32]).is_none());
    }
}
