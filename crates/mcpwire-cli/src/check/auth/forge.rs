//! The bad tokens `--auth` forges from the valid one (`--bearer`): the same claims unsigned,
//! under `alg: none`, with the payload altered, and re-signed with HS256 under a guessed key.
//! A server that checks tokens refuses every one; base64url from the `base64` crate, the HMAC
//! signature from `jsonwebtoken`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Map, Value, json};

/// The HMAC key the HS256 token is signed with: the commonest of the guessed ones (a server
/// that verifies HMAC with a key it should not have, or none, accepts it).
pub const GUESSED_KEY: &[u8] = b"secret";

/// The parts of the valid token, when it is a JWT.
#[derive(Debug, Clone)]
pub struct Jwt {
    /// The header, decoded.
    pub header: Map<String, Value>,
    /// The claims, decoded.
    pub claims: Map<String, Value>,
    /// The header as sent (base64url).
    header_text: String,
    /// The signature as sent (base64url).
    signature: String,
}

impl Jwt {
    /// The JWT `token` is (three base64url parts, a JSON object header and payload), if it is
    /// one.
    pub fn parse(token: &str) -> Option<Jwt> {
        let mut parts = token.split('.');
        let (header_text, payload, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let object = |text: &str| -> Option<Map<String, Value>> {
            let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
            match serde_json::from_slice(&bytes).ok()? {
                Value::Object(map) => Some(map),
                _ => None,
            }
        };
        Some(Jwt {
            header: object(header_text)?,
            claims: object(payload)?,
            header_text: header_text.to_owned(),
            signature: signature.to_owned(),
        })
    }

    /// The same header and claims with no signature: `header.payload.`.
    pub fn unsigned(&self) -> String {
        format!(
            "{}.{}.",
            self.header_text,
            encode(&Value::Object(self.claims.clone()))
        )
    }

    /// The claims under `{"alg":"none","typ":"JWT"}`, no signature.
    pub fn alg_none(&self) -> String {
        format!(
            "{}.{}.",
            encode(&json!({"alg": "none", "typ": "JWT"})),
            encode(&Value::Object(self.claims.clone()))
        )
    }

    /// The original header and signature around a payload with one more claim and `sub`
    /// changed: the signature no longer matches.
    pub fn altered(&self) -> String {
        let mut claims = self.claims.clone();
        let sub = claims
            .get("sub")
            .and_then(Value::as_str)
            .map_or_else(|| "mcpwire-check".to_owned(), |s| format!("{s}-altered"));
        claims.insert("sub".into(), Value::String(sub));
        claims.insert("mcpwire_check_altered".into(), Value::Bool(true));
        format!(
            "{}.{}.{}",
            self.header_text,
            encode(&Value::Object(claims)),
            self.signature
        )
    }

    /// The claims signed with HS256 under [`GUESSED_KEY`], the original `kid` kept.
    pub fn hs256(&self) -> Result<String, String> {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = self
            .header
            .get("kid")
            .and_then(Value::as_str)
            .map(str::to_owned);
        jsonwebtoken::encode(
            &header,
            &self.claims,
            &EncodingKey::from_secret(GUESSED_KEY),
        )
        .map_err(|error| format!("cannot sign the HS256 token: {error}"))
    }
}

/// A JWT that is no forgery of anything: made-up claims, an RS256 header, no signature (for
/// an opaque `--bearer`, or none).
pub fn unsigned_stranger() -> String {
    format!(
        "{}.{}.",
        encode(&json!({"alg": "RS256", "typ": "JWT"})),
        encode(
            &json!({"sub": "mcpwire-check", "iss": "https://mcpwire-check.invalid", "exp": 4_102_444_800u64})
        )
    )
}

fn encode(value: &Value) -> String {
    URL_SAFE_NO_PAD.encode(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> String {
        let header = encode(&json!({"alg": "ES256", "kid": "k1", "typ": "JWT"}));
        let claims = encode(&json!({"sub": "alice", "aud": "https://h/mcp", "exp": 9}));
        format!("{header}.{claims}.c2ln")
    }

    #[test]
    fn each_forgery_keeps_what_it_should_and_breaks_the_rest() {
        let jwt = Jwt::parse(&token()).expect("a JWT");
        let parts = |t: &str| t.split('.').map(str::to_owned).collect::<Vec<_>>();
        let none = Jwt::parse(&jwt.alg_none()).expect("a JWT");
        assert_eq!(none.header.get("alg"), Some(&json!("none")));
        assert_eq!(none.claims, jwt.claims);
        assert_eq!(parts(&jwt.alg_none())[2], "");
        let unsigned = parts(&jwt.unsigned());
        assert_eq!(
            (unsigned[0].as_str(), unsigned[2].as_str()),
            (parts(&token())[0].as_str(), "")
        );
        let altered = Jwt::parse(&jwt.altered()).expect("a JWT");
        assert_eq!(altered.claims.get("sub"), Some(&json!("alice-altered")));
        assert_eq!(parts(&jwt.altered())[2], "c2ln");
        let hs = Jwt::parse(&jwt.hs256().unwrap()).expect("a JWT");
        assert_eq!(hs.header.get("alg"), Some(&json!("HS256")));
        assert_eq!(hs.header.get("kid"), Some(&json!("k1")));
        assert_eq!(hs.claims, jwt.claims);
        assert!(Jwt::parse("opaque-token").is_none());
    }
}
