//! `private_key_jwt` (RFC 7523 §2.2, OpenID Connect Core §9): the client authenticates at the
//! token endpoint with a JWT it signs, for the client credentials grant of SEP-1046.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rustls::pki_types::PrivateKeyDer;
use rustls::pki_types::pem::PemObject;
use serde_json::json;

use super::{AuthError, pkce};

/// How long a client assertion is valid.
const LIFETIME_SECONDS: u64 = 300;

/// The `client_assertion_type` of a JWT assertion.
pub(crate) const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// A client's signing key.
pub(crate) struct Signer {
    key: EncodingKey,
    algorithm: Algorithm,
}

impl Signer {
    /// The key of a PKCS#8 PEM text, for `algorithm` (`ES256` or `ES384`).
    pub(crate) fn from_pem(pem: &[u8], algorithm: &str) -> Result<Self, AuthError> {
        let algorithm = match algorithm {
            "ES256" => Algorithm::ES256,
            "ES384" => Algorithm::ES384,
            other => {
                return Err(AuthError::Registration(format!(
                    "the signing algorithm {other:?} is not supported (ES256, ES384)"
                )));
            }
        };
        let der = PrivateKeyDer::from_pem_slice(pem).map_err(|error| {
            AuthError::Registration(format!("the private key is not a PEM key: {error}"))
        })?;
        let PrivateKeyDer::Pkcs8(der) = der else {
            return Err(AuthError::Registration(
                "the private key must be PKCS#8 (BEGIN PRIVATE KEY)".to_owned(),
            ));
        };
        Ok(Self {
            key: EncodingKey::from_ec_der(der.secret_pkcs8_der()),
            algorithm,
        })
    }

    /// A signed assertion of `client_id` for the authorization server `audience` (its
    /// issuer), valid for five minutes, with a random `jti`.
    pub(crate) fn assertion(&self, client_id: &str, audience: &str) -> Result<String, AuthError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        let claims = json!({
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": now,
            "exp": now + LIFETIME_SECONDS,
            "jti": pkce::random()?,
        });
        jsonwebtoken::encode(&Header::new(self.algorithm), &claims, &self.key)
            .map_err(|error| AuthError::Token(format!("signing the client assertion: {error}")))
    }
}
