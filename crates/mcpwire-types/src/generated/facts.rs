// PLACEHOLDER written by hand until `cargo xtask gen` generates this file.
//! Profile facts for every supported profile.

use crate::{IdTypes, ParamsTypes, ProfileFacts};

/// Plain JSON-RPC 2.0.
pub const JSONRPC_2_0: ProfileFacts = ProfileFacts {
    name: "jsonrpc-2.0",
    protocol_version: None,
    id_types: IdTypes { string: true, integer: true, number: true, null: true },
    error_response_requires_id: true,
    batches: true,
    params_types: ParamsTypes { object: true, array: true },
    schema_file: "jsonrpc-2.0.schema.json",
    schema_sha256: "",
};

const fn mcp(name: &'static str, version: &'static str, requires_id: bool, batches: bool) -> ProfileFacts {
    ProfileFacts {
        name,
        protocol_version: Some(version),
        id_types: IdTypes { string: true, integer: true, number: false, null: false },
        error_response_requires_id: requires_id,
        batches,
        params_types: ParamsTypes { object: true, array: false },
        schema_file: "schema.json",
        schema_sha256: "",
    }
}

/// MCP 2024-11-05.
pub const MCP_2024_11_05: ProfileFacts = mcp("mcp-2024-11-05", "2024-11-05", true, false);
/// MCP 2025-03-26.
pub const MCP_2025_03_26: ProfileFacts = mcp("mcp-2025-03-26", "2025-03-26", true, true);
/// MCP 2025-06-18.
pub const MCP_2025_06_18: ProfileFacts = mcp("mcp-2025-06-18", "2025-06-18", true, false);
/// MCP 2025-11-25.
pub const MCP_2025_11_25: ProfileFacts = mcp("mcp-2025-11-25", "2025-11-25", false, false);
/// MCP 2026-07-28.
pub const MCP_2026_07_28: ProfileFacts = mcp("mcp-2026-07-28", "2026-07-28", false, false);

/// Every MCP version, oldest first.
pub const MCP_VERSIONS: &[ProfileFacts] = &[MCP_2024_11_05, MCP_2025_03_26, MCP_2025_06_18, MCP_2025_11_25, MCP_2026_07_28];

/// The newest MCP version.
pub const MCP_LATEST: ProfileFacts = MCP_2026_07_28;

/// Every profile: JSON-RPC 2.0 first, then the MCP versions oldest first.
pub const ALL: &[ProfileFacts] = &[JSONRPC_2_0, MCP_2024_11_05, MCP_2025_03_26, MCP_2025_06_18, MCP_2025_11_25, MCP_2026_07_28];
