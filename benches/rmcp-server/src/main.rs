//! A minimal rmcp server with one tool, `add`, for `mcpwire check` and for the end-to-end rows
//! of `cargo xtask bench` (against the mcpwire-server example's `add`).
//!
//! ```text
//! rmcp-server                       # stdio (tokio's Stdin/Stdout: the blocking pool)
//! rmcp-server --stdio-pipes         # stdio polled as pipes (rmcp's `stdio_pipes`)
//! rmcp-server --http 127.0.0.1:8080 # Streamable HTTP at http://127.0.0.1:8080/mcp
//! rmcp-server --http 127.0.0.1:0 --json-response
//! rmcp-server --http 127.0.0.1:0 --floor
//! ```
//!
//! `--json-response` is rmcp at its best for the HTTP load rows: answers as one JSON body
//! (`json_response`) and no sessions (`legacy_session_mode` off); without it, rmcp's defaults
//! (SSE answers, sessions for the versions before 2026-07-28).
//!
//! `--floor` is no MCP server: axum on the same runtime reads each POST's body whole and
//! answers it with the same fixed bytes, the reply `add` would give. It is the host's floor
//! for the HTTP load rows: what one HTTP exchange costs here with no MCP work at all.

use std::net::SocketAddr;
use std::process::ExitCode;

mod adder;

use adder::Adder;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

const USAGE: &str =
    "usage: rmcp-server [--stdio-pipes | --http HOST:PORT [--json-response | --floor]]";

/// The transport chosen on the command line.
enum Transport {
    /// Stdio through `rmcp::transport::stdio` (`true`: `stdio_pipes`, rmcp at its best).
    Stdio(bool),
    Http(SocketAddr, Mode),
}

/// How the Streamable HTTP server answers.
#[derive(Clone, Copy)]
enum Mode {
    /// rmcp's defaults.
    Default,
    /// `json_response` on, `legacy_session_mode` off.
    JsonResponse,
    /// No MCP: every POST read and answered with [`FLOOR_REPLY`].
    Floor,
}

/// The floor's answer to every POST: the reply to `tools/call` `add` of 2 and 40 under
/// 2026-07-28, as the servers give it.
const FLOOR_REPLY: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"sum\":42}"}],"structuredContent":{"sum":42},"resultType":"complete"}}"#;

fn parse_args() -> Result<Transport, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(Transport::Stdio(false)),
        [pipes] if pipes == "--stdio-pipes" => Ok(Transport::Stdio(true)),
        [flag, addr, rest @ ..] if flag == "--http" && rest.len() <= 1 => {
            let mode = match rest {
                [] => Mode::Default,
                [json] if json == "--json-response" => Mode::JsonResponse,
                [floor] if floor == "--floor" => Mode::Floor,
                _ => return Err(USAGE.to_owned()),
            };
            addr.parse()
                .map(|addr| Transport::Http(addr, mode))
                .map_err(|e| format!("--http {addr}: {e}"))
        }
        _ => Err(USAGE.to_owned()),
    }
}

async fn serve_stdio(pipes: bool) -> Result<(), String> {
    let running = if pipes {
        Adder.serve(rmcp::transport::stdio_pipes()).await
    } else {
        Adder.serve(rmcp::transport::stdio()).await
    }
    .map_err(|e| format!("stdio: {e}"))?;
    running.waiting().await.map_err(|e| format!("stdio: {e}"))?;
    Ok(())
}

async fn serve_http(addr: SocketAddr, mode: Mode) -> Result<(), String> {
    let config = match mode {
        Mode::Default => StreamableHttpServerConfig::default(),
        Mode::JsonResponse => StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true),
        Mode::Floor => {
            let answer = |_body: axum::body::Bytes| async {
                (
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    FLOOR_REPLY,
                )
            };
            return run(
                addr,
                axum::Router::new().route("/mcp", axum::routing::post(answer)),
            )
            .await;
        }
    };
    let service: StreamableHttpService<Adder, LocalSessionManager> =
        StreamableHttpService::new(|| Ok(Adder), Default::default(), config);
    run(addr, axum::Router::new().nest_service("/mcp", service)).await
}

/// Serves `router` at `addr` until Ctrl-C, after saying where on stderr.
async fn run(addr: SocketAddr, router: axum::Router) -> Result<(), String> {
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
        Ok(Transport::Stdio(pipes)) => serve_stdio(pipes).await,
        Ok(Transport::Http(addr, mode)) => serve_http(addr, mode).await,
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
