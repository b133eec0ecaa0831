//! `mcpwire check --http URL --auth`: the endpoint's side of MCP authorization, probed from
//! outside (an OAuth 2.1 resource server, MCP authorization 2025-06-18 and later).
//!
//! - the Protected Resource Metadata (RFC 9728), found from the challenge's
//!   `resource_metadata` and at both well-known URIs, and its JSON judged ([`metadata`]);
//! - POST, GET (SSE) and DELETE without a token, and `Authorization: foo`: each 401 with a
//!   usable Bearer challenge;
//! - bad tokens, each 401 (never 2xx or 5xx): `Bearer garbage`, an unsigned JWT, and, forged
//!   from the `--bearer` token ([`forge`]), its claims under `alg: none`, its payload altered,
//!   its claims re-signed with HS256 under a guessed key; the `--bearer-for` tokens of the
//!   roles `expired` and `wrong-audience`;
//! - the valid token in the query string alone is refused; the `insufficient-scope` token gets
//!   403 `insufficient_scope` naming a scope; the valid token with a foreign `Origin` or `Host`
//!   gets 403.
//!
//! Every probe is listed in the report with the status and challenge it saw; a probe whose
//! token was not given is "not run", never passed. Findings are the `auth-*` kinds of
//! [`AUTH_KINDS`](mcpwire_proptest::findings::AUTH_KINDS), judged under the revision asked
//! for, in the same report as every other finding ([`probes`]).

pub mod challenge;
pub mod forge;
pub mod metadata;
pub mod probes;
pub mod tokens;
pub mod wire;

use super::finding::Finding;
use super::report::CaseResult;

pub use super::auth_summary::{AuthSummary, Outcome, ProbeLine};

pub use probes::run_auth;

/// The result of `--auth`: the summary, and one case result per probe sent (with its
/// findings), for the report's tally.
#[derive(Debug, Clone, Default)]
pub struct AuthRun {
    /// The probes as the report lists them.
    pub summary: AuthSummary,
    /// The probes that were sent, as results.
    pub results: Vec<CaseResult>,
    /// Why the `--bearer` token was not accepted, when it was given and refused: the run
    /// stops after the probes (nothing else could be checked).
    pub refused_token: Option<String>,
}

impl AuthRun {
    /// Every finding of the run.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.results.iter().flat_map(|r| r.findings.iter())
    }
}
