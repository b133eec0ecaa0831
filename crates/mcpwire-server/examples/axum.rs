//! The MCP endpoint mounted in an axum application: `/mcp` beside the app's other routes
//! (`/health` here), every request traced by tower-http's `TraceLayer`, the client's address
//! handed to the endpoint for its per-client limits, and a graceful shutdown on SIGTERM or
//! Ctrl-C. Put an authentication layer where the comment says.
//!
//! `cargo run -p mcpwire-server --example axum -- 127.0.0.1:8000`
use std::net::SocketAddr;
use std::process::ExitCode;

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use mcpwire::http::{HttpConfig, McpEndpoint, PeerAddr, shutdown_signal};
use mcpwire_server::{Context, McpServer, Structured};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tower_http::trace::TraceLayer;

#[derive(Deserialize, JsonSchema)]
struct Pair {
    a: i64,
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Total {
    sum: i64,
}

async fn add(Pair { a, b }: Pair, _: Context) -> Result<Structured<Total>, &'static str> {
    a.checked_add(b)
        .map(|sum| Structured(Total { sum }))
        .ok_or("the sum overflows i64")
}

/// Hands the connection's address to the endpoint (its per-client session share).
async fn peer_address(request: Request, next: Next) -> Response {
    let mut request = request;
    if let Some(ConnectInfo(addr)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
        let addr = *addr;
        request.extensions_mut().insert(PeerAddr(addr));
    }
    next.run(request).await
}

#[tokio::main]
async fn main() -> ExitCode {
    let Some(Ok(addr)) = std::env::args().nth(1).map(|a| a.parse::<SocketAddr>()) else {
        eprintln!("usage: axum IP:PORT");
        return ExitCode::from(2);
    };
    let server = McpServer::builder("mcpwire-axum-example", env!("CARGO_PKG_VERSION"))
        .tool("add", "Add two integers", add)
        .build()
        .expect("the example's schemas fit MCP");
    let mcp = McpEndpoint::new(HttpConfig::default(), server.http_service());
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/mcp", mcp)
        // An authentication layer goes here (e.g. tower-http's `ValidateRequestHeaderLayer`).
        .layer(middleware::from_fn(peer_address))
        .layer(TraceLayer::new_for_http());
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("axum: {error}");
            return ExitCode::FAILURE;
        }
    };
    let local = listener.local_addr().map_or(addr, |a| a);
    eprintln!("axum: listening on http://{local}/mcp");
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await;
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("axum: {error}");
            ExitCode::FAILURE
        }
    }
}
