//! What a sampled message holds: one block or (from 2025-11-25) an array of blocks, each a
//! content block (text, image, audio), a tool use the model asks for, or the result of one;
//! and how a server lets the model use tools (`toolChoice`). `ask/sampled_wire.rs` converts them
//! into each version's generated types.

use serde_json::{Map, Value};

use crate::content::{Content, ContentKind};

/// The model asking to call a tool (`ToolUseContent`, from 2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub struct SampledToolUse {
    /// The id its result names (`toolUseId`).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments.
    pub input: Map<String, Value>,
    /// `_meta`, kept so that a later request can repeat it.
    pub meta: Option<Map<String, Value>>,
}

/// The result of a tool use, given back to the model (`ToolResultContent`, from 2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub struct SampledToolResult {
    /// The id of the tool use it answers.
    pub tool_use_id: String,
    /// The result's blocks, as a tool call's result holds them.
    pub content: Vec<Content>,
    /// The structured result (an object under 2025-11-25, any value under 2026-07-28).
    pub structured_content: Option<Value>,
    /// Whether the tool failed (`isError`), when said.
    pub is_error: Option<bool>,
    /// `_meta`, kept so that a later request can repeat it.
    pub meta: Option<Map<String, Value>>,
}

/// One block of a sampled message.
#[derive(Debug, Clone, PartialEq)]
pub enum SampledBlock {
    /// Text, an image or audio.
    Content(Content),
    /// A tool use (from 2025-11-25).
    ToolUse(SampledToolUse),
    /// A tool result (from 2025-11-25).
    ToolResult(SampledToolResult),
}

/// The content of a sampled message: one block, or an array of blocks (from 2025-11-25).
// One block is what every version sends and most messages hold; boxing it to match the
// array's size would make each of them a second allocation and every caller write `Box`.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SampledContent {
    /// One block, sent as an object.
    Block(SampledBlock),
    /// Several blocks, sent as an array.
    Blocks(Vec<SampledBlock>),
}

impl From<Content> for SampledContent {
    fn from(content: Content) -> Self {
        SampledContent::Block(SampledBlock::Content(content))
    }
}

impl From<SampledBlock> for SampledContent {
    fn from(block: SampledBlock) -> Self {
        SampledContent::Block(block)
    }
}

impl SampledContent {
    /// Its blocks, in order (one for [`SampledContent::Block`]).
    pub fn blocks(&self) -> &[SampledBlock] {
        match self {
            SampledContent::Block(block) => std::slice::from_ref(block),
            SampledContent::Blocks(blocks) => blocks,
        }
    }

    /// The content block, when this is a single text, image or audio block.
    pub fn content(&self) -> Option<&Content> {
        match self {
            SampledContent::Block(SampledBlock::Content(content)) => Some(content),
            _ => None,
        }
    }

    /// The text, when this is a single text block.
    pub fn text(&self) -> Option<&str> {
        match &self.content()?.kind {
            ContentKind::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The tool uses among its blocks.
    pub fn tool_uses(&self) -> impl Iterator<Item = &SampledToolUse> {
        self.blocks().iter().filter_map(|block| match block {
            SampledBlock::ToolUse(used) => Some(used),
            _ => None,
        })
    }
}

/// How the model may use the tools of a sampling request (`ToolChoice.mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolChoiceMode {
    /// The model decides (the default).
    Auto,
    /// The model must use at least one tool.
    Required,
    /// The model must not use tools.
    None,
}

/// A sampling request's `toolChoice` (from 2025-11-25).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolChoice {
    /// The mode, when said (`{}` leaves it to the default, `auto`).
    pub mode: Option<ToolChoiceMode>,
}
