//! What the client keeps of the tools a server listed, to check their calls: each tool's
//! `outputSchema` (its results are checked against it) and, over HTTP, the parameters its
//! `inputSchema` mirrors in headers (MCP 2026-07-28).
//!
//! Only that is kept, not the whole listed tool: a listing hands its tools to the caller, and
//! a copy of every schema (descriptions, enums, nested objects) for the cache cost as much as
//! reading the page. A tool listed again as it was is left as it is, so listing the same
//! tools again copies nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

#[cfg(feature = "http")]
use mcpwire::http::{ParamHeader, param_headers};
use mcpwire_model::ToolInfo;
use serde_json::Value;

/// What the client remembers of one listed tool.
#[derive(Debug, PartialEq)]
pub(crate) struct KnownTool {
    /// Its `outputSchema`, as the JSON value the check takes.
    pub(crate) output_schema: Option<Value>,
    /// The parameters its `inputSchema` mirrors in `Mcp-Param-*` headers (none when the
    /// declarations are invalid: such a tool is not listed under 2026-07-28).
    #[cfg(feature = "http")]
    pub(crate) param_headers: Vec<ParamHeader>,
}

impl KnownTool {
    /// What to remember of `tool`.
    fn of(tool: &ToolInfo) -> Self {
        Self {
            output_schema: tool.output_schema.clone().map(Value::Object),
            #[cfg(feature = "http")]
            param_headers: param_headers(&tool.input_schema).unwrap_or_default(),
        }
    }

    /// Whether `tool` is listed as this was remembered.
    fn is(&self, tool: &ToolInfo) -> bool {
        #[cfg(feature = "http")]
        if param_headers(&tool.input_schema).unwrap_or_default() != self.param_headers {
            return false;
        }
        match (&self.output_schema, &tool.output_schema) {
            (Some(Value::Object(known)), Some(listed)) => known == listed,
            (None, None) => true,
            _ => false,
        }
    }
}

/// The tools the client saw in `tools/list`, by name.
#[derive(Default)]
pub(crate) struct ToolCache(Mutex<HashMap<String, Arc<KnownTool>>>);

impl ToolCache {
    /// Remembers every tool of a listed page (a tool listed again replaces what was known
    /// of it, unless it is unchanged).
    pub(crate) fn remember(&self, tools: &[ToolInfo]) {
        let mut cache = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for tool in tools {
            match cache.get(&tool.name) {
                Some(known) if known.is(tool) => {}
                _ => {
                    cache.insert(tool.name.clone(), Arc::new(KnownTool::of(tool)));
                }
            }
        }
    }

    /// What is known of `name`, if listed.
    pub(crate) fn get(&self, name: &str) -> Option<Arc<KnownTool>> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .cloned()
    }
}
