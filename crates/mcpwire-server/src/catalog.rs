//! The tools, resources or prompts of a server, listed page by page with an opaque cursor.

use std::collections::BTreeMap;

use mcpwire::RpcError;
use serde_json::json;

/// Items by key (a tool's or prompt's name, a resource's URI), in key order.
#[derive(Debug)]
pub(crate) struct Catalog<T> {
    items: BTreeMap<String, T>,
}

impl<T> Default for Catalog<T> {
    fn default() -> Self {
        Self {
            items: BTreeMap::new(),
        }
    }
}

/// The prefix that makes a cursor recognisably this server's.
const CURSOR_PREFIX: &str = "c1.";

impl<T> Catalog<T> {
    /// Adds or replaces an item; returns whether one was replaced.
    pub(crate) fn insert(&mut self, key: String, item: T) -> bool {
        self.items.insert(key, item).is_some()
    }

    /// Removes an item; returns whether it was there.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        self.items.remove(key).is_some()
    }

    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        self.items.get(key)
    }

    /// Every item, in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.values()
    }

    /// One page of at most `size` items after `cursor`, and the cursor of the next page when
    /// more items follow. A cursor this server did not issue is -32602 (pointer `/cursor`).
    ///
    /// The cursor names the last key of the page (hex-encoded), so a page stays correct when
    /// items are added or removed between requests.
    pub(crate) fn page(
        &self,
        cursor: Option<&str>,
        size: usize,
    ) -> Result<(Vec<&T>, Option<String>), RpcError> {
        let after = cursor.map(decode_cursor).transpose()?;
        let mut rest = self
            .items
            .iter()
            .filter(|(key, _)| after.as_deref().is_none_or(|after| key.as_str() > after));
        let page: Vec<(&String, &T)> = rest.by_ref().take(size.max(1)).collect();
        let next = match (page.last(), rest.next()) {
            (Some((last, _)), Some(_)) => Some(encode_cursor(last)),
            _ => None,
        };
        Ok((page.into_iter().map(|(_, item)| item).collect(), next))
    }
}

fn encode_cursor(key: &str) -> String {
    format!("{CURSOR_PREFIX}{}", crate::hex::encode(key.as_bytes()))
}

fn decode_cursor(cursor: &str) -> Result<String, RpcError> {
    let invalid = || {
        RpcError::invalid_params().with_data(&json!({
            "pointer": "/cursor",
            "reason": "not a cursor this server issued",
        }))
    };
    let hex = cursor.strip_prefix(CURSOR_PREFIX).ok_or_else(invalid)?;
    let bytes = crate::hex::decode(hex).ok_or_else(invalid)?;
    String::from_utf8(bytes).map_err(|_| invalid())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(keys: &[&str]) -> Catalog<String> {
        let mut catalog = Catalog::default();
        for key in keys {
            catalog.insert((*key).to_owned(), (*key).to_owned());
        }
        catalog
    }

    #[test]
    fn pages_follow_the_cursor_to_the_end() {
        let catalog = catalog(&["a", "b", "c", "d", "e"]);
        let (first, next) = catalog.page(None, 2).unwrap();
        assert_eq!(first, ["a", "b"]);
        let (second, next) = catalog.page(next.as_deref(), 2).unwrap();
        assert_eq!(second, ["c", "d"]);
        let (last, next) = catalog.page(next.as_deref(), 2).unwrap();
        assert_eq!(last, ["e"]);
        assert_eq!(next, None);
        // An exact fit has no next cursor.
        assert_eq!(catalog.page(None, 5).unwrap().1, None);
    }

    #[test]
    fn a_foreign_cursor_is_invalid_params_at_cursor() {
        let catalog = catalog(&["a"]);
        for bad in ["", "zz", "c1.6", "c1.zz", "c1.ff"] {
            let error = catalog.page(Some(bad), 2).unwrap_err();
            assert_eq!(error.code(), -32602, "{bad}");
            assert!(error.data().unwrap().get().contains("\"/cursor\""));
        }
    }
}
