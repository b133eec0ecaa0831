//! The members every listed item (tool, resource, prompt) starts with.

use serde_json::{Map, Value};

use crate::version::{Feature, Version};

/// `name`, and `title` where the version has titles (from 2025-06-18).
pub(crate) fn named(name: &str, title: Option<&str>, version: Version) -> Map<String, Value> {
    let mut item = Map::new();
    item.insert("name".into(), name.into());
    if let Some(title) = title
        && version.has(Feature::Titles)
    {
        item.insert("title".into(), title.into());
    }
    item
}
