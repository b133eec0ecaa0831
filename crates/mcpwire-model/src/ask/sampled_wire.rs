//! Sampled content and sampling tools on the wire, both ways: a [`SampledContent`] as the
//! `SamplingMessageContent` / `CreateMessageResultContent` of each version from 2025-11-25
//! (tool uses, tool results, arrays of blocks), built from and read into the generated
//! types; before 2025-11-25 only a single text, image or audio block, anything else an
//! [`AskError`]. Also `tools`, `toolChoice`, `metadata` and `task` of a sampling request.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::ask::sampled::{
    SampledBlock, SampledContent, SampledToolResult, SampledToolUse, ToolChoice, ToolChoiceMode,
};
use crate::ask::wire::{AskError, lacking, refused};
use crate::content::Content;
use crate::content::read::{ReadBlock, object, read_block};
use crate::content::wire::{BlockTo, as_generated, block_to, to_value};
use crate::read_error::ReadError;
use crate::tool_info::ToolInfo;
use crate::tool_info::wire::{read_tool, tool_json};
use crate::version::Version;

/// The single text, image or audio block of `content`, which is all a sampled message of a
/// version before 2025-11-25 can hold.
pub(crate) fn single_block(
    content: &SampledContent,
    version: Version,
) -> Result<&Content, AskError> {
    match content {
        SampledContent::Block(SampledBlock::Content(content)) => Ok(content),
        SampledContent::Block(SampledBlock::ToolUse(_)) => {
            Err(lacking("a tool use in a sampled message", version))
        }
        SampledContent::Block(SampledBlock::ToolResult(_)) => {
            Err(lacking("a tool result in a sampled message", version))
        }
        SampledContent::Blocks(_) => Err(lacking("an array of sampled blocks", version)),
    }
}

fn tool_use_json(used: &SampledToolUse) -> Value {
    let mut out = json!({
        "type": "tool_use", "id": used.id, "name": used.name, "input": used.input,
    });
    if let Some(meta) = &used.meta {
        out["_meta"] = Value::Object(meta.clone());
    }
    out
}

fn tool_result_json(result: &SampledToolResult, content: Vec<Value>) -> Value {
    let mut out = json!({
        "type": "tool_result", "toolUseId": result.tool_use_id, "content": content,
    });
    if let Some(structured) = &result.structured_content {
        out["structuredContent"] = structured.clone();
    }
    if let Some(is_error) = result.is_error {
        out["isError"] = Value::Bool(is_error);
    }
    if let Some(meta) = &result.meta {
        out["_meta"] = Value::Object(meta.clone());
    }
    out
}

/// A generated `ToolUseContent`, serialized, as the model holds it.
fn tool_use_of(value: Value) -> SampledToolUse {
    let mut o = object(value).unwrap_or_default();
    let text = |v: Option<Value>| match v {
        Some(Value::String(s)) => s,
        _ => String::new(),
    };
    SampledToolUse {
        id: text(o.remove("id")),
        name: text(o.remove("name")),
        input: o.remove("input").and_then(object).unwrap_or_default(),
        meta: o.remove("_meta").and_then(object),
    }
}

/// A version's union of what a sampling message or a sampling result holds
/// (`SamplingMessageContent`, `CreateMessageResultContent`), built from [`SampledContent`].
pub(crate) trait SampledTo: Sized {
    /// The union's value for `content` under `version`, or what the version cannot carry.
    fn sampled_to(content: &SampledContent, version: Version) -> Result<Self, AskError>;
}

/// The same unions read back as [`SampledContent`].
pub(crate) trait SampledOf {
    /// The model's content of this value, sent under `version`.
    fn sampled_of(self, version: Version) -> Result<SampledContent, ReadError>;
}

/// [`SampledTo`] and [`SampledOf`] for the sampled unions of a version with tool use
/// (2025-11-25 on): blocks, tool uses, tool results and arrays of them.
macro_rules! sampled_wire {
    ($m:ident) => {
        const _: () = {
            fn to_block(
                block: &SampledBlock,
                v: Version,
            ) -> Result<$m::SamplingMessageContentBlock, AskError> {
                use $m::{ContentBlock as C, SamplingMessageContentBlock as S};
                Ok(match block {
                    SampledBlock::Content(content) => match block_to(v)(content)? {
                        C::TextContent(b) => S::TextContent(b),
                        C::ImageContent(b) => S::ImageContent(b),
                        C::AudioContent(b) => S::AudioContent(b),
                        C::EmbeddedResource(_) => {
                            return Err(lacking("`resource` content in a sampled message", v));
                        }
                        C::ResourceLink(_) => {
                            return Err(lacking("`resource_link` content in a sampled message", v));
                        }
                    },
                    SampledBlock::ToolUse(used) => S::ToolUseContent(
                        as_generated(&tool_use_json(used), "a tool use", v).map_err(refused)?,
                    ),
                    SampledBlock::ToolResult(result) => {
                        let content = result
                            .content
                            .iter()
                            .map(|c| block_to::<$m::ContentBlock>(v)(c).map(to_value))
                            .collect::<Result<Vec<_>, _>>()?;
                        let json = tool_result_json(result, content);
                        S::ToolResultContent(
                            as_generated(&json, "a tool result", v).map_err(refused)?,
                        )
                    }
                })
            }

            impl SampledTo for $m::SamplingMessageContent {
                fn sampled_to(content: &SampledContent, v: Version) -> Result<Self, AskError> {
                    sampled_wire!(@to $m, SamplingMessageContent, content, v)
                }
            }

            impl SampledTo for $m::CreateMessageResultContent {
                fn sampled_to(content: &SampledContent, v: Version) -> Result<Self, AskError> {
                    sampled_wire!(@to $m, CreateMessageResultContent, content, v)
                }
            }

            fn of_block(
                block: $m::SamplingMessageContentBlock,
                v: Version,
            ) -> Result<SampledBlock, ReadError> {
                use $m::{ContentBlock as C, SamplingMessageContentBlock as S};
                Ok(match block {
                    S::TextContent(b) => SampledBlock::Content(read_block(v)(C::TextContent(b))?),
                    S::ImageContent(b) => SampledBlock::Content(read_block(v)(C::ImageContent(b))?),
                    S::AudioContent(b) => SampledBlock::Content(read_block(v)(C::AudioContent(b))?),
                    S::ToolUseContent(b) => SampledBlock::ToolUse(tool_use_of(to_value(b))),
                    S::ToolResultContent(b) => SampledBlock::ToolResult(SampledToolResult {
                        content: b
                            .content
                            .into_iter()
                            .map(read_block(v))
                            .collect::<Result<Vec<_>, _>>()?,
                        structured_content: b.structured_content.map(to_value),
                        is_error: b.is_error,
                        meta: b.meta.map(to_value).and_then(object),
                        tool_use_id: b.tool_use_id,
                    }),
                })
            }

            impl SampledOf for $m::SamplingMessageContent {
                fn sampled_of(self, v: Version) -> Result<SampledContent, ReadError> {
                    sampled_wire!(@of $m, SamplingMessageContent, self, v)
                }
            }

            impl SampledOf for $m::CreateMessageResultContent {
                fn sampled_of(self, v: Version) -> Result<SampledContent, ReadError> {
                    sampled_wire!(@of $m, CreateMessageResultContent, self, v)
                }
            }
        };
    };
    (@to $m:ident, $union:ident, $content:expr, $v:expr) => {{
        use $m::{SamplingMessageContentBlock as S, $union as U};
        Ok(match $content {
            SampledContent::Block(block) => match to_block(block, $v)? {
                S::TextContent(b) => U::TextContent(b),
                S::ImageContent(b) => U::ImageContent(b),
                S::AudioContent(b) => U::AudioContent(b),
                S::ToolUseContent(b) => U::ToolUseContent(b),
                S::ToolResultContent(b) => U::ToolResultContent(b),
            },
            SampledContent::Blocks(blocks) => U::Array(
                blocks
                    .iter()
                    .map(|b| to_block(b, $v))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        })
    }};
    (@of $m:ident, $union:ident, $content:expr, $v:expr) => {{
        use $m::{SamplingMessageContentBlock as S, $union as U};
        let one = |b| of_block(b, $v).map(SampledContent::Block);
        match $content {
            U::TextContent(b) => one(S::TextContent(b)),
            U::ImageContent(b) => one(S::ImageContent(b)),
            U::AudioContent(b) => one(S::AudioContent(b)),
            U::ToolUseContent(b) => one(S::ToolUseContent(b)),
            U::ToolResultContent(b) => one(S::ToolResultContent(b)),
            U::Array(blocks) => Ok(SampledContent::Blocks(
                blocks
                    .into_iter()
                    .map(|b| of_block(b, $v))
                    .collect::<Result<Vec<_>, _>>()?,
            )),
        }
    }};
}

sampled_wire!(v2025_11_25);
sampled_wire!(v2026_07_28);

/// What a sampling message or a sampling result holds under a version before 2025-11-25:
/// one block of its own union `$m::$union`, converted through the version's block union
/// `$m::$source` (whose blocks it shares); a block it has no variant for is refused with
/// `$not`, and read back it is a [`ReadError`] of `$what`.
macro_rules! single_sampled {
    ($m:ident :: $union:ident, $source:ident, $not:expr, $what:expr, [$($variant:ident),*]) => {
        impl SampledTo for $m::$union {
            fn sampled_to(content: &SampledContent, v: Version) -> Result<Self, AskError> {
                let block: $m::$source = BlockTo::block_to(single_block(content, v)?, v)?;
                #[allow(unreachable_patterns)]
                Ok(match block {
                    $($m::$source::$variant(b) => $m::$union::$variant(b),)*
                    other => return Err(lacking(format!($not, block_kind(other.variant_name())), v)),
                })
            }
        }

        impl SampledOf for $m::$union {
            fn sampled_of(self, v: Version) -> Result<SampledContent, ReadError> {
                #[allow(unreachable_patterns)]
                let block = match self {
                    $($m::$union::$variant(b) => $m::$source::$variant(b),)*
                    other => {
                        return Err(ReadError::new(
                            $what,
                            v,
                            format!("its {} content has no place in the model", other.variant_name()),
                        ));
                    }
                };
                Ok(block.read_block(v)?.into())
            }
        }
    };
}

/// The `type` of a content block variant, as errors name it.
fn block_kind(variant: &str) -> &str {
    match variant {
        "EmbeddedResource" => "resource",
        "ResourceLink" => "resource_link",
        "AudioContent" => "audio",
        "ImageContent" => "image",
        _ => "text",
    }
}

/// `{kind}` in a sampling request's message, and in a sampling result.
macro_rules! single_sampled_both {
    ($m:ident, $source:ident, [$($variant:ident),*]) => {
        single_sampled!($m::SamplingMessageContent, $source,
            "`{}` content in a sampling message", "CreateMessageRequestParams", [$($variant),*]);
        single_sampled!($m::CreateMessageResultContent, $source,
            "`{}` content in a sampled message", "CreateMessageResult", [$($variant),*]);
    };
}

single_sampled_both!(
    v2024_11_05,
    CallToolResultContentItem,
    [TextContent, ImageContent]
);
single_sampled_both!(
    v2025_03_26,
    CallToolResultContentItem,
    [TextContent, ImageContent, AudioContent]
);
single_sampled_both!(
    v2025_06_18,
    ContentBlock,
    [TextContent, ImageContent, AudioContent]
);

/// The sampling request's tools as the version's generated `Tool`s.
pub(crate) fn tools_to<T: DeserializeOwned>(
    tools: &[ToolInfo],
    version: Version,
) -> Result<Vec<T>, AskError> {
    tools
        .iter()
        .map(|tool| as_generated(&tool_json(tool, version)?, "a tool", version).map_err(refused))
        .collect()
}

/// The generated `Tool`s of a sampling request, read as the model's.
pub(crate) fn tools_of<T: serde::Serialize>(
    tools: Vec<T>,
    version: Version,
) -> Result<Vec<ToolInfo>, ReadError> {
    tools
        .into_iter()
        .map(|tool| read_tool(&to_value(tool).to_string(), version))
        .collect()
}

/// A `toolChoice` as the version's generated `ToolChoice`.
pub(crate) fn tool_choice_to<T: DeserializeOwned>(
    choice: &ToolChoice,
    version: Version,
) -> Result<T, AskError> {
    let mode = choice.mode.map(|mode| match mode {
        ToolChoiceMode::Auto => "auto",
        ToolChoiceMode::Required => "required",
        ToolChoiceMode::None => "none",
    });
    let value = match mode {
        Some(mode) => json!({ "mode": mode }),
        None => json!({}),
    };
    as_generated(&value, "a toolChoice", version).map_err(refused)
}

/// A generated `ToolChoice`, serialized, as the model holds it.
pub(crate) fn tool_choice_of(choice: impl serde::Serialize) -> ToolChoice {
    let mode = match to_value(choice).get("mode").and_then(Value::as_str) {
        Some("auto") => Some(ToolChoiceMode::Auto),
        Some("required") => Some(ToolChoiceMode::Required),
        Some("none") => Some(ToolChoiceMode::None),
        _ => None,
    };
    ToolChoice { mode }
}
