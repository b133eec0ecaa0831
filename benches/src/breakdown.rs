//! Where the typed decode of the 100 KB `resources/read` result spends its time: the pieces of
//! `mcpwire_typed_2025_11_25` on that frame, measured one by one (criterion group
//! `typed_breakdown`), so the report can say what limits it instead of guessing.
//!
//! The frame's one `TextResourceContents` carries about 100 KB of text with a JSON escape every
//! few dozen bytes; the pieces are cut from that same frame.

use mcpwire_types::mcp::v2025_11_25 as generated;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::messages;

/// The measured steps: (criterion function id, what it measures).
pub const STEPS: [(&str, &str); 5] = [
    (
        "envelope",
        "mcpwire envelope decode of the whole frame (validates every byte)",
    ),
    (
        "result_typed",
        "serde_json: the `result` text into the generated `ReadResourceResult`",
    ),
    (
        "text_string",
        "serde_json: the `text` member's literal alone into a `String`",
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
        let result = serde_json::from_str::<Frame>(&frame)
            .expect("the frame has a result")
            .result
            .get()
            .to_owned();
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
            "text_string" => serde_json::from_str::<String>(&self.text).is_ok(),
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
}
