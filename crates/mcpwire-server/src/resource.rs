//! A resource: a URI the client can list and read.

use std::future::Future;
use std::sync::Arc;

use mcpwire_model::ResourceEntry;
use mcpwire_model::Unwritten;

use crate::context::Context;
use crate::resource_info::{ResourceInfo, resource_info_setters};
use crate::tool::BoxFuture;
use mcpwire_model::content::ResourceContents;
use mcpwire_model::result::wire::read_result;
use mcpwire_model::version::Version;

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
    size: Option<u64>,
    info: ResourceInfo,
    reader: Arc<ReadFn>,
}

impl std::fmt::Debug for Resource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resource")
            .field("uri", &self.uri)
            .field("name", &self.info.name)
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
            size: None,
            info: ResourceInfo::new(name.into()),
            reader: Arc::new(move |ctx| Box::pin(reader(ctx))),
        }
    }

    resource_info_setters!();

    /// Sets the size in bytes (before any encoding) that `resources/list` states.
    pub fn size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The resource as `resources/list` describes it under `version`.
    pub(crate) fn definition(&self, version: Version) -> ResourceEntry {
        ResourceEntry {
            size: self.size,
            ..self.info.resource_entry(version, &self.uri)
        }
    }

    /// Reads it: the `ReadResourceResult` of the call's version, kept unwritten for the
    /// reply to write once.
    pub(crate) async fn read(&self, ctx: Context) -> Unwritten {
        let version = ctx.version();
        let contents = (self.reader)(ctx).await;
        read_result(&self.uri, self.info.mime_type.as_deref(), contents, version)
    }
}
