//! The `completion/complete`, `resources/read` and empty results on the wire, built from
//! each version's generated `CompleteResult`, `ReadResourceResult` and `EmptyResult` and
//! serialized from them.
//! (Tool and prompt results are in `content/wire.rs`, with the blocks they carry.)

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

use crate::by_version::{by_version, if_member};
use crate::content::ResourceContents;
use crate::version::Version;
use crate::written::Written;

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
pub fn complete_result<W: Written>(page: CompletionPage, version: Version) -> W {
    macro_rules! result {
        ($m:ident) => {{
            let mut completion = $m::CompleteResultCompletion::new(page.values);
            completion.total = page.total.map(Into::into);
            completion.has_more = page.has_more;
            W::written(if_member!(
                $m,
                CompleteResult,
                result_type,
                { $m::CompleteResult::new(completion, "complete") },
                { $m::CompleteResult::new(completion) }
            ))
        }};
    }
    by_version!(version, result)
}

/// The `EmptyResult` of `version` (`ping`, `logging/setLevel`, `resources/subscribe`),
/// serialized from its generated type: `{}`, and under 2026-07-28 `resultType: "complete"`.
///
/// ```
/// use mcpwire_model::{Version, result::wire::empty_result};
///
/// let empty: serde_json::Value = empty_result(Version::V2025_11_25);
/// assert_eq!(empty.to_string(), "{}");
/// let empty: serde_json::Value = empty_result(Version::V2026_07_28);
/// assert_eq!(empty["resultType"], "complete");
/// ```
pub fn empty_result<W: Written>(version: Version) -> W {
    // `EmptyResult` is the version's `Result`.
    macro_rules! empty {
        ($m:ident) => {
            W::written(if_member!(
                $m,
                Result,
                result_type,
                { $m::EmptyResult::new("complete") },
                { $m::EmptyResult::new() }
            ))
        };
    }
    by_version!(version, empty)
}

/// The `ReadResourceResult` of `version`: one item, for `uri`. Under 2026-07-28 it is
/// `complete`, cacheable for 0 ms by anyone (a resource can change at any time).
pub fn read_result<W: Written>(
    uri: &str,
    mime_type: Option<&str>,
    contents: ResourceContents,
    version: Version,
) -> W {
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
    macro_rules! result {
        ($m:ident) => {
            W::written(if_member!(
                $m,
                ReadResourceResult,
                cache_scope,
                {
                    $m::ReadResourceResult::new(
                        $m::ReadResourceResultCacheScope::Public,
                        vec![item!($m)],
                        "complete",
                        0u64,
                    )
                },
                { $m::ReadResourceResult::new(vec![item!($m)]) }
            ))
        };
    }
    by_version!(version, result)
}
