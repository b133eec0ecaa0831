//! Where the typed decode spends its time, measured piece by piece so the report can say what
//! limits it instead of guessing:
//!
//! - [`Pieces`] (criterion group `typed_breakdown`): the 100 KB `resources/read` result, whose
//!   one `TextResourceContents` carries about 100 KB of text with a JSON escape every few dozen
//!   bytes; the pieces are cut from that same frame.
//! - [`ToolsListPieces`] (group `typed_breakdown_tools_list`): the 5 KB `tools/list` result of
//!   fourteen tools, split into serde_json's parse of the text, the `properties` maps of the
//!   tools' input schemas, and the heap work of the owned result.

use mcpwire_types::mcp::v2025_11_25 as generated;
use mcpwire_types::support::fast_json;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::messages;

/// The measured steps: (criterion function id, what it measures).
pub const STEPS: [(&str, &str); 7] = [
    (
        "envelope",
        "mcpwire envelope decode of the whole frame (validates every byte)",
    ),
    (
        "result_typed",
        "serde_json: the `result` text into the generated `ReadResourceResult`",
    ),
    (
        "result_fast",
        "fast_json: the `result` text into the generated `ReadResourceResult`",
    ),
    (
        "text_string",
        "serde_json: the `text` member's literal alone into a `String`",
    ),
    (
        "text_fast",
        "fast_json: the `text` member's literal alone into a `String`",
    ),
    (
        "item_union",
        "serde_json: the contents item into the generated union (captures its raw text, then decodes `TextResourceContents` from it)",
    ),
    (
        "item_direct",
        "serde_json: the contents item straight into `TextResourceContents` (no union)",
    ),
];

/// The frame and the texts cut from it.
#[derive(Debug, Clone)]
pub struct Pieces {
    /// The whole `resources/read` response frame.
    pub frame: String,
    /// The `result` member's text.
    pub result: String,
    /// The one element of `result.contents`.
    pub item: String,
    /// The `text` member's string literal, quotes included.
    pub text: String,
}

/// The text of the `result` member of a response `frame` of the suite.
fn result_text(frame: &str) -> String {
    serde_json::from_str::<Frame>(frame)
        .expect("the frame has a result")
        .result
        .get()
        .to_owned()
}

#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(borrow)]
    result: &'a RawValue,
}

#[derive(Deserialize)]
struct Contents<'a> {
    #[serde(borrow)]
    contents: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct Text<'a> {
    #[serde(borrow)]
    text: &'a RawValue,
}

impl Pieces {
    /// The pieces of the suite's `resources_read_100k` frame.
    pub fn resources_read_100k() -> Self {
        let frame = messages::resources_read_result(100 * 1024);
        let result = result_text(&frame);
        let item = serde_json::from_str::<Contents>(&result)
            .expect("the result has contents")
            .contents
            .first()
            .expect("one contents item")
            .get()
            .to_owned();
        let text = serde_json::from_str::<Text>(&item)
            .expect("the item has text")
            .text
            .get()
            .to_owned();
        Self {
            frame,
            result,
            item,
            text,
        }
    }

    /// Runs one step (a `STEPS` id); `false` for an unknown id or a failed decode.
    pub fn run(&self, step: &str) -> bool {
        match step {
            "envelope" => matches!(
                crate::contenders::mcpwire_envelope(self.frame.as_bytes()),
                mcpwire::Decoded::Single(mcpwire::Message::Response(_))
            ),
            "result_typed" => {
                serde_json::from_str::<generated::ReadResourceResult>(&self.result).is_ok()
            }
            "result_fast" => {
                fast_json::try_from_str::<generated::ReadResourceResult>(&self.result).is_some()
            }
            "text_string" => serde_json::from_str::<String>(&self.text).is_ok(),
            "text_fast" => fast_json::try_from_str::<String>(&self.text).is_some(),
            "item_union" => {
                serde_json::from_str::<generated::ReadResourceResultContentsItem>(&self.item)
                    .is_ok()
            }
            "item_direct" => {
                serde_json::from_str::<generated::TextResourceContents>(&self.item).is_ok()
            }
            _ => false,
        }
    }
}

/// The measured steps of the `tools/list` breakdown: (criterion function id, what it measures).
pub const TOOLS_LIST_STEPS: [(&str, &str); 6] = [
    (
        "result_floor",
        "serde_json: the `result` text into `IgnoredAny` (the parse alone)",
    ),
    (
        "result_typed",
        "serde_json: the `result` text into the generated `ListToolsResult`, then dropped",
    ),
    (
        "result_fast",
        "fast_json: the `result` text into the generated `ListToolsResult`, then dropped",
    ),
    (
        "properties_map",
        "serde_json: the fourteen `properties` texts into `JsonObjectMap` (captured, members checked), dropped",
    ),
    (
        "properties_object",
        "serde_json: the same texts into `JsonObject` (captured only), dropped",
    ),
    (
        "result_clone",
        "the decoded `ListToolsResult` cloned and dropped: the same owned strings and vectors, allocated and freed, without parsing",
    ),
];

/// The 5 KB `tools/list` result and the texts cut from it.
#[derive(Debug, Clone)]
pub struct ToolsListPieces {
    /// The `result` member's text.
    pub result: String,
    /// Each tool's `inputSchema.properties` text.
    pub properties: Vec<String>,
    /// The result decoded once, for the clone step.
    pub decoded: generated::ListToolsResult,
}

impl ToolsListPieces {
    /// The pieces of the suite's `tools_list_result` frame.
    pub fn tools_list_result() -> Self {
        let frame = messages::tools_list_result();
        let result = result_text(&frame);
        let decoded = serde_json::from_str::<generated::ListToolsResult>(&result)
            .expect("the result is a ListToolsResult");
        let properties = decoded
            .tools
            .iter()
            .filter_map(|tool| tool.input_schema.properties.as_ref())
            .map(|map| map.text().to_owned())
            .collect();
        Self {
            result,
            properties,
            decoded,
        }
    }

    /// Runs one step (a `TOOLS_LIST_STEPS` id); `false` for an unknown id or a failed decode.
    pub fn run(&self, step: &str) -> bool {
        match step {
            "result_floor" => serde_json::from_str::<serde::de::IgnoredAny>(&self.result).is_ok(),
            "result_typed" => {
                serde_json::from_str::<generated::ListToolsResult>(&self.result).is_ok()
            }
            "result_fast" => {
                fast_json::try_from_str::<generated::ListToolsResult>(&self.result).is_some()
            }
            "properties_map" => self
                .properties
                .iter()
                .all(|text| serde_json::from_str::<mcpwire_types::JsonObjectMap>(text).is_ok()),
            "properties_object" => self
                .properties
                .iter()
                .all(|text| serde_json::from_str::<mcpwire_types::JsonObject>(text).is_ok()),
            "result_clone" => {
                let copy = std::hint::black_box(self.decoded.clone());
                copy.tools.len() == self.decoded.tools.len()
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_decodes_its_piece() {
        let pieces = Pieces::resources_read_100k();
        assert!(pieces.text.len() > 100 * 1024 && pieces.text.contains("\\n"));
        for (step, _) in STEPS {
            assert!(pieces.run(step), "step {step} failed");
        }
        assert!(!pieces.run("no such step"));
    }

    #[test]
    fn every_tools_list_step_runs_on_its_piece() {
        let pieces = ToolsListPieces::tools_list_result();
        assert_eq!(pieces.decoded.tools.len(), 14);
        assert_eq!(pieces.properties.len(), 14);
        assert!(
            pieces
                .properties
                .iter()
                .all(|text| text.contains(r#""query""#))
        );
        for (step, _) in TOOLS_LIST_STEPS {
            assert!(pieces.run(step), "step {step} failed");
        }
        assert!(!pieces.run("no such step"));
    }
}
