//! The ask model read back: each version's generated `CreateMessageRequestParams` and
//! `ElicitRequestParams` converted into [`SamplingRequest`] and [`ElicitRequest`], so that a
//! client answers the shape a server layer built on this model sends.
//!
//! The params are first decoded as the version's generated type, so what its schema refuses
//! is a [`ReadError`]. What the model has no place for is an error too, never silently
//! dropped: a `requestedSchema` that is not a flat form. Tool use, tool results, arrays of
//! blocks (from 2025-11-25), `tools`, `toolChoice`, `metadata` and `task` are read
//! (`ask/sampled_wire.rs`), and `_meta` wherever the version's schema has it (each message from
//! 2025-11-25; the params under 2025-11-25).

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::Value;

use crate::ask::reply_wire::role_of;
use crate::ask::sampled_wire::{SampledOf, tool_choice_of, tools_of};
use crate::ask::{
    ElicitRequest, IncludeContext, ModelPreferences, SamplingMessage, SamplingRequest,
};
use crate::by_version::{by_version, if_member};
use crate::content::read::object_of;
use crate::content::wire::to_value;
use crate::form::Form;
use crate::read_error::{ReadError, decode};
use crate::version::Version;

impl SamplingRequest {
    /// The request a server sent: `text` (the `params` of `sampling/createMessage` under
    /// `version`) decoded as that version's generated type, then read.
    ///
    /// ```
    /// use mcpwire_model::{SamplingRequest, Version};
    ///
    /// let sent = SamplingRequest::new(50).user("Hi").temperature(0.5);
    /// let text = sent.to_json(Version::V2025_06_18).unwrap().to_string();
    /// assert_eq!(SamplingRequest::from_json(&text, Version::V2025_06_18).unwrap(), sent);
    /// ```
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        const WHAT: &str = "CreateMessageRequestParams";
        macro_rules! read {
            ($m:ident) => {{
                let mut p: $m::CreateMessageRequestParams = decode(text, WHAT, version)?;
                let messages = std::mem::take(&mut p.messages)
                    .into_iter()
                    .map(|m| {
                        let content = m.content.sampled_of(version)?;
                        Ok(SamplingMessage {
                            role: role_of!($m, m.role),
                            content,
                            meta: if_member!(
                                $m,
                                SamplingMessage,
                                meta,
                                { m.meta.and_then(object_of) },
                                { None }
                            ),
                        })
                    })
                    .collect::<Result<Vec<_>, ReadError>>()?;
                let max_tokens = p.max_tokens.as_u64().and_then(|n| u32::try_from(n).ok());
                let max_tokens = max_tokens
                    .ok_or_else(|| ReadError::new(WHAT, version, "its maxTokens is not a u32"))?;
                #[allow(unused_mut)]
                let mut out = SamplingRequest {
                    messages,
                    max_tokens,
                    system_prompt: p.system_prompt.take(),
                    temperature: p.temperature.as_ref().and_then(serde_json::Number::as_f64),
                    stop_sequences: p.stop_sequences.take().unwrap_or_default(),
                    metadata: p.metadata.take().and_then(object_of),
                    tools: None,
                    tool_choice: None,
                    task: None,
                    meta: None,
                    include_context: p.include_context.take().map(|c| match c {
                        $m::CreateMessageRequestParamsIncludeContext::None => IncludeContext::None,
                        $m::CreateMessageRequestParamsIncludeContext::ThisServer => {
                            IncludeContext::ThisServer
                        }
                        $m::CreateMessageRequestParamsIncludeContext::AllServers => {
                            IncludeContext::AllServers
                        }
                    }),
                    model_preferences: p.model_preferences.take().map(|p| {
                        let priority = |n: Option<serde_json::Number>| n.and_then(|n| n.as_f64());
                        ModelPreferences {
                            hints: p
                                .hints
                                .unwrap_or_default()
                                .into_iter()
                                .filter_map(|h| h.name)
                                .collect(),
                            cost_priority: priority(p.cost_priority),
                            speed_priority: priority(p.speed_priority),
                            intelligence_priority: priority(p.intelligence_priority),
                        }
                    }),
                };
                // Tool use (2025-11-25 on), and `task` and `_meta` where the version has them.
                if_member!(
                    $m,
                    CreateMessageRequestParams,
                    tools,
                    {
                        out.tools = p.tools.map(|t| tools_of(t, version)).transpose()?;
                    },
                    {}
                );
                if_member!(
                    $m,
                    CreateMessageRequestParams,
                    tool_choice,
                    {
                        out.tool_choice = p.tool_choice.map(tool_choice_of);
                    },
                    {}
                );
                if_member!(
                    $m,
                    CreateMessageRequestParams,
                    task,
                    {
                        out.task = p.task.and_then(object_of);
                    },
                    {}
                );
                if_member!(
                    $m,
                    CreateMessageRequestParams,
                    meta,
                    {
                        out.meta = p.meta.and_then(object_of);
                    },
                    {}
                );
                out
            }};
        }
        Ok(by_version!(version, read))
    }
}

/// The [`Form`] of a generated `requestedSchema`.
fn form_of(schema: impl serde::Serialize, version: Version) -> Result<Form, ReadError> {
    const WHAT: &str = "ElicitRequestParams";
    match to_value(schema) {
        Value::Object(schema) => Form::from_schema(&schema)
            .map_err(|e| ReadError::new(WHAT, version, format!("its requestedSchema: {e}"))),
        other => Err(ReadError::new(
            WHAT,
            version,
            format!("its requestedSchema is {other}"),
        )),
    }
}

impl ElicitRequest {
    /// The request a server sent: `text` (the `params` of `elicitation/create` under
    /// `version`) decoded as that version's generated type, then read (the
    /// `requestedSchema` as a [`Form`]).
    ///
    /// ```
    /// use mcpwire_model::{ElicitRequest, Version};
    ///
    /// let text = r#"{"message":"Name?","requestedSchema":{"type":"object",
    ///     "properties":{"name":{"type":"string","default":"Ada"}}}}"#;
    /// let ElicitRequest::Form { form, .. } = ElicitRequest::from_json(text, Version::V2025_11_25).unwrap()
    /// else { panic!("a form") };
    /// assert_eq!(form.fields[0].name, "name");
    /// ```
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        const WHAT: &str = "ElicitRequestParams";
        // From 2025-11-25 a form or a URL, with `_meta` and a URL's `elicitationId` where
        // the version's params have them.
        macro_rules! moded {
            ($m:ident) => {{
                let p: $m::ElicitRequestParams = decode(text, WHAT, version)?;
                match p {
                    $m::ElicitRequestParams::ElicitRequestFormParams(p) => ElicitRequest::Form {
                        meta: if_member!(
                            $m,
                            ElicitRequestFormParams,
                            meta,
                            { p.meta.as_ref().and_then(object_of) },
                            { None }
                        ),
                        form: form_of(p.requested_schema, version)?,
                        message: p.message,
                    },
                    $m::ElicitRequestParams::ElicitRequestURLParams(p) => ElicitRequest::Url {
                        meta: if_member!(
                            $m,
                            ElicitRequestURLParams,
                            meta,
                            { p.meta.as_ref().and_then(object_of) },
                            { None }
                        ),
                        elicitation_id: if_member!(
                            $m,
                            ElicitRequestURLParams,
                            elicitation_id,
                            { Some(p.elicitation_id.clone()) },
                            { None }
                        ),
                        message: p.message,
                        url: p.url,
                    },
                }
            }};
        }
        macro_rules! read {
            // No elicitation before 2025-06-18.
            (v2024_11_05) => {
                return Err(ReadError::new(
                    WHAT,
                    version,
                    "the version has no elicitation",
                ))
            };
            (v2025_03_26) => {
                return Err(ReadError::new(
                    WHAT,
                    version,
                    "the version has no elicitation",
                ))
            };
            // 2025-06-18: a form only, its params not a union.
            (v2025_06_18) => {{
                let p: v2025_06_18::ElicitRequestParams = decode(text, WHAT, version)?;
                ElicitRequest::Form {
                    form: form_of(p.requested_schema, version)?,
                    message: p.message,
                    meta: None,
                }
            }};
            ($m:ident) => {
                moded!($m)
            };
        }
        Ok(by_version!(version, read))
    }
}
