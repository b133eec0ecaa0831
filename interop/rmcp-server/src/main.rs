//! A minimal rmcp server with one tool, `add`, for `mcpwire check`.
//!
//! ```text
//! rmcp-server                       # stdio
//! rmcp-server --http 127.0.0.1:8080 # Streamable HTTP at http://127.0.0.1:8080/mcp
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};

/// The arguments of `add`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

/// The server. `#[tool_handler]` routes calls through `Self::tool_router()`, which
/// `#[tool_router]` generates from the `#[tool]` methods.
#[derive(Debug, Clone, Copy)]
struct Adder;

#[tool_router]
impl Adder {
    #[tool(description = "Add two integers")]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        a.wrapping_add(b).to_string()
    }
}

#[tool_handler]
impl ServerHandler for Adder {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// The transport chosen on the command line.
enum Transport {
    Stdio,
    Http(SocketAddr),
}

fn parse_args() -> Result<Transport, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(Transport::Stdio),
        [flag, addr] if flag == "--http" => addr
            .parse()
            .map(Transport::Http)
            .map_err(|e| format!("--http {addr}: {e}")),
        _ => Err("usage: rmcp-server [--http HOST:PORT]".to_owned()),
    }
}

async fn serve_stdio() -> Result<(), String> {
    let running = Adder
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("stdio: {e}"))?;
    running.waiting().await.map_err(|e| format!("stdio: {e}"))?;
    Ok(())
}

async fn serve_http(addr: SocketAddr) -> Result<(), String> {
    let service: StreamableHttpService<Adder, LocalSessionManager> = StreamableHttpService::new(
        || Ok(Adder),
        Default::default(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("bind {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!("rmcp-server: listening on http://{local}/mcp");
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("serve {addr}: {e}"))
}

#[tokio::main]
async fn main() -> ExitCode {
    let outcome = match parse_args() {
        Ok(Transport::Stdio) => serve_stdio().await,
        Ok(Transport::Http(addr)) => serve_http(addr).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rmcp-server: {e}");
            ExitCode::FAILURE
        }
    }
}
