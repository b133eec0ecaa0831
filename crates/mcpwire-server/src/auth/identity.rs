//! Who a request comes from, as its access token says.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

/// The caller a valid access token names: its subject, the scopes it grants and all its
/// claims. Handlers read it with [`Context::identity`](crate::Context::identity).
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    /// The token's subject (`sub`).
    pub subject: String,
    /// The token's issuer (`iss`), when it names one.
    pub issuer: Option<String>,
    /// The scopes the token grants (`scope`, space-separated, or `scp`).
    pub scopes: BTreeSet<String>,
    /// Every claim of the token (for introspection, the introspection response).
    pub claims: Map<String, Value>,
}

impl Identity {
    /// The identity `claims` describe: `sub` (required), `iss`, and the scopes of `scope`
    /// (a space-separated string) or `scp` (a string or an array of strings). `None` without
    /// a string `sub`.
    pub fn from_claims(claims: Map<String, Value>) -> Option<Identity> {
        let subject = claims.get("sub")?.as_str()?.to_owned();
        let issuer = claims.get("iss").and_then(Value::as_str).map(str::to_owned);
        let mut scopes = BTreeSet::new();
        for name in ["scope", "scp"] {
            match claims.get(name) {
                Some(Value::String(text)) => {
                    scopes.extend(text.split_ascii_whitespace().map(str::to_owned));
                }
                Some(Value::Array(items)) => {
                    scopes.extend(items.iter().filter_map(Value::as_str).map(str::to_owned));
                }
                _ => {}
            }
        }
        Some(Identity {
            subject,
            issuer,
            scopes,
            claims,
        })
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    /// The key sessions are bound to: the issuer and the subject (one issuer's `sub` says
    /// nothing about another's).
    pub(crate) fn owner_key(&self) -> String {
        format!("{} {}", self.issuer.as_deref().unwrap_or(""), self.subject)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_come_from_scope_or_scp_and_sub_is_required() {
        let claims =
            serde_json::json!({"sub": "alice", "iss": "https://as", "scope": "a b", "scp": ["c"]});
        let identity = Identity::from_claims(claims.as_object().unwrap().clone()).unwrap();
        assert_eq!(identity.subject, "alice");
        assert!(identity.has_scope("a") && identity.has_scope("b") && identity.has_scope("c"));
        assert!(!identity.has_scope("d"));
        let no_sub = serde_json::json!({"iss": "https://as"});
        assert!(Identity::from_claims(no_sub.as_object().unwrap().clone()).is_none());
    }
}
