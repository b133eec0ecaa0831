//! Where credentials are kept: the [`TokenStore`] trait, keyed per issuer and resource, and
//! its in-memory default.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{ClientRegistration, Tokens};

/// What credentials are kept under: the authorization server that issued them and the
/// resource they are for. A server that moves to another authorization server is reached
/// with new credentials; the old ones are never sent to the new issuer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoreKey {
    /// The authorization server's issuer identifier.
    pub issuer: String,
    /// The protected resource's identifier (its metadata's `resource`).
    pub resource: String,
}

/// The credentials of one [`StoreKey`]: the client's registration with that issuer and the
/// tokens it granted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredCredentials {
    /// The client's registration (dynamic, or its metadata document URL).
    pub client: Option<ClientRegistration>,
    /// The tokens granted.
    pub tokens: Option<Tokens>,
}

/// Keeps credentials between requests and, for a store that persists them, between runs.
/// Implementations must be cheap: they are called on the transport's tasks.
pub trait TokenStore: Send + Sync {
    /// The credentials kept under `key`.
    fn load(&self, key: &StoreKey) -> Option<StoredCredentials>;
    /// Keeps `credentials` under `key`, replacing what was there.
    fn save(&self, key: &StoreKey, credentials: StoredCredentials);
}

/// A [`TokenStore`] in memory (the default): credentials last as long as the store.
#[derive(Debug, Default)]
pub struct MemoryTokenStore {
    entries: Mutex<HashMap<StoreKey, StoredCredentials>>,
}

impl TokenStore for MemoryTokenStore {
    fn load(&self, key: &StoreKey) -> Option<StoredCredentials> {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned()
    }

    fn save(&self, key: &StoreKey, credentials: StoredCredentials) {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.clone(), credentials);
    }
}
