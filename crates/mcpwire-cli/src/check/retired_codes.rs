//! `mcpwire check --protocol` under MCP 2026-07-28: error codes the version retired. Base
//! protocol, Error Codes: "Implementations of this protocol version MUST NOT emit these codes:
//! `-32002` — resource not found (2025-11-25 and earlier; replaced by `-32602`). … `-32042` —
//! URL elicitation required (2025-11-25 only)." Every reply of the run is read for them
//! (`retired-code-emitted`, violation); the code is the server's own choice whatever the
//! request was, so no reading of the request excuses it.

use serde_json::Value;

use super::caller::Caller;
use super::finding::{Finding, RuleId};
use super::route_headers::ROUTED_VERSION;

/// The codes MCP 2026-07-28 forbids, with what they meant.
pub const RETIRED: [(i64, &str); 2] = [
    (
        -32002,
        "resource not found (2025-11-25 and earlier; replaced by -32602)",
    ),
    (-32042, "URL elicitation required (2025-11-25 only)"),
];

/// Judges every reply of a 2026-07-28 run for a retired error code.
pub fn judge_retired_codes(caller: &mut Caller<'_>) {
    if caller.facts.protocol_version != Some(ROUTED_VERSION) {
        return;
    }
    let mut found = Vec::new();
    for (index, (_, exchange)) in caller.results.iter().enumerate() {
        let retired = exchange.replies.iter().find_map(|frame| {
            let code = serde_json::from_slice::<Value>(frame)
                .ok()?
                .pointer("/error/code")?
                .as_i64()?;
            RETIRED.iter().find(|(retired, _)| *retired == code)
        });
        if let Some((code, meaning)) = retired {
            found.push((
                index,
                Finding::new(
                    "retired-code-emitted",
                    RuleId::Protocol,
                    format!(
                        "the reply carries the error code {code} ({meaning}); MCP 2026-07-28 base protocol, Error Codes: \"Implementations of this protocol version MUST NOT emit these codes\""
                    ),
                ),
            ));
        }
    }
    for (index, finding) in found {
        caller.find(index, finding);
    }
}
