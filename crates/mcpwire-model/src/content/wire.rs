//! The content model on the wire: conversions of [`Content`], tool results and prompt
//! messages into each version's generated types (`mcpwire_types::mcp::v…`), which are what
//! gets serialized. A block or member a version lacks is a [`ContentError`], never dropped.

use std::borrow::Cow;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::{Json, JsonObject};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::by_version::{by_version, if_member, refuse_member, set_member};
use crate::content::{
    Content, ContentError, ContentKind, EmbeddedResource, ResourceContents, ResourceLink, Role,
};
use crate::version::Version;
use crate::written::Written;
pub(crate) use crate::written::to_value;

/// A tool result, version-neutral, as [`crate::ToolResult`] hands it over for encoding: its
/// content borrowed, or owned so that each block goes once converted.
pub(crate) struct ToolResultParts<'a> {
    pub(crate) content: Cow<'a, [Content]>,
    /// `structuredContent`'s text, as written once: borrowed, or owned so that it is moved
    /// into the version's type.
    pub(crate) structured: Option<Cow<'a, Json>>,
    pub(crate) is_error: bool,
}

/// A finite priority as a JSON number.
pub(crate) fn priority(value: f64, version: Version) -> Result<Number, ContentError> {
    Number::from_f64(value)
        .ok_or_else(|| ContentError::lacking(format!("the annotation priority {value}"), version))
}

/// A JSON value or object (a schema, `_meta`, an icon, a tool use) as the generated type `T`,
/// or why the version's schema refuses it: `{what} its schema refuses (…)`.
pub(crate) fn as_generated<T: DeserializeOwned>(
    value: &(impl Serialize + ?Sized),
    what: &str,
    version: Version,
) -> Result<T, ContentError> {
    // Through text: the generated types keep undeclared members as raw JSON text. Writing a
    // `Value` or a `Map` cannot fail (string keys, finite numbers), so an error is the schema's.
    match serde_json::to_string(value) {
        Ok(text) => text_as_generated(&text, what, version),
        Err(e) => Err(refused(what, &e, version)),
    }
}

/// A JSON text (a schema kept as text) as the generated type `T`, or why the version's
/// schema refuses it, as [`as_generated`] says it.
pub(crate) fn text_as_generated<T: DeserializeOwned>(
    text: &str,
    what: &str,
    version: Version,
) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| refused(what, &e, version))
}

/// `{what} its schema refuses (…)`.
fn refused(what: &str, error: &serde_json::Error, version: Version) -> ContentError {
    ContentError::lacking(format!("{what} its schema refuses ({error})"), version)
}

/// An optional JSON object (`_meta`, `metadata`, a task) as the generated type `T`.
pub(crate) fn optional_as<T: DeserializeOwned>(
    object: &Option<Map<String, Value>>,
    what: &str,
    version: Version,
) -> Result<Option<T>, ContentError> {
    object
        .as_ref()
        .map(|o| as_generated(o, what, version))
        .transpose()
}

/// `_meta` as the generated type `T` (`JsonObject`, or 2026-07-28's `MetaObject`).
pub(crate) fn meta_as<T: DeserializeOwned>(
    meta: &Option<Map<String, Value>>,
    version: Version,
) -> Result<Option<T>, ContentError> {
    optional_as(meta, "a `_meta`", version)
}

/// Icons as the generated `Icon` type `T`.
pub(crate) fn icons_as<T: DeserializeOwned>(
    icons: &Option<Vec<Map<String, Value>>>,
    version: Version,
) -> Result<Option<Vec<T>>, ContentError> {
    icons
        .as_ref()
        .map(|icons| {
            icons
                .iter()
                .map(|icon| as_generated(icon, "an icon", version))
                .collect()
        })
        .transpose()
}

/// Refuses a block's `_meta` under a version whose blocks lack it (before 2025-06-18).
fn refuse_meta(block: &Content, version: Version) -> Result<(), ContentError> {
    match block.meta {
        Some(_) => Err(ContentError::lacking("a content block's `_meta`", version)),
        None => Ok(()),
    }
}

/// Converts [`Annotations`] into `$ty` of module `$m`; `with_last_modified` when the
/// version has `lastModified`, otherwise one present is a [`ContentError`].
macro_rules! annotations {
    ($m:ident, $ty:ident, $a:expr, $v:expr, with_last_modified) => {{
        let mut out = annotations!(@common $m, $ty, $a, $v);
        out.last_modified = $a.last_modified.clone();
        out
    }};
    ($m:ident, $ty:ident, $a:expr, $v:expr) => {{
        if $a.last_modified.is_some() {
            return Err(ContentError::lacking("`annotations.lastModified`", $v));
        }
        annotations!(@common $m, $ty, $a, $v)
    }};
    (@common $m:ident, $ty:ident, $a:expr, $v:expr) => {{
        let mut out = $m::$ty::new();
        out.audience = $a.audience.as_ref().map(|roles| {
            roles
                .iter()
                .map(|role| match role {
                    Role::User => $m::Role::User,
                    Role::Assistant => $m::Role::Assistant,
                })
                .collect()
        });
        out.priority = $a.priority.map(|p| priority(p, $v)).transpose()?;
        out
    }};
}

/// [`Annotations`] as the annotations of module `$m`: 2024-11-05 has a type of its own per
/// annotated struct (`$own`), without `lastModified`; later versions one `Annotations`, with
/// `lastModified` where it has it (else one present is a [`ContentError`]).
macro_rules! annotations_to {
    (v2024_11_05, $own:ident, $a:expr, $v:expr) => {
        annotations!(v2024_11_05, $own, $a, $v)
    };
    ($m:ident, $own:ident, $a:expr, $v:expr) => {
        $crate::by_version::if_member!(
            $m,
            Annotations,
            last_modified,
            { annotations!($m, Annotations, $a, $v, with_last_modified) },
            { annotations!($m, Annotations, $a, $v) }
        )
    };
}

pub(crate) use {annotations, annotations_to};

/// The `resource` member of an `EmbeddedResource` of module `$m` under version `$v`, with
/// `_meta` where the version's contents have it (else contents with `_meta` are a
/// [`ContentError`]).
macro_rules! embedded_contents {
    ($m:ident, $r:expr, $v:expr) => {{
        let r: &EmbeddedResource = $r;
        match &r.contents {
            ResourceContents::Text(text) => {
                let mut item = $m::TextResourceContents::new(text.clone(), r.uri.clone());
                item.mime_type = r.mime_type.clone();
                embedded_contents!(@meta $m, TextResourceContents, item, r, $v);
                $m::EmbeddedResourceResource::TextResourceContents(item)
            }
            ResourceContents::Blob(blob) => {
                let mut item = $m::BlobResourceContents::new(blob.clone(), r.uri.clone());
                item.mime_type = r.mime_type.clone();
                embedded_contents!(@meta $m, BlobResourceContents, item, r, $v);
                $m::EmbeddedResourceResource::BlobResourceContents(item)
            }
        }
    }};
    (@meta $m:ident, $ty:ident, $item:ident, $r:ident, $v:expr) => {
        $crate::by_version::if_member!($m, $ty, meta, {
            $item.meta = meta_as(&$r.meta, $v)?;
        }, {
            if $r.meta.is_some() {
                return Err(ContentError::lacking("an embedded resource's `_meta`", $v));
            }
        })
    };
}

/// A generated union of content blocks (`ContentBlock`, or the unions of tool results and
/// prompt messages before 2025-06-18) built from [`Content`]; a block kind or member the
/// version lacks is a [`ContentError`].
pub(crate) trait BlockTo: Sized {
    /// The block of this union for `block` under `version`.
    fn block_to(block: &Content, version: Version) -> Result<Self, ContentError>;

    /// [`block_to`](Self::block_to), taking the block: where a version's block can take the
    /// model's text as it is, it is moved, not copied.
    fn block_into(block: Content, version: Version) -> Result<Self, ContentError> {
        Self::block_to(&block, version)
    }
}

/// [`BlockTo`] for the `ContentBlock` of a version with every block kind (2025-06-18 on):
/// one conversion, the members each version's blocks have.
macro_rules! full_block {
    ($m:ident) => {
        impl BlockTo for $m::ContentBlock {
            fn block_into(block: Content, v: Version) -> Result<Self, ContentError> {
                match block {
                    // The common block, plain text: its text moved into the version's block.
                    Content {
                        kind: ContentKind::Text(text),
                        annotations: None,
                        meta: None,
                    } => Ok($m::ContentBlock::TextContent($m::TextContent::new(text))),
                    block => Self::block_to(&block, v),
                }
            }

            fn block_to(block: &Content, v: Version) -> Result<Self, ContentError> {
                let ann = match &block.annotations {
                    Some(a) => Some(annotations_to!($m, Annotations, a, v)),
                    None => None,
                };
                let meta = meta_as(&block.meta, v)?;
                /// The generated block `$ty` built by `$new`, with the annotations and `_meta`.
                macro_rules! common {
                    ($ty:ident, $new:expr) => {{
                        let mut out: $m::$ty = $new;
                        out.annotations = ann;
                        out.meta = meta;
                        $m::ContentBlock::$ty(out)
                    }};
                }
                Ok(match &block.kind {
                    ContentKind::Text(text) => {
                        common!(TextContent, $m::TextContent::new(text.clone()))
                    }
                    ContentKind::Image { data, mime_type } => common!(
                        ImageContent,
                        $m::ImageContent::new(data.clone(), mime_type.clone())
                    ),
                    ContentKind::Audio { data, mime_type } => common!(
                        AudioContent,
                        $m::AudioContent::new(data.clone(), mime_type.clone())
                    ),
                    ContentKind::Resource(resource) => common!(
                        EmbeddedResource,
                        $m::EmbeddedResource::new(embedded_contents!($m, resource, v))
                    ),
                    ContentKind::ResourceLink(link) => {
                        common!(ResourceLink, resource_link!($m, link, v))
                    }
                })
            }
        }
    };
}

/// A `ResourceLink` of module `$m`, without its annotations and `_meta`; `icons` where the
/// version's links have them, else a link with icons is a [`ContentError`].
macro_rules! resource_link {
    ($m:ident, $link:expr, $v:expr) => {{
        let link: &ResourceLink = $link;
        let mut out = $m::ResourceLink::new(link.name.clone(), link.uri.clone());
        out.title = link.title.clone();
        out.description = link.description.clone();
        out.mime_type = link.mime_type.clone();
        out.size = link.size.map(Into::into);
        refuse_member!(
            $m,
            ResourceLink,
            icons,
            link.icons.is_some(),
            ContentError::lacking("a resource link's `icons`", $v)
        );
        set_member!($m, ResourceLink, out.icons = icons_as(&link.icons, $v)?);
        out
    }};
}

full_block!(v2025_06_18);
full_block!(v2025_11_25);
full_block!(v2026_07_28);

/// 2025-03-26: no resource links, no `lastModified`; tool results and prompt messages have
/// their own (equal) unions, built from this one.
pub(crate) enum Block2025_03_26 {
    Text(v2025_03_26::TextContent),
    Image(v2025_03_26::ImageContent),
    Audio(v2025_03_26::AudioContent),
    Resource(v2025_03_26::EmbeddedResource),
}

pub(crate) fn block_2025_03_26(block: &Content) -> Result<Block2025_03_26, ContentError> {
    use v2025_03_26 as m;
    let v = Version::V2025_03_26;
    refuse_meta(block, v)?;
    let ann = match &block.annotations {
        Some(a) => Some(annotations!(v2025_03_26, Annotations, a, v)),
        None => None,
    };
    Ok(match &block.kind {
        ContentKind::Text(text) => {
            let mut out = m::TextContent::new(text.clone());
            out.annotations = ann;
            Block2025_03_26::Text(out)
        }
        ContentKind::Image { data, mime_type } => {
            let mut out = m::ImageContent::new(data.clone(), mime_type.clone());
            out.annotations = ann;
            Block2025_03_26::Image(out)
        }
        ContentKind::Audio { data, mime_type } => {
            let mut out = m::AudioContent::new(data.clone(), mime_type.clone());
            out.annotations = ann;
            Block2025_03_26::Audio(out)
        }
        ContentKind::Resource(resource) => {
            let mut out = m::EmbeddedResource::new(embedded_contents!(v2025_03_26, resource, v));
            out.annotations = ann;
            Block2025_03_26::Resource(out)
        }
        ContentKind::ResourceLink(_) => {
            return Err(ContentError::lacking("`resource_link` content", v));
        }
    })
}

/// 2024-11-05: text, image and embedded resource only, each with its own annotations type.
pub(crate) enum Block2024_11_05 {
    Text(v2024_11_05::TextContent),
    Image(v2024_11_05::ImageContent),
    Resource(v2024_11_05::EmbeddedResource),
}

pub(crate) fn block_2024_11_05(block: &Content) -> Result<Block2024_11_05, ContentError> {
    use v2024_11_05 as m;
    let v = Version::V2024_11_05;
    refuse_meta(block, v)?;
    let a = block.annotations.as_ref();
    Ok(match &block.kind {
        ContentKind::Text(text) => {
            let mut out = m::TextContent::new(text.clone());
            out.annotations = match a {
                Some(a) => Some(annotations!(v2024_11_05, TextContentAnnotations, a, v)),
                None => None,
            };
            Block2024_11_05::Text(out)
        }
        ContentKind::Image { data, mime_type } => {
            let mut out = m::ImageContent::new(data.clone(), mime_type.clone());
            out.annotations = match a {
                Some(a) => Some(annotations!(v2024_11_05, ImageContentAnnotations, a, v)),
                None => None,
            };
            Block2024_11_05::Image(out)
        }
        ContentKind::Resource(resource) => {
            let mut out = m::EmbeddedResource::new(embedded_contents!(v2024_11_05, resource, v));
            out.annotations = match a {
                Some(a) => Some(annotations!(v2024_11_05, EmbeddedResourceAnnotations, a, v)),
                None => None,
            };
            Block2024_11_05::Resource(out)
        }
        ContentKind::Audio { .. } => return Err(ContentError::lacking("`audio` content", v)),
        ContentKind::ResourceLink(_) => {
            return Err(ContentError::lacking("`resource_link` content", v));
        }
    })
}

/// [`BlockTo`] for a union `$m::$union` of 2024-11-05 or 2025-03-26, from that version's
/// `Block…` (`$enum`, built by `$block`), whose variants carry the same blocks.
macro_rules! old_block_to {
    ($m:ident :: $union:ident, $block:ident, $enum:ident, [$($var:ident => $gen:ident),*]) => {
        impl BlockTo for $m::$union {
            fn block_to(block: &Content, _: Version) -> Result<Self, ContentError> {
                Ok(match $block(block)? {
                    $($enum::$var(b) => $m::$union::$gen(b),)*
                })
            }
        }
    };
}

old_block_to!(v2024_11_05::CallToolResultContentItem, block_2024_11_05, Block2024_11_05,
    [Text => TextContent, Image => ImageContent, Resource => EmbeddedResource]);
old_block_to!(v2024_11_05::PromptMessageContent, block_2024_11_05, Block2024_11_05,
    [Text => TextContent, Image => ImageContent, Resource => EmbeddedResource]);
old_block_to!(v2025_03_26::CallToolResultContentItem, block_2025_03_26, Block2025_03_26,
    [Text => TextContent, Image => ImageContent, Audio => AudioContent,
     Resource => EmbeddedResource]);
old_block_to!(v2025_03_26::PromptMessageContent, block_2025_03_26, Block2025_03_26,
    [Text => TextContent, Image => ImageContent, Audio => AudioContent,
     Resource => EmbeddedResource]);

/// The builder of a version's block union, as a function (for the sampling conversions).
pub(crate) fn block_to<U: BlockTo>(
    version: Version,
) -> impl Fn(&Content) -> Result<U, ContentError> {
    move |block| U::block_to(block, version)
}

/// Every block as the union `U`, failing on the first a version lacks.
fn blocks_to<U: BlockTo>(
    items: Cow<'_, [Content]>,
    version: Version,
) -> Result<Vec<U>, ContentError> {
    // Sized to the blocks: collected as a `Result`, the vector would start at four blocks
    // of the version's (a few hundred bytes each) whatever their number.
    let mut blocks = Vec::with_capacity(items.len());
    match items {
        Cow::Borrowed(items) => {
            for block in items {
                blocks.push(U::block_to(block, version)?);
            }
        }
        // Each block is taken: a text moves into the version's block, or the block is dropped
        // once converted, so a large text is held twice at most.
        Cow::Owned(items) => {
            for block in items {
                blocks.push(U::block_into(block, version)?);
            }
        }
    }
    Ok(blocks)
}

/// The `CallToolResult` of `version`, serialized from its generated type.
pub(crate) fn call_tool_result<W: Written>(
    result: ToolResultParts<'_>,
    version: Version,
) -> Result<W, ContentError> {
    let is_error = result.is_error.then_some(true);
    macro_rules! result {
        ($m:ident) => {{
            let content = blocks_to(result.content, version)?;
            let mut out = if_member!(
                $m,
                CallToolResult,
                result_type,
                { $m::CallToolResult::new(content, "complete") },
                { $m::CallToolResult::new(content) }
            );
            out.is_error = is_error;
            // `structuredContent` (2025-06-18 on): a JSON object before 2026-07-28 (anything
            // else is refused), any JSON value from then.
            set_member!(
                $m,
                CallToolResult,
                out.structured_content = result
                    .structured
                    .map(|text| StructuredTo::structured_to(text.into_owned(), version))
                    .transpose()?
            );
            W::written(out)
        }};
    }
    Ok(by_version!(version, result))
}

/// The generated type of `structuredContent`: `JsonObject` before 2026-07-28, `Json` from then.
trait StructuredTo: Sized {
    /// `text` as this type, or why the version refuses it.
    fn structured_to(text: Json, version: Version) -> Result<Self, ContentError>;
}

impl StructuredTo for JsonObject {
    /// The JSON object versions before 2026-07-28 require.
    fn structured_to(text: Json, version: Version) -> Result<Self, ContentError> {
        JsonObject::try_from(text).map_err(|_| {
            ContentError::lacking("`structuredContent` that is not a JSON object", version)
        })
    }
}

impl StructuredTo for Json {
    fn structured_to(text: Json, _: Version) -> Result<Self, ContentError> {
        Ok(text)
    }
}

/// The union of blocks a `PromptMessage` of module `$m` holds: 2024-11-05's and
/// 2025-03-26's own, `ContentBlock` from 2025-06-18.
macro_rules! prompt_content {
    (v2024_11_05) => {
        v2024_11_05::PromptMessageContent
    };
    (v2025_03_26) => {
        v2025_03_26::PromptMessageContent
    };
    ($m:ident) => {
        $m::ContentBlock
    };
}

/// The `PromptMessage` of module `$m`.
macro_rules! message_to {
    ($m:ident, $role:expr, $content:expr, $v:expr) => {{
        let role = match $role {
            Role::User => $m::Role::User,
            Role::Assistant => $m::Role::Assistant,
        };
        let content: prompt_content!($m) = match $content {
            Cow::Borrowed(content) => BlockTo::block_to(content, $v)?,
            Cow::Owned(content) => BlockTo::block_into(content, $v)?,
        };
        $m::PromptMessage::new(content, role)
    }};
}

/// A `PromptMessage` of `version`, serialized from its generated type.
pub fn prompt_message(
    role: Role,
    content: &Content,
    version: Version,
) -> Result<Value, ContentError> {
    macro_rules! message {
        ($m:ident) => {
            to_value(message_to!($m, role, Cow::Borrowed(content), version))
        };
    }
    Ok(by_version!(version, message))
}

/// The `GetPromptResult` of `version`, serialized from its generated type (2026-07-28's
/// `resultType` is `complete`). A message's content given owned has its text moved into
/// the version's block.
pub fn get_prompt_result<'a, W: Written>(
    description: Option<String>,
    messages: impl IntoIterator<Item = (Role, Cow<'a, Content>)>,
    version: Version,
) -> Result<W, ContentError> {
    macro_rules! result {
        ($m:ident) => {{
            let messages = messages
                .into_iter()
                .map(|(role, content)| Ok(message_to!($m, role, content, version)))
                .collect::<Result<Vec<_>, ContentError>>()?;
            let mut out = if_member!(
                $m,
                GetPromptResult,
                result_type,
                { $m::GetPromptResult::new(messages, "complete") },
                { $m::GetPromptResult::new(messages) }
            );
            out.description = description;
            W::written(out)
        }};
    }
    Ok(by_version!(version, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Annotations;

    #[test]
    fn a_link_before_2025_06_18_and_audio_before_2025_03_26_are_errors() {
        let link = Content::resource_link(ResourceLink::new("file:///a", "a"));
        let audio = Content::audio("AAAA", "audio/wav");
        for (block, version, what) in [
            (&link, Version::V2024_11_05, "`resource_link` content"),
            (&link, Version::V2025_03_26, "`resource_link` content"),
            (&audio, Version::V2024_11_05, "`audio` content"),
        ] {
            let error = prompt_message(Role::User, block, version).unwrap_err();
            assert_eq!(error, ContentError::lacking(what, version));
        }
        assert!(prompt_message(Role::User, &audio, Version::V2025_03_26).is_ok());
        assert!(prompt_message(Role::User, &link, Version::V2025_06_18).is_ok());
        let dated = Content::text("t").annotated(Annotations {
            last_modified: Some("2025-01-01T00:00:00Z".into()),
            ..Annotations::default()
        });
        let error = prompt_message(Role::User, &dated, Version::V2025_03_26).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`annotations.lastModified` cannot be sent under MCP 2025-03-26"
        );
        let nan = Content::text("t").annotated(Annotations {
            priority: Some(f64::NAN),
            ..Annotations::default()
        });
        assert!(prompt_message(Role::User, &nan, Version::V2025_11_25).is_err());
    }
}
