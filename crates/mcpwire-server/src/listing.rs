//! List results rendered once: each item's JSON text, per negotiated version, is made the
//! first time a listing under that version needs it and kept beside the item until the item
//! is replaced or removed; a page is then its envelope (the cursor, and under 2026-07-28
//! `resultType`, `ttlMs` and `cacheScope`) with those texts written into it as they are.
//!
//! The bytes are the ones the page rendered whole would have: an item's text is its member of
//! the page rendered alone (the same conversion, the same `Value`, so the same member order),
//! and the envelope is the page rendered without items, its members written in their order
//! with the items' array in its place. An item the version cannot carry is never cached as
//! text: the page is then rendered whole, which reports it as before.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use mcpwire::RpcError;
use mcpwire_model::ContentError;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

use mcpwire_model::version::Version;

/// An item's rendered text under each version: unset until a listing under that version
/// needs it; `None` when the version cannot carry the item alone.
#[derive(Debug, Default)]
pub(crate) struct Rendered {
    texts: [OnceLock<Option<Box<RawValue>>>; Version::ALL.len()],
}

impl Rendered {
    /// The item's text under `version`, rendered by `render` the first time.
    fn get(
        &self,
        version: Version,
        render: impl FnOnce() -> Option<Box<RawValue>>,
    ) -> Option<&RawValue> {
        self.texts[version as usize].get_or_init(render).as_deref()
    }
}

/// Renders a whole page of a list: its result's text from its items and its next cursor.
pub(crate) type RenderPage<'a, T> =
    dyn Fn(&[&T], Option<String>) -> Result<Box<RawValue>, ContentError> + 'a;

/// How one kind of list renders a page under a version: `render(items, next_cursor)`, the
/// whole page as JSON text (its items under `key`), written once from the generated type.
pub(crate) struct PageKind<'a, T> {
    /// The member holding the items (`tools`, `resources`, `resourceTemplates`, `prompts`).
    pub(crate) key: &'a str,
    /// The page's result, converted for the version.
    pub(crate) render: &'a RenderPage<'a, T>,
}

/// The result of one page (`entries`, then `next`): the items' cached texts in the page's
/// envelope (the page rendered without items: the cursor, and under 2026-07-28 `resultType`,
/// `ttlMs` and `cacheScope`, which the generated types carry). Falls back to rendering the
/// page whole when an item cannot be rendered alone.
pub(crate) fn page_text<T>(
    kind: &PageKind<'_, T>,
    version: Version,
    entries: &[(&T, &Rendered)],
    next: Option<String>,
) -> Result<Box<RawValue>, RpcError> {
    let texts: Option<Vec<&RawValue>> = entries
        .iter()
        .map(|(item, rendered)| rendered.get(version, || alone(kind, item)))
        .collect();
    let Some(texts) = texts else {
        let items: Vec<&T> = entries.iter().map(|(item, _)| *item).collect();
        return (kind.render)(&items, next).map_err(unsendable);
    };
    let envelope = (kind.render)(&[], next).map_err(unsendable)?;
    match members(&envelope) {
        Some(members) if members.contains_key(kind.key) => to_text(&Spliced {
            members: &members,
            key: kind.key,
            items: &texts,
        }),
        // Not the shape of a list result: cannot happen; say so rather than send it wrong.
        _ => Err(RpcError::internal_error()
            .with_data(&format!("a list result without its `{}` array", kind.key))),
    }
}

/// The members of a result's text, each its own text, in the order of their names (the
/// order the generated types write them in).
fn members(text: &RawValue) -> Option<BTreeMap<&str, &RawValue>> {
    serde_json::from_str(text.get()).ok()
}

/// `item`'s text as a member of a page of its own, or `None` when the version cannot
/// carry it. Rendered once per version and kept, it is written from the page's value (its
/// objects' members in the order of their names, a schema's undeclared members among them),
/// as every listing has always written it.
fn alone<T>(kind: &PageKind<'_, T>, item: &T) -> Option<Box<RawValue>> {
    let page = (kind.render)(&[item], None).ok()?;
    let mut page: Value = serde_json::from_str(page.get()).ok()?;
    let only = page.get_mut(kind.key)?.as_array_mut()?.pop()?;
    serde_json::value::to_raw_value(&only).ok()
}

/// A page's envelope with the items' texts as the value of `key`, the members in the
/// envelope's order.
struct Spliced<'a> {
    members: &'a BTreeMap<&'a str, &'a RawValue>,
    key: &'a str,
    items: &'a [&'a RawValue],
}

impl Serialize for Spliced<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.members.len()))?;
        for (name, value) in self.members {
            if *name == self.key {
                map.serialize_entry(name, self.items)?;
            } else {
                map.serialize_entry(name, value)?;
            }
        }
        map.end()
    }
}

fn to_text(value: &impl Serialize) -> Result<Box<RawValue>, RpcError> {
    serde_json::value::to_raw_value(value).map_err(|e| {
        RpcError::internal_error().with_data(&format!("result does not serialize: {e}"))
    })
}

/// A result the version in force cannot carry: -32603, saying what (the server builds its
/// results for the version, so this is a bug, reported rather than sent wrong).
pub(crate) fn unsendable(error: ContentError) -> RpcError {
    RpcError::internal_error().with_data(&format!("the result cannot be sent: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(items: &[&u32], next: Option<String>) -> Result<Box<RawValue>, ContentError> {
        let items: Vec<Value> = items
            .iter()
            .map(|n| json!({ "name": format!("n{n}"), "b": [n], "a": { "z": 1, "y": "é\n" } }))
            .collect();
        let mut page = json!({ "zeta": 0, "items": items, "resultType": "complete" });
        if let Some(next) = next {
            page["nextCursor"] = next.into();
        }
        Ok(serde_json::value::to_raw_value(&page).unwrap())
    }

    #[test]
    fn a_page_of_cached_items_is_the_page_rendered_whole() {
        let kind = PageKind {
            key: "items",
            render: &render,
        };
        let items = [1u32, 2, 3];
        let rendered: Vec<Rendered> = items.iter().map(|_| Rendered::default()).collect();
        let entries: Vec<(&u32, &Rendered)> = items.iter().zip(&rendered).collect();
        for next in [None, Some("c1.31".to_owned())] {
            let spliced = page_text(&kind, Version::V2026_07_28, &entries, next.clone()).unwrap();
            let whole = render(&items.iter().collect::<Vec<_>>(), next).unwrap();
            assert_eq!(spliced.get(), whole.get());
        }
    }

    #[test]
    fn each_item_is_rendered_once_per_version_until_replaced() {
        use std::cell::RefCell;
        // The items each call of `render` was given.
        let calls = RefCell::new(Vec::new());
        let counting = |items: &[&u32], next: Option<String>| {
            calls
                .borrow_mut()
                .push(items.iter().map(|n| **n).collect::<Vec<_>>());
            render(items, next)
        };
        let kind = PageKind {
            key: "items",
            render: &counting,
        };
        let items = [1u32, 2, 3];
        let mut rendered: Vec<Rendered> = items.iter().map(|_| Rendered::default()).collect();
        let listing = |rendered: &[Rendered], version| -> Vec<Vec<u32>> {
            let entries: Vec<(&u32, &Rendered)> = items.iter().zip(rendered).collect();
            page_text(&kind, version, &entries, None).unwrap();
            calls.take()
        };
        // A call of `render` for the envelope alone (no items).
        let envelope = || vec![Vec::<u32>::new()];
        // The first listing under a version renders each item alone, then the envelope.
        let first = listing(&rendered, Version::V2026_07_28);
        assert_eq!(first, [vec![1], vec![2], vec![3], vec![]]);
        // Later listings under it render the envelope only.
        for _ in 0..3 {
            assert_eq!(listing(&rendered, Version::V2026_07_28), envelope());
        }
        // Another version renders its own texts once.
        assert_eq!(listing(&rendered, Version::V2025_11_25).len(), 4);
        assert_eq!(listing(&rendered, Version::V2025_11_25), envelope());
        // A replaced item (a fresh `Rendered`, as the catalog keeps it) is rendered again.
        rendered[1] = Rendered::default();
        assert_eq!(listing(&rendered, Version::V2026_07_28), [vec![2], vec![]]);
    }
}
