//! The MCP endpoint mounted in an axum application: `/mcp` beside the app's other routes
//! (`/health` here), every request traced by tower-http's `TraceLayer`, the client's address
//! handed to the endpoint for its per-client limits, and a graceful shutdown on SIGTERM or
//! Ctrl-C: no new connection is taken, and the requests and streams in progress get a grace
//! (10 s unless given) to finish before the process closes them and exits. Put an
//! authentication layer where the comment says.
//!
//! `cargo run -p mcpwire-server --example axum -- 127.0.0.1:8000 [GRACE_SECS]`
use std::future::IntoFuture;
use std::io::Write as _;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

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
    let mut args = std::env::args().skip(1);
    let addr = args.next().map(|a| a.parse::<SocketAddr>());
    let grace = args
        .next()
        .map(|g| g.parse::<u64>().map(Duration::from_secs));
    let (Some(Ok(addr)), None | Some(Ok(_))) = (addr, &grace) else {
        eprintln!("usage: axum IP:PORT [GRACE_SECS]");
        return ExitCode::from(2);
    };
    let grace = grace
        .and_then(Result::ok)
        .unwrap_or(Duration::from_secs(10));
    let server = McpServer::builder("mcpwire-axum-example", env!("CARGO_PKG_VERSION"))
        .tool("add", "Add two integers", add)
        .build()
        .expect("the example's schemas fit MCP");
    let mcp = McpEndpoint::new(HttpConfig::default(), server.http_service());
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/mcp", mcp)
        // An authentication layer goes here (a tower layer of the application's own), or in
        // the endpoint: `HttpConfig::guard` with `mcpwire_server::auth::ResourceServer`
        // (feature `auth`: MCP's OAuth resource server, docs/auth.md).
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
    // axum waits for every connection to end; a stream that never ends (a GET stream, a
    // long call) would hold the process forever. The grace starts at the signal.
    let (signalled, grace_starts) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        shutdown_signal().await;
        let _ = signalled.send(());
    };
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .into_future();
    let grace_over = async move {
        match grace_starts.await {
            Ok(()) => tokio::time::sleep(grace).await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        served = served => match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("axum: {error}");
                ExitCode::FAILURE
            }
        },
        () = grace_over => {
            // Not `eprintln!`, which panics when stderr is gone (a supervisor that stopped
            // reading it) and would turn a clean stop into exit status 101.
            let _ = writeln!(
                std::io::stderr(),
                "axum: requests still open after the {grace:?} grace: closing them"
            );
            ExitCode::SUCCESS
        }
    }
}
