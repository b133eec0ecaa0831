//! PKCE (RFC 7636) with S256, and the random values of a flow (`code_verifier`, `state`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use super::AuthError;

/// 32 random bytes, base64url without padding: 43 characters of the `unreserved` set, as
/// RFC 7636 §4.1 recommends for a `code_verifier` (and unguessable as a `state`).
pub(crate) fn random() -> Result<String, AuthError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|error| AuthError::User(format!("no random bytes from the system: {error}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// The S256 `code_challenge` of `verifier`: base64url(SHA-256(verifier)).
pub(crate) fn challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s256_matches_rfc_7636_appendix_b() {
        assert_eq!(
            challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn random_values_are_43_unreserved_characters_and_differ() {
        let (a, b) = (random().expect("random"), random().expect("random"));
        assert_eq!(a.len(), 43);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_ne!(a, b);
    }
}
