//! # mcpwire-model: the version-neutral MCP model, and every version's wire form of it
//!
//! What an MCP server sends and a client reads, once for every MCP version: content blocks
//! ([`Content`], with [`Annotations`]), tool results ([`ToolResult`]), elicitation forms
//! ([`Form`], derived from Rust types), sampling requests ([`SamplingRequest`]) and what a
//! client answers to them and to elicitations ([`SamplingReply`], [`ElicitAnswer`]), log levels,
//! the changes a server announces ([`Change`]) and the versions themselves ([`Version`]). Each
//! concept's `wire` module converts the model into the generated types of one version (`mcpwire_types::mcp::v…`), which are what gets
//! serialized; what a version cannot carry is an error, never dropped.
//!
//! The other way, what a server sends is read back into the model: the reply's text is
//! decoded as the version's generated type (so what its schema refuses is a [`ReadError`]),
//! then converted: [`ToolResult::from_json`], [`PromptResult::from_json`],
//! [`result::read::read_resource_result`], [`result::wire::CompletionPage::from_json`],
//! [`ToolInfo::from_json`] and [`ToolPage::from_json`] (`tools/list`),
//! [`InitializeReply::from_json`] and [`DiscoverReply::from_json`] (`server/discover`); a
//! client reads what a server asks with [`SamplingRequest::from_json`] and
//! [`ElicitRequest::from_json`], a server reads the answers with
//! [`SamplingReply::from_json`] and [`ElicitAnswer::from_json`].
//! Everything the model can send under a version reads back equal, the `_meta` of a content
//! block and of an embedded resource's contents and a resource link's icons included; what it
//! has no place for (members a schema does not declare) is left behind.
//! Listed resources, templates and prompts ([`ResourceEntry`], [`ResourceTemplateEntry`],
//! [`PromptEntry`]), sampling messages, requests and results, and elicitation requests and
//! results ([`ElicitReply`]) keep every member their version declares, `_meta` included.
//! Sampling with tools (2025-11-25 on: `tools`, `toolChoice`, tool uses, tool results and
//! arrays of blocks, [`SampledContent`]) is modelled; a version without it refuses it by
//! name when written, and a form the model cannot hold is a [`ReadError`].
//!
//! The crate has no runtime and no transport: `mcpwire-server` and `mcpwire-client` build on
//! it, so the two cannot disagree about a shape.
//!
//! ```
//! use mcpwire_model::{Content, ToolResult, Version};
//!
//! let result = ToolResult::content(vec![Content::text("hi")]);
//! let sent = result.try_to_json(Version::V2025_11_25).unwrap();
//! assert_eq!(sent["content"][0]["text"], "hi");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ask;
mod by_version;
pub mod change;
pub mod content;
pub mod form;
pub mod listing;
pub mod logging;
pub mod prompt;
pub mod read_error;
pub mod result;
pub mod schema;
pub mod server_info;
pub mod tool_info;
pub mod version;
pub mod written;

pub use ask::reply::{ElicitAnswer, ElicitReply, SamplingReply};
pub use ask::sampled::{
    SampledBlock, SampledContent, SampledToolResult, SampledToolUse, ToolChoice, ToolChoiceMode,
};
pub use ask::wire::AskError;
pub use ask::{ElicitRequest, IncludeContext, ModelPreferences, SamplingMessage, SamplingRequest};
pub use change::{Change, ListKind};
pub use content::{
    Annotations, Content, ContentError, ContentKind, EmbeddedResource, ResourceContents,
    ResourceLink, Role,
};
pub use form::{Choice, FieldKind, Form, FormError, FormField, TextFormat};
pub use listing::{
    ListPage, PromptArgumentEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry,
};
pub use logging::LogLevel;
pub use prompt::{PromptMessage, PromptResult};
pub use read_error::ReadError;
pub use result::{IntoToolResult, Structured, ToolResult};
pub use schema::{SchemaError, object_schema};
pub use server_info::{
    DiscoverReply, InitializeReply, ListCapability, PeerInfo, ResourcesCapability,
    ServerCapabilitySet,
};
pub use tool_info::{SchemaText, ToolHints, ToolInfo, ToolPage};
pub use version::{Feature, Version};
pub use written::{Unwritten, Written};
