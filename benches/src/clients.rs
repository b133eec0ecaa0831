//! The client rows: mcpwire-client against rmcp's client, each talking to its own copy of the
//! same in-process server ([`crate::catalogue_server`], mcpwire-server) over the same framing.
//!
//! Each contender owns a current-thread tokio runtime on which its server task runs, served
//! over one end of a `tokio::io::duplex` pipe; the client holds the other end, split in two
//! halves: mcpwire-client as a [`StreamTransport`], rmcp as its `(AsyncRead, AsyncWrite)`
//! transport (feature `transport-async-rw`). Both frame newline-delimited JSON, as stdio does.
//! Both sessions are opened with `initialize` at 2025-11-25, each client with its defaults
//! otherwise: mcpwire-client holds every list result to the 2025-11-25 schema and checks a
//! tool's structured output against the `outputSchema` it listed; rmcp's response cache is on
//! by default but never serves a page here (the server sends no `ttlMs` under 2025-11-25 and
//! rmcp's default TTL is zero).
//!
//! What a call measures: from the typed call to its typed result, on one thread: the request
//! serialized and written, the server reading, dispatching and answering it, the client's
//! reader task reading the response and handing it to the waiting call, which decodes it.

use std::time::Duration;

use mcpwire_client::{CallOptions, Client, StreamTransport, Version};
use rmcp::model::ProtocolVersion;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _, RoleClient, RunningService};
use serde_json::{Map, Value, json};
use tokio::io::DuplexStream;
use tokio::runtime::Runtime;

/// Bytes each direction of the duplex pipe buffers (as the server rows' pipe).
const PIPE_CAPACITY: usize = 64 * 1024;

/// The contenders, by criterion function id.
pub const CLIENTS: [&str; 2] = ["mcpwire_client", "rmcp_client"];

/// A connected client of one contender, with its runtime and its server.
pub enum ClientContender {
    /// mcpwire-client.
    Mcpwire {
        /// The runtime the client and the server run on.
        runtime: Runtime,
        /// The client.
        client: Client,
    },
    /// rmcp's client.
    Rmcp {
        /// The runtime the client and the server run on.
        runtime: Runtime,
        /// The running client service.
        client: RunningService<RoleClient, ClientConfig>,
    },
}

impl ClientContender {
    /// The client named `name` (one of [`CLIENTS`]), connected to a fresh server.
    pub fn connect(name: &str) -> Result<ClientContender, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map_err(|e| format!("a current-thread runtime: {e}"))?;
        let end = runtime.block_on(async { serve() });
        let (read, write) = tokio::io::split(end);
        match name {
            "mcpwire_client" => {
                let client = runtime
                    .block_on(
                        Client::builder("mcpwire-bench", "0.0.0")
                            .protocol_version(Version::V2025_11_25)
                            .connect(StreamTransport::new(read, write)),
                    )
                    .map_err(|e| format!("mcpwire-client connect: {e}"))?;
                Ok(ClientContender::Mcpwire { runtime, client })
            }
            "rmcp_client" => {
                let config = ClientConfig::new(
                    ClientCapabilities::default(),
                    Implementation::new("rmcp-bench", "0.0.0"),
                )
                .with_protocol_version(ProtocolVersion::V_2025_11_25);
                let client = runtime
                    .block_on(
                        config.serve_with_lifecycle((read, write), ClientLifecycleMode::Initialize),
                    )
                    .map_err(|e| format!("rmcp client connect: {e}"))?;
                Ok(ClientContender::Rmcp { runtime, client })
            }
            other => Err(format!("unknown client {other}")),
        }
    }

    /// The version the session agreed on.
    pub fn protocol_version(&self) -> String {
        match self {
            ClientContender::Mcpwire { client, .. } => {
                client.protocol_version().as_str().to_owned()
            }
            ClientContender::Rmcp { client, .. } => client
                .peer_info()
                .map(|info| info.protocol_version.to_string())
                .unwrap_or_default(),
        }
    }

    /// One `tools/call` of `add` (20 + 22): the structured `sum`.
    pub fn call_add(&self) -> Result<i64, String> {
        match self {
            ClientContender::Mcpwire { runtime, client } => {
                let result = runtime
                    .block_on(client.call_tool(
                        "add",
                        &json!({"a": 20, "b": 22}),
                        &CallOptions::new(),
                    ))
                    .map_err(|e| e.to_string())?;
                sum(result.structured_content())
            }
            ClientContender::Rmcp { runtime, client } => {
                let mut arguments = Map::new();
                arguments.insert("a".into(), json!(20));
                arguments.insert("b".into(), json!(22));
                let params = CallToolRequestParams::new("add").with_arguments(arguments);
                let result = runtime
                    .block_on(client.peer().call_tool(params))
                    .map_err(|e| e.to_string())?;
                sum(result.structured_content.as_ref())
            }
        }
    }

    /// Every page of `tools/list`: how many tools were listed.
    pub fn list_all_tools(&self) -> Result<usize, String> {
        match self {
            ClientContender::Mcpwire { runtime, client } => runtime
                .block_on(client.list_all_tools())
                .map(|tools| tools.len())
                .map_err(|e| e.to_string()),
            ClientContender::Rmcp { runtime, client } => runtime
                .block_on(client.peer().list_all_tools())
                .map(|tools| tools.len())
                .map_err(|e| e.to_string()),
        }
    }
}

impl Drop for ClientContender {
    fn drop(&mut self) {
        match self {
            ClientContender::Mcpwire { runtime, client } => runtime.block_on(client.close()),
            ClientContender::Rmcp { runtime, client } => {
                client.cancellation_token().cancel();
                // The timer is made inside the runtime: `sleep` needs its context.
                runtime.block_on(async { tokio::time::sleep(Duration::from_millis(1)).await });
            }
        }
    }
}

/// Starts the catalogue server on one end of a duplex pipe (on the current runtime); returns
/// the client's end.
fn serve() -> DuplexStream {
    let (client, server) = tokio::io::duplex(PIPE_CAPACITY);
    tokio::spawn(async move {
        let (input, output) = tokio::io::split(server);
        let _ = crate::catalogue_server::server().serve(input, output).await;
    });
    client
}

fn sum(structured: Option<&Value>) -> Result<i64, String> {
    structured
        .and_then(|s| s.get("sum"))
        .and_then(Value::as_i64)
        .ok_or_else(|| format!("no structured sum in {structured:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_clients_agree_on_the_version_the_sum_and_the_whole_list() {
        for name in CLIENTS {
            let contender = ClientContender::connect(name).unwrap();
            assert_eq!(contender.protocol_version(), "2025-11-25", "{name}");
            assert_eq!(contender.call_add(), Ok(42), "{name}");
            assert_eq!(
                contender.list_all_tools(),
                Ok(crate::catalogue_server::TOOLS),
                "{name}"
            );
        }
    }
}
