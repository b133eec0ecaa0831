//! The tools, resources or prompts of a server, listed page by page with an opaque cursor.

use std::collections::{BTreeMap, HashMap};

use mcpwire::RpcError;
use serde_json::json;

use crate::listing::Rendered;

/// Items by key (a tool's or prompt's name, a resource's URI), listed in the order they were
/// registered (a replaced item keeps its place), each with its listing text per version
/// (rendered when first listed, dropped with the item when it is replaced or removed).
#[derive(Debug)]
pub(crate) struct Catalog<T> {
    /// Each item with its registration number and its rendered listing texts.
    items: HashMap<String, (u64, T, Rendered)>,
    /// The keys by registration number: the listing order.
    order: BTreeMap<u64, String>,
    /// The next registration number.
    next: u64,
}

impl<T> Default for Catalog<T> {
    fn default() -> Self {
        Self {
            items: HashMap::new(),
            order: BTreeMap::new(),
            next: 0,
        }
    }
}

/// A page's items, each with its rendered listing texts, and the next page's cursor.
pub(crate) type RenderedPage<'a, T> = (Vec<(&'a T, &'a Rendered)>, Option<String>);

/// The prefix that makes a cursor recognisably this server's.
const CURSOR_PREFIX: &str = "c1.";

impl<T> Catalog<T> {
    /// Adds or replaces an item (a replaced item keeps its place); returns whether one was
    /// replaced.
    pub(crate) fn insert(&mut self, key: String, item: T) -> bool {
        if let Some((_, old, rendered)) = self.items.get_mut(&key) {
            *old = item;
            *rendered = Rendered::default();
            return true;
        }
        let number = self.next;
        self.next += 1;
        self.order.insert(number, key.clone());
        self.items.insert(key, (number, item, Rendered::default()));
        false
    }

    /// Removes an item; returns whether it was there.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        match self.items.remove(key) {
            Some((number, _, _)) => {
                self.order.remove(&number);
                true
            }
            None => false,
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        self.items.get(key).map(|(_, item, _)| item)
    }

    /// Every item, in registration order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.order
            .values()
            .filter_map(|key| self.items.get(key).map(|(_, item, _)| item))
    }

    /// One page of at most `size` items after `cursor`, and the cursor of the next page when
    /// more items follow. A cursor this server did not issue is -32602 (pointer `/cursor`).
    ///
    /// The cursor names the registration number of the page's last item, so a page stays
    /// correct when items are added or removed between requests.
    #[cfg(test)]
    pub(crate) fn page(
        &self,
        cursor: Option<&str>,
        size: usize,
    ) -> Result<(Vec<&T>, Option<String>), RpcError> {
        let (page, next) = self.page_rendered(cursor, size)?;
        Ok((page.into_iter().map(|(item, _)| item).collect(), next))
    }

    /// [`page`](Self::page), each item with its rendered listing texts.
    pub(crate) fn page_rendered(
        &self,
        cursor: Option<&str>,
        size: usize,
    ) -> Result<RenderedPage<'_, T>, RpcError> {
        let after = cursor.map(decode_cursor).transpose()?;
        let start = after.map_or(0, |n| n.saturating_add(1));
        let mut rest = self.order.range(start..).filter_map(|(number, key)| {
            let (_, item, rendered) = self.items.get(key)?;
            Some((*number, (item, rendered)))
        });
        let page: Vec<(u64, (&T, &Rendered))> = rest.by_ref().take(size.max(1)).collect();
        let next = match (page.last(), rest.next()) {
            (Some((last, _)), Some(_)) => Some(encode_cursor(*last)),
            _ => None,
        };
        Ok((page.into_iter().map(|(_, entry)| entry).collect(), next))
    }
}

fn encode_cursor(number: u64) -> String {
    format!(
        "{CURSOR_PREFIX}{}",
        crate::hex::encode(number.to_string().as_bytes())
    )
}

fn decode_cursor(cursor: &str) -> Result<u64, RpcError> {
    let invalid = || {
        RpcError::invalid_params().with_data(&json!({
            "pointer": "/cursor",
            "reason": "not a cursor this server issued",
        }))
    };
    let hex = cursor.strip_prefix(CURSOR_PREFIX).ok_or_else(invalid)?;
    let bytes = crate::hex::decode(hex).ok_or_else(invalid)?;
    let text = String::from_utf8(bytes).map_err(|_| invalid())?;
    text.parse().map_err(|_| invalid())
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
    fn items_are_listed_in_registration_order_and_a_replaced_one_keeps_its_place() {
        let mut catalog = catalog(&["zeta", "alpha", "mid"]);
        assert!(catalog.insert("alpha".into(), "alpha2".into()));
        assert_eq!(
            catalog.iter().collect::<Vec<_>>(),
            ["zeta", "alpha2", "mid"]
        );
        let (first, next) = catalog.page(None, 1).unwrap();
        assert_eq!(first, ["zeta"]);
        // The cursor's item removed between pages: the next page starts after it.
        assert!(catalog.remove("zeta"));
        catalog.insert("new".into(), "new".into());
        let (rest, _) = catalog.page(next.as_deref(), 5).unwrap();
        assert_eq!(rest, ["alpha2", "mid", "new"]);
    }

    #[test]
    fn a_foreign_cursor_is_invalid_params_at_cursor() {
        let catalog = catalog(&["a"]);
        for bad in ["", "zz", "c1.6", "c1.zz", "c1.ff", "c1.61"] {
            let error = catalog.page(Some(bad), 2).unwrap_err();
            assert_eq!(error.code(), -32602, "{bad}");
            assert!(error.data().unwrap().get().contains("\"/cursor\""));
        }
    }
}
