//! A resource template: a family of resources named by an RFC 6570 level-1 URI template
//! (`users://{id}/profile`), listed by `resources/templates/list` and read through
//! `resources/read` of any URI it matches.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use mcpwire_model::ResourceTemplateEntry;
use mcpwire_model::Unwritten;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::arguments::{ArgumentError, decode_member};
use crate::completion::{Completers, CompletionRequest};
use crate::context::Context;
use crate::resource_info::{ResourceInfo, resource_info_setters};
use crate::tool::BoxFuture;
use crate::uri_template::UriTemplate;
use mcpwire_model::content::ResourceContents;
use mcpwire_model::result::wire::read_result;
use mcpwire_model::version::Version;

type ReadFn = dyn Fn(Map<String, Value>, Context) -> Result<BoxFuture<ResourceContents>, ArgumentError>
    + Send
    + Sync;

/// A resource template the server offers: `resources/templates/list` describes it;
/// `resources/read` of a URI it matches (and no plain [`Resource`](crate::Resource) has)
/// decodes the template's variables as `V` and runs its reader.
///
/// Templates are RFC 6570 level 1: `{name}` variables only (letters, digits, `_`), each
/// matching a non-empty run of unreserved characters and `%XX` escapes, which are decoded;
/// no two variables side by side. When several templates match a URI, the first by template
/// text wins.
///
/// ```
/// use std::collections::BTreeMap;
/// use mcpwire_server::{Context, ResourceContents, ResourceTemplate};
///
/// #[derive(serde::Deserialize)]
/// struct User { id: String }
///
/// let profiles = ResourceTemplate::new("users://{id}/profile", "profile", |user: User, _ctx: Context| async move {
///     ResourceContents::text(format!("the profile of {}", user.id))
/// })
/// .mime_type("text/plain");
/// assert_eq!(profiles.uri_template(), "users://{id}/profile");
///
/// // Any map of strings takes every variable.
/// let _any = ResourceTemplate::new("mem:///{key}", "memory", |vars: BTreeMap<String, String>, _ctx: Context| async move {
///     ResourceContents::text(vars["key"].clone())
/// });
/// ```
#[derive(Clone)]
pub struct ResourceTemplate {
    template: String,
    parsed: Result<UriTemplate, String>,
    info: ResourceInfo,
    reader: Arc<ReadFn>,
    completers: Completers,
}

impl std::fmt::Debug for ResourceTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceTemplate")
            .field("uri_template", &self.template)
            .field("name", &self.info.name)
            .finish_non_exhaustive()
    }
}

impl ResourceTemplate {
    /// A template `uri_template` named `name`, whose variables decode as `V` (a struct of
    /// `String` fields, or a map of strings) for `reader`.
    pub fn new<V, F, Fut>(
        uri_template: impl Into<String>,
        name: impl Into<String>,
        reader: F,
    ) -> Self
    where
        V: DeserializeOwned + Send + 'static,
        F: Fn(V, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ResourceContents> + Send + 'static,
    {
        let template = uri_template.into();
        let reader = move |variables: Map<String, Value>, ctx: Context| {
            let variables: V = decode_member("uri", Value::Object(variables)).map_err(|e| {
                // The variables are parts of `/uri`, not members of their own.
                let variable = e.pointer.trim_start_matches("/uri/").to_owned();
                ArgumentError {
                    pointer: "/uri".into(),
                    reason: format!("template variable `{variable}`: {}", e.reason),
                }
            })?;
            let boxed: BoxFuture<ResourceContents> = Box::pin(reader(variables, ctx));
            Ok(boxed)
        };
        Self {
            parsed: UriTemplate::parse(&template),
            template,
            info: ResourceInfo::new(name.into()),
            reader: Arc::new(reader),
            completers: Completers::default(),
        }
    }

    resource_info_setters!();

    /// Suggests values for the template variable `variable` as the user types
    /// (`completion/complete` with a `ref/resource` reference to this template). The
    /// variable must be one of the template's (checked when the template is added).
    pub fn complete<F, Fut>(mut self, variable: impl Into<String>, completer: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<String>> + Send + 'static,
    {
        self.completers.insert(variable.into(), completer);
        self
    }

    pub(crate) fn completers(&self) -> &Completers {
        &self.completers
    }

    /// A variable with a completer that the template does not have.
    pub(crate) fn unknown_completion(&self) -> Option<&str> {
        let template = self.parsed.as_ref().ok();
        self.completers
            .unknown(|name| template.is_some_and(|t| t.variables().any(|v| v == name)))
    }

    /// The URI template, as given.
    pub fn uri_template(&self) -> &str {
        &self.template
    }

    /// Why the template is not level 1, if it is not.
    pub(crate) fn template_error(&self) -> Option<&str> {
        self.parsed.as_ref().err().map(String::as_str)
    }

    /// The variables of `uri` when the template matches it.
    pub(crate) fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        self.parsed.as_ref().ok()?.matches(uri)
    }

    /// The template as `resources/templates/list` describes it under `version`.
    pub(crate) fn definition(&self, version: Version) -> ResourceTemplateEntry {
        self.info.template_entry(version, &self.template)
    }

    /// Decodes `variables` and starts the reader: the `ReadResourceResult` for `uri` under
    /// the call's version, kept unwritten for the reply to write once.
    pub(crate) fn start(
        &self,
        uri: String,
        variables: BTreeMap<String, String>,
        ctx: Context,
    ) -> Result<BoxFuture<Unwritten>, ArgumentError> {
        let variables = variables
            .into_iter()
            .map(|(name, value)| (name, Value::String(value)))
            .collect();
        let version = ctx.version();
        let reading = (self.reader)(variables, ctx)?;
        let mime_type = self.info.mime_type.clone();
        Ok(Box::pin(async move {
            read_result(&uri, mime_type.as_deref(), reading.await, version)
        }))
    }
}
