//! A `prompts/get` result read back: each version's generated `GetPromptResult` converted
//! into a [`PromptResult`], its blocks read as in `content/read.rs`.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

use crate::by_version::by_version;
use crate::content::read::{ReadBlock, read_complete, read_role};
use crate::prompt::{PromptMessage, PromptResult};
use crate::read_error::{ReadError, decode};
use crate::version::Version;

/// The [`PromptResult`] of a `GetPromptResult` of `version` (its JSON text).
pub(crate) fn read_get_prompt_result(
    text: &str,
    version: Version,
) -> Result<PromptResult, ReadError> {
    const WHAT: &str = "GetPromptResult";
    macro_rules! read {
        ($m:ident) => {{
            let r: $m::GetPromptResult = decode(text, WHAT, version)?;
            read_complete!($m, GetPromptResult, r, WHAT, version);
            let messages = r
                .messages
                .into_iter()
                .map(|m| {
                    Ok(PromptMessage {
                        role: read_role!($m, m.role),
                        content: m.content.read_block(version)?,
                    })
                })
                .collect::<Result<Vec<_>, ReadError>>()?;
            PromptResult {
                description: r.description,
                messages,
            }
        }};
    }
    Ok(by_version!(version, read))
}
