//! What the client answers when the server asks: sampling, elicitation (form and URL mode)
//! and roots, each by an async handler the application registers. A capability is declared
//! exactly when its handler is registered, in the shape of the negotiated version.
//!
//! The server's params are read, and the handlers' answers written, through the model
//! (`mcpwire-model`: [`SamplingRequest`] / [`SamplingReply`], [`ElicitRequest`] /
//! [`ElicitAnswer`]) in the negotiated version's generated types, the same types a server
//! built on the model writes and reads: params the version's schema refuses are answered
//! -32602 naming why, an answer the version cannot carry -32603.

use std::future::Future;
use std::sync::Arc;

use mcpwire::RpcError;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::elicit::{FormElicitation, UrlElicitation, with_defaults};
use crate::transport::BoxFuture;
use crate::versions;
use mcpwire_model::{
    AskError, ElicitAnswer, ElicitReply, ElicitRequest, ReadError, SamplingReply, SamplingRequest,
    Version,
};

/// What a handler returns: its answer, or the JSON-RPC error the server gets.
pub type HandlerResult<T> = Result<T, RpcError>;

type Handler<A, T> = Arc<dyn Fn(A) -> BoxFuture<'static, HandlerResult<T>> + Send + Sync>;

/// A root the client exposes (`roots/list`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Root {
    /// The root's URI (`file://` in MCP's versions so far).
    pub uri: String,
    /// A display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Root {
    /// A root at `uri` without a name.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: None,
        }
    }

    /// Names the root.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// The registered handlers.
#[derive(Clone, Default)]
pub(crate) struct Handlers {
    pub(crate) sampling: Option<Handler<SamplingRequest, SamplingReply>>,
    /// Whether the sampling handler takes tools (`sampling.tools`).
    pub(crate) sampling_tools: bool,
    /// Declares the Tasks extension ([`ClientBuilder::tasks`](crate::ClientBuilder::tasks)).
    pub(crate) tasks: bool,
    pub(crate) form: Option<Handler<FormElicitation, ElicitReply>>,
    pub(crate) url: Option<Handler<UrlElicitation, ElicitReply>>,
    pub(crate) roots: Option<Handler<(), Vec<Root>>>,
}

/// Boxes an async handler.
pub(crate) fn boxed<A, T, F, Fut>(handler: F) -> Handler<A, T>
where
    F: Fn(A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult<T>> + Send + 'static,
{
    Arc::new(move |argument| Box::pin(handler(argument)))
}

/// A handler whose answer converts into an [`ElicitReply`], as one that returns it.
pub(crate) fn into_reply<A, R, F, Fut>(
    handler: F,
) -> impl Fn(A) -> BoxFuture<'static, HandlerResult<ElicitReply>> + Send + Sync + 'static
where
    F: Fn(A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = HandlerResult<R>> + Send + 'static,
    R: Into<ElicitReply>,
{
    move |argument| {
        let answer = handler(argument);
        Box::pin(async move { answer.await.map(Into::into) })
    }
}

impl Handlers {
    /// The `ClientCapabilities` object under `version`: one member per registered handler,
    /// in the shape the version gives it.
    pub(crate) fn capabilities(&self, version: Version) -> Value {
        let mut capabilities = Map::new();
        if self.sampling.is_some() {
            // `sampling.tools` arrived in 2025-11-25.
            let sampling = if self.sampling_tools && version >= Version::V2025_11_25 {
                json!({ "tools": {} })
            } else {
                json!({})
            };
            capabilities.insert("sampling".into(), sampling);
        }
        if self.roots.is_some() {
            let roots = if version.is_stateless() {
                json!({})
            } else {
                json!({ "listChanged": true })
            };
            capabilities.insert("roots".into(), roots);
        }
        if let Some(elicitation) = self.elicitation_capability(version) {
            capabilities.insert("elicitation".into(), elicitation);
        }
        // The Tasks extension is declared per request, under 2026-07-28.
        if self.tasks && version.is_stateless() {
            let extensions = json!({ crate::tasks::TASKS_EXTENSION: {} });
            capabilities.insert("extensions".into(), extensions);
        }
        Value::Object(capabilities)
    }

    fn elicitation_capability(&self, version: Version) -> Option<Value> {
        if !versions::has_elicitation(version) {
            return None;
        }
        // URL mode and the `form`/`url` members arrived together (2025-11-25).
        if !versions::has_elicitation_modes(version) {
            return self.form.as_ref().map(|_| json!({}));
        }
        let mut modes = Map::new();
        if self.form.is_some() {
            modes.insert("form".into(), json!({}));
        }
        if self.url.is_some() {
            modes.insert("url".into(), json!({}));
        }
        (!modes.is_empty()).then_some(Value::Object(modes))
    }

    /// Whether a handler answers `method`.
    pub(crate) fn answers(&self, method: &str) -> bool {
        match method {
            "ping" => true,
            "sampling/createMessage" => self.sampling.is_some(),
            "elicitation/create" => self.form.is_some() || self.url.is_some(),
            "roots/list" => self.roots.is_some(),
            _ => false,
        }
    }

    /// Answers one request of the server (or one input request of a 2026-07-28
    /// input-required result) with the registered handler, under `version`.
    pub(crate) async fn answer(
        &self,
        method: &str,
        params: Value,
        version: Version,
    ) -> HandlerResult<Value> {
        match method {
            "ping" => Ok(json!({})),
            "sampling/createMessage" => match &self.sampling {
                Some(handler) => {
                    let request = SamplingRequest::from_json(&params.to_string(), version)
                        .map_err(unreadable)?;
                    handler(request).await?.to_json(version).map_err(unsendable)
                }
                None => Err(RpcError::method_not_found()),
            },
            "elicitation/create" => self.elicit(params, version).await,
            "roots/list" => match &self.roots {
                Some(handler) => Ok(json!({ "roots": handler(()).await? })),
                None => Err(RpcError::method_not_found()),
            },
            _ => Err(RpcError::method_not_found()),
        }
    }

    async fn elicit(&self, params: Value, version: Version) -> HandlerResult<Value> {
        let request = ElicitRequest::from_json(&params.to_string(), version);
        let answer = match (request.map_err(unreadable)?, &self.form, &self.url) {
            (
                ElicitRequest::Form {
                    message,
                    form,
                    meta,
                },
                Some(handler),
                _,
            ) => {
                let requested_schema = params.get("requestedSchema").cloned().unwrap_or_default();
                let asked = FormElicitation {
                    message,
                    form,
                    requested_schema: requested_schema.clone(),
                    meta,
                };
                let reply = handler(asked).await?;
                ElicitReply {
                    answer: with_defaults(reply.answer, &requested_schema),
                    meta: reply.meta,
                }
            }
            (
                ElicitRequest::Url {
                    message,
                    url,
                    elicitation_id,
                    meta,
                },
                _,
                Some(handler),
            ) => {
                let asked = UrlElicitation {
                    message,
                    url,
                    elicitation_id,
                    meta,
                };
                let reply = handler(asked).await?;
                let answer = match reply.answer {
                    // URL mode accepts without content.
                    ElicitAnswer::Accept(_) => ElicitAnswer::Accept(Map::new()),
                    other => other,
                };
                ElicitReply {
                    answer,
                    meta: reply.meta,
                }
            }
            (request, _, _) => {
                let mode = match request {
                    ElicitRequest::Form { .. } => "form",
                    ElicitRequest::Url { .. } => "url",
                };
                return Err(invalid_params(
                    "/mode",
                    &format!("the client does not answer {mode} elicitations"),
                ));
            }
        };
        answer.to_json(version).map_err(unsendable)
    }
}

/// -32602 for params the version's schema (or the model) refuses.
fn unreadable(error: ReadError) -> RpcError {
    RpcError::invalid_params().with_data(&json!({ "reason": error.to_string() }))
}

/// -32603 for a handler's answer the version cannot carry.
fn unsendable(error: AskError) -> RpcError {
    RpcError::internal_error().with_data(&json!({ "reason": error.to_string() }))
}

/// -32602 naming the JSON pointer of the params that is wrong.
pub(crate) fn invalid_params(pointer: &str, reason: &str) -> RpcError {
    RpcError::invalid_params().with_data(&json!({ "pointer": pointer, "reason": reason }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_name_exactly_the_registered_handlers_per_version() {
        let none = Handlers::default();
        assert_eq!(none.capabilities(Version::V2025_11_25), json!({}));
        let all = Handlers {
            sampling: Some(boxed(|_: SamplingRequest| async {
                Ok(SamplingReply::assistant_text("m", "t"))
            })),
            form: Some(boxed(|_: FormElicitation| async {
                Ok(ElicitAnswer::Cancel.into())
            })),
            url: Some(boxed(|_: UrlElicitation| async {
                Ok(ElicitAnswer::Cancel.into())
            })),
            roots: Some(boxed(|()| async { Ok(Vec::new()) })),
            sampling_tools: false,
            tasks: false,
        };
        assert_eq!(
            all.capabilities(Version::V2025_11_25),
            json!({"sampling": {}, "roots": {"listChanged": true},
                   "elicitation": {"form": {}, "url": {}}})
        );
        assert_eq!(
            all.capabilities(Version::V2025_06_18),
            json!({"sampling": {}, "roots": {"listChanged": true}, "elicitation": {}})
        );
        assert_eq!(
            all.capabilities(Version::V2025_03_26),
            json!({"sampling": {}, "roots": {"listChanged": true}})
        );
        let url_only = Handlers {
            url: all.url.clone(),
            ..Handlers::default()
        };
        assert_eq!(url_only.capabilities(Version::V2025_06_18), json!({}));
        assert_eq!(
            url_only.capabilities(Version::V2026_07_28),
            json!({"elicitation": {"url": {}}})
        );
        // `sampling.tools` from 2025-11-25, only with a sampling handler.
        let tools = Handlers {
            sampling: all.sampling.clone(),
            sampling_tools: true,
            tasks: false,
            ..Handlers::default()
        };
        for version in [Version::V2025_11_25, Version::V2026_07_28] {
            assert_eq!(
                tools.capabilities(version),
                json!({"sampling": {"tools": {}}}),
                "{version}"
            );
        }
        assert_eq!(
            tools.capabilities(Version::V2025_06_18),
            json!({"sampling": {}})
        );
        let tools_alone = Handlers {
            sampling_tools: true,
            tasks: false,
            ..Handlers::default()
        };
        assert_eq!(tools_alone.capabilities(Version::V2025_11_25), json!({}));
    }
}
