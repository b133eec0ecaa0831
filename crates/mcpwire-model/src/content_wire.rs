//! The content model on the wire: conversions of [`Content`], tool results and prompt
//! messages into each version's generated types (`mcpwire_types::mcp::v…`), which are what
//! gets serialized. A block or member a version lacks is a [`ContentError`], never dropped.

use std::borrow::Cow;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::{Json, JsonObject};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::content::{
    Content, ContentError, ContentKind, EmbeddedResource, ResourceContents, ResourceLink, Role,
};
use crate::version::Version;

/// A tool result, version-neutral, as [`crate::ToolResult`] hands it over for encoding: its
/// content borrowed, or owned so that each block goes once converted.
pub(crate) struct ToolResultParts<'a> {
    pub(crate) content: Cow<'a, [Content]>,
    pub(crate) structured: Option<&'a Value>,
    pub(crate) is_error: bool,
}

/// `structuredContent` as the JSON object versions before 2026-07-28 require.
fn structured_object(value: &Value, version: Version) -> Result<JsonObject, ContentError> {
    JsonObject::try_from(value.clone()).map_err(|_| {
        ContentError::lacking("`structuredContent` that is not a JSON object", version)
    })
}

/// A finite priority as a JSON number.
pub(crate) fn priority(value: f64, version: Version) -> Result<Number, ContentError> {
    Number::from_f64(value)
        .ok_or_else(|| ContentError::lacking(format!("the annotation priority {value}"), version))
}

/// Serializes a generated value (infallible for these types: string keys, finite numbers).
pub(crate) fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
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
    serde_json::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|e| ContentError::lacking(format!("{what} its schema refuses ({e})"), version))
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
        $crate::by_version::if_member!($m, Annotations, last_modified, {
            annotations!($m, Annotations, $a, $v, with_last_modified)
        }, {
            annotations!($m, Annotations, $a, $v)
        })
    };
}

pub(crate) use {annotations, annotations_to};

/// The `resource` member of an `EmbeddedResource` of module `$m` under version `$v`; `dated`
/// where the contents have `_meta` (2025-06-18 on), else contents with `_meta` are a
/// [`ContentError`].
macro_rules! embedded_contents {
    ($m:ident, $r:expr, $v:expr $(, $dated:ident)?) => {{
        let r: &EmbeddedResource = $r;
        match &r.contents {
            ResourceContents::Text(text) => {
                let mut item = $m::TextResourceContents::new(text.clone(), r.uri.clone());
                item.mime_type = r.mime_type.clone();
                embedded_contents!(@meta item, r, $v $(, $dated)?);
                $m::EmbeddedResourceResource::TextResourceContents(item)
            }
            ResourceContents::Blob(blob) => {
                let mut item = $m::BlobResourceContents::new(blob.clone(), r.uri.clone());
                item.mime_type = r.mime_type.clone();
                embedded_contents!(@meta item, r, $v $(, $dated)?);
                $m::EmbeddedResourceResource::BlobResourceContents(item)
            }
        }
    }};
    (@meta $item:ident, $r:ident, $v:expr) => {
        if $r.meta.is_some() {
            return Err(ContentError::lacking("an embedded resource's `_meta`", $v));
        }
    };
    (@meta $item:ident, $r:ident, $v:expr, dated) => {
        $item.meta = meta_as(&$r.meta, $v)?;
    };
}

/// `ContentBlock` of the versions that have every block kind (2025-06-18 on): one shape,
/// different modules. `icons` where a resource link has them (2025-11-25 on).
macro_rules! full_block {
    ($fn:ident, $m:ident, $v:expr $(, $icons:ident)?) => {
        pub(crate) fn $fn(block: &Content) -> Result<$m::ContentBlock, ContentError> {
            let v = $v;
            let ann = match &block.annotations {
                Some(a) => Some(annotations!($m, Annotations, a, v, with_last_modified)),
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
                ContentKind::Text(text) => common!(TextContent, $m::TextContent::new(text.clone())),
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
                    $m::EmbeddedResource::new(embedded_contents!($m, resource, v, dated))
                ),
                ContentKind::ResourceLink(link) => {
                    common!(ResourceLink, resource_link!($m, link, v $(, $icons)?))
                }
            })
        }
    };
}

/// A `ResourceLink` of module `$m`, without its annotations and `_meta`; `icons` where the
/// version's links have them, else a link with icons is a [`ContentError`].
macro_rules! resource_link {
    ($m:ident, $link:expr, $v:expr $(, $icons:ident)?) => {{
        let link: &ResourceLink = $link;
        let mut out = $m::ResourceLink::new(link.name.clone(), link.uri.clone());
        out.title = link.title.clone();
        out.description = link.description.clone();
        out.mime_type = link.mime_type.clone();
        out.size = link.size.map(Into::into);
        resource_link!(@icons out, link, $v $(, $icons)?);
        out
    }};
    (@icons $out:ident, $link:ident, $v:expr) => {
        if $link.icons.is_some() {
            return Err(ContentError::lacking("a resource link's `icons`", $v));
        }
    };
    (@icons $out:ident, $link:ident, $v:expr, icons) => {
        $out.icons = icons_as(&$link.icons, $v)?;
    };
}

full_block!(block_2025_06_18, v2025_06_18, Version::V2025_06_18);
full_block!(block_2025_11_25, v2025_11_25, Version::V2025_11_25, icons);
full_block!(block_2026_07_28, v2026_07_28, Version::V2026_07_28, icons);

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
        Some(a) => Some(annotations!(m, Annotations, a, v)),
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
            let mut out = m::EmbeddedResource::new(embedded_contents!(m, resource, v));
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
                Some(a) => Some(annotations!(m, TextContentAnnotations, a, v)),
                None => None,
            };
            Block2024_11_05::Text(out)
        }
        ContentKind::Image { data, mime_type } => {
            let mut out = m::ImageContent::new(data.clone(), mime_type.clone());
            out.annotations = match a {
                Some(a) => Some(annotations!(m, ImageContentAnnotations, a, v)),
                None => None,
            };
            Block2024_11_05::Image(out)
        }
        ContentKind::Resource(resource) => {
            let mut out = m::EmbeddedResource::new(embedded_contents!(m, resource, v));
            out.annotations = match a {
                Some(a) => Some(annotations!(m, EmbeddedResourceAnnotations, a, v)),
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

/// Maps a version-specific union `Block…` into a generated union `$target` of module `$m`
/// whose variants carry the same names.
macro_rules! into_union {
    ($block:expr, $enum:ident, $m:ident :: $target:ident, [$($var:ident => $gen:ident),*]) => {
        match $block {
            $($enum::$var(b) => $m::$target::$gen(b),)*
        }
    };
}

fn tool_block_2024_11_05(b: Block2024_11_05) -> v2024_11_05::CallToolResultContentItem {
    into_union!(b, Block2024_11_05, v2024_11_05::CallToolResultContentItem,
        [Text => TextContent, Image => ImageContent, Resource => EmbeddedResource])
}

fn prompt_block_2024_11_05(b: Block2024_11_05) -> v2024_11_05::PromptMessageContent {
    into_union!(b, Block2024_11_05, v2024_11_05::PromptMessageContent,
        [Text => TextContent, Image => ImageContent, Resource => EmbeddedResource])
}

fn tool_block_2025_03_26(b: Block2025_03_26) -> v2025_03_26::CallToolResultContentItem {
    into_union!(b, Block2025_03_26, v2025_03_26::CallToolResultContentItem,
        [Text => TextContent, Image => ImageContent, Audio => AudioContent,
         Resource => EmbeddedResource])
}

fn prompt_block_2025_03_26(b: Block2025_03_26) -> v2025_03_26::PromptMessageContent {
    into_union!(b, Block2025_03_26, v2025_03_26::PromptMessageContent,
        [Text => TextContent, Image => ImageContent, Audio => AudioContent,
         Resource => EmbeddedResource])
}

/// Converts every block with `$convert`, failing on the first a version lacks.
fn all<T: Clone, U>(
    items: Cow<'_, [T]>,
    convert: impl Fn(&T) -> Result<U, ContentError>,
) -> Result<Vec<U>, ContentError> {
    match items {
        Cow::Borrowed(items) => items.iter().map(convert).collect(),
        // Each item is dropped once converted: a large text block is held twice at most.
        Cow::Owned(items) => items.into_iter().map(|item| convert(&item)).collect(),
    }
}

/// The `CallToolResult` of `version`, serialized from its generated type.
pub(crate) fn call_tool_result(
    result: ToolResultParts<'_>,
    version: Version,
) -> Result<Value, ContentError> {
    let is_error = result.is_error.then_some(true);
    // From 2025-06-18: `structuredContent`.
    // Before 2026-07-28 `structuredContent` is a JSON object; anything else is refused.
    macro_rules! structured_result {
        ($m:ident, $block:ident) => {{
            let content = all(result.content, $block)?;
            let mut out = $m::CallToolResult::new(content);
            out.is_error = is_error;
            out.structured_content = result
                .structured
                .map(|value| structured_object(value, version))
                .transpose()?;
            to_value(out)
        }};
    }
    // Before 2025-06-18: no `structuredContent`, and a union of its own for the content.
    macro_rules! plain_result {
        ($m:ident, $block:ident, $union:ident) => {{
            let content = all(result.content, |b| $block(b).map($union))?;
            let mut out = $m::CallToolResult::new(content);
            out.is_error = is_error;
            to_value(out)
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => plain_result!(v2024_11_05, block_2024_11_05, tool_block_2024_11_05),
        Version::V2025_03_26 => plain_result!(v2025_03_26, block_2025_03_26, tool_block_2025_03_26),
        Version::V2025_06_18 => structured_result!(v2025_06_18, block_2025_06_18),
        Version::V2025_11_25 => structured_result!(v2025_11_25, block_2025_11_25),
        Version::V2026_07_28 => {
            let content = all(result.content, block_2026_07_28)?;
            let mut out = v2026_07_28::CallToolResult::new(content, "complete");
            out.is_error = is_error;
            out.structured_content = result.structured.map(Json::from);
            to_value(out)
        }
    })
}

/// A `PromptMessage` of module `$m` with `$content` (already that version's block).
macro_rules! typed_message {
    ($m:ident, $role:expr, $content:expr) => {{
        let role = match $role {
            Role::User => $m::Role::User,
            Role::Assistant => $m::Role::Assistant,
        };
        $m::PromptMessage::new($content, role)
    }};
}

/// The `PromptMessage` of 2024-11-05.
fn message_2024_11_05(
    role: Role,
    content: &Content,
) -> Result<v2024_11_05::PromptMessage, ContentError> {
    let block = prompt_block_2024_11_05(block_2024_11_05(content)?);
    Ok(typed_message!(v2024_11_05, role, block))
}

/// The `PromptMessage` of 2025-03-26.
fn message_2025_03_26(
    role: Role,
    content: &Content,
) -> Result<v2025_03_26::PromptMessage, ContentError> {
    let block = prompt_block_2025_03_26(block_2025_03_26(content)?);
    Ok(typed_message!(v2025_03_26, role, block))
}

/// The `PromptMessage` of a version whose messages take any `ContentBlock`.
macro_rules! full_message {
    ($fn:ident, $m:ident, $block:ident) => {
        fn $fn(role: Role, content: &Content) -> Result<$m::PromptMessage, ContentError> {
            Ok(typed_message!($m, role, $block(content)?))
        }
    };
}

full_message!(message_2025_06_18, v2025_06_18, block_2025_06_18);
full_message!(message_2025_11_25, v2025_11_25, block_2025_11_25);
full_message!(message_2026_07_28, v2026_07_28, block_2026_07_28);

/// A `PromptMessage` of `version`, serialized from its generated type.
pub fn prompt_message(
    role: Role,
    content: &Content,
    version: Version,
) -> Result<Value, ContentError> {
    Ok(match version {
        Version::V2024_11_05 => to_value(message_2024_11_05(role, content)?),
        Version::V2025_03_26 => to_value(message_2025_03_26(role, content)?),
        Version::V2025_06_18 => to_value(message_2025_06_18(role, content)?),
        Version::V2025_11_25 => to_value(message_2025_11_25(role, content)?),
        Version::V2026_07_28 => to_value(message_2026_07_28(role, content)?),
    })
}

/// The `GetPromptResult` of `version`, serialized from its generated type (2026-07-28's
/// `resultType` is `complete`).
pub fn get_prompt_result(
    description: Option<&str>,
    messages: &[(Role, &Content)],
    version: Version,
) -> Result<Value, ContentError> {
    macro_rules! result {
        ($m:ident, $message:ident $(, $result_type:expr)?) => {{
            let messages = messages
                .iter()
                .map(|(role, content)| $message(*role, content))
                .collect::<Result<Vec<_>, ContentError>>()?;
            let mut out = $m::GetPromptResult::new(messages $(, $result_type)?);
            out.description = description.map(str::to_owned);
            to_value(out)
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => result!(v2024_11_05, message_2024_11_05),
        Version::V2025_03_26 => result!(v2025_03_26, message_2025_03_26),
        Version::V2025_06_18 => result!(v2025_06_18, message_2025_06_18),
        Version::V2025_11_25 => result!(v2025_11_25, message_2025_11_25),
        Version::V2026_07_28 => result!(v2026_07_28, message_2026_07_28, "complete"),
    })
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
