//! The `mcpwire` command.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mcpwire::Profile;

/// JSON-RPC 2.0 / MCP wire toolkit: reference server, decoder and checker.
#[derive(Parser)]
#[command(name = "mcpwire", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the serve flags' size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run the reference server over stdio (one JSON-RPC message per line).
    Serve(ServeArgs),
    /// List the profiles and the facts derived from their schemas.
    Profiles,
    /// Test any server's JSON-RPC envelope handling, over stdio or Streamable HTTP.
    Check(mcpwire_cli::check::CheckArgs),
    /// Decode captured messages with one MCP version's generated types.
    ///
    /// Each value is decoded from the input's text and printed back from the typed value, so an
    /// integer in a typed position is spelled as it was sent (`1e3`, `-0`,
    /// `18446744073709551616`). What the types hold as a `serde_json::Value` keeps its value
    /// but not its spelling: free-form members (`arguments`, `structuredContent`, undeclared
    /// members, `_meta` beyond its declared ones), a result decoded without `--as` and the
    /// params of a method the version does not define; so does a `number` member (`1e3` →
    /// `1000.0`).
    Decode(mcpwire_cli::decode::DecodeArgs),
    /// Generate Rust types from any JSON Schema: one module (-o) or a crate (--crate).
    Gen(mcpwire_cli::gen_types::GenArgs),
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Profile to start with: `jsonrpc-2.0` or `mcp-<version>`. MCP `initialize` switches to the
    /// negotiated version.
    /// Default: the latest MCP version.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    profile: Option<Profile>,
    /// Longest accepted line, in bytes; longer lines are discarded unread and answered -32600.
    #[arg(long, value_name = "BYTES")]
    max_frame_bytes: Option<usize>,
    /// Largest accepted batch (number of elements); larger batches get one -32600.
    #[arg(long, value_name = "N")]
    max_batch_len: Option<usize>,
    /// Serve Streamable HTTP on this address (e.g. 127.0.0.1:8080; port 0 picks one) instead
    /// of stdio; the endpoint URL is printed on stderr. Loopback only unless --allow-remote.
    #[arg(long, value_name = "ADDR")]
    http: Option<String>,
    #[command(flatten)]
    http_settings: mcpwire_cli::http::HttpArgs,
}

fn parse_profile(name: &str) -> Result<Profile, String> {
    match Profile::by_name(name) {
        Some(profile) => Ok(profile),
        None => Err(format!(
            "unknown profile `{name}`; known profiles: {}",
            Profile::names().join(", ")
        )),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Check(args) => mcpwire_cli::check::run(&args),
        Command::Decode(args) => mcpwire_cli::decode::main(&args),
        Command::Gen(args) => mcpwire_cli::gen_types::main(&args),
        Command::Profiles => {
            print!("{}", mcpwire_cli::profiles::table());
            ExitCode::SUCCESS
        }
    }
}

/// The libraries' `tracing` events (the transport's warnings, the drain on shutdown, Redis
/// outages, refused tokens at `debug`) on stderr, which the MCP stdio transport leaves to
/// logging. `MCPWIRE_LOG` takes an `EnvFilter` directive (`debug`, `mcpwire_server=trace`, …);
/// the default is `info`.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCPWIRE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(anstream::AutoStream::choice(&std::io::stderr()) != anstream::ColorChoice::Never)
        .try_init();
}

fn serve(args: ServeArgs) -> ExitCode {
    init_logging();
    let mut profile = args.profile.unwrap_or_else(Profile::latest_mcp);
    if let Some(bytes) = args.max_frame_bytes {
        profile = profile.with_max_frame_bytes(bytes);
    }
    if args.max_batch_len.is_some() {
        profile = profile.with_max_batch_len(args.max_batch_len);
    }
    if let Some(addr) = &args.http {
        let mut settings = args.http_settings.clone();
        settings.max_body_bytes = settings.max_body_bytes.or(args.max_frame_bytes);
        return match mcpwire_cli::http::serve_with(profile, addr, &settings) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("mcpwire serve: HTTP on {addr} failed: {error}");
                ExitCode::FAILURE
            }
        };
    }
    match mcpwire_cli::reference::serve_stdio(profile) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcpwire serve: stdio failed: {error}");
            ExitCode::FAILURE
        }
    }
}
