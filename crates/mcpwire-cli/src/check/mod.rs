//! `mcpwire check`: a black-box envelope property test of any JSON-RPC 2.0 / MCP server.
//!
//! The server is reached over stdio (started as a child process) or Streamable HTTP. After the
//! MCP handshake (whose negotiated version selects the profile), the checker sends fixed spec
//! cases and then generated ones (`mcpwire-proptest`'s named mutations, each with its oracle).
//! Over stdio replies are attributed to cases by id; every case is followed by a sentinel call
//! of a method the server answers (`ping`, a declared `--method`, or `server/discover`) whose
//! reply closes the case's window, so no fixed sleep is needed; late replies find their case by
//! id, and stdout lines that are not the protocol are set aside as one finding. A server that
//! exits or hangs is restarted and the case reported. Each exchange (the handshake's included)
//! is judged by `mcpwire_proptest::check_expected`, plus liveness and, over HTTP, the
//! transport's status codes, and (with the upstream schemas at hand) every reply against the
//! negotiated version's schema; every finding is a violation of a spec MUST or a strict finding
//! (mcpwire's policy where the specs allow more, see [`kinds`]). A case's window stays open
//! until its owed reply has come or `--timeout` has passed, so verdicts do not depend on how
//! fast the server answers. Failing generated cases are shrunk, failures are grouped by level,
//! rule and kind, and the report is a table, JSON, JUnit XML or SARIF 2.1.0.
//!
//! ```no_run
//! use clap::Parser;
//! use mcpwire_cli::check::{CheckArgs, execute};
//!
//! #[derive(Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     check: CheckArgs,
//! }
//!
//! let cli = Cli::parse_from(["check", "--stdio", "--cases", "20", "--", "mcpwire", "serve"]);
//! let report = execute(&cli.check).expect("the server answers");
//! assert!(report.passes());
//! ```

pub mod args;
pub mod auth;
pub mod auth_summary;
pub mod caller;
pub mod cancel;
pub mod capabilities;
pub mod cases;
pub mod describe;
pub mod exchange;
pub mod expect;
pub mod finding;
pub mod handshake;
pub mod http_client;
pub mod http_rules;
pub mod ids;
pub mod judge;
pub mod kinds;
pub mod lenient;
pub mod lifecycle;
pub mod lines;
pub mod logging;
pub mod pages;
pub mod param_headers;
pub mod progress;
pub mod prompts;
pub mod protocol;
pub mod render;
pub mod report;
pub mod retired_codes;
pub mod route_headers;
pub mod run;
pub mod sarif;
pub mod schema;
pub mod shrink;
pub mod sse;
pub mod stateless;
pub mod stdio;
pub mod tool_args;
pub mod tools;

pub use args::{CheckArgs, Format};
pub use report::Report;
pub use run::{execute, run};
