//! A minimal rmcp server with one tool, `add`, for `mcpwire check` and for the end-to-end rows
//! of `cargo xtask bench` (against the mcpwire-server example's `add`).
//!
//! ```text
//! rmcp-server                       # stdio
//! rmcp-server --http 127.0.0.1:8080 # Streamable HTTP at http://127.0.0.1:8080/mcp
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;

mod adder;

use adder::Adder;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

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
