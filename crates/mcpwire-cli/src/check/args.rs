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
    /// JUnit XML: one test suite, one test case per case sent (a failing case lists its
    /// kinds).
    Junit,
    /// SARIF 2.1.0 for code-scanning views: one rule per finding kind, one result per case
    /// and kind.
    Sarif,
}

/// `mcpwire check`: a black-box test of a server's JSON-RPC envelope handling.
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("tool_mode").args(["tools", "all"]).multiple(true)))]
#[command(group(clap::ArgGroup::new("calls_tools").args(["tools", "all", "protocol"]).multiple(true)))]
#[command(
    after_help = "Examples:\n  mcpwire check --stdio -- node server.js\n  mcpwire check --http http://127.0.0.1:3000/mcp --format junit > check.xml\n  mcpwire check --http https://mcp.internal.example/mcp --cacert ca.pem\n\nExit status: 0 when no unexpected violation remains (strict findings count only under --strict), 1 when one does (or an expectation is stale, or the handshake broke a rule so the check could not go on), 2 when the checker could not run at all (the command cannot start, nothing on stdout within --startup-timeout, connection refused, the URL is not an MCP endpoint); --format json and junit then still write a report carrying the error.\n\nEvery finding kind, its level and the spec sentence it rests on: mcpwire check --list-kinds"
)]
pub struct CheckArgs {
    /// Start the server given after `--` and speak to it over stdin/stdout.
    #[arg(long, requires = "command", conflicts_with = "http")]
    pub stdio: bool,
    /// Speak to the server at this Streamable HTTP endpoint (http://HOST:PORT/PATH or
    /// https://HOST:PORT/PATH; https trusts the system's root certificates).
    #[arg(long, value_name = "URL")]
    pub http: Option<String>,
    /// Also trust the CA certificates of this PEM file for an https:// endpoint (a private
    /// CA).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub cacert: Option<std::path::PathBuf>,
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
    /// Seconds to wait for a (re)started server to answer `initialize` and the first sentinel
    /// (a cold `npx -y` start downloads the package first).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub startup_timeout: f64,
    /// A method the server implements (repeatable). Valid requests for other methods must
    /// get -32601. Default: `ping` for MCP versions that have it, none otherwise. Where the
    /// version has no `ping`, the first one is the sentinel call that ends each case.
    #[arg(long = "method", value_name = "NAME")]
    pub methods: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// A file listing known findings, one per line: RULE KIND [CASE LABEL] (`#` comments),
    /// e.g. `rule-2 missing-reply`. Unlisted findings fail the run; listed ones that no longer
    /// occur are stale and fail it too.
    #[arg(long, value_name = "FILE")]
    pub expect_failures: Option<PathBuf>,
    /// Let strict findings (mcpwire's stricter policy where the specs allow more) fail the run
    /// too; by default only violations of a spec MUST do.
    #[arg(long)]
    pub strict: bool,
    /// List every failing input of each finding kind (the table shows one by default).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print every finding kind with its level and the spec sentence it rests on, and exit.
    #[arg(long)]
    pub list_kinds: bool,
    /// The folder holding the upstream MCP schemas (`<version>/schema.json`) every reply is
    /// validated against, for a schema the binary does not carry (a newer draft). Default:
    /// `MCP_SCHEMA_DIR` when it holds the version's file, else the released schema built into
    /// the binary, else `../shared/schemas/mcp`; without any the report says replies were not
    /// validated.
    #[arg(long, value_name = "DIR")]
    pub schema_dir: Option<PathBuf>,
    /// Skip the fixed spec cases and send only generated ones.
    #[arg(long)]
    pub no_fixed: bool,
    /// Skip shrinking of failing generated cases.
    #[arg(long)]
    pub no_shrink: bool,
    /// Also call the list method of tools, prompts and resources once each: a declared
    /// capability's must answer, an undeclared one's must get -32601. Then walk every page of
    /// each declared list method (resource templates too): a repeated item or cursor is
    /// reported, and a cursor the server never issued must get -32602.
    #[arg(long)]
    pub capabilities: bool,
    /// Also property-test every tool the server lists, from its own inputSchema (this calls
    /// the tools): arguments the schema accepts must get a result (structuredContent matching
    /// the outputSchema where one is declared), arguments it refuses must be refused. Each
    /// prompt is got with its required arguments and without each, and each resource template
    /// is expanded and read once.
    #[arg(long)]
    pub tools: bool,
    /// Also judge the protocol's properties where the server declared the feature: ping's
    /// empty result, logging/setLevel, resources/subscribe, completion/complete for every
    /// prompt argument and template variable, and one call of each tool with a progressToken
    /// (this calls the tools) whose progress must name the token, increase and stop with the
    /// response.
    #[arg(long)]
    pub protocol: bool,
    /// `--capabilities --tools --protocol`.
    #[arg(long)]
    pub all: bool,
    /// Also probe the endpoint's authorization (with --http): the Protected Resource Metadata,
    /// the 401 challenges, bad tokens (forged from --bearer's), the query string, scope, and a
    /// foreign Origin and Host; `auth-*` findings (docs/auth.md).
    #[arg(long, requires = "http")]
    pub auth: bool,
    /// A valid access token for the endpoint, sent as `Authorization: Bearer TOKEN` on every
    /// request of the run (and, with --auth, the token the bad ones are forged from).
    #[arg(long, value_name = "TOKEN", requires = "http")]
    pub bearer: Option<String>,
    /// A token for a probe a checker cannot forge (repeatable, with --auth): ROLE=TOKEN, ROLE
    /// one of expired, wrong-audience, insufficient-scope. A probe without its token is
    /// reported as not run.
    #[arg(long = "bearer-for", value_name = "ROLE=TOKEN", requires = "auth")]
    pub bearer_for: Vec<String>,
    /// Test only this tool (repeatable; with --tools).
    #[arg(long = "tool", value_name = "NAME", requires = "tool_mode")]
    pub tool: Vec<String>,
    /// Do not call this tool (repeatable; with --tools).
    #[arg(long = "skip-tool", value_name = "NAME", requires = "tool_mode")]
    pub skip_tool: Vec<String>,
    /// The most tools/call requests in the whole run, shrinking included (with --tools).
    #[arg(long, value_name = "N", default_value_t = 200, requires = "tool_mode")]
    pub tool_calls: usize,
    /// Seconds to wait for the reply to one tool call (with --tools or --protocol).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        requires = "calls_tools"
    )]
    pub tool_timeout: f64,
    /// The server command and its arguments (after `--`), for `--stdio`.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}
