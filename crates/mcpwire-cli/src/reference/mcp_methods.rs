//! MCP methods of the reference server, typed by the generated types of the version in force.
//!
//! Which methods a version has is read from its generated `method_kind`, never from a version
//! string: `initialize` and `ping` exist up to 2025-11-25; 2026-07-28 is stateless, offers
//! `server/discover` and states the protocol version in every request's `_meta`.

use mcpwire::params::decode_params;
use mcpwire::{Context, ProfileFacts, RawParams, Router, RpcError};
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::support::MethodKind;
use mcpwire_types::{JsonObject, facts};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::ReferenceState;

/// The name the reference server reports about itself.
const SERVER_NAME: &str = "mcpwire-reference";

/// Params as the router's fallback hands them over, undecoded.
type Raw<'a> = Option<RawParams<'a>>;

/// What one MCP version's generated types contribute to the reference server.
trait Version {
    /// The version's profile facts.
    const FACTS: &'static ProfileFacts;
    /// Params of `tools/list`.
    type ListParams: DeserializeOwned;
    /// Result of `tools/list`.
    type ListResult: Serialize + DeserializeOwned;
    /// Params of `tools/call`.
    type CallParams: DeserializeOwned;
    /// Result of `tools/call`.
    type CallResult: Serialize + DeserializeOwned;
    /// Result of `ping` (the empty result).
    type EmptyResult: Serialize + DeserializeOwned;
    /// The tool name and arguments of a `tools/call`.
    fn tool_call(params: &Self::CallParams) -> (&str, Option<&JsonObject>);
    /// The protocol version a request states in its `_meta` (stateless versions only).
    fn stated_version_of_list(params: &Self::ListParams) -> Option<&str>;
    /// The protocol version a `tools/call` states in its `_meta` (stateless versions only).
    fn stated_version_of_call(params: &Self::CallParams) -> Option<&str>;
    /// Members every result of this version carries (`resultType` where the schema requires it).
    fn result_members() -> serde_json::Map<String, Value> {
        serde_json::Map::new()
    }
}

/// A version with the `initialize` handshake.
trait Handshake: Version {
    /// Params of `initialize`.
    type InitializeParams: DeserializeOwned;
    /// Result of `initialize`.
    type InitializeResult: Serialize + DeserializeOwned;
}

/// A stateless version with `server/discover`.
trait Discovery: Version {
    /// Params of `server/discover`.
    type DiscoverParams: DeserializeOwned;
    /// Result of `server/discover`.
    type DiscoverResult: Serialize + DeserializeOwned;
    /// The protocol version the request states in its `_meta`.
    fn stated_version_of_discover(params: &Self::DiscoverParams) -> &str;
}

macro_rules! handshake_version {
    ($marker:ident, $module:ident, $facts:ident, list_params = $list_params:ident) => {
        struct $marker;
        impl Version for $marker {
            const FACTS: &'static ProfileFacts = &facts::$facts;
            type ListParams = Option<$module::$list_params>;
            type ListResult = $module::ListToolsResult;
            type CallParams = $module::CallToolRequestParams;
            type CallResult = $module::CallToolResult;
            type EmptyResult = $module::EmptyResult;
            fn tool_call(params: &Self::CallParams) -> (&str, Option<&JsonObject>) {
                (&params.name, params.arguments.as_ref())
            }
            fn stated_version_of_list(_: &Self::ListParams) -> Option<&str> {
                None
            }
            fn stated_version_of_call(_: &Self::CallParams) -> Option<&str> {
                None
            }
        }
        impl Handshake for $marker {
            type InitializeParams = $module::InitializeRequestParams;
            type InitializeResult = $module::InitializeResult;
        }
    };
}

handshake_version!(
    V2024_11_05,
    v2024_11_05,
    MCP_2024_11_05,
    list_params = ListToolsRequestParams
);
handshake_version!(
    V2025_03_26,
    v2025_03_26,
    MCP_2025_03_26,
    list_params = ListToolsRequestParams
);
handshake_version!(
    V2025_06_18,
    v2025_06_18,
    MCP_2025_06_18,
    list_params = ListToolsRequestParams
);
handshake_version!(
    V2025_11_25,
    v2025_11_25,
    MCP_2025_11_25,
    list_params = PaginatedRequestParams
);

struct V2026_07_28;

impl Version for V2026_07_28 {
    const FACTS: &'static ProfileFacts = &facts::MCP_2026_07_28;
    type ListParams = v2026_07_28::PaginatedRequestParams;
    type ListResult = v2026_07_28::ListToolsResult;
    type CallParams = v2026_07_28::CallToolRequestParams;
    type CallResult = v2026_07_28::CallToolResult;
    type EmptyResult = v2026_07_28::EmptyResult;
    fn tool_call(params: &Self::CallParams) -> (&str, Option<&JsonObject>) {
        (&params.name, params.arguments.as_ref())
    }
    fn stated_version_of_list(params: &Self::ListParams) -> Option<&str> {
        Some(&params.meta.io_modelcontextprotocol_protocol_version)
    }
    fn stated_version_of_call(params: &Self::CallParams) -> Option<&str> {
        Some(&params.meta.io_modelcontextprotocol_protocol_version)
    }
    fn result_members() -> serde_json::Map<String, Value> {
        let mut members = serde_json::Map::new();
        members.insert("resultType".into(), "complete".into());
        members
    }
}

impl Discovery for V2026_07_28 {
    type DiscoverParams = v2026_07_28::RequestParams;
    type DiscoverResult = v2026_07_28::DiscoverResult;
    fn stated_version_of_discover(params: &Self::DiscoverParams) -> &str {
        &params.meta.io_modelcontextprotocol_protocol_version
    }
}

/// Calls `$f::<V>($args)` with `V` the version of `$facts` (`None` for non-MCP profiles).
macro_rules! for_version {
    ($facts:expr, $f:ident ( $($arg:expr),* )) => {{
        let name = $facts.name;
        if name == V2024_11_05::FACTS.name {
            Some($f::<V2024_11_05>($($arg),*))
        } else if name == V2025_03_26::FACTS.name {
            Some($f::<V2025_03_26>($($arg),*))
        } else if name == V2025_06_18::FACTS.name {
            Some($f::<V2025_06_18>($($arg),*))
        } else if name == V2025_11_25::FACTS.name {
            Some($f::<V2025_11_25>($($arg),*))
        } else if name == V2026_07_28::FACTS.name {
            Some($f::<V2026_07_28>($($arg),*))
        } else {
            None
        }
    }};
}

/// Registers `notifications/initialized`, and the fallback that serves `initialize`, `ping`,
/// `server/discover`, `tools/list` and `tools/call`.
///
/// These go through the fallback, which sees the params undecoded, because whether a method
/// exists depends on the version in force: a method the version lacks is -32601 whatever its
/// params hold (even params past the depth limit).
pub(crate) fn register(router: Router<ReferenceState>) -> Router<ReferenceState> {
    router
        .notification(
            "notifications/initialized",
            |state: &mut ReferenceState, _: Value, _: &mut Context<'_>| {
                state.notifications_seen += 1;
            },
        )
        .fallback(call)
}

/// Serves one MCP request under the version in force.
fn call(
    state: &mut ReferenceState,
    raw: Option<RawParams<'_>>,
    ctx: &mut Context<'_>,
) -> Result<Box<RawValue>, RpcError> {
    let method = ctx.method();
    if method == "initialize" {
        // Accepted under any MCP profile: it is how a client of an older version negotiates.
        return initialize(state, raw, ctx);
    }
    let facts = types_for(ctx, method)?;
    let reply = match method {
        "ping" => for_version!(facts, ping(raw, ctx)),
        "tools/list" => for_version!(facts, tools_list(raw, ctx)),
        "tools/call" => for_version!(facts, tools_call(raw, ctx)),
        "server/discover" if facts.name == V2026_07_28::FACTS.name => {
            Some(discover::<V2026_07_28>(raw, ctx))
        }
        _ => None,
    };
    reply.unwrap_or_else(|| Err(not_found()))
}

/// The MCP version whose types serve `method` under the current profile: the profile's own
/// version, or for plain JSON-RPC the newest version with the session model (one that has
/// `ping`). -32601 when that version does not define `method`.
fn types_for(ctx: &Context<'_>, method: &str) -> Result<&'static ProfileFacts, RpcError> {
    let facts = match ctx.profile().protocol_version() {
        Some(_) => ctx.profile().facts(),
        None => newest_where(|f| kind_of(f, "ping") == Some(MethodKind::Request))
            .ok_or_else(not_found)?,
    };
    match kind_of(facts, method) {
        Some(MethodKind::Request) => Ok(facts),
        _ => Err(not_found()),
    }
}

fn kind_of(facts: &ProfileFacts, method: &str) -> Option<MethodKind> {
    mcpwire_types::mcp::method_kind(facts.protocol_version?, method)
}

/// The newest MCP version satisfying `keep`.
fn newest_where(keep: impl Fn(&ProfileFacts) -> bool) -> Option<&'static ProfileFacts> {
    facts::MCP_VERSIONS.iter().rev().find(|f| keep(f))
}

fn not_found() -> RpcError {
    RpcError::method_not_found()
}

/// Decodes raw params as `T`, answering -32602 with the failing JSON pointer.
fn params<T: DeserializeOwned>(raw: Raw<'_>, ctx: &Context<'_>) -> Result<T, RpcError> {
    decode_params(raw, ctx.profile().limits().max_params_depth)
}

/// Builds a result of type `T` from JSON, proving it matches the version's schema type.
fn typed<V: Version, T: Serialize + DeserializeOwned>(value: Value) -> Result<T, RpcError> {
    let mut value = value;
    if let Value::Object(members) = &mut value {
        members.extend(V::result_members());
    }
    serde_json::from_value(value).map_err(|e| {
        RpcError::internal_error()
            .with_data(&format!("reference server built an invalid result: {e}"))
    })
}

/// Refuses a request that states a protocol version this server does not serve statelessly
/// (-32022 UnsupportedProtocolVersionError where the version defines it).
fn check_stated_version(stated: Option<&str>) -> Result<(), RpcError> {
    let Some(requested) = stated else {
        return Ok(());
    };
    let supported: Vec<&str> = stateless_versions().collect();
    if supported.contains(&requested) {
        return Ok(());
    }
    Err(RpcError::new(
        v2026_07_28::ErrorCode::UnsupportedProtocolVersion.code(),
        "Unsupported protocol version",
    )
    .with_data(&json!({ "requested": requested, "supported": supported })))
}

/// Versions served statelessly: those that define `server/discover`, newest first.
fn stateless_versions() -> impl Iterator<Item = &'static str> {
    facts::MCP_VERSIONS
        .iter()
        .rev()
        .filter(|f| kind_of(f, "server/discover") == Some(MethodKind::Request))
        .filter_map(|f| f.protocol_version)
}

fn server_info() -> Value {
    json!({ "name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION") })
}

fn initialize(
    state: &mut ReferenceState,
    raw: Raw<'_>,
    ctx: &mut Context<'_>,
) -> Result<Box<RawValue>, RpcError> {
    if ctx.profile().protocol_version().is_none() {
        return Err(not_found());
    }
    // The version asked for, when this server has its handshake; else the newest that has one.
    let requested = raw
        .and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
        .and_then(|v| v.get("protocolVersion")?.as_str().map(str::to_owned));
    let has_handshake = |f: &ProfileFacts| kind_of(f, "initialize") == Some(MethodKind::Request);
    let chosen = requested
        .as_deref()
        .and_then(|r| {
            facts::MCP_VERSIONS
                .iter()
                .find(|f| f.protocol_version == Some(r))
        })
        .filter(|f| has_handshake(f))
        .or_else(|| newest_where(has_handshake))
        .ok_or_else(not_found)?;
    let reply = match chosen.name {
        n if n == V2024_11_05::FACTS.name => handshake::<V2024_11_05>(raw, ctx),
        n if n == V2025_03_26::FACTS.name => handshake::<V2025_03_26>(raw, ctx),
        n if n == V2025_06_18::FACTS.name => handshake::<V2025_06_18>(raw, ctx),
        _ => handshake::<V2025_11_25>(raw, ctx),
    }?;
    state.negotiated_version = chosen.protocol_version;
    ctx.set_profile(ctx.profile().with_facts(chosen));
    Ok(reply)
}

fn handshake<V: Handshake>(raw: Raw<'_>, ctx: &Context<'_>) -> Result<Box<RawValue>, RpcError> {
    // Decoding proves the request is a valid `initialize` of the chosen version.
    let _: V::InitializeParams = params(raw, ctx)?;
    let result: V::InitializeResult = typed::<V, _>(json!({
        "protocolVersion": V::FACTS.protocol_version,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": server_info(),
    }))?;
    to_raw(&result)
}

fn ping<V: Version>(raw: Raw<'_>, ctx: &mut Context<'_>) -> Result<Box<RawValue>, RpcError> {
    let _: Option<Value> = params(raw, ctx)?;
    let result: V::EmptyResult = typed::<V, _>(json!({}))?;
    to_raw(&result)
}

fn discover<V: Discovery>(raw: Raw<'_>, ctx: &mut Context<'_>) -> Result<Box<RawValue>, RpcError> {
    let request: V::DiscoverParams = params(raw, ctx)?;
    check_stated_version(Some(V::stated_version_of_discover(&request)))?;
    let supported: Vec<&str> = facts::MCP_VERSIONS
        .iter()
        .rev()
        .filter_map(|f| f.protocol_version)
        .collect();
    let result: V::DiscoverResult = typed::<V, _>(json!({
        "supportedVersions": supported,
        "capabilities": { "tools": {} },
        "_meta": { "io.modelcontextprotocol/serverInfo": server_info() },
        "ttlMs": 0,
        "cacheScope": "public",
    }))?;
    to_raw(&result)
}

/// The one tool: `echo`, which returns its `text` argument as text content.
fn echo_tool() -> Value {
    json!({
        "name": "echo",
        "description": "Returns its `text` argument.",
        "inputSchema": {
            "type": "object",
            "properties": { "text": { "type": "string" } },
            "required": ["text"],
        },
    })
}

fn tools_list<V: Version>(raw: Raw<'_>, ctx: &mut Context<'_>) -> Result<Box<RawValue>, RpcError> {
    let request: V::ListParams = params(raw, ctx)?;
    check_stated_version(V::stated_version_of_list(&request))?;
    let result: V::ListResult = typed::<V, _>(json!({ "tools": [echo_tool()] }))?;
    to_raw(&result)
}

fn tools_call<V: Version>(raw: Raw<'_>, ctx: &mut Context<'_>) -> Result<Box<RawValue>, RpcError> {
    let request: V::CallParams = params(raw, ctx)?;
    check_stated_version(V::stated_version_of_call(&request))?;
    let (name, arguments) = V::tool_call(&request);
    if name != "echo" {
        return Err(RpcError::invalid_params().with_data(&json!({
            "pointer": "/name",
            "reason": format!("unknown tool `{name}`; this server has `echo`"),
        })));
    }
    let members = arguments.and_then(|a| a.to_map().ok());
    let Some(text) = members
        .as_ref()
        .and_then(|m| m.get("text"))
        .and_then(Value::as_str)
    else {
        return Err(RpcError::invalid_params().with_data(&json!({
            "pointer": "/arguments/text",
            "reason": "the `echo` tool needs a string argument `text`",
        })));
    };
    let result: V::CallResult = typed::<V, _>(json!({
        "content": [{ "type": "text", "text": text }],
    }))?;
    to_raw(&result)
}

fn to_raw<T: Serialize>(value: &T) -> Result<Box<RawValue>, RpcError> {
    serde_json::value::to_raw_value(value).map_err(|e| {
        RpcError::internal_error().with_data(&format!("result does not serialize: {e}"))
    })
}
