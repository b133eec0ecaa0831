//! The ask model on the wire: [`ElicitRequest`] and [`SamplingRequest`] converted into the
//! `ElicitRequestParams` and `CreateMessageRequestParams` of each version, built from its
//! generated types and serialized from them. What a version lacks (elicitation before
//! 2025-06-18, URL mode before 2025-11-25, audio in a sampling message before 2025-03-26, a
//! resource in any sampling message) is an [`AskError`].

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::{Number, Value};

use crate::ask::sampled_wire::{SampledTo, tool_choice_to, tools_to};
use crate::ask::{ElicitRequest, IncludeContext, ModelPreferences, SamplingRequest};
use crate::by_version::{by_version, if_member, refuse_member, set_member};
use crate::content::wire::{optional_as, to_value};
use crate::content::{ContentError, Role};
use crate::form::FormError;
use crate::form::wire::{requested_2025_06_18, requested_2025_11_25_on};
use crate::version::Version;

/// Why a request to the client cannot be sent under a version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskError {
    /// A content block of a sampling message.
    Content(ContentError),
    /// The form.
    Form(FormError),
    /// Something else the version lacks, or a value without a JSON form.
    Lacking {
        /// What cannot be sent.
        what: String,
        /// The version in force.
        version: Version,
    },
}

impl std::fmt::Display for AskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AskError::Content(e) => e.fmt(f),
            AskError::Form(e) => e.fmt(f),
            AskError::Lacking { what, version } => {
                write!(f, "{what} cannot be sent under MCP {version}")
            }
        }
    }
}

impl std::error::Error for AskError {}

impl From<ContentError> for AskError {
    fn from(e: ContentError) -> Self {
        AskError::Content(e)
    }
}

impl From<FormError> for AskError {
    fn from(e: FormError) -> Self {
        AskError::Form(e)
    }
}

pub(crate) fn lacking(what: impl Into<String>, version: Version) -> AskError {
    AskError::Lacking {
        what: what.into(),
        version,
    }
}

impl ElicitRequest {
    /// The `params` of `elicitation/create` under `version`, serialized from that version's
    /// generated `ElicitRequestParams`, or what the version cannot carry.
    ///
    /// ```
    /// use mcpwire_model::{ElicitRequest, Form, Version};
    ///
    /// #[derive(schemars::JsonSchema)]
    /// #[allow(dead_code)]
    /// struct Name { name: String }
    ///
    /// let request = ElicitRequest::Form {
    ///     message: "Who are you?".into(),
    ///     form: Form::of::<Name>().unwrap(),
    ///     meta: None,
    /// };
    /// let params = request.to_json(Version::V2025_11_25).unwrap();
    /// assert_eq!(params["requestedSchema"]["properties"]["name"]["type"], "string");
    /// assert!(request.to_json(Version::V2025_03_26).is_err());
    /// ```
    pub fn to_json(&self, version: Version) -> Result<Value, AskError> {
        elicit_params(self, version)
    }
}

impl SamplingRequest {
    /// The `params` of `sampling/createMessage` under `version`, serialized from that
    /// version's generated `CreateMessageRequestParams`, or what the version cannot carry.
    ///
    /// ```
    /// use mcpwire_model::{SamplingRequest, Version};
    ///
    /// let params = SamplingRequest::new(50).user("Hi").to_json(Version::V2024_11_05).unwrap();
    /// assert_eq!(params["maxTokens"], 50);
    /// assert_eq!(params["messages"][0]["content"]["text"], "Hi");
    /// ```
    pub fn to_json(&self, version: Version) -> Result<Value, AskError> {
        sampling_params(self, version)
    }
}

/// The `ElicitRequestParams` of `version`, serialized from its generated type.
pub fn elicit_params(request: &ElicitRequest, version: Version) -> Result<Value, AskError> {
    let (ElicitRequest::Form { meta, .. } | ElicitRequest::Url { meta, .. }) = request;
    if meta.is_some() && version != Version::V2025_11_25 {
        return Err(lacking("an elicitation `_meta`", version));
    }
    // From 2025-11-25 elicitations have a mode (form or URL); a URL one has an
    // `elicitationId` where the version's params have it, and must then carry one.
    macro_rules! moded {
        ($m:ident) => {
            match request {
                ElicitRequest::Form {
                    message,
                    form,
                    meta,
                } => {
                    #[allow(unused_mut)]
                    let mut out = $m::ElicitRequestFormParams::new(
                        &**message,
                        requested_2025_11_25_on(form)?,
                    );
                    let _ = meta; // sent where the version's params have `_meta`
                    set_member!(
                        $m,
                        ElicitRequestFormParams,
                        out.meta = optional_as(meta, "an elicitation `_meta`", version)
                            .map_err(refused)?
                    );
                    to_value($m::ElicitRequestParams::ElicitRequestFormParams(out))
                }
                ElicitRequest::Url {
                    message,
                    url,
                    elicitation_id,
                    meta,
                } => {
                    #[allow(unused_mut)]
                    let mut out = if_member!(
                        $m,
                        ElicitRequestURLParams,
                        elicitation_id,
                        {
                            let Some(id) = elicitation_id else {
                                return Err(lacking("a URL elicitation without an id", version));
                            };
                            $m::ElicitRequestURLParams::new(&**id, &**message, &**url)
                        },
                        {
                            if elicitation_id.is_some() {
                                return Err(lacking("an `elicitationId`", version));
                            }
                            $m::ElicitRequestURLParams::new(&**message, &**url)
                        }
                    );
                    let _ = meta; // sent where the version's params have `_meta`
                    set_member!(
                        $m,
                        ElicitRequestURLParams,
                        out.meta = optional_as(meta, "an elicitation `_meta`", version)
                            .map_err(refused)?
                    );
                    to_value($m::ElicitRequestParams::ElicitRequestURLParams(out))
                }
            }
        };
    }
    macro_rules! params {
        // No elicitation before 2025-06-18.
        (v2024_11_05) => {
            return Err(lacking("`elicitation/create`", version))
        };
        (v2025_03_26) => {
            return Err(lacking("`elicitation/create`", version))
        };
        // 2025-06-18: a form only, its params not a union.
        (v2025_06_18) => {
            match request {
                ElicitRequest::Form { message, form, .. } => to_value(
                    v2025_06_18::ElicitRequestParams::new(&**message, requested_2025_06_18(form)?),
                ),
                ElicitRequest::Url { .. } => return Err(lacking("a URL elicitation", version)),
            }
        };
        ($m:ident) => {
            moded!($m)
        };
    }
    Ok(by_version!(version, params))
}

/// A finite number, or an error naming `what`.
fn finite(value: f64, what: &str, version: Version) -> Result<Number, AskError> {
    Number::from_f64(value).ok_or_else(|| lacking(format!("{what} {value}"), version))
}

/// The members every version's `CreateMessageRequestParams` shares, set on `$out` of
/// module `$m`.
macro_rules! sampling_params {
    ($m:ident, $request:expr, $version:expr, $messages:expr) => {{
        let request: &SamplingRequest = $request;
        let version = $version;
        let mut out = $m::CreateMessageRequestParams::new(request.max_tokens, $messages);
        out.system_prompt = request.system_prompt.clone();
        out.temperature = request
            .temperature
            .map(|t| finite(t, "the temperature", version))
            .transpose()?;
        out.stop_sequences =
            (!request.stop_sequences.is_empty()).then(|| request.stop_sequences.clone());
        out.include_context = request.include_context.map(|include| match include {
            IncludeContext::None => $m::CreateMessageRequestParamsIncludeContext::None,
            IncludeContext::ThisServer => $m::CreateMessageRequestParamsIncludeContext::ThisServer,
            IncludeContext::AllServers => $m::CreateMessageRequestParamsIncludeContext::AllServers,
        });
        out.model_preferences = request
            .model_preferences
            .as_ref()
            .map(|p| preferences!($m, p, version))
            .transpose()?;
        out.metadata = optional_as(&request.metadata, "a metadata", version).map_err(refused)?;
        out
    }};
}

/// A `ModelPreferences` of module `$m`.
macro_rules! preferences {
    ($m:ident, $p:expr, $version:expr) => {{
        let p: &ModelPreferences = $p;
        let priority =
            |value: Option<f64>, what: &str| value.map(|v| finite(v, what, $version)).transpose();
        let mut out = $m::ModelPreferences::new();
        out.cost_priority = priority(p.cost_priority, "the cost priority")?;
        out.speed_priority = priority(p.speed_priority, "the speed priority")?;
        out.intelligence_priority = priority(p.intelligence_priority, "the intelligence priority")?;
        out.hints = (!p.hints.is_empty()).then(|| {
            p.hints
                .iter()
                .map(|name| {
                    let mut hint = $m::ModelHint::new();
                    hint.name = Some(name.clone());
                    hint
                })
                .collect()
        });
        Ok::<_, AskError>(out)
    }};
}

/// The `SamplingMessage`s of module `$m`: each message's content as the version's
/// `SamplingMessageContent`, its `_meta` where the version's messages have it (else one is an
/// [`AskError`]).
macro_rules! sampling_messages {
    ($m:ident, $request:expr, $version:expr) => {{
        let request: &SamplingRequest = $request;
        request
            .messages
            .iter()
            .map(|message| {
                let role = match message.role {
                    Role::User => $m::Role::User,
                    Role::Assistant => $m::Role::Assistant,
                };
                let content: $m::SamplingMessageContent =
                    SampledTo::sampled_to(&message.content, $version)?;
                #[allow(unused_mut)]
                let mut out = $m::SamplingMessage::new(content, role);
                refuse_member!(
                    $m,
                    SamplingMessage,
                    meta,
                    message.meta.is_some(),
                    lacking("a sampling message's `_meta`", $version)
                );
                set_member!(
                    $m,
                    SamplingMessage,
                    out.meta = optional_as(&message.meta, "a message `_meta`", $version)
                        .map_err(refused)?
                );
                Ok(out)
            })
            .collect::<Result<Vec<_>, AskError>>()?
    }};
}

/// A member the version's schema refuses (`_meta`, `metadata`, a task, a tool use), as the
/// [`AskError::Lacking`] it is for a request or reply.
pub(crate) fn refused(e: ContentError) -> AskError {
    lacking(e.what, e.version)
}

/// The `CreateMessageRequestParams` of `version`, serialized from its generated type.
pub fn sampling_params(request: &SamplingRequest, version: Version) -> Result<Value, AskError> {
    let v = version;
    macro_rules! params {
        ($m:ident) => {{
            // What the version's params lack, in this order: `tools`, `toolChoice`, `task`,
            // `_meta`.
            refuse_member!(
                $m,
                CreateMessageRequestParams,
                tools,
                request.tools.is_some(),
                lacking("`tools` in a sampling request", v)
            );
            refuse_member!(
                $m,
                CreateMessageRequestParams,
                tool_choice,
                request.tool_choice.is_some(),
                lacking("a `toolChoice` in a sampling request", v)
            );
            refuse_member!(
                $m,
                CreateMessageRequestParams,
                task,
                request.task.is_some(),
                lacking("a `task` in a sampling request", v)
            );
            refuse_member!(
                $m,
                CreateMessageRequestParams,
                meta,
                request.meta.is_some(),
                lacking("a `_meta` in a sampling request", v)
            );
            let messages = sampling_messages!($m, request, v);
            #[allow(unused_mut)]
            let mut out = sampling_params!($m, request, version, messages);
            set_member!(
                $m,
                CreateMessageRequestParams,
                out.tools = request
                    .tools
                    .as_deref()
                    .map(|tools| tools_to(tools, v))
                    .transpose()?
            );
            set_member!(
                $m,
                CreateMessageRequestParams,
                out.tool_choice = request
                    .tool_choice
                    .as_ref()
                    .map(|choice| tool_choice_to(choice, v))
                    .transpose()?
            );
            set_member!(
                $m,
                CreateMessageRequestParams,
                out.meta = optional_as(&request.meta, "a `_meta`", v).map_err(refused)?
            );
            set_member!(
                $m,
                CreateMessageRequestParams,
                out.task = optional_as(&request.task, "a task", v).map_err(refused)?
            );
            to_value(out)
        }};
    }
    Ok(by_version!(version, params))
}
