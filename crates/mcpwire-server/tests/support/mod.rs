//! A real async conversation with an `McpServer`: the server session and a client session of
//! the peer core, connected by `tokio::io::duplex`. Every result and every notification the
//! client receives is validated against the upstream schema of the version in force.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use mcpwire::Router;
use mcpwire::service::{self, AsyncCallContext, PeerHandle, RequestError, Session};
use mcpwire::{Profile, RpcError};
use mcpwire_server::{McpServer, Version};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// The upstream schemas and validators for one definition, shared with mcpwire-types' tests.
#[path = "../../../mcpwire-types/tests/common/mod.rs"]
mod common;

/// Validation errors of `instance` against definition `name` of `version`'s schema.
pub fn schema_errors(version: Version, name: &str, instance: &Value) -> Vec<String> {
    type Cache = Mutex<HashMap<(Version, String), Arc<jsonschema::Validator>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let validator = {
        let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
        Arc::clone(
            cache
                .entry((version, name.to_owned()))
                .or_insert_with(|| Arc::new(validator(version, name))),
        )
    };
    validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

fn validator(version: Version, name: &str) -> jsonschema::Validator {
    common::validator(&common::schema(version.as_str()), name)
}

/// Asserts `instance` is a valid `name` of `version`.
pub fn assert_valid(version: Version, name: &str, instance: &Value) {
    let errors = schema_errors(version, name, instance);
    assert!(
        errors.is_empty(),
        "not a valid {name} of {version}: {errors:?}\n{instance:#}"
    );
}

/// The result definition of `method`.
fn result_definition(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "server/discover" => "DiscoverResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/read" => "ReadResourceResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        _ => "EmptyResult",
    }
}

/// Asserts `result` is a valid result of `method` under `version`: an `InputRequiredResult`
/// when it says so, else the method's result; under 2026-07-28 also the method's
/// `*ResultResponse` (which says whether the method may be input-required at all).
pub fn assert_valid_result(version: Version, method: &str, result: &Value) {
    let definition = result_definition(method);
    if result["resultType"] == "input_required" {
        assert_valid(version, "InputRequiredResult", result);
    } else {
        assert_valid(version, definition, result);
    }
    if version >= Version::V2026_07_28 && definition != "EmptyResult" {
        let response = json!({ "jsonrpc": "2.0", "id": 1, "result": result });
        assert_valid(version, &format!("{definition}Response"), &response);
    }
}

/// How the test client answers `elicitation/create`.
#[derive(Debug, Clone)]
pub struct ClientAnswers {
    /// The `ElicitResult` sent back.
    pub elicit: Value,
    /// The `CreateMessageResult` sent back to `sampling/createMessage`.
    pub sample: Value,
}

struct ClientState {
    seen: mpsc::UnboundedSender<(String, Value)>,
    answers: ClientAnswers,
    asked: Mutex<Vec<(String, Value)>>,
}

/// The client side of a conversation.
pub struct Client {
    pub version: Version,
    to_server: PeerHandle,
    seen: mpsc::UnboundedReceiver<(String, Value)>,
    state: Arc<ClientState>,
    _tasks: Vec<tokio::task::JoinHandle<std::io::Result<()>>>,
}

/// Connects a client speaking `version` (its wire profile) to a new session of `server`.
pub fn connect(server: &McpServer, version: Version, answers: ClientAnswers) -> Client {
    let (seen_tx, seen) = mpsc::unbounded_channel();
    let state = Arc::new(ClientState {
        seen: seen_tx,
        answers,
        asked: Mutex::new(Vec::new()),
    });
    let router = Router::new().fallback_async(client_fallback);
    let profile = Profile::mcp(version.as_str()).expect("an MCP profile");
    let client = Session::with_options(profile, Arc::clone(&state), router, Default::default());
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (server_in, server_out) = tokio::io::split(server_io);
    let (client_in, client_out) = tokio::io::split(client_io);
    let (_, served) = service::spawn(server.session(), server_in, server_out);
    let (to_server, connection) = service::spawn(client, client_in, client_out);
    Client {
        version,
        to_server: to_server.with_timeout(Some(Duration::from_secs(10))),
        seen,
        state,
        _tasks: vec![served, connection],
    }
}

async fn client_fallback(
    state: Arc<ClientState>,
    params: Option<Box<RawValue>>,
    ctx: AsyncCallContext,
) -> Result<Box<RawValue>, RpcError> {
    let params: Value = params
        .map(|p| serde_json::from_str(p.get()).expect("params are JSON"))
        .unwrap_or(Value::Null);
    let method = ctx.method().to_owned();
    if ctx.is_notification() {
        let _ = state.seen.send((method, params));
        return Ok(RawValue::from_string("null".into()).unwrap());
    }
    state.asked.lock().unwrap().push((method.clone(), params));
    match method.as_str() {
        "elicitation/create" => Ok(serde_json::value::to_raw_value(&state.answers.elicit).unwrap()),
        "sampling/createMessage" => {
            Ok(serde_json::value::to_raw_value(&state.answers.sample).unwrap())
        }
        _ => Err(RpcError::method_not_found()),
    }
}

impl Client {
    /// Sends a request and returns its result, validated against the version's schema, or
    /// the error response.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        let sent = match &params {
            Value::Null => self.to_server.request_raw(method, &()).await,
            params => self.to_server.request_raw(method, params).await,
        };
        match sent {
            Ok(raw) => {
                let result: Value = serde_json::from_str(raw.get()).unwrap();
                assert_valid_result(self.version, method, &result);
                Ok(result)
            }
            Err(RequestError::Rpc(error)) => Err(error),
            Err(other) => panic!("{method}: {other}"),
        }
    }

    /// `initialize` asking for `self.version` with `capabilities`, then `initialized`.
    pub async fn initialize(&self, capabilities: Value) -> Value {
        let result = self
            .request(
                "initialize",
                json!({
                    "protocolVersion": self.version.as_str(),
                    "capabilities": capabilities,
                    "clientInfo": { "name": "test-client", "version": "0" },
                }),
            )
            .await
            .expect("initialize succeeds");
        self.to_server
            .notify_raw("notifications/initialized", &())
            .await
            .unwrap();
        result
    }

    /// `server/discover` of a 2026-07-28 client declaring no capabilities: its result.
    pub async fn discover(&self) -> Value {
        let params = json!({ "_meta": Self::meta(json!({})) });
        self.request("server/discover", params)
            .await
            .expect("server/discover succeeds")
    }

    /// The `_meta` a 2026-07-28 request carries.
    pub fn meta(capabilities: Value) -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        })
    }

    /// The next notification the client received (validated as a `ServerNotification`), or
    /// `None` after `wait`.
    pub async fn notification(&mut self, wait: Duration) -> Option<(String, Value)> {
        let (method, params) = tokio::time::timeout(wait, self.seen.recv()).await.ok()??;
        let mut message = json!({ "jsonrpc": "2.0", "method": method });
        if !params.is_null() {
            message["params"] = params.clone();
        }
        assert_valid(self.version, "ServerNotification", &message);
        Some((method, params))
    }

    /// The requests the server sent to the client so far.
    pub fn asked(&self) -> Vec<(String, Value)> {
        self.state.asked.lock().unwrap().clone()
    }

    /// The handle to the server (to send notifications, or requests abandoned on purpose).
    pub fn handle(&self) -> &PeerHandle {
        &self.to_server
    }
}

/// The JSON pointer of a -32602 error.
pub fn pointer(error: &RpcError) -> String {
    let data: Value = serde_json::from_str(error.data().expect("error data").get()).unwrap();
    data["pointer"].as_str().expect("a pointer").to_owned()
}

/// The error's `data` as JSON.
pub fn data(error: &RpcError) -> Value {
    serde_json::from_str(error.data().expect("error data").get()).unwrap()
}

/// No elicitation answer configured: declines.
pub fn declines() -> ClientAnswers {
    ClientAnswers {
        elicit: json!({ "action": "decline" }),
        sample: json!({
            "role": "assistant",
            "model": "test-model",
            "content": { "type": "text", "text": "a haiku" },
        }),
    }
}

/// A tool handler that asks the client's model for a haiku and says who wrote it.
pub async fn poem(
    _: mcpwire_server::NoArguments,
    ctx: mcpwire_server::Context,
) -> mcpwire_server::ToolResult {
    use mcpwire_server::ToolResult;
    match ctx.sample("Write a haiku", 50).await {
        Ok(sampled) => ToolResult::text(format!(
            "{} by {}",
            sampled.text().unwrap_or("(not text)"),
            sampled.model
        )),
        Err(error) => ToolResult::error(error),
    }
}
