//! The content model read back: each version's generated content blocks converted into
//! [`Content`]; `result/read.rs` and `prompt/read.rs` build tool and prompt results on it.
//!
//! The text is first decoded as the version's generated type, so what its schema refuses is
//! a [`ReadError`]. The `_meta` of a block and of an embedded resource's contents, and a
//! resource link's `icons`, are kept. What the model has no place for is left behind on
//! purpose: members a schema does not declare. Everything the model can send under a version
//! reads back equal.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::by_version::if_member;
use crate::content::wire::to_value;
use crate::content::{
    Annotations, Content, ContentKind, EmbeddedResource, ResourceContents, ResourceLink,
};
use crate::read_error::ReadError;
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
            $m::Role::User => $crate::content::Role::User,
            $m::Role::Assistant => $crate::content::Role::Assistant,
        }
    };
}

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
        $crate::by_version::if_member!(
            $m,
            Annotations,
            last_modified,
            { dated_annotations_of!($m, $a) },
            { annotations_of!($m, $a) }
        )
    };
}

pub(crate) use {annotations_of, annotations_read, dated_annotations_of};

/// An [`EmbeddedResource`] of a generated union `$m::$union` of text and blob contents
/// (`EmbeddedResourceResource`, `ReadResourceResultContentsItem`), with the contents'
/// `_meta` where the version's contents have it.
macro_rules! read_contents {
    ($m:ident, $union:ident, $item:expr) => {
        match $item {
            $m::$union::TextResourceContents(c) => EmbeddedResource {
                meta: read_contents!(@meta $m, TextResourceContents, c),
                uri: c.uri,
                mime_type: c.mime_type,
                contents: ResourceContents::Text(c.text),
            },
            $m::$union::BlobResourceContents(c) => EmbeddedResource {
                meta: read_contents!(@meta $m, BlobResourceContents, c),
                uri: c.uri,
                mime_type: c.mime_type,
                contents: ResourceContents::Blob(c.blob),
            },
        }
    };
    (@meta $m:ident, $ty:ident, $c:ident) => {
        $crate::by_version::if_member!($m, $ty, meta, { $c.meta.and_then(object_of) }, { None })
    };
}
pub(crate) use read_contents;

/// One variant `$ty` of a generated content union of module `$m` as [`Content`], with every
/// member the version's `$ty` has (`_meta`, a resource link's `icons`).
macro_rules! read_variant {
    (TextContent, $m:ident, $b:ident, $v:expr) => {
        read_variant!(@block ContentKind::Text($b.text), $m, TextContent, $b)
    };
    (ImageContent, $m:ident, $b:ident, $v:expr) => {
        read_variant!(@media Image, $m, ImageContent, $b)
    };
    (AudioContent, $m:ident, $b:ident, $v:expr) => {
        read_variant!(@media Audio, $m, AudioContent, $b)
    };
    (@media $kind:ident, $m:ident, $ty:ident, $b:ident) => {
        read_variant!(
            @block
            ContentKind::$kind {
                data: $b.data,
                mime_type: $b.mime_type,
            },
            $m, $ty, $b
        )
    };
    (EmbeddedResource, $m:ident, $b:ident, $v:expr) => {
        read_variant!(
            @block
            ContentKind::Resource(read_contents!($m, EmbeddedResourceResource, $b.resource)),
            $m, EmbeddedResource, $b
        )
    };
    (ResourceLink, $m:ident, $b:ident, $v:expr) => {
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
                icons: if_member!($m, ResourceLink, icons, { icons_of($b.icons) }, { None }),
                uri: $b.uri,
                name: $b.name,
                title: $b.title,
                description: $b.description,
                mime_type: $b.mime_type,
            }),
            $m, ResourceLink, $b
        )
    };
    (@block $kind:expr, $m:ident, $ty:ident, $b:ident) => {{
        let meta = if_member!($m, $ty, meta, { $b.meta.and_then(object_of) }, { None });
        Content {
            kind: $kind,
            annotations: $b.annotations.map(|a| annotations_read!($m, a)),
            meta,
        }
    }};
}

/// A generated union of content blocks (`ContentBlock`, or the unions of tool results and
/// prompt messages before 2025-06-18) read as [`Content`].
pub(crate) trait ReadBlock {
    /// The [`Content`] of this block, sent under `version`.
    fn read_block(self, version: Version) -> Result<Content, ReadError>;
}

/// [`ReadBlock`] for the generated union `$m::$union` of the blocks `$variant`.
macro_rules! block_reader {
    ($m:ident :: $union:ident, [$($variant:ident),*]) => {
        impl ReadBlock for $m::$union {
            fn read_block(self, version: Version) -> Result<Content, ReadError> {
                let _ = version; // named by a resource link's error, where the union has links
                Ok(match self {
                    $($m::$union::$variant(b) => read_variant!($variant, $m, b, version),)*
                })
            }
        }
    };
}

// Before 2025-06-18 tool results and prompt messages each have a union of their own, without
// resource links (and without audio in 2024-11-05).
block_reader!(
    v2024_11_05::CallToolResultContentItem,
    [TextContent, ImageContent, EmbeddedResource]
);
block_reader!(
    v2024_11_05::PromptMessageContent,
    [TextContent, ImageContent, EmbeddedResource]
);
block_reader!(
    v2025_03_26::CallToolResultContentItem,
    [TextContent, ImageContent, AudioContent, EmbeddedResource]
);
block_reader!(
    v2025_03_26::PromptMessageContent,
    [TextContent, ImageContent, AudioContent, EmbeddedResource]
);
/// [`ReadBlock`] for the `ContentBlock` of a version with every block kind (2025-06-18 on).
macro_rules! full_block_reader {
    ($m:ident) => {
        block_reader!(
            $m::ContentBlock,
            [
                TextContent,
                ImageContent,
                AudioContent,
                ResourceLink,
                EmbeddedResource
            ]
        );
    };
}
full_block_reader!(v2025_06_18);
full_block_reader!(v2025_11_25);
full_block_reader!(v2026_07_28);

/// The reader of a version's block union, as a function (for the sampling conversions).
pub(crate) fn read_block<T: ReadBlock>(
    version: Version,
) -> impl Fn(T) -> Result<Content, ReadError> {
    move |block| block.read_block(version)
}

/// Every block read, failing on the first that cannot be.
pub(crate) fn blocks<T: ReadBlock>(
    items: Vec<T>,
    version: Version,
) -> Result<Vec<Content>, ReadError> {
    items.into_iter().map(|b| b.read_block(version)).collect()
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

/// Where the generated `$ty` of module `$m` has `resultType` (2026-07-28), the result `$r`
/// read as complete must say so ([`complete`]).
macro_rules! read_complete {
    ($m:ident, $ty:ident, $r:expr, $what:expr, $version:expr) => {
        $crate::by_version::if_member!(
            $m,
            $ty,
            result_type,
            {
                $crate::content::read::complete(&$r.result_type, $what, $version)?;
            },
            {}
        )
    };
}
pub(crate) use read_complete;
