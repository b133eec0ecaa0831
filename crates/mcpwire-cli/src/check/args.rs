//! The command line of `mcpwire check`.

use std::path::PathBuf;

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table per rule, then each failure with its smallest input (colour on a terminal
    /// unless `NO_COLOR` is set).
    Table,
    /// One JSON object.
    Json,
    /// JUnit XML, one test suite per rule.
    Junit,
}

/// `mcpwire check`: a black-box test of a server's JSON-RPC envelope handling.
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_help = "Examples:\n  mcpwire check --stdio -- node server.js\n  mcpwire check --http http://127.0.0.1:3000/mcp --format junit > check.xml\n\nExit status: 0 when no unexpected violation remains, 1 when one does (or an expectation is stale), 2 when the server could not be checked."
)]
pub struct CheckArgs {
    /// Start the server given after `--` and speak to it over stdin/stdout.
    #[arg(long, requires = "command", conflicts_with = "http")]
    pub stdio: bool,
    /// Speak to the server at this Streamable HTTP endpoint (http://HOST:PORT/PATH).
    #[arg(long, value_name = "URL")]
    pub http: Option<String>,
    /// The MCP version to ask for in `initialize`; the version the server chooses selects the
    /// profile. Default: the newest version with a handshake (2025-11-25).
    #[arg(long, value_name = "VERSION", conflicts_with = "profile")]
    pub mcp_version: Option<String>,
    /// Check under a fixed profile: `jsonrpc-2.0` (no handshake) or `mcp-<version>`
    /// (ask for that version and require the server to agree).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Generated cases after the fixed ones.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub cases: usize,
    /// Seed of the generated cases: the same seed gives the same cases.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Seconds to wait for the server's reply to one case before reporting it hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub timeout: f64,
    /// Seconds to wait for a (re)started server to answer `initialize` and the first sentinel.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub startup_timeout: f64,
    /// A method the server implements (repeatable). Valid requests for other methods must
    /// get -32601. Default: `ping` for MCP versions that have it, none otherwise.
    #[arg(long = "method", value_name = "NAME")]
    pub methods: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// A file listing known failure kinds, one per line (`#` comments). Unlisted failures fail
    /// the run; listed kinds that no longer occur are stale and fail it too.
    #[arg(long, value_name = "FILE")]
    pub expect_failures: Option<PathBuf>,
    /// Skip the fixed spec cases and send only generated ones.
    #[arg(long)]
    pub no_fixed: bool,
    /// Skip shrinking of failing generated cases.
    #[arg(long)]
    pub no_shrink: bool,
    /// The server command and its arguments (after `--`), for `--stdio`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}
