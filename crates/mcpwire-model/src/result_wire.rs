//! The `completion/complete` and `resources/read` results on the wire, built from each
//! version's generated `CompleteResult` and `ReadResourceResult` and serialized from them.
//! (Tool and prompt results are in `content_wire.rs`, with the blocks they carry.)

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::Value;

use crate::content::ResourceContents;
use crate::content_wire::to_value;
use crate::version::Version;

/// One page of completion values (`CompleteResult.completion`): the values, how many there
/// are in all, and whether some were left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionPage {
    /// The values of this page.
    pub values: Vec<String>,
    /// How many values there are in all, if said.
    pub total: Option<u64>,
    /// Whether some values were left out of this page, if said.
    pub has_more: Option<bool>,
}

/// The `CompleteResult` of `version`.
pub fn complete_result(page: CompletionPage, version: Version) -> Value {
    macro_rules! result {
        ($m:ident $(, $result_type:expr)?) => {{
            let mut completion = $m::CompleteResultCompletion::new(page.values);
            completion.total = page.total.map(Into::into);
            completion.has_more = page.has_more;
            to_value($m::CompleteResult::new(completion $(, $result_type)?))
        }};
    }
    match version {
        Version::V2024_11_05 => result!(v2024_11_05),
        Version::V2025_03_26 => result!(v2025_03_26),
        Version::V2025_06_18 => result!(v2025_06_18),
        Version::V2025_11_25 => result!(v2025_11_25),
        Version::V2026_07_28 => result!(v2026_07_28, "complete"),
    }
}

/// The `ReadResourceResult` of `version`: one item, for `uri`. Under 2026-07-28 it is
/// `complete`, cacheable for 0 ms by anyone (a resource can change at any time).
pub fn read_result(
    uri: &str,
    mime_type: Option<&str>,
    contents: ResourceContents,
    version: Version,
) -> Value {
    macro_rules! item {
        ($m:ident) => {
            match contents {
                ResourceContents::Text(text) => {
                    let mut item = $m::TextResourceContents::new(text, uri);
                    item.mime_type = mime_type.map(str::to_owned);
                    $m::ReadResourceResultContentsItem::TextResourceContents(item)
                }
                ResourceContents::Blob(blob) => {
                    let mut item = $m::BlobResourceContents::new(blob, uri);
                    item.mime_type = mime_type.map(str::to_owned);
                    $m::ReadResourceResultContentsItem::BlobResourceContents(item)
                }
            }
        };
    }
    match version {
        Version::V2024_11_05 => to_value(v2024_11_05::ReadResourceResult::new(vec![item!(
            v2024_11_05
        )])),
        Version::V2025_03_26 => to_value(v2025_03_26::ReadResourceResult::new(vec![item!(
            v2025_03_26
        )])),
        Version::V2025_06_18 => to_value(v2025_06_18::ReadResourceResult::new(vec![item!(
            v2025_06_18
        )])),
        Version::V2025_11_25 => to_value(v2025_11_25::ReadResourceResult::new(vec![item!(
            v2025_11_25
        )])),
        Version::V2026_07_28 => to_value(v2026_07_28::ReadResourceResult::new(
            v2026_07_28::ReadResourceResultCacheScope::Public,
            vec![item!(v2026_07_28)],
            "complete",
            0u64,
        )),
    }
}
