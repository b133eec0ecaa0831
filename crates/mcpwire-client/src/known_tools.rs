//! What the client keeps of the tools a server listed, to check their calls: each tool's
//! `outputSchema` (its results are checked against it) and, over HTTP, the parameters its
//! `inputSchema` mirrors in headers (MCP 2026-07-28).
//!
//! Only that is kept, not the whole listed tool, and the schemas as their text
//! ([`SchemaText`]): the output schema is parsed the first time a result is checked against
//! it, then kept parsed with the tool; the input schema is parsed only when its text can
//! declare a header ([`crate::tool_headers::declared`]). A tool listed again as it was (the
//! same texts) is left as it is, so listing the same tools again copies and parses nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

#[cfg(feature = "http")]
use mcpwire::http::ParamHeader;
use mcpwire_model::{SchemaText, ToolInfo};

/// What the client remembers of one listed tool.
#[derive(Debug, PartialEq)]
pub(crate) struct KnownTool {
    /// Its `outputSchema`, as listed.
    pub(crate) output_schema: Option<SchemaText>,
    /// Its `inputSchema`, as listed (to tell whether a tool listed again changed).
    #[cfg(feature = "http")]
    input_schema: SchemaText,
    /// The parameters its `inputSchema` mirrors in `Mcp-Param-*` headers (none when the
    /// declarations are invalid: such a tool is not listed under 2026-07-28).
    #[cfg(feature = "http")]
    pub(crate) param_headers: Vec<ParamHeader>,
}

impl KnownTool {
    /// What to remember of `tool`.
    fn of(tool: &ToolInfo) -> Self {
        Self {
            output_schema: tool.output_schema.clone(),
            #[cfg(feature = "http")]
            input_schema: tool.input_schema.clone(),
            #[cfg(feature = "http")]
            param_headers: crate::tool_headers::declared(&tool.input_schema).unwrap_or_default(),
        }
    }

    /// Whether `tool` is listed as this was remembered: the same schema texts.
    fn is(&self, tool: &ToolInfo) -> bool {
        #[cfg(feature = "http")]
        if self.input_schema.as_str() != tool.input_schema.as_str() {
            return false;
        }
        match (&self.output_schema, &tool.output_schema) {
            (Some(known), Some(listed)) => known.as_str() == listed.as_str(),
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

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = r#"{"type":"object","properties":{"sum":{"type":"integer"}}}"#;

    fn tool(output: &str) -> ToolInfo {
        let input = SchemaText::from_text(r#"{"type":"object"}"#).expect("an object");
        ToolInfo {
            output_schema: Some(SchemaText::from_text(output).expect("an object")),
            ..ToolInfo::new("t", input)
        }
    }

    #[test]
    fn a_tool_listed_again_as_it_was_keeps_its_schema_parsed_once() {
        let cache = ToolCache::default();
        cache.remember(&[tool(OUTPUT)]);
        let known = cache.get("t").expect("remembered");
        let schema = known.output_schema.as_ref().expect("an output schema");
        assert!(
            !schema.is_parsed(),
            "parsed when first checked, not when listed"
        );
        let parsed: *const serde_json::Value = schema.value().expect("parses");
        // Listed again, the same text: what is known stays, parsed tree and all.
        cache.remember(&[tool(OUTPUT)]);
        let again = cache.get("t").expect("remembered");
        assert!(Arc::ptr_eq(&known, &again));
        let schema = again.output_schema.as_ref().expect("an output schema");
        assert!(std::ptr::eq(parsed, schema.value().expect("parses")));
        // Listed otherwise (even spelled otherwise): remembered anew, as listed.
        let spaced = OUTPUT.replace(',', ", ");
        cache.remember(&[tool(&spaced)]);
        let changed = cache.get("t").expect("remembered");
        assert!(!Arc::ptr_eq(&known, &changed));
        let schema = changed.output_schema.as_ref().expect("an output schema");
        assert_eq!(schema.as_str(), spaced);
    }
}
