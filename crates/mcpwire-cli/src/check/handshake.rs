//! The MCP handshake and the sentinel calls that delimit each case's replies.

use mcpwire_proptest::{Cause, Expected, ExpectedReply, Outcome, ReplyId};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::MCP_VERSIONS;
use serde_json::Value;

use super::cases::CheckCase;

/// How the session's profile is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    /// No handshake: the profile is fixed (`jsonrpc-2.0`).
    Fixed(&'static ProfileFacts),
    /// `initialize` asking for this MCP version; the server's answer selects the profile.
    Negotiate(String),
    /// `server/discover` (MCP versions without `initialize`): the server must list the version.
    Discover(&'static ProfileFacts),
}

/// Why a check cannot go on after starting the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Startup {
    /// The checker could not run at all (exit 2); the message names what to change.
    CouldNotRun(String),
    /// The server answered but broke the handshake: the report shows the findings (exit 1).
    Broken(String),
}

/// A version no MCP revision has, asked for to see the server negotiate.
pub const UNSUPPORTED_VERSION: &str = "1999-01-01";

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
pub fn defines_request(facts: &ProfileFacts, method: &str) -> bool {
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

/// The id of the checker's `server/discover` request (MCP 2026-07-28).
pub const DISCOVER_ID: &str = "mcpwire-check-discover";

/// The `_meta` every MCP 2026-07-28 request carries (the schema requires the protocol version
/// and the client's capabilities).
pub fn request_meta(version: &str) -> serde_json::Value {
    serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "mcpwire-check", "version": env!("CARGO_PKG_VERSION") }
    })
}

/// A call of `method` with id `id`; `server/discover` gets the `_meta` its version requires.
fn call_frame(id: &str, method: &str, version: Option<&str>) -> Vec<u8> {
    let mut call = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method });
    if method == "server/discover" {
        call["params"] =
            serde_json::json!({ "_meta": request_meta(version.unwrap_or("2026-07-28")) });
    }
    call.to_string().into_bytes()
}

/// The `server/discover` request for MCP `version`.
pub fn discover_frame(version: &str) -> Vec<u8> {
    call_frame(DISCOVER_ID, "server/discover", Some(version))
}

/// A call of `method` with `params` and id `id` (plus the `_meta` a version without
/// `initialize` requires on every request), as a check case owed one reply with its id.
pub fn request_case(
    facts: &ProfileFacts,
    label: &str,
    id: &str,
    method: &str,
    mut params: serde_json::Map<String, serde_json::Value>,
) -> CheckCase {
    if !has_handshake(facts)
        && let Some(version) = facts.protocol_version
    {
        // The version's own `_meta`, beside any the caller set (a progress token).
        let mut meta = request_meta(version);
        if let (Some(serde_json::Value::Object(own)), Some(merged)) =
            (params.remove("_meta"), meta.as_object_mut())
        {
            merged.extend(own);
        }
        params.insert("_meta".into(), meta);
    }
    let mut call = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method });
    if !params.is_empty() {
        call["params"] = serde_json::Value::Object(params);
    }
    handshake_case(label, id, call.to_string().into_bytes())
}

/// The oracle of a handshake call: one reply with the call's id, a result or any error.
pub fn handshake_expected(id: &str) -> Expected {
    Expected::Reply(ExpectedReply {
        id: ReplyId::Echo(serde_json::Value::from(id).to_string()),
        outcome: Outcome::ResultOrErrorExcept(Vec::new()),
        cause: Cause::Request,
    })
}

/// The handshake call as a check case, labelled with its method.
pub fn handshake_case(label: &str, id: &str, frame: Vec<u8>) -> CheckCase {
    CheckCase {
        label: label.to_owned(),
        batch_reading: None,
        readings: Vec::new(),
        frame,
        expected: handshake_expected(id),
        generated: None,
    }
}

/// Why a handshake reply gives no protocol version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The server answered with an error (and no result).
    Error(String),
    /// The reply has no usable result.
    NoVersion(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Error(error) => write!(f, "the server answered with an error: {error}"),
            Refusal::NoVersion(reply) => write!(f, "the reply has no usable result: {reply}"),
        }
    }
}

/// Reads the handshake reply leniently (several lines, `"error":null` beside the result: the
/// rules judge those separately) and returns its result.
fn result_of(frame: &[u8]) -> Result<Value, Refusal> {
    let reply: Value = serde_json::from_slice(frame)
        .map_err(|_| Refusal::NoVersion(crate::check::describe::show_frame(frame)))?;
    match (reply.get("result"), reply.get("error")) {
        (Some(result), _) if result.is_object() => Ok(result.clone()),
        (_, Some(error)) if !error.is_null() => Err(Refusal::Error(short(error))),
        _ => Err(Refusal::NoVersion(short(&reply))),
    }
}

/// The protocol version the server chose in its `initialize` reply.
///
/// ```
/// use mcpwire_cli::check::handshake::negotiated_version;
/// let pretty = b"{\n \"jsonrpc\": \"2.0\", \"id\": 1,\n \"result\": {\"protocolVersion\": \"2025-06-18\"}, \"error\": null\n}";
/// assert_eq!(negotiated_version(pretty).unwrap(), "2025-06-18");
/// assert!(negotiated_version(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}"#).is_err());
/// ```
pub fn negotiated_version(frame: &[u8]) -> Result<String, Refusal> {
    let result = result_of(frame)?;
    match result.get("protocolVersion") {
        Some(Value::String(version)) => Ok(version.clone()),
        _ => Err(Refusal::NoVersion(short(&result))),
    }
}

/// The versions a `server/discover` reply lists in `supportedVersions`.
pub fn supported_versions(frame: &[u8]) -> Result<Vec<String>, Refusal> {
    let result = result_of(frame)?;
    match result.get("supportedVersions") {
        Some(Value::Array(list)) => Ok(list
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()),
        _ => Err(Refusal::NoVersion(short(&result))),
    }
}

/// What an `initialize` reply agrees on: the version the server chose and its facts.
/// `server` names the server in the refusal ("the server", "the server at URL"); `asked` is
/// the version the checker asked for. A refusal with an error, or a version mcpwire does not
/// know, means the check cannot go on; a reply without a version is a broken handshake.
pub fn accept_initialize(
    reply: &[u8],
    asked: &str,
    server: &str,
) -> Result<(String, &'static ProfileFacts), Startup> {
    let negotiated = negotiated_version(reply).map_err(|refusal| match refusal {
        Refusal::Error(_) => Startup::CouldNotRun(format!(
            "{server} refused initialize (protocol version {asked}): {refusal}"
        )),
        Refusal::NoVersion(_) => Startup::Broken(format!(
            "the initialize reply has no result.protocolVersion string: {refusal}"
        )),
    })?;
    let facts = mcp_facts(&negotiated).ok_or_else(|| {
        Startup::CouldNotRun(format!(
            "the server chose protocol version {negotiated:?}, which mcpwire does not know"
        ))
    })?;
    Ok((negotiated, facts))
}

/// Whether a `server/discover` reply lists `version`, which the server must then speak.
pub fn accept_discover(reply: &[u8], version: &str) -> Result<(), Startup> {
    let versions = supported_versions(reply).map_err(|refusal| {
        Startup::CouldNotRun(format!(
            "server/discover, which MCP {version} requires every server to implement, did not list the supported versions ({refusal}); the server does not speak {version}: check it with --mcp-version of a version it negotiates"
        ))
    })?;
    if versions.iter().any(|v| v == version) {
        return Ok(());
    }
    Err(Startup::CouldNotRun(format!(
        "server/discover lists {versions:?}, not {version}; the server does not speak {version}: check it with --mcp-version set to one of those"
    )))
}

/// The method the sentinel calls: `ping` where the version has it, else the first `--method`
/// the user declared, else `server/discover` where the version has it. Never an unknown
/// method: a server may answer those on a faster path and overtake the case's reply.
///
/// ```
/// use mcpwire_cli::check::handshake::sentinel_method;
/// use mcpwire_types::facts::{JSONRPC_2_0, MCP_2025_11_25, MCP_2026_07_28};
/// assert_eq!(sentinel_method(&MCP_2025_11_25, &[]).unwrap(), "ping");
/// assert_eq!(sentinel_method(&MCP_2026_07_28, &[]).unwrap(), "server/discover");
/// assert_eq!(sentinel_method(&JSONRPC_2_0, &["sum".into()]).unwrap(), "sum");
/// assert!(sentinel_method(&JSONRPC_2_0, &[]).unwrap_err().contains("--method"));
/// ```
pub fn sentinel_method(facts: &ProfileFacts, declared: &[String]) -> Result<String, String> {
    if has_ping(facts) {
        return Ok("ping".into());
    }
    if let Some(method) = declared.first() {
        return Ok(method.clone());
    }
    if defines_request(facts, "server/discover") {
        return Ok("server/discover".into());
    }
    Err(format!(
        "under profile {} the checker needs a method the server answers, to mark the end of each case's replies: name one with --method NAME",
        facts.name
    ))
}

/// The `n`-th sentinel call of `method` and its id text.
pub fn sentinel(facts: &ProfileFacts, method: &str, n: u64) -> (Vec<u8>, String) {
    let id = format!("{SENTINEL_PREFIX}{n}");
    (call_frame(&id, method, facts.protocol_version), id)
}

/// The prefix of every sentinel id.
pub const SENTINEL_PREFIX: &str = "mcpwire-sentinel-";

/// A JSON value (a reply, an error object) as text for a finding's message: at most 200
/// characters, then `…`.
pub fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::short;

    #[test]
    fn short_cuts_at_200_characters() {
        // 198 characters and the two quotes: kept whole.
        let fits = json!("é".repeat(198));
        assert_eq!(short(&fits), fits.to_string());
        // One more is cut after 200 characters, however many bytes they take.
        let text = short(&json!("é".repeat(199)));
        assert_eq!(text, format!("\"{}…", "é".repeat(199)));
        assert_eq!(text.chars().count(), 201);
    }
}
