//! # mcpwire-model: the version-neutral MCP model, and every version's wire form of it
//!
//! What an MCP server sends and a client reads, once for every MCP version: content blocks
//! ([`Content`], with [`Annotations`]), tool results ([`ToolResult`]), elicitation forms
//! ([`Form`], derived from Rust types), sampling requests ([`SamplingRequest`]), log levels
//! and the versions themselves ([`Version`]). Each `*_wire` module converts the model into
//! the generated types of one version (`mcpwire_types::mcp::v…`), which are what gets
//! serialized; what a version cannot carry is an error, never dropped.
//!
//! The crate has no runtime and no transport: `mcpwire-server` builds on it, and so can a
//! client.
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
pub mod ask_wire;
pub mod content;
pub mod content_wire;
pub mod form;
mod form_derive;
mod form_wire;
pub mod logging;
pub mod result;
pub mod result_wire;
pub mod schema;
pub mod version;

pub use ask::{ElicitRequest, IncludeContext, ModelPreferences, SamplingMessage, SamplingRequest};
pub use ask_wire::AskError;
pub use content::{
    Annotations, Content, ContentError, ContentKind, EmbeddedResource, ResourceContents,
    ResourceLink, Role,
};
pub use form::{Choice, FieldKind, Form, FormError, FormField, TextFormat};
pub use logging::LogLevel;
pub use result::{IntoToolResult, Structured, ToolResult};
pub use schema::{SchemaError, object_schema};
pub use version::{Feature, Version};
