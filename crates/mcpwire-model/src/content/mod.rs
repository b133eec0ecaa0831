//! The version-neutral content model: content blocks (text, image, audio, embedded resource,
//! resource link) with their annotations, as tool results and prompt messages carry them.
//!
//! This module knows nothing of the server machinery (no handlers, sessions or transport):
//! it depends on `mcpwire-types` only, so that a client crate can share it. Each version's
//! wire shape comes from `content/wire.rs`, which converts into that version's generated
//! types.

pub(crate) mod read;
pub mod wire;

use std::fmt;

use serde_json::{Map, Value};

use crate::version::Version;

/// Who a message is from, or who a block is meant for (`Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// Hints for the client on how to use a block (`Annotations`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Annotations {
    /// Who the block is meant for.
    pub audience: Option<Vec<Role>>,
    /// How important it is, from 0 (least) to 1 (most).
    pub priority: Option<f64>,
    /// When the underlying data last changed, ISO 8601 (from 2025-06-18).
    pub last_modified: Option<String>,
}

/// The contents of a resource: text or base64-encoded bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceContents {
    /// Text.
    Text(String),
    /// Binary data, base64-encoded.
    Blob(String),
}

impl ResourceContents {
    /// Text contents.
    pub fn text(text: impl Into<String>) -> Self {
        ResourceContents::Text(text.into())
    }
}

/// A resource's contents carried inside a message (`EmbeddedResource.resource`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type, if known.
    pub mime_type: Option<String>,
    /// What it contains.
    pub contents: ResourceContents,
    /// The contents' `_meta` (from 2025-06-18), as sent. A content block's own `_meta` is
    /// [`Content::meta`].
    pub meta: Option<Map<String, Value>>,
}

impl EmbeddedResource {
    /// The contents of the resource at `uri`, with no MIME type and no `_meta`.
    pub fn new(uri: impl Into<String>, contents: ResourceContents) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            contents,
            meta: None,
        }
    }
}

/// A pointer to a resource the client may read (`ResourceLink`, from 2025-06-18).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A human-readable title.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// Its MIME type, if known.
    pub mime_type: Option<String>,
    /// Its size in bytes, if known.
    pub size: Option<u64>,
    /// Icons a client may show (from 2025-11-25), each `Icon` object as sent.
    pub icons: Option<Vec<Map<String, Value>>>,
}

impl ResourceLink {
    /// A link to `uri` named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
        }
    }
}

/// What a content block holds.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentKind {
    /// Text.
    Text(String),
    /// An image: base64 data and its MIME type.
    Image {
        /// Base64-encoded bytes.
        data: String,
        /// e.g. `image/png`.
        mime_type: String,
    },
    /// Audio: base64 data and its MIME type (from 2025-03-26).
    Audio {
        /// Base64-encoded bytes.
        data: String,
        /// e.g. `audio/wav`.
        mime_type: String,
    },
    /// A resource's contents, embedded.
    Resource(EmbeddedResource),
    /// A link to a resource (from 2025-06-18).
    ResourceLink(ResourceLink),
}

/// One content block of a tool result or prompt message, with optional annotations and
/// `_meta`.
///
/// ```
/// use mcpwire_model::{Annotations, Content, Role};
///
/// let mut meta = serde_json::Map::new();
/// meta.insert("trace".into(), "a1".into());
/// let block = Content::audio("UklGRg==", "audio/wav")
///     .annotated(Annotations {
///         audience: Some(vec![Role::User]),
///         ..Annotations::default()
///     })
///     .with_meta(meta);
/// assert!(block.annotations.is_some() && block.meta.is_some());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    /// What the block holds.
    pub kind: ContentKind,
    /// Hints for the client.
    pub annotations: Option<Annotations>,
    /// The block's `_meta` (from 2025-06-18), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl Content {
    fn of(kind: ContentKind) -> Self {
        Self {
            kind,
            annotations: None,
            meta: None,
        }
    }

    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::of(ContentKind::Text(text.into()))
    }

    /// An image block of base64 `data`.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::of(ContentKind::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// An audio block of base64 `data` (from 2025-03-26).
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::of(ContentKind::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// An embedded resource block.
    pub fn resource(resource: EmbeddedResource) -> Self {
        Self::of(ContentKind::Resource(resource))
    }

    /// A resource link block (from 2025-06-18).
    pub fn resource_link(link: ResourceLink) -> Self {
        Self::of(ContentKind::ResourceLink(link))
    }

    /// This block with `annotations`.
    #[must_use]
    pub fn annotated(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// This block with `_meta` (from 2025-06-18).
    #[must_use]
    pub fn with_meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The block's `type` on the wire (`text`, `image`, `audio`, `resource`,
    /// `resource_link`).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            ContentKind::Text(_) => "text",
            ContentKind::Image { .. } => "image",
            ContentKind::Audio { .. } => "audio",
            ContentKind::Resource(_) => "resource",
            ContentKind::ResourceLink(_) => "resource_link",
        }
    }
}

/// Why a block cannot be sent under a version: the version lacks it (audio before
/// 2025-03-26; resource links, a block's `_meta` and `annotations.lastModified` before
/// 2025-06-18; a link's icons before 2025-11-25), its schema refuses a member (an icon
/// without `src`), or a value has no JSON form (a priority that is not finite).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    /// What cannot be sent, e.g. `` `audio` content ``.
    pub what: String,
    /// The version in force.
    pub version: Version,
}

impl ContentError {
    pub(crate) fn lacking(what: impl Into<String>, version: Version) -> Self {
        Self {
            what: what.into(),
            version,
        }
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} cannot be sent under MCP {}", self.what, self.version)
    }
}

impl std::error::Error for ContentError {}
