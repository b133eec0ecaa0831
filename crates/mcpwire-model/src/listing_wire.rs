//! List pages of resources, resource templates and prompts on the wire, both ways: a
//! [`ListPage`] converted into each version's generated `ListResourcesResult`,
//! `ListResourceTemplatesResult` and `ListPromptsResult`, and read back from them. A title
//! before 2025-06-18 is a [`ContentError`], never dropped.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::Value;

use crate::content::ContentError;
use crate::content_read::{by_version, complete};
use crate::content_wire::to_value;
use crate::listing::{
    ListPage, PromptArgumentEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry,
};
use crate::read_error::{ReadError, decode};
use crate::version::{Feature, Version};

/// Sets `$out.title` from `$title` where module `$m` has titles (2025-06-18 on); before,
/// nothing (a title there was refused by [`untitled`] first).
macro_rules! set_title {
    (v2024_11_05, $out:ident, $title:expr) => {};
    (v2025_03_26, $out:ident, $title:expr) => {};
    ($m:ident, $out:ident, $title:expr) => {
        $out.title = $title;
    };
}

/// The `title` of a generated item of module `$m`: `None` before 2025-06-18.
macro_rules! title_of {
    (v2024_11_05, $item:expr) => {
        None
    };
    (v2025_03_26, $item:expr) => {
        None
    };
    ($m:ident, $item:expr) => {
        $item.title
    };
}

/// Refuses the titles of `titles` under a version without titles.
fn untitled<'a>(
    mut titles: impl Iterator<Item = &'a Option<String>>,
    what: &str,
    version: Version,
) -> Result<(), ContentError> {
    if !version.has(Feature::Titles) && titles.any(|t| t.is_some()) {
        return Err(ContentError::lacking(what, version));
    }
    Ok(())
}

/// The generated list result `$result` of the module of `$version` holding `$page`'s items,
/// each converted by `$item!(module)` (a closure); under 2026-07-28 `complete`, cacheable
/// for 0 ms by anyone (`$scope` is its cache scope enum).
macro_rules! page_to {
    ($version:expr, $page:expr, $result:ident, $scope:ident, $item:ident) => {
        match $version {
            Version::V2024_11_05 => page_to!(@old v2024_11_05, $page, $result, $item),
            Version::V2025_03_26 => page_to!(@old v2025_03_26, $page, $result, $item),
            Version::V2025_06_18 => page_to!(@old v2025_06_18, $page, $result, $item),
            Version::V2025_11_25 => page_to!(@old v2025_11_25, $page, $result, $item),
            Version::V2026_07_28 => {
                use v2026_07_28 as m;
                let items: Vec<_> = $page.items.iter().map($item!(m)).collect();
                let mut out = m::$result::new(m::$scope::Public, items, "complete", 0u64);
                out.next_cursor = $page.next_cursor.clone();
                to_value(out)
            }
        }
    };
    (@old $m:ident, $page:expr, $result:ident, $item:ident) => {{
        let items: Vec<_> = $page.items.iter().map($item!($m)).collect();
        let mut out = $m::$result::new(items);
        out.next_cursor = $page.next_cursor.clone();
        to_value(out)
    }};
}

/// The `ListResourcesResult` of `version`.
pub(crate) fn list_resources_result(
    page: &ListPage<ResourceEntry>,
    version: Version,
) -> Result<Value, ContentError> {
    let titles = page.items.iter().map(|r| &r.title);
    untitled(titles, "a resource `title`", version)?;
    macro_rules! item {
        ($m:ident) => {
            |r: &ResourceEntry| {
                let mut out = $m::Resource::new(r.name.clone(), r.uri.clone());
                out.description = r.description.clone();
                out.mime_type = r.mime_type.clone();
                set_title!($m, out, r.title.clone());
                out
            }
        };
    }
    Ok(page_to!(
        version,
        page,
        ListResourcesResult,
        ListResourcesResultCacheScope,
        item
    ))
}

/// The `ListResourceTemplatesResult` of `version`.
pub(crate) fn list_resource_templates_result(
    page: &ListPage<ResourceTemplateEntry>,
    version: Version,
) -> Result<Value, ContentError> {
    let titles = page.items.iter().map(|t| &t.title);
    untitled(titles, "a resource template `title`", version)?;
    macro_rules! item {
        ($m:ident) => {
            |t: &ResourceTemplateEntry| {
                let mut out = $m::ResourceTemplate::new(t.name.clone(), t.uri_template.clone());
                out.description = t.description.clone();
                out.mime_type = t.mime_type.clone();
                set_title!($m, out, t.title.clone());
                out
            }
        };
    }
    Ok(page_to!(
        version,
        page,
        ListResourceTemplatesResult,
        ListResourceTemplatesResultCacheScope,
        item
    ))
}

/// The `ListPromptsResult` of `version`.
pub(crate) fn list_prompts_result(
    page: &ListPage<PromptEntry>,
    version: Version,
) -> Result<Value, ContentError> {
    let titles = page.items.iter().map(|p| &p.title);
    untitled(titles, "a prompt `title`", version)?;
    macro_rules! item {
        ($m:ident) => {
            |p: &PromptEntry| {
                let mut out = $m::Prompt::new(p.name.clone());
                out.description = p.description.clone();
                out.arguments = p.arguments.as_ref().map(|arguments| {
                    arguments
                        .iter()
                        .map(|a| {
                            let mut argument = $m::PromptArgument::new(a.name.clone());
                            argument.description = a.description.clone();
                            argument.required = a.required;
                            argument
                        })
                        .collect()
                });
                set_title!($m, out, p.title.clone());
                out
            }
        };
    }
    Ok(page_to!(
        version,
        page,
        ListPromptsResult,
        ListPromptsResultCacheScope,
        item
    ))
}

/// The [`ListPage`] of a `ListResourcesResult` of `version` (its JSON text).
pub(crate) fn read_list_resources_result(
    text: &str,
    version: Version,
) -> Result<ListPage<ResourceEntry>, ReadError> {
    const WHAT: &str = "ListResourcesResult";
    macro_rules! read {
        ($m:ident $(, $result_type:ident)?) => {{
            let r: $m::ListResourcesResult = decode(text, WHAT, version)?;
            $(complete(&r.$result_type, WHAT, version)?;)?
            let items = r.resources.into_iter().map(|r| ResourceEntry {
                title: title_of!($m, r),
                uri: r.uri,
                name: r.name,
                description: r.description,
                mime_type: r.mime_type,
            });
            ListPage {
                items: items.collect(),
                next_cursor: r.next_cursor,
            }
        }};
    }
    Ok(by_version!(version, read))
}

/// The [`ListPage`] of a `ListResourceTemplatesResult` of `version` (its JSON text).
pub(crate) fn read_list_resource_templates_result(
    text: &str,
    version: Version,
) -> Result<ListPage<ResourceTemplateEntry>, ReadError> {
    const WHAT: &str = "ListResourceTemplatesResult";
    macro_rules! read {
        ($m:ident $(, $result_type:ident)?) => {{
            let r: $m::ListResourceTemplatesResult = decode(text, WHAT, version)?;
            $(complete(&r.$result_type, WHAT, version)?;)?
            let items = r.resource_templates.into_iter().map(|t| ResourceTemplateEntry {
                title: title_of!($m, t),
                uri_template: t.uri_template,
                name: t.name,
                description: t.description,
                mime_type: t.mime_type,
            });
            ListPage {
                items: items.collect(),
                next_cursor: r.next_cursor,
            }
        }};
    }
    Ok(by_version!(version, read))
}

/// The [`ListPage`] of a `ListPromptsResult` of `version` (its JSON text).
pub(crate) fn read_list_prompts_result(
    text: &str,
    version: Version,
) -> Result<ListPage<PromptEntry>, ReadError> {
    const WHAT: &str = "ListPromptsResult";
    macro_rules! read {
        ($m:ident $(, $result_type:ident)?) => {{
            let r: $m::ListPromptsResult = decode(text, WHAT, version)?;
            $(complete(&r.$result_type, WHAT, version)?;)?
            let items = r.prompts.into_iter().map(|p| PromptEntry {
                title: title_of!($m, p),
                name: p.name,
                description: p.description,
                arguments: p.arguments.map(|arguments| {
                    arguments
                        .into_iter()
                        .map(|a| PromptArgumentEntry {
                            name: a.name,
                            description: a.description,
                            required: a.required,
                        })
                        .collect()
                }),
            });
            ListPage {
                items: items.collect(),
                next_cursor: r.next_cursor,
            }
        }};
    }
    Ok(by_version!(version, read))
}
