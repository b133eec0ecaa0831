//! The client the official MCP conformance suite drives in its client mode
//! (`conformance client --command "everything_client" --scenario NAME`): it connects over
//! Streamable HTTP to the URL given as the last argument, under the version in
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` (default 2025-11-25), and does what the scenario in
//! `MCP_CONFORMANCE_SCENARIO` expects of a client (some scenarios pass arguments in
//! `MCP_CONFORMANCE_CONTEXT`). It exits 0 when every step worked, 1 otherwise (the reason on
//! stderr).
//!
//! Built with the feature `oauth`, an `auth/*` scenario is answered with the client's OAuth:
//! the "browser" is headless (it GETs the authorization URL and takes the redirect's
//! parameters from the `Location` the suite's authorization server answers with), and
//! pre-registered credentials come from the context's `client_id` / `client_secret` (with the
//! client credentials grant for `auth/client-credentials-basic` and `-jwt`).
//!
//! Run the suite with `scripts/conformance/client.sh`.

use std::process::ExitCode;
use std::time::Duration;

use mcpwire_client::{
    CallOptions, Client, ClientError, ElicitAnswer, HttpTransport, Root, SamplingReply, ToolInfo,
    Version,
};
use serde_json::{Map, Value, json};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let Some(url) = std::env::args()
        .nth(1)
        .filter(|_| std::env::args().len() == 2)
    else {
        eprintln!("usage: everything_client URL (scenario in MCP_CONFORMANCE_SCENARIO)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    match run(&url, &scenario).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{scenario}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The version the suite asks for.
fn requested_version() -> Result<Version, String> {
    let text = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION")
        .unwrap_or_else(|_| "2025-11-25".to_owned());
    Version::parse(&text).ok_or_else(|| format!("unknown protocol version {text:?}"))
}

/// The scenario's context (`MCP_CONFORMANCE_CONTEXT`), `null` when there is none.
fn context() -> Value {
    std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null)
}

async fn connect(url: &str) -> Result<Client, ClientError> {
    let transport = HttpTransport::new(url)?;
    #[cfg(feature = "oauth")]
    let transport = match std::env::var("MCP_CONFORMANCE_SCENARIO") {
        Ok(scenario) if scenario.starts_with("auth/") => {
            transport.oauth(headless::oauth(&scenario))
        }
        _ => transport,
    };
    Client::builder("mcpwire-everything-client", env!("CARGO_PKG_VERSION"))
        .protocol_version(requested_version().map_err(ClientError::Negotiation)?)
        .request_timeout(Some(Duration::from_secs(20)))
        // Accept every form as it comes: the schema's defaults fill what is left out.
        .on_elicitation(|form| async move {
            let mut content = Map::new();
            if form.message.contains("confirm") || form.message.contains("Confirm") {
                content.insert("confirmed".into(), Value::Bool(true));
            }
            Ok(ElicitAnswer::Accept(content))
        })
        .on_sampling(|_| async move {
            let reply =
                SamplingReply::assistant_text("mcpwire-everything-client", "A sampled answer.");
            Ok(reply.stop_reason("endTurn"))
        })
        .roots(vec![Root::new("file:///tmp").with_name("tmp")])
        .on_violation(|violation| eprintln!("violation: {violation}"))
        .connect(transport)
        .await
}

async fn run(url: &str, scenario: &str) -> Result<(), String> {
    let client = connect(url).await.map_err(|e| format!("connect: {e}"))?;
    let outcome = scenario_steps(&client, scenario).await;
    client.close().await;
    outcome.map_err(|e| e.to_string())
}

async fn scenario_steps(client: &Client, scenario: &str) -> Result<(), ClientError> {
    let options = CallOptions::new();
    let tools = client.list_all_tools().await?;
    match scenario {
        "tools_call" => {
            client
                .call_tool("add_numbers", &json!({"a": 5, "b": 3}), &options)
                .await?;
        }
        "elicitation-sep1034-client-defaults" => {
            client
                .call_tool("test_client_elicitation_defaults", &json!({}), &options)
                .await?;
        }
        "sse-retry" => {
            client
                .call_tool("test_reconnection", &json!({}), &options)
                .await?;
        }
        "sep-2322-client-request-state" => {
            for name in [
                "test_mrtr_echo_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_state",
                "test_mrtr_no_result_type",
            ] {
                client.call_tool(name, &json!({}), &options).await?;
            }
        }
        "http-standard-headers" => {
            for tool in &tools {
                client
                    .call_tool(&tool.name, &sample_arguments(tool), &options)
                    .await?;
            }
            for resource in client.list_all_resources().await? {
                client.read_resource(&resource.uri).await?;
            }
            for prompt in client.list_all_prompts().await? {
                client.get_prompt(&prompt.name, &[]).await?;
            }
        }
        "http-custom-headers" => {
            let context = context();
            let calls = context
                .get("toolCalls")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for call in calls {
                let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
                let arguments = call.get("arguments").cloned().unwrap_or(json!({}));
                client.call_tool(name, &arguments, &options).await?;
            }
        }
        "http-invalid-tool-headers" => {
            // Tools with invalid `x-mcp-header` declarations are not listed: call the rest.
            for tool in &tools {
                client
                    .call_tool(&tool.name, &sample_arguments(tool), &options)
                    .await?;
            }
        }
        "json-schema-2020-12-preservation" => {
            let focal = tools
                .iter()
                .find(|tool| tool.name == "json_schema_2020_12_tool")
                .ok_or_else(|| {
                    ClientError::Params("json_schema_2020_12_tool is not listed".into())
                })?;
            let arguments = json!({ "schema": focal.input_schema });
            client
                .call_tool("json_schema_echo", &arguments, &options)
                .await?;
        }
        auth if auth.starts_with("auth/") => {
            // Authorized once connected; a call may ask for more scopes (step-up).
            for tool in &tools {
                client
                    .call_tool(&tool.name, &sample_arguments(tool), &options)
                    .await?;
            }
        }
        // initialize, request-metadata, json-schema-ref-no-deref and anything else: connecting
        // and listing the tools is the whole scenario.
        _ => {}
    }
    Ok(())
}

/// Arguments for a tool from its input schema: each required property a value of its type.
fn sample_arguments(tool: &ToolInfo) -> Value {
    let schema = tool.input_schema.to_value().unwrap_or(Value::Null);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut arguments = Map::new();
    for name in required {
        let kind = schema
            .pointer(&format!("/properties/{name}/type"))
            .and_then(Value::as_str)
            .unwrap_or("string");
        let value = match kind {
            "integer" | "number" => json!(1),
            "boolean" => json!(true),
            "array" => json!([]),
            "object" => json!({}),
            "null" => Value::Null,
            _ => json!("sample"),
        };
        arguments.insert(name.to_owned(), value);
    }
    Value::Object(arguments)
}

/// The suite's user: no browser, the authorization server's redirect read from its answer.
#[cfg(feature = "oauth")]
mod headless {
    use http_body_util::Empty;
    use hyper::body::Bytes;
    use hyper::header::LOCATION;
    use hyper_util::client::legacy::Client;
    use hyper_util::client::legacy::connect::HttpConnector;
    use hyper_util::rt::TokioExecutor;
    use mcpwire_client::auth::{AuthError, AuthorizationResponse, OAuth, UserAgent};
    use mcpwire_client::transport::BoxFuture;
    use serde_json::Value;

    /// The redirect URI registered (never listened on: the redirect is read, not followed).
    const REDIRECT_URI: &str = "http://localhost:3000/callback";

    /// The Client ID Metadata Document URL the suite's authorization server expects.
    const METADATA_DOCUMENT: &str = "https://conformance-test.local/client-metadata.json";

    struct Headless {
        client: Client<HttpConnector, Empty<Bytes>>,
    }

    impl UserAgent for Headless {
        fn redirect_uri(&self) -> String {
            REDIRECT_URI.to_owned()
        }

        fn authorize(
            &self,
            url: String,
        ) -> BoxFuture<'_, Result<AuthorizationResponse, AuthError>> {
            Box::pin(async move {
                let uri = url
                    .parse()
                    .map_err(|e| AuthError::User(format!("{url}: {e}")))?;
                let answer = self
                    .client
                    .get(uri)
                    .await
                    .map_err(|e| AuthError::User(format!("GET {url}: {e}")))?;
                let location = answer
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .ok_or_else(|| {
                        AuthError::User(format!(
                            "{url} answered {} without a redirect",
                            answer.status()
                        ))
                    })?;
                Ok(AuthorizationResponse::from_url(location))
            })
        }
    }

    /// The OAuth of an `auth/*` scenario: pre-registered credentials when the context has
    /// them; the client credentials grant for `auth/client-credentials-basic` and `-jwt`.
    pub(super) fn oauth(scenario: &str) -> OAuth {
        let context = super::context();
        let text = |name: &str| {
            context
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        if scenario == "auth/client-credentials-basic" {
            return OAuth::client_credentials_grant(text("client_id"), text("client_secret"));
        }
        if scenario == "auth/client-credentials-jwt" {
            let pem = text("private_key_pem").as_bytes();
            match OAuth::client_credentials_jwt(text("client_id"), pem, text("signing_algorithm")) {
                Ok(oauth) => return oauth,
                Err(error) => eprintln!("the scenario's key: {error}"),
            }
        }
        let user = Headless {
            client: Client::builder(TokioExecutor::new()).build_http(),
        };
        let oauth = OAuth::new(user)
            .client_name("mcpwire-everything-client")
            .client_metadata_url(METADATA_DOCUMENT);
        match context.get("client_id").and_then(Value::as_str) {
            Some(id) => {
                oauth.client_credentials(id, context.get("client_secret").and_then(Value::as_str))
            }
            None => oauth,
        }
    }
}
