//! The crate's own small JSON reader: strict, iterative, and loss-free for ids.
//!
//! `serde_json::Value` cannot serve as the oracle's reader: it recurses (and gives up
//! at 128 levels), keeps the last of duplicated keys, and rounds numbers. This reader
//! validates any depth with a heap stack, sees every duplicate, and keeps every token's
//! exact text.

mod object;
mod scan;
mod text;

pub use object::{Frame, Member, array_elements, object_members, read_frame};
pub use scan::{JsonKind, ScanError, is_whitespace, skip_whitespace, value_end};
pub use text::{is_integer, unescape};
