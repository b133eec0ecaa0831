//! The MCP handshake and the sentinel calls that delimit each case's replies.

use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::MCP_VERSIONS;
use serde_json::Value;

/// The id of the checker's `initialize` request.
pub const INITIALIZE_ID: &str = "mcpwire-check-initialize";

/// Whether a profile begins with an `initialize` handshake: every MCP version up to
/// 2025-11-25. Plain JSON-RPC 2.0 has none, and MCP 2026-07-28 is stateless (no `initialize`,
/// no `ping`; a client may call `server/discover`).
///
/// ```
/// use mcpwire_cli::check::handshake::has_handshake;
/// use mcpwire_types::facts::{JSONRPC_2_0, MCP_2025_11_25, MCP_2026_07_28};
/// assert!(has_handshake(&MCP_2025_11_25));
/// assert!(!has_handshake(&JSONRPC_2_0));
/// assert!(!has_handshake(&MCP_2026_07_28));
/// ```
pub fn has_handshake(facts: &ProfileFacts) -> bool {
    defines_request(facts, "initialize")
}

/// Whether the profile has `ping`, the sentinel of choice.
pub fn has_ping(facts: &ProfileFacts) -> bool {
    defines_request(facts, "ping")
}

/// Whether the profile's generated method table lists `method` as a request.
fn defines_request(facts: &ProfileFacts, method: &str) -> bool {
    facts
        .protocol_version
        .and_then(|v| mcpwire_types::mcp::method_kind(v, method))
        == Some(mcpwire_types::support::MethodKind::Request)
}

/// The newest MCP version with a handshake: the default `--mcp-version`.
pub fn default_version() -> &'static str {
    MCP_VERSIONS
        .iter()
        .rev()
        .find(|facts| has_handshake(facts))
        .and_then(|facts| facts.protocol_version)
        .unwrap_or("2025-11-25")
}

/// The facts of MCP `version`, if mcpwire knows it.
pub fn mcp_facts(version: &str) -> Option<&'static ProfileFacts> {
    MCP_VERSIONS
        .iter()
        .find(|facts| facts.protocol_version == Some(version))
}

/// The `initialize` request asking for `version`.
pub fn initialize_frame(version: &str) -> Vec<u8> {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": INITIALIZE_ID,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": { "name": "mcpwire-check", "version": env!("CARGO_PKG_VERSION") }
        }
    })
    .to_string()
    .into_bytes()
}

/// The `notifications/initialized` notification that completes the handshake.
pub const INITIALIZED_FRAME: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Reads the protocol version the server chose from its `initialize` reply.
pub fn negotiated_version(reply: &Value) -> Result<String, String> {
    if let Some(error) = reply.get("error") {
        return Err(format!(
            "the server answered initialize with an error: {error}"
        ));
    }
    match reply.pointer("/result/protocolVersion") {
        Some(Value::String(version)) => Ok(version.clone()),
        _ => Err(format!(
            "the initialize reply has no result.protocolVersion string: {}",
            short(reply)
        )),
    }
}

/// The `n`-th sentinel call and its id text. Under a profile with `ping` it is a `ping`; under
/// the others a call of a method no server implements, answered -32601 with the same id.
pub fn sentinel(facts: &ProfileFacts, n: u64) -> (Vec<u8>, String) {
    let id = format!("mcpwire-sentinel-{n}");
    let method = if has_ping(facts) {
        "ping"
    } else {
        "mcpwire/sentinel"
    };
    let frame = format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"{method}"}}"#);
    (frame.into_bytes(), id)
}

/// A short rendering of a JSON value for messages.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= 200 {
        return text;
    }
    let cut = (0..=200)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}…", &text[..cut])
}
