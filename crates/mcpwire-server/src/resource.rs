//! A resource: a URI the client can list and read.

use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::context::Context;
use crate::tool::BoxFuture;
use crate::version::Version;

/// What reading a resource returns.
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

type ReadFn = dyn Fn(Context) -> BoxFuture<ResourceContents> + Send + Sync;

/// A resource the server offers: `resources/list` describes it, `resources/read` runs its
/// reader.
///
/// ```
/// use mcpwire_server::{Context, Resource, ResourceContents};
///
/// let readme = Resource::new("file:///README", "README", |_ctx: Context| async {
///     ResourceContents::text("# Hello")
/// })
/// .mime_type("text/markdown");
/// assert_eq!(readme.uri(), "file:///README");
/// ```
#[derive(Clone)]
pub struct Resource {
    uri: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    reader: Arc<ReadFn>,
}

impl std::fmt::Debug for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resource")
            .field("uri", &self.uri)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Resource {
    /// A resource at `uri` named `name`, read by `reader`.
    pub fn new<F, Fut>(uri: impl Into<String>, name: impl Into<String>, reader: F) -> Self
    where
        F: Fn(Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ResourceContents> + Send + 'static,
    {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            reader: Arc::new(move |ctx| Box::pin(reader(ctx))),
        }
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the human-readable title (sent from 2025-06-18).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The `Resource` object of `version`.
    pub(crate) fn definition(&self, version: Version) -> Value {
        let mut resource = crate::describe::named(&self.name, self.title.as_deref(), version);
        resource.insert("uri".into(), self.uri.clone().into());
        if let Some(description) = &self.description {
            resource.insert("description".into(), description.clone().into());
        }
        if let Some(mime_type) = &self.mime_type {
            resource.insert("mimeType".into(), mime_type.clone().into());
        }
        Value::Object(resource)
    }

    /// Reads it: the `contents` array of a `ReadResourceResult`.
    pub(crate) async fn read(&self, ctx: Context) -> Value {
        let contents = (self.reader)(ctx).await;
        let mut item = Map::new();
        item.insert("uri".into(), self.uri.clone().into());
        if let Some(mime_type) = &self.mime_type {
            item.insert("mimeType".into(), mime_type.clone().into());
        }
        match contents {
            ResourceContents::Text(text) => item.insert("text".into(), text.into()),
            ResourceContents::Blob(blob) => item.insert("blob".into(), blob.into()),
        };
        json!([item])
    }
}
