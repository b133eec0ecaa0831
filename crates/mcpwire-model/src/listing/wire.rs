//! List pages of resources, resource templates and prompts on the wire, both ways: a
//! [`ListPage`] converted into each version's generated `ListResourcesResult`,
//! `ListResourceTemplatesResult` and `ListPromptsResult`, and read back from them. Every
//! member a version declares is carried (size, annotations, icons, `_meta`, titles); one an
//! item holds that the version lacks (a title, `_meta` or `annotations.lastModified` before
//! 2025-06-18, icons before 2025-11-25) is a [`ContentError`], never dropped.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::{Map, Number, Value};

use crate::by_version::{by_version, if_member, set_member};
use crate::content::read::{
    annotations_of, annotations_read, dated_annotations_of, icons_of, object_of, read_complete,
    read_role,
};
use crate::content::wire::{annotations, annotations_to, icons_as, meta_as, priority};
use crate::content::{Annotations, ContentError, Role};
use crate::listing::{
    ListPage, PromptArgumentEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry,
};
use crate::read_error::{ReadError, decode};
use crate::version::{Feature, Version};
use crate::written::Written;

/// The members an item holds that only some versions have.
struct Members {
    /// What the item is (`a resource`), for the error.
    what: &'static str,
    titles: Vec<bool>,
    meta: bool,
    icons: bool,
    last_modified: bool,
}

impl Members {
    /// The members of a resource or template (no argument titles).
    fn of(
        what: &'static str,
        title: &Option<String>,
        meta: &Option<Map<String, Value>>,
        icons: &Option<Vec<Map<String, Value>>>,
        annotations: &Option<Annotations>,
    ) -> Self {
        Self {
            what,
            titles: vec![title.is_some()],
            meta: meta.is_some(),
            icons: icons.is_some(),
            last_modified: annotations
                .as_ref()
                .is_some_and(|a| a.last_modified.is_some()),
        }
    }
}

/// Refuses a member of `m` that `version` lacks.
fn refuse_lacking(m: &Members, version: Version) -> Result<(), ContentError> {
    let dated = version.has(Feature::Titles);
    let lacking = [
        (!dated && m.titles.iter().any(|t| *t), "`title`"),
        (!dated && m.meta, "`_meta`"),
        (!dated && m.last_modified, "`annotations.lastModified`"),
        (version < Version::V2025_11_25 && m.icons, "`icons`"),
    ];
    match lacking.iter().find(|(set, _)| *set) {
        Some((_, member)) => Err(ContentError::lacking(
            format!("{} {member}", m.what),
            version,
        )),
        None => Ok(()),
    }
}

/// Sets `title`, `_meta` and `icons` of the generated `$ty` of module `$m` from the entry
/// `$item`, each where the version's `$ty` has it.
macro_rules! set_dated {
    ($m:ident, $ty:ident, $out:ident, $item:ident, $v:expr) => {
        set_member!($m, $ty, $out.title = $item.title.clone());
        set_member!($m, $ty, $out.meta = meta_as(&$item.meta, $v)?);
        set_member!($m, $ty, $out.icons = icons_as(&$item.icons, $v)?);
    };
}

/// `(title, _meta, icons)` of the generated `$ty` `$item` of module `$m`, `None` where the
/// version's `$ty` lacks one.
macro_rules! dated_of {
    ($m:ident, $ty:ident, $item:ident) => {
        (
            if_member!($m, $ty, title, { $item.title }, { None }),
            if_member!($m, $ty, meta, { $item.meta.and_then(object_of) }, { None }),
            if_member!($m, $ty, icons, { icons_of($item.icons) }, { None }),
        )
    };
}

/// The `$result` of module `$m` holding the items `$page.items` converted by `$item!($m)`;
/// where the result has `cacheScope` (2026-07-28) it is `complete`, `public`, with a
/// `ttlMs` of 0.
macro_rules! page_to {
    ($m:ident, $page:expr, $result:ident, $scope:ident, $item:ident) => {{
        let items = $page
            .items
            .iter()
            .map($item!($m))
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = if_member!(
            $m,
            $result,
            cache_scope,
            { $m::$result::new($m::$scope::Public, items, "complete", 0u64) },
            { $m::$result::new(items) }
        );
        out.next_cursor = $page.next_cursor.clone();
        W::written(out)
    }};
}

/// The `ListResourcesResult` of `version`.
pub(crate) fn list_resources_result<W: Written>(
    page: &ListPage<ResourceEntry>,
    version: Version,
) -> Result<W, ContentError> {
    for r in &page.items {
        let members = Members::of("a resource", &r.title, &r.meta, &r.icons, &r.annotations);
        refuse_lacking(&members, version)?;
    }
    let v = version;
    macro_rules! item {
        ($m:ident) => {
            |r: &ResourceEntry| -> Result<$m::Resource, ContentError> {
                let mut out = $m::Resource::new(r.name.clone(), r.uri.clone());
                out.description = r.description.clone();
                out.mime_type = r.mime_type.clone();
                out.size = r.size.map(Into::into);
                out.annotations = match &r.annotations {
                    Some(a) => Some(annotations_to!($m, ResourceAnnotations, a, v)),
                    None => None,
                };
                set_dated!($m, Resource, out, r, v);
                Ok(out)
            }
        };
    }
    macro_rules! page {
        ($m:ident) => {
            page_to!(
                $m,
                page,
                ListResourcesResult,
                ListResourcesResultCacheScope,
                item
            )
        };
    }
    Ok(by_version!(version, page))
}

/// The `ListResourceTemplatesResult` of `version`.
pub(crate) fn list_resource_templates_result<W: Written>(
    page: &ListPage<ResourceTemplateEntry>,
    version: Version,
) -> Result<W, ContentError> {
    for t in &page.items {
        let what = "a resource template";
        let members = Members::of(what, &t.title, &t.meta, &t.icons, &t.annotations);
        refuse_lacking(&members, version)?;
    }
    let v = version;
    macro_rules! item {
        ($m:ident) => {
            |t: &ResourceTemplateEntry| -> Result<$m::ResourceTemplate, ContentError> {
                let mut out = $m::ResourceTemplate::new(t.name.clone(), t.uri_template.clone());
                out.description = t.description.clone();
                out.mime_type = t.mime_type.clone();
                out.annotations = match &t.annotations {
                    Some(a) => Some(annotations_to!($m, ResourceTemplateAnnotations, a, v)),
                    None => None,
                };
                set_dated!($m, ResourceTemplate, out, t, v);
                Ok(out)
            }
        };
    }
    macro_rules! page {
        ($m:ident) => {
            page_to!(
                $m,
                page,
                ListResourceTemplatesResult,
                ListResourceTemplatesResultCacheScope,
                item
            )
        };
    }
    Ok(by_version!(version, page))
}

/// The `ListPromptsResult` of `version`.
pub(crate) fn list_prompts_result<W: Written>(
    page: &ListPage<PromptEntry>,
    version: Version,
) -> Result<W, ContentError> {
    for p in &page.items {
        let mut members = Members::of("a prompt", &p.title, &p.meta, &p.icons, &None);
        let arguments = p.arguments.iter().flatten();
        members.titles.extend(arguments.map(|a| a.title.is_some()));
        refuse_lacking(&members, version)?;
    }
    let v = version;
    macro_rules! item {
        ($m:ident) => {
            |p: &PromptEntry| -> Result<$m::Prompt, ContentError> {
                let mut out = $m::Prompt::new(p.name.clone());
                out.description = p.description.clone();
                out.arguments = p.arguments.as_ref().map(|arguments| {
                    arguments
                        .iter()
                        .map(|a| {
                            let mut argument = $m::PromptArgument::new(a.name.clone());
                            argument.description = a.description.clone();
                            argument.required = a.required;
                            set_member!($m, PromptArgument, argument.title = a.title.clone());
                            argument
                        })
                        .collect()
                });
                set_dated!($m, Prompt, out, p, v);
                Ok(out)
            }
        };
    }
    macro_rules! page {
        ($m:ident) => {
            page_to!(
                $m,
                page,
                ListPromptsResult,
                ListPromptsResultCacheScope,
                item
            )
        };
    }
    Ok(by_version!(version, page))
}

/// A `size` as a `u64`, or why not.
fn size_of(
    size: Option<mcpwire_types::Integer>,
    what: &'static str,
    version: Version,
) -> Result<Option<u64>, ReadError> {
    size.map(|size| {
        size.as_u64()
            .ok_or_else(|| ReadError::new(what, version, format!("size {size} is not a u64")))
    })
    .transpose()
}

/// The [`ListPage`] of a `ListResourcesResult` of `version` (its JSON text).
pub(crate) fn read_list_resources_result(
    text: &str,
    version: Version,
) -> Result<ListPage<ResourceEntry>, ReadError> {
    const WHAT: &str = "ListResourcesResult";
    macro_rules! read {
        ($m:ident) => {{
            let r: $m::ListResourcesResult = decode(text, WHAT, version)?;
            read_complete!($m, ListResourcesResult, r, WHAT, version);
            let items = r.resources.into_iter().map(|r| {
                let size = size_of(r.size, WHAT, version)?;
                let annotations = r.annotations.map(|a| annotations_read!($m, a));
                let (title, meta, icons) = dated_of!($m, Resource, r);
                Ok(ResourceEntry {
                    title,
                    meta,
                    icons,
                    size,
                    annotations,
                    uri: r.uri,
                    name: r.name,
                    description: r.description,
                    mime_type: r.mime_type,
                })
            });
            ListPage {
                items: items.collect::<Result<_, ReadError>>()?,
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
        ($m:ident) => {{
            let r: $m::ListResourceTemplatesResult = decode(text, WHAT, version)?;
            read_complete!($m, ListResourceTemplatesResult, r, WHAT, version);
            let items = r.resource_templates.into_iter().map(|t| {
                let annotations = t.annotations.map(|a| annotations_read!($m, a));
                let (title, meta, icons) = dated_of!($m, ResourceTemplate, t);
                ResourceTemplateEntry {
                    title,
                    meta,
                    icons,
                    annotations,
                    uri_template: t.uri_template,
                    name: t.name,
                    description: t.description,
                    mime_type: t.mime_type,
                }
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
        ($m:ident) => {{
            let r: $m::ListPromptsResult = decode(text, WHAT, version)?;
            read_complete!($m, ListPromptsResult, r, WHAT, version);
            let items = r.prompts.into_iter().map(|p| {
                let arguments = p.arguments.map(|arguments| {
                    arguments
                        .into_iter()
                        .map(|a| PromptArgumentEntry {
                            title: if_member!($m, PromptArgument, title, { a.title }, { None }),
                            name: a.name,
                            description: a.description,
                            required: a.required,
                        })
                        .collect()
                });
                let (title, meta, icons) = dated_of!($m, Prompt, p);
                PromptEntry {
                    title,
                    meta,
                    icons,
                    arguments,
                    name: p.name,
                    description: p.description,
                }
            });
            ListPage {
                items: items.collect(),
                next_cursor: r.next_cursor,
            }
        }};
    }
    Ok(by_version!(version, read))
}
