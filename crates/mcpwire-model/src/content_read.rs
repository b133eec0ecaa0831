//! The content model read back: each version's generated content blocks, `CallToolResult`
//! and `GetPromptResult` converted into [`Content`], [`ToolResult`] and [`PromptResult`].
//!
//! The text is first decoded as the version's generated type, so what its schema refuses is
//! a [`ReadError`]. The `_meta` of a block and of an embedded resource's contents, and a
//! resource link's `icons`, are kept. What the model has no place for is left behind on
//! purpose: members a schema does not declare. Everything the model can send under a version
//! reads back equal.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::content::{
    Annotations, Content, ContentKind, EmbeddedResource, ResourceContents, ResourceLink, Role,
};
use crate::content_wire::to_value;
use crate::prompt_message::{PromptMessage, PromptResult};
use crate::read_error::{ReadError, decode};
use crate::result::ToolResult;
use crate::version::Version;

/// The members of `value` when it is a JSON object.
pub(crate) fn object(value: Value) -> Option<Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

/// A generated object (`_meta`, an icon, `metadata`) as the JSON object it holds.
pub(crate) fn object_of(value: impl Serialize) -> Option<Map<String, Value>> {
    object(to_value(value))
}

/// Generated icons as JSON objects.
pub(crate) fn icons_of<T: Serialize>(icons: Option<Vec<T>>) -> Option<Vec<Map<String, Value>>> {
    icons.map(|icons| icons.into_iter().filter_map(object_of).collect())
}

/// The neutral [`Role`] of a generated `Role` of module `$m`.
macro_rules! read_role {
    ($m:ident, $role:expr) => {
        match $role {
            $m::Role::User => Role::User,
            $m::Role::Assistant => Role::Assistant,
        }
    };
}

/// `$read!(module)` for the module of `$version`; under 2026-07-28
/// `$read!(v2026_07_28, result_type)`, naming the member that must be `complete`.
macro_rules! by_version {
    ($version:expr, $read:ident) => {
        match $version {
            Version::V2024_11_05 => $read!(v2024_11_05),
            Version::V2025_03_26 => $read!(v2025_03_26),
            Version::V2025_06_18 => $read!(v2025_06_18),
            Version::V2025_11_25 => $read!(v2025_11_25),
            Version::V2026_07_28 => $read!(v2026_07_28, result_type),
        }
    };
}
pub(crate) use by_version;

/// [`Annotations`] of a generated annotations type without `lastModified`.
macro_rules! annotations_of {
    ($m:ident, $a:expr) => {{
        let a = $a;
        Annotations {
            audience: a
                .audience
                .map(|roles| roles.into_iter().map(|r| read_role!($m, r)).collect()),
            priority: a.priority.as_ref().and_then(Number::as_f64),
            last_modified: None,
        }
    }};
}

pub(crate) use read_role;

/// [`Annotations`] of a generated annotations type with `lastModified` (2025-06-18 on).
macro_rules! dated_annotations_of {
    ($m:ident, $a:expr) => {{
        let a = $a;
        let last_modified = a.last_modified.clone();
        Annotations {
            last_modified,
            ..annotations_of!($m, a)
        }
    }};
}

/// [`Annotations`] of the annotations of module `$m` (2024-11-05's own types, or
/// `Annotations`, with `lastModified` where it has it).
macro_rules! annotations_read {
    (v2024_11_05, $a:expr) => {
        annotations_of!(v2024_11_05, $a)
    };
    ($m:ident, $a:expr) => {
        $crate::by_version::if_member!($m, Annotations, last_modified, { dated_annotations_of!($m, $a) }, {
            annotations_of!($m, $a)
        })
    };
}

pub(crate) use {annotations_of, annotations_read, dated_annotations_of};

/// An [`EmbeddedResource`] of a generated union `$m::$union` of text and blob contents
/// (`EmbeddedResourceResource`, `ReadResourceResultContentsItem`), with the contents'
/// `_meta` where the version has it (2025-06-18 on).
macro_rules! read_contents {
    ($m:ident, $union:ident, $item:expr) => {
        match $item {
            $m::$union::TextResourceContents(c) => EmbeddedResource {
                meta: read_contents!(@meta $m, c),
                uri: c.uri,
                mime_type: c.mime_type,
                contents: ResourceContents::Text(c.text),
            },
            $m::$union::BlobResourceContents(c) => EmbeddedResource {
                meta: read_contents!(@meta $m, c),
                uri: c.uri,
                mime_type: c.mime_type,
                contents: ResourceContents::Blob(c.blob),
            },
        }
    };
    (@meta v2024_11_05, $c:ident) => {
        None
    };
    (@meta v2025_03_26, $c:ident) => {
        None
    };
    (@meta $m:ident, $c:ident) => {
        $c.meta.and_then(object_of)
    };
}
pub(crate) use read_contents;

/// One variant of a generated content union as [`Content`]; `$ann` names the macro that
/// reads its annotations. `$dated` is `[]` before 2025-06-18, `[dated]` where blocks have
/// `_meta` (2025-06-18 on), `[dated icons]` where resource links have icons too (2025-11-25
/// on).
macro_rules! read_variant {
    (TextContent, $m:ident, $ann:ident, $b:ident, $v:expr, $dated:tt) => {
        read_variant!(@block ContentKind::Text($b.text), $m, $ann, $b, $dated)
    };
    (ImageContent, $m:ident, $ann:ident, $b:ident, $v:expr, $dated:tt) => {
        read_variant!(@media Image, $m, $ann, $b, $dated)
    };
    (AudioContent, $m:ident, $ann:ident, $b:ident, $v:expr, $dated:tt) => {
        read_variant!(@media Audio, $m, $ann, $b, $dated)
    };
    (@media $kind:ident, $m:ident, $ann:ident, $b:ident, $dated:tt) => {
        read_variant!(
            @block
            ContentKind::$kind {
                data: $b.data,
                mime_type: $b.mime_type,
            },
            $m, $ann, $b, $dated
        )
    };
    (EmbeddedResource, $m:ident, $ann:ident, $b:ident, $v:expr, $dated:tt) => {
        read_variant!(
            @block
            ContentKind::Resource(read_contents!($m, EmbeddedResourceResource, $b.resource)),
            $m, $ann, $b, $dated
        )
    };
    (ResourceLink, $m:ident, $ann:ident, $b:ident, $v:expr, $dated:tt) => {
        read_variant!(
            @block
            ContentKind::ResourceLink(ResourceLink {
                size: $b
                    .size
                    .map(|size| {
                        size.as_u64().ok_or_else(|| {
                            ReadError::new("ResourceLink", $v, format!("size {size} is not a u64"))
                        })
                    })
                    .transpose()?,
                icons: read_variant!(@icons $b, $dated),
                uri: $b.uri,
                name: $b.name,
                title: $b.title,
                description: $b.description,
                mime_type: $b.mime_type,
            }),
            $m, $ann, $b, $dated
        )
    };
    (@block $kind:expr, $m:ident, $ann:ident, $b:ident, $dated:tt) => {{
        let meta = read_variant!(@meta $b, $dated);
        Content {
            kind: $kind,
            annotations: $b.annotations.map(|a| $ann!($m, a)),
            meta,
        }
    }};
    (@meta $b:ident, []) => {
        None
    };
    (@meta $b:ident, [dated $($icons:ident)?]) => {
        $b.meta.and_then(object_of)
    };
    (@icons $b:ident, [dated icons]) => {
        icons_of($b.icons)
    };
    (@icons $b:ident, $dated:tt) => {
        None
    };
}

/// A function reading every variant of the generated content union `$m::$union`; `$dated`
/// as `read_variant!` takes it.
macro_rules! block_reader {
    ($fn:ident, $m:ident, $union:ident, $ann:ident, $v:expr, [$($variant:ident),*],
     $dated:tt) => {
        /// The [`Content`] of one block of this union.
        pub(crate) fn $fn(block: $m::$union) -> Result<Content, ReadError> {
            Ok(match block {
                $($m::$union::$variant(b) => read_variant!($variant, $m, $ann, b, $v, $dated),)*
            })
        }
    };
}

block_reader!(
    tool_block_2024_11_05,
    v2024_11_05,
    CallToolResultContentItem,
    annotations_of,
    Version::V2024_11_05,
    [TextContent, ImageContent, EmbeddedResource],
    []
);
block_reader!(
    prompt_block_2024_11_05,
    v2024_11_05,
    PromptMessageContent,
    annotations_of,
    Version::V2024_11_05,
    [TextContent, ImageContent, EmbeddedResource],
    []
);
block_reader!(
    tool_block_2025_03_26,
    v2025_03_26,
    CallToolResultContentItem,
    annotations_of,
    Version::V2025_03_26,
    [TextContent, ImageContent, AudioContent, EmbeddedResource],
    []
);
block_reader!(
    prompt_block_2025_03_26,
    v2025_03_26,
    PromptMessageContent,
    annotations_of,
    Version::V2025_03_26,
    [TextContent, ImageContent, AudioContent, EmbeddedResource],
    []
);
/// The reader of `ContentBlock` for a version with every block kind (2025-06-18 on).
macro_rules! full_block_reader {
    ($fn:ident, $m:ident, $v:expr $(, $icons:ident)?) => {
        block_reader!(
            $fn,
            $m,
            ContentBlock,
            dated_annotations_of,
            $v,
            [
                TextContent,
                ImageContent,
                AudioContent,
                ResourceLink,
                EmbeddedResource
            ],
            [dated $($icons)?]
        );
    };
}

full_block_reader!(read_block_2025_06_18, v2025_06_18, Version::V2025_06_18);
full_block_reader!(
    read_block_2025_11_25,
    v2025_11_25,
    Version::V2025_11_25,
    icons
);
full_block_reader!(
    read_block_2026_07_28,
    v2026_07_28,
    Version::V2026_07_28,
    icons
);

/// Every block read with `read`, failing on the first that cannot be.
fn blocks<T>(
    items: Vec<T>,
    read: impl Fn(T) -> Result<Content, ReadError>,
) -> Result<Vec<Content>, ReadError> {
    items.into_iter().map(read).collect()
}

/// Under 2026-07-28, a result read as complete must say so: an `input_required` result is
/// another reply, which the caller reads as such.
pub(crate) fn complete(
    result_type: &str,
    what: &'static str,
    version: Version,
) -> Result<(), ReadError> {
    if result_type == "complete" {
        Ok(())
    } else {
        Err(ReadError::new(
            what,
            version,
            format!("its resultType is `{result_type}`, not `complete`"),
        ))
    }
}

/// The [`ToolResult`] of a `CallToolResult` of `version` (its JSON text).
pub(crate) fn read_call_tool_result(text: &str, version: Version) -> Result<ToolResult, ReadError> {
    const WHAT: &str = "CallToolResult";
    let unreadable = |e: serde_json::Error| ReadError::new(WHAT, version, e.to_string());
    // Before 2025-06-18: no `structuredContent`.
    macro_rules! plain {
        ($m:ident, $read:ident) => {{
            let r: $m::CallToolResult = decode(text, WHAT, version)?;
            ToolResult::from_parts(blocks(r.content, $read)?, None, r.is_error == Some(true))
        }};
    }
    // From 2025-06-18: `structuredContent`, a JSON object (any JSON value from 2026-07-28,
    // whose results must also be `complete`).
    macro_rules! structured {
        ($m:ident, $read:ident $(, $result_type:ident)?) => {{
            let r: $m::CallToolResult = decode(text, WHAT, version)?;
            $(complete(&r.$result_type, WHAT, version)?;)?
            let structured = r.structured_content.map(|s| s.to_value()).transpose();
            ToolResult::from_parts(
                blocks(r.content, $read)?,
                structured.map_err(unreadable)?,
                r.is_error == Some(true),
            )
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => plain!(v2024_11_05, tool_block_2024_11_05),
        Version::V2025_03_26 => plain!(v2025_03_26, tool_block_2025_03_26),
        Version::V2025_06_18 => structured!(v2025_06_18, read_block_2025_06_18),
        Version::V2025_11_25 => structured!(v2025_11_25, read_block_2025_11_25),
        Version::V2026_07_28 => structured!(v2026_07_28, read_block_2026_07_28, result_type),
    })
}

/// The [`PromptResult`] of a `GetPromptResult` of `version` (its JSON text).
pub(crate) fn read_get_prompt_result(
    text: &str,
    version: Version,
) -> Result<PromptResult, ReadError> {
    const WHAT: &str = "GetPromptResult";
    macro_rules! read {
        ($m:ident, $read:ident $(, $result_type:ident)?) => {{
            let r: $m::GetPromptResult = decode(text, WHAT, version)?;
            $(complete(&r.$result_type, WHAT, version)?;)?
            let messages = r
                .messages
                .into_iter()
                .map(|m| {
                    Ok(PromptMessage {
                        role: read_role!($m, m.role),
                        content: $read(m.content)?,
                    })
                })
                .collect::<Result<Vec<_>, ReadError>>()?;
            PromptResult {
                description: r.description,
                messages,
            }
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => read!(v2024_11_05, prompt_block_2024_11_05),
        Version::V2025_03_26 => read!(v2025_03_26, prompt_block_2025_03_26),
        Version::V2025_06_18 => read!(v2025_06_18, read_block_2025_06_18),
        Version::V2025_11_25 => read!(v2025_11_25, read_block_2025_11_25),
        Version::V2026_07_28 => read!(v2026_07_28, read_block_2026_07_28, result_type),
    })
}
