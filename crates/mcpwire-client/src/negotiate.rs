//! Version negotiation: `initialize` (2024-11-05 … 2025-11-25) or `server/discover`
//! (2026-07-28, stateless), with the fallback from one to the other, and what the server
//! said about itself ([`Handshake`]). With
//! [`check_results`](crate::ClientBuilder::check_results) the handshake result is held to
//! the schema of the version it settles (`InitializeResult` of the version the server
//! answered, `DiscoverResult` of 2026-07-28) like every other result: one it refuses fails
//! the connection with [`Rule::ResultShape`] naming the JSON pointer, and is never taken for
//! a server without `server/discover`.

use std::sync::Arc;

use mcpwire::peer::Request;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::error::ClientError;
use crate::meta::StatelessMeta;
use crate::options::CallOptions;
use crate::result_check::decode_checked;
use crate::session::{Session, Target};
use crate::transport::TransportError;
use crate::violation::{Rule, Violation};
use mcpwire_model::Version;

/// What the server told the client when they agreed on a version.
#[derive(Debug, Clone)]
pub struct Handshake {
    /// The version agreed.
    pub protocol_version: Version,
    /// The server's capabilities (`ServerCapabilities`, as sent).
    pub capabilities: Map<String, Value>,
    /// The server's `Implementation` (`name`, `version`, …), as sent (`Null` when a
    /// stateless server gave none).
    pub server_info: Value,
    /// The server's instructions, if any.
    pub instructions: Option<String>,
}

impl Handshake {
    /// Whether the server declared the capability `name` (`tools`, `resources`, …).
    pub fn has_capability(&self, name: &str) -> bool {
        self.capabilities.contains_key(name)
    }

    /// Whether the version agreed is stateless (2026-07-28).
    pub fn is_stateless(&self) -> bool {
        self.protocol_version.is_stateless()
    }
}

struct Initialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeResult {
    capabilities: Map<String, Value>,
    server_info: Value,
    #[serde(default)]
    instructions: Option<String>,
}

impl Request for Initialize {
    const METHOD: &'static str = "initialize";
    type Params = Map<String, Value>;
    type Result = Box<RawValue>;
}

struct Discover;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiscoverResult {
    supported_versions: Vec<String>,
    capabilities: Map<String, Value>,
    #[serde(default)]
    instructions: Option<String>,
    #[serde(default, rename = "_meta")]
    meta: Option<Map<String, Value>>,
}

impl Request for Discover {
    const METHOD: &'static str = "server/discover";
    type Params = Map<String, Value>;
    type Result = Box<RawValue>;
}

/// The handshake result `raw` of `method` as `T`, a [`Rule::ResultShape`] error naming the
/// pointer otherwise; held to `version`'s schema (read from the same parse) when `checked`.
fn read_handshake<T: DeserializeOwned>(
    checked: Option<Version>,
    method: &str,
    raw: &RawValue,
) -> Result<T, ClientError> {
    if let Some(version) = checked {
        return Ok(decode_checked(version, method, raw.get())?);
    }
    let mut decoder = serde_json::Deserializer::from_str(raw.get());
    serde_path_to_error::deserialize(&mut decoder).map_err(|e| {
        let at = mcpwire_model::read_error::json_pointer(e.path());
        ClientError::Protocol(Violation::new(
            Rule::ResultShape,
            format!("{method} result at \"{at}\": {}", e.inner()),
        ))
    })
}

/// Agrees on a version, asking for `requested` first.
pub(crate) async fn negotiate(
    session: &Arc<Session>,
    requested: Version,
) -> Result<Handshake, ClientError> {
    discover_or_initialize(session, requested, true).await
}

/// JSON-RPC error of 2026-07-28: the server does not speak the version asked for; its
/// `data.supported` lists those it does.
const UNSUPPORTED_VERSION: i64 = -32022;

/// The newest version an UnsupportedProtocolVersion error says the server speaks and the
/// client speaks too.
fn offered_in(error: &mcpwire::RpcError) -> Option<Version> {
    #[derive(Deserialize)]
    struct Data {
        supported: Vec<String>,
    }
    if error.code() != UNSUPPORTED_VERSION {
        return None;
    }
    let data: Data = serde_json::from_str(error.data()?.get()).ok()?;
    data.supported
        .iter()
        .filter_map(|v| Version::parse(v))
        .max()
}

/// [`negotiate`]; `retry` allows one more round after an UnsupportedProtocolVersion error
/// (the server said which versions it speaks: ask again with one of them).
async fn discover_or_initialize(
    session: &Arc<Session>,
    requested: Version,
    retry: bool,
) -> Result<Handshake, ClientError> {
    if !requested.is_stateless() {
        return initialize(session, requested).await;
    }
    session.settle(requested, Some(stateless_meta(session, requested)));
    let discovered = session
        .call::<Discover>(Map::new(), Target::default(), &CallOptions::new())
        .await;
    match discovered {
        Ok(raw) => {
            // A result of the wrong shape is the server's error, not a sign that it lacks
            // `server/discover`: no fallback.
            let result: DiscoverResult =
                read_handshake(checked(session, requested), Discover::METHOD, &raw)?;
            if result
                .supported_versions
                .iter()
                .any(|v| v == requested.as_str())
            {
                return Ok(Handshake {
                    protocol_version: requested,
                    capabilities: result.capabilities,
                    server_info: result
                        .meta
                        .and_then(|mut m| m.remove("io.modelcontextprotocol/serverInfo"))
                        .unwrap_or(Value::Null),
                    instructions: result.instructions,
                });
            }
            // The newest version both speak.
            let common = result
                .supported_versions
                .iter()
                .filter_map(|v| Version::parse(v))
                .max()
                .ok_or_else(|| no_common_version(&result.supported_versions))?;
            if common.is_stateless() {
                return Box::pin(discover_or_initialize(session, common, false)).await;
            }
            initialize(session, common).await
        }
        Err(ClientError::Rpc(error)) if retry && offered_in(&error).is_some() => {
            let offered = offered_in(&error).unwrap_or(requested);
            Box::pin(discover_or_initialize(session, offered, false)).await
        }
        // A server without `server/discover` (or without this version) speaks the
        // handshake. Over HTTP, a server that keeps sessions may refuse the session-less
        // POST at the HTTP level (the TypeScript SDK's: 400 with an error of id `null`;
        // others 404 or 405), so the request gets no JSON-RPC answer: the same fallback.
        Err(
            ClientError::Rpc(_)
            | ClientError::Protocol(_)
            | ClientError::Transport(TransportError::Http(_)),
        ) => initialize(session, Version::newest_with_handshake()).await,
        Err(other) => Err(other),
    }
}

/// `version`, when the session holds results to their schema.
fn checked(session: &Session, version: Version) -> Option<Version> {
    session.settings().check_results.then_some(version)
}

fn no_common_version(offered: &[String]) -> ClientError {
    ClientError::Negotiation(format!(
        "the server speaks {offered:?}, none of which this client speaks ({:?})",
        Version::ALL.map(Version::as_str)
    ))
}

/// What every request states under a stateless `version`.
fn stateless_meta(session: &Session, version: Version) -> StatelessMeta {
    StatelessMeta {
        version,
        capabilities: session.settings().handlers.capabilities(version),
        client_info: session.settings().client_info.clone(),
        log_level: None,
    }
}

async fn initialize(session: &Arc<Session>, requested: Version) -> Result<Handshake, ClientError> {
    session.settle_handshake(requested);
    let mut params = Map::new();
    params.insert("protocolVersion".into(), requested.as_str().into());
    params.insert(
        "capabilities".into(),
        session.settings().handlers.capabilities(requested),
    );
    params.insert("clientInfo".into(), session.settings().client_info.clone());
    let raw = session
        .call::<Initialize>(params, Target::default(), &CallOptions::new())
        .await?;
    // The version the server answered decides which schema holds the rest.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Answered {
        protocol_version: String,
    }
    let answered: Answered = read_handshake(None, Initialize::METHOD, &raw)?;
    let Some(version) = Version::parse(&answered.protocol_version).filter(|v| v.has_handshake())
    else {
        return Err(ClientError::Negotiation(format!(
            "the server answered version {:?}, which this client does not speak",
            answered.protocol_version
        )));
    };
    let result: InitializeResult =
        read_handshake(checked(session, version), Initialize::METHOD, &raw)?;
    session.settle(version, None);
    session
        .notify("notifications/initialized", &json!(null))
        .await?;
    Ok(Handshake {
        protocol_version: version,
        capabilities: result.capabilities,
        server_info: result.server_info,
        instructions: result.instructions,
    })
}
