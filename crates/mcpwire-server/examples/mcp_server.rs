//! An MCP server in about 40 lines: `add` (typed integers, structured output), `countdown`
//! (one progress notification per step, stops when cancelled) and `greet` (asks the user's
//! name through elicitation when the client supports it). Serves stdio by default;
//! `--http ADDR` serves Streamable HTTP on `http://ADDR/mcp` (sessions for clients that
//! `initialize`, and 2026-07-28 requests each on its own), `--http ADDR --stateless` only the
//! latter (MCP 2026-07-28).
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use mcpwire::http::HttpConfig;
use mcpwire_server::{Context, Elicitation, McpServer, NoArguments, Structured, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

#[derive(Deserialize, JsonSchema)]
struct Countdown {
    /** Steps, 100 ms each. */
    n: u32,
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

async fn add(Add { a, b }: Add, _: Context) -> Result<Structured<Sum>, &'static str> {
    a.checked_add(b)
        .map(|sum| Structured(Sum { sum }))
        .ok_or("the sum overflows i64")
}

async fn countdown(Countdown { n }: Countdown, ctx: Context) -> ToolResult {
    for step in 1..=n {
        tokio::select! {
            _ = ctx.cancelled() => return ToolResult::error("cancelled"),
            _ = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
        ctx.progress(f64::from(step), Some(f64::from(n))).await;
    }
    ToolResult::text("liftoff")
}

async fn greet(_: NoArguments, ctx: Context) -> ToolResult {
    if !ctx.can_elicit() {
        return ToolResult::text("Hello, stranger!");
    }
    match ctx.elicit::<Name>("What is your name?").await {
        Ok(Elicitation::Accepted(Name { name })) => ToolResult::text(format!("Hello, {name}!")),
        Ok(_) => ToolResult::text("Hello, stranger!"),
        Err(error) => ToolResult::error(error),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let transport = match transport(&args) {
        Ok(transport) => transport,
        Err(code) => return code,
    };
    // Stdio is one conversation, served on the calling thread; Streamable HTTP serves many
    // clients at once, on tokio's multi-thread runtime (a worker per core).
    let mut runtime = match transport {
        Transport::Stdio => tokio::runtime::Builder::new_current_thread(),
        Transport::Http { .. } => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = match runtime.enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("mcp_server: no tokio runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(transport))
}

/// What the command line asks to serve.
enum Transport {
    Stdio,
    Http { addr: SocketAddr, stateless: bool },
}

/// The transport `args` name; the exit code when they name none.
fn transport(args: &[String]) -> Result<Transport, ExitCode> {
    match args {
        [] => Ok(Transport::Stdio),
        [flag, addr, rest @ ..] if flag == "--http" && rest.len() <= 1 => {
            let stateless = match rest {
                [] => false,
                [s] if s == "--stateless" => true,
                _ => return Err(usage()),
            };
            let Ok(addr) = addr.parse() else {
                eprintln!("mcp_server: --http takes IP:PORT, not {addr:?}");
                return Err(ExitCode::from(2));
            };
            Ok(Transport::Http { addr, stateless })
        }
        _ => Err(usage()),
    }
}

async fn serve(transport: Transport) -> ExitCode {
    let server = McpServer::builder("mcpwire-example", env!("CARGO_PKG_VERSION"))
        .tool("add", "Add two integers", add)
        .tool(
            "countdown",
            "Count down from n, reporting progress",
            countdown,
        )
        .tool(
            "greet",
            "Greet the user, asking their name if the client can",
            greet,
        )
        .build()
        .expect("the example's schemas fit MCP");
    let served = match transport {
        Transport::Stdio => server.serve_stdio().await,
        Transport::Http { addr, stateless } => {
            let config = HttpConfig::default().bind(addr).stateless(stateless);
            match server.http_server(config) {
                Ok(http) => {
                    eprintln!("mcp_server: listening on {}", http.url());
                    // SIGTERM or Ctrl-C: the calls in progress finish (10 s at most), then exit.
                    let grace = std::time::Duration::from_secs(10);
                    http.run_graceful(mcpwire::http::shutdown_signal(), grace)
                        .await
                }
                Err(error) => Err(error),
            }
        }
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp_server: {error}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: mcp_server [--http IP:PORT [--stateless]]");
    ExitCode::from(2)
}
