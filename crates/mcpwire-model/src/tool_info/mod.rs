//! A tool as `tools/list` describes it, version-neutral: name, title, description, its
//! input and output schemas (kept whole, as the JSON text the server wrote: `$schema`,
//! `$defs` and `$ref` untouched, never dereferenced, parsed only when looked inside; see
//! [`SchemaText`]), its behaviour hints, icons, `execution` and `_meta`. Servers list their
//! tools with it and clients read listings into it.

pub mod schema_text;
pub(crate) mod wire;

pub use schema_text::SchemaText;

use serde_json::{Map, Value};

use crate::content::ContentError;
use crate::read_error::ReadError;
use crate::tool_info::wire::{list_tools_result, read_list_tools_result, read_tool, tool_json};
use crate::version::Version;

/// Hints about a tool's behaviour (`ToolAnnotations`, from 2025-03-26). A client must not
/// trust them from a server it does not trust.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// A human-readable title.
    pub title: Option<String>,
    /// The tool does not change its environment.
    pub read_only: Option<bool>,
    /// The tool may destroy or overwrite (meaningful when not read-only).
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    pub idempotent: Option<bool>,
    /// The tool reaches an open world of entities (the web), not a closed one.
    pub open_world: Option<bool>,
}

/// One tool of a `tools/list` result.
///
/// ```
/// use mcpwire_model::{ToolInfo, Version};
///
/// let text = r#"{"inputSchema":{"required":["a"],"type":"object"},"name":"add"}"#;
/// let tool = ToolInfo::from_json(text, Version::V2024_11_05).unwrap();
/// assert_eq!(tool.name, "add");
/// assert_eq!(tool.input_schema["required"][0], "a");
/// assert_eq!(tool.to_json(Version::V2024_11_05).unwrap().to_string(), text);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    /// The name `tools/call` takes.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What the tool does.
    pub description: Option<String>,
    /// The JSON Schema of its arguments (`type: "object"` at the root), as its JSON text.
    pub input_schema: SchemaText,
    /// The JSON Schema of its `structuredContent` (from 2025-06-18), as its JSON text.
    pub output_schema: Option<SchemaText>,
    /// Behaviour hints (from 2025-03-26).
    pub hints: Option<ToolHints>,
    /// Icons a client may show (from 2025-11-25), each `Icon` object as sent (`src`,
    /// `mimeType`, `sizes`, `theme`).
    pub icons: Option<Vec<Map<String, Value>>>,
    /// How the tool runs (`ToolExecution`, 2025-11-25 only: `taskSupport`), as sent.
    pub execution: Option<Map<String, Value>>,
    /// `_meta` (from 2025-06-18), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl ToolInfo {
    /// A tool named `name` whose arguments `input_schema` describes (a [`SchemaText`], or a
    /// `serde_json::Map` of its members), nothing else set.
    pub fn new(name: impl Into<String>, input_schema: impl Into<SchemaText>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            input_schema: input_schema.into(),
            output_schema: None,
            hints: None,
            icons: None,
            execution: None,
            meta: None,
        }
    }

    /// The `Tool` of `version`, serialized from its generated type, or the member the
    /// version lacks (a title, output schema or `_meta` before 2025-06-18, hints before
    /// 2025-03-26, icons before 2025-11-25, `execution` outside 2025-11-25) or a schema or
    /// object its generated type refuses.
    pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
        tool_json(self, version)
    }

    /// The tool a server listed: `text` (one `Tool` of `version`) decoded as that version's
    /// generated type, then read: every member the version declares is kept (the schemas as
    /// their text, exactly as in `text`; icons, `execution` and `_meta` as JSON objects);
    /// undeclared members are left behind.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_tool(text, version)
    }
}

/// One page of `tools/list`: the tools and the cursor of the next page, if any.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolPage {
    /// The tools of this page.
    pub tools: Vec<ToolInfo>,
    /// The `cursor` that asks for the next page.
    pub next_cursor: Option<String>,
}

impl ToolPage {
    /// The `ListToolsResult` of `version`, serialized from its generated type (2026-07-28:
    /// `complete`, cacheable for 0 ms by anyone, since tools can change while serving).
    pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
        list_tools_result(self, version)
    }

    /// [`to_json`](Self::to_json) as the result's JSON text, written once from the
    /// generated type (no [`Value`] in between; the same bytes as the value's).
    pub fn to_text(
        &self,
        version: Version,
    ) -> Result<Box<serde_json::value::RawValue>, ContentError> {
        list_tools_result(self, version)
    }

    /// The page a server sent: `text` (a `ListToolsResult` of `version`) decoded as that
    /// version's generated type, then read (each tool's schemas kept as their text in
    /// `text`, not parsed).
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_list_tools_result(text, version)
    }
}
