//! The `tools/call`, `completion/complete` and `resources/read` results read back: each
//! version's generated `CallToolResult`, `CompleteResult` and `ReadResourceResult` converted
//! into a [`ToolResult`], a [`CompletionPage`] and [`EmbeddedResource`]s. Each item's `_meta` is kept (2025-06-18 on); a result's own
//! `_meta` and members a schema does not declare are left behind, as in `content/read.rs`.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

use crate::by_version::{by_version, if_member};
use crate::content::read::{blocks, object_of, read_complete, read_contents};
use crate::content::{EmbeddedResource, ResourceContents};
use crate::read_error::{ReadError, decode};
use crate::result::ToolResult;
use crate::result::wire::CompletionPage;
use crate::version::Version;

/// The [`ToolResult`] of a `CallToolResult` of `version` (its JSON text).
pub(crate) fn read_call_tool_result(text: &str, version: Version) -> Result<ToolResult, ReadError> {
    const WHAT: &str = "CallToolResult";
    let unreadable = |e: serde_json::Error| ReadError::new(WHAT, version, e.to_string());
    macro_rules! read {
        ($m:ident) => {{
            let r: $m::CallToolResult = decode(text, WHAT, version)?;
            read_complete!($m, CallToolResult, r, WHAT, version);
            // `structuredContent` (2025-06-18 on): a JSON object, any JSON value from
            // 2026-07-28.
            let structured = if_member!(
                $m,
                CallToolResult,
                structured_content,
                {
                    r.structured_content
                        .map(|s| {
                            let text = mcpwire_types::Json::from(s);
                            text.to_value().map(|value| (text, value))
                        })
                        .transpose()
                        .map_err(unreadable)?
                },
                { None }
            );
            ToolResult::from_parts(
                blocks(r.content, version)?,
                structured,
                r.is_error == Some(true),
            )
        }};
    }
    Ok(by_version!(version, read))
}

impl CompletionPage {
    /// The page a server sent: `text` (a `CompleteResult` of `version`) decoded as that
    /// version's generated type, then read.
    ///
    /// ```
    /// use mcpwire_model::{Version, result::wire::CompletionPage};
    ///
    /// let text = r#"{"completion":{"values":["py","pyc"],"total":9,"hasMore":true}}"#;
    /// let page = CompletionPage::from_json(text, Version::V2025_06_18).unwrap();
    /// assert_eq!(page.values, ["py", "pyc"]);
    /// assert_eq!((page.total, page.has_more), (Some(9), Some(true)));
    /// ```
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        const WHAT: &str = "CompleteResult";
        macro_rules! read {
            ($m:ident) => {{
                let r: $m::CompleteResult = decode(text, WHAT, version)?;
                read_complete!($m, CompleteResult, r, WHAT, version);
                let c = r.completion;
                let total = c
                    .total
                    .map(|t| {
                        t.as_u64().ok_or_else(|| {
                            ReadError::new(WHAT, version, format!("total {t} is not a u64"))
                        })
                    })
                    .transpose()?;
                CompletionPage {
                    values: c.values,
                    total,
                    has_more: c.has_more,
                }
            }};
        }
        Ok(by_version!(version, read))
    }
}

/// The contents a server sent for `resources/read`: `text` (a `ReadResourceResult` of
/// `version`) decoded as that version's generated type, each item with its URI, MIME type
/// and text or blob.
///
/// ```
/// use mcpwire_model::{ResourceContents, Version, result::read::read_resource_result};
///
/// let text = r#"{"contents":[{"uri":"file:///a","text":"hi"}]}"#;
/// let items = read_resource_result(text, Version::V2024_11_05).unwrap();
/// assert_eq!(items[0].contents, ResourceContents::text("hi"));
/// ```
pub fn read_resource_result(
    text: &str,
    version: Version,
) -> Result<Vec<EmbeddedResource>, ReadError> {
    const WHAT: &str = "ReadResourceResult";
    macro_rules! read {
        ($m:ident) => {{
            let r: $m::ReadResourceResult = decode(text, WHAT, version)?;
            read_complete!($m, ReadResourceResult, r, WHAT, version);
            r.contents
                .into_iter()
                .map(|item| read_contents!($m, ReadResourceResultContentsItem, item))
                .collect()
        }};
    }
    Ok(by_version!(version, read))
}
