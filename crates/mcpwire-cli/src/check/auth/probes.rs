//! The probes of `--auth`, in the order sent, and how each is judged (see the
//! [module documentation](super)).

use hyper::{Method, Uri};
use serde_json::Value;

use super::challenge::{Bearer, bearer};
use super::forge::{Jwt, unsigned_stranger};
use super::metadata::{self, Source, is_absolute_url, plain_http_remote};
use super::tokens::{Role, Tokens};
use super::wire::{Probe, Seen, Wire};
use super::{AuthRun, AuthSummary, Outcome, ProbeLine};
use crate::check::finding::{Finding, RuleId};
use crate::check::handshake::{discover_frame, initialize_frame};
use crate::check::report::CaseResult;
use crate::check::route_headers::{ROUTED_VERSION, RouteHeaders};

/// The `Origin` a page of another site sends.
pub const FOREIGN_ORIGIN: &str = "https://mcpwire-check.invalid";
/// The `Host` a rebound DNS name carries.
pub const FOREIGN_HOST: &str = "mcpwire-check.invalid";
/// The value of `Authorization: Bearer …` that is no token at all.
const GARBAGE: &str = "garbage";

/// The first revision whose authorization is the resource-server one (Protected Resource
/// Metadata, audience-bound tokens).
const RESOURCE_SERVER_REVISION: &str = "2025-06-18";
/// The revision from which a foreign Origin MUST get 403, the challenge SHOULD name a scope
/// and the metadata may be found at the well-known URI instead of the challenge.
const REVISION_2025_11_25: &str = "2025-11-25";

/// What the token probes need of the valid token's own probe.
enum Baseline {
    /// No `--bearer`.
    Absent,
    /// Accepted (2xx), with the session it opened, if any.
    Accepted(Option<String>),
    /// Refused or failed: the probes that need an accepted token cannot be judged.
    Refused(String),
}

/// The state of one `--auth` run.
struct Run<'a> {
    wire: &'a Wire,
    endpoint: Uri,
    revision: &'a str,
    run: AuthRun,
}

/// Runs every probe against `url` under `revision` with `tokens`: the probes as the report
/// lists them, and one result (with its findings) per probe sent. `Err` when `url` is not an
/// http(s) URL.
pub fn run_auth(
    wire: &Wire,
    url: &str,
    revision: &str,
    tokens: &Tokens,
) -> Result<AuthRun, String> {
    let endpoint: Uri = url
        .parse()
        .map_err(|error| format!("`{url}` is not a URL: {error}"))?;
    let mut run = Run {
        wire,
        endpoint,
        revision,
        run: AuthRun {
            summary: AuthSummary {
                revision: revision.to_owned(),
                probes: Vec::new(),
            },
            results: Vec::new(),
            refused_token: None,
        },
    };
    run.scheme();
    let baseline = run.valid(tokens);
    if let Baseline::Refused(why) = &baseline {
        run.run.refused_token = Some(why.clone());
    }
    let session = match &baseline {
        Baseline::Accepted(session) => session.clone(),
        _ => None,
    };
    let first = run.unauthenticated("POST without a token", Method::POST, &[]);
    if first.is_none() {
        let why = match run.run.summary.probes.last().map(|p| &p.outcome) {
            Some(Outcome::Failed(why)) => why.clone(),
            _ => "no answer".to_owned(),
        };
        return Err(format!("cannot reach the server at {url}: {why}"));
    }
    let at = run.last();
    let challenge = first.as_ref().and_then(|seen| bearer(&seen.challenges));
    let discovered = run.discover(challenge.as_ref());
    if let Some(seen) = &first {
        let kinds = run.challenge_kinds(seen, discovered);
        run.amend(at, kinds);
    }
    // On the session the valid token opened, when it opened one: a server that protects
    // POST but not the stream, or not the session's end, serves these.
    let on_session: Vec<(&str, String)> = session
        .iter()
        .map(|s| ("mcp-session-id", s.clone()))
        .collect();
    let suffix = if session.is_some() {
        " on the --bearer token's session"
    } else {
        ""
    };
    for (label, method) in [
        ("GET (SSE) without a token", Method::GET),
        ("DELETE without a token", Method::DELETE),
    ] {
        let label = format!("{label}{suffix}");
        if let Some(seen) = run.unauthenticated(&label, method, &on_session) {
            let kinds = run.challenge_kinds(&seen, discovered);
            run.amend_last(kinds);
        }
    }
    run.unauthenticated(
        "POST with Authorization: foo",
        Method::POST,
        &[("authorization", "foo".into())],
    );
    run.bad_tokens(tokens);
    run.needing_valid(tokens, &baseline);
    Ok(run.run)
}

impl Run<'_> {
    /// The request every POST probe sends: `initialize` (or, under 2026-07-28, which has
    /// none, `server/discover` with its routing headers), plus `extra` headers.
    fn post(&self, url: Uri, extra: &[(&str, String)]) -> Probe {
        let routed = self.revision == ROUTED_VERSION;
        let body = if routed {
            discover_frame(self.revision)
        } else {
            initialize_frame(self.revision)
        };
        let mut headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
        ];
        if routed {
            let route = RouteHeaders::of_frame(&body, Some(self.revision));
            let pairs = [
                ("mcp-method", route.method),
                ("mcp-protocol-version", route.version),
            ];
            headers.extend(
                pairs
                    .into_iter()
                    .filter_map(|(n, v)| v.map(|v| (n.to_owned(), v))),
            );
        }
        headers.extend(extra.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
        Probe {
            method: Method::POST,
            url,
            headers,
            body,
        }
    }

    /// A probe of `method` to the endpoint with `extra` headers.
    fn probe(&self, method: Method, extra: &[(&str, String)]) -> Probe {
        if method == Method::POST {
            return self.post(self.endpoint.clone(), extra);
        }
        let mut headers = vec![("accept".to_owned(), "text/event-stream".to_owned())];
        if self.revision >= RESOURCE_SERVER_REVISION {
            headers.push(("mcp-protocol-version".into(), self.revision.to_owned()));
        }
        if method == Method::DELETE && !extra.iter().any(|(n, _)| *n == "mcp-session-id") {
            headers.push(("mcp-session-id".into(), "mcpwire-check-auth".into()));
        }
        headers.extend(extra.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
        Probe {
            method,
            url: self.endpoint.clone(),
            headers,
            body: Vec::new(),
        }
    }

    /// Sends `probe`, lists it as `label` (expecting `expected`), and returns what came.
    fn send(&mut self, label: &str, expected: &str, probe: &Probe) -> Option<Seen> {
        let outcome = self.wire.send(probe);
        let (line, seen) = match outcome {
            Ok(seen) => (
                Outcome::Seen {
                    status: seen.status,
                    challenge: (!seen.challenges.is_empty()).then(|| seen.challenges.join(", ")),
                },
                Some(seen),
            ),
            Err(why) => (Outcome::Failed(why), None),
        };
        let observed = match &line {
            Outcome::Seen {
                status,
                challenge: Some(c),
            } => format!("HTTP {status}, WWW-Authenticate: {c}"),
            Outcome::Seen { status, .. } => format!("HTTP {status}, no WWW-Authenticate"),
            Outcome::Failed(why) | Outcome::NotRun(why) | Outcome::Judged(why) => why.clone(),
        };
        let failed = seen.is_none();
        self.run.summary.probes.push(ProbeLine {
            label: label.to_owned(),
            expected: expected.to_owned(),
            outcome: line,
            kinds: Vec::new(),
        });
        if failed {
            // Nothing was judged: listed, never counted as passed.
            return None;
        }
        self.run.results.push(CaseResult {
            label: format!("--auth: {label}"),
            input: describe(probe),
            expected: expected.to_owned(),
            observed: vec![observed],
            http_status: seen.as_ref().map(|s| s.status),
            findings: Vec::new(),
            leaves_client_waiting: false,
            note: None,
        });
        seen
    }

    /// Lists a probe that was not sent.
    fn not_run(&mut self, label: &str, expected: &str, why: &str) {
        self.run.summary.probes.push(ProbeLine {
            label: label.to_owned(),
            expected: expected.to_owned(),
            outcome: Outcome::NotRun(why.to_owned()),
            kinds: Vec::new(),
        });
    }

    /// Where the probe sent last is: its line and its result.
    fn last(&self) -> (usize, usize) {
        (
            self.run.summary.probes.len().saturating_sub(1),
            self.run.results.len().saturating_sub(1),
        )
    }

    /// Adds findings (kind, message) to the probe sent last.
    fn amend_last(&mut self, found: Vec<(&'static str, String)>) {
        let at = self.last();
        self.amend(at, found);
    }

    /// Adds findings (kind, message) to the probe at `at` (see [`last`](Self::last)).
    fn amend(&mut self, at: (usize, usize), found: Vec<(&'static str, String)>) {
        let (Some(line), Some(result)) = (
            self.run.summary.probes.get_mut(at.0),
            self.run.results.get_mut(at.1),
        ) else {
            return;
        };
        for (kind, message) in found {
            if !line.kinds.iter().any(|k| k == kind) {
                line.kinds.push(kind.to_owned());
            }
            result.findings.push(Finding::new(
                kind,
                RuleId::Auth,
                format!(
                    "{}: {message} (judged under MCP {})",
                    line.label, self.revision
                ),
            ));
        }
    }

    /// Plain `http://` off loopback, for the endpoint.
    fn scheme(&mut self) {
        let url = self.endpoint.to_string();
        if plain_http_remote(&url) {
            self.judged(
                "the endpoint's scheme",
                "https://, or http:// on loopback",
                &url,
            );
            self.amend_last(vec![(
                "auth-endpoint-plain-http",
                "the endpoint is http:// on a host that is not loopback".into(),
            )]);
        }
    }

    /// Lists something judged without a request of its own, as a result.
    fn judged(&mut self, label: &str, expected: &str, what: &str) {
        self.run.summary.probes.push(ProbeLine {
            label: label.to_owned(),
            expected: expected.to_owned(),
            outcome: Outcome::Judged(what.to_owned()),
            kinds: Vec::new(),
        });
        self.run.results.push(CaseResult {
            label: format!("--auth: {label}"),
            input: String::new(),
            expected: expected.to_owned(),
            observed: vec![what.to_owned()],
            http_status: None,
            findings: Vec::new(),
            leaves_client_waiting: false,
            note: None,
        });
    }

    /// A probe without a valid token (none, or a header that holds no bearer token): 401.
    fn unauthenticated(
        &mut self,
        label: &str,
        method: Method,
        extra: &[(&str, String)],
    ) -> Option<Seen> {
        let probe = self.probe(method.clone(), extra);
        let expected = "401 with a Bearer challenge";
        let seen = self.send(label, expected, &probe)?;
        let other_scheme = extra.iter().any(|(name, _)| *name == "authorization");
        let mut found = Vec::new();
        match seen.status {
            200..=299 => found.push((
                "auth-unauthenticated-accepted",
                format!(
                    "got HTTP {}: the request was served without a token",
                    seen.status
                ),
            )),
            401 => {
                if bearer(&seen.challenges).is_none() {
                    found.push((
                        "auth-challenge-missing",
                        "the 401 has no WWW-Authenticate Bearer challenge".into(),
                    ));
                }
            }
            405 if method != Method::POST => {}
            400 if other_scheme => {}
            status => found.push((
                "auth-unauthenticated-not-401",
                format!("got HTTP {status}, not 401"),
            )),
        }
        self.amend_last(found);
        Some(seen)
    }

    /// The challenge of a 401 without a token: `resource_metadata` (absolute; a MUST under
    /// 2025-06-18, one of two ways from 2025-11-25) and `scope` (a SHOULD from 2025-11-25).
    /// `discovered`: the metadata was found at a well-known URI.
    fn challenge_kinds(&self, seen: &Seen, discovered: Discovery) -> Vec<(&'static str, String)> {
        let mut found = Vec::new();
        if seen.status != 401 || self.revision < RESOURCE_SERVER_REVISION {
            return found;
        }
        let Some(challenge) = bearer(&seen.challenges) else {
            return found;
        };
        match challenge.get("resource_metadata") {
            None if self.revision < REVISION_2025_11_25 => found.push((
                "auth-resource-metadata-missing",
                "the Bearer challenge has no resource_metadata".into(),
            )),
            None if discovered.well_known => found.push((
                "auth-resource-metadata-not-in-challenge",
                "the Bearer challenge has no resource_metadata (the well-known URI serves the metadata)".into(),
            )),
            None => {}
            Some(url) if !is_absolute_url(url) => found.push((
                "auth-resource-metadata-not-absolute",
                format!("resource_metadata {url:?} is not an absolute http(s) URL"),
            )),
            Some(_) => {}
        }
        if self.revision >= REVISION_2025_11_25 && challenge.get("scope").is_none() {
            found.push((
                "auth-challenge-no-scope",
                "the Bearer challenge names no scope".into(),
            ));
        }
        found
    }

    /// Looks for the metadata at the challenge's URL and both well-known URIs, judging each
    /// document found.
    fn discover(&mut self, challenge: Option<&Bearer>) -> Discovery {
        let mut discovery = Discovery::default();
        let mut places: Vec<(Source, String)> = Vec::new();
        if let Some(url) = challenge
            .and_then(|c| c.get("resource_metadata"))
            .filter(|u| is_absolute_url(u))
        {
            places.push((Source::Challenge, url.to_owned()));
        }
        for (source, url) in metadata::well_known(&self.endpoint) {
            if !places.iter().any(|(_, u)| *u == url) {
                places.push((source, url));
            }
        }
        for (source, url) in places {
            let label = format!("GET {url} ({})", source.describe());
            let Ok(uri) = url.parse::<Uri>() else {
                continue;
            };
            let probe = Probe {
                method: Method::GET,
                url: uri,
                headers: vec![("accept".into(), "application/json".into())],
                body: Vec::new(),
            };
            let expected = "200 application/json: the Protected Resource Metadata";
            let Some(seen) = self.send(&label, expected, &probe) else {
                continue;
            };
            let doc = (seen.status == 200)
                .then(|| serde_json::from_slice::<Value>(&seen.body).ok())
                .flatten()
                .filter(Value::is_object);
            let found = match doc {
                Some(doc) => {
                    discovery.found = true;
                    discovery.well_known |= source != Source::Challenge;
                    if self.revision < RESOURCE_SERVER_REVISION {
                        Vec::new()
                    } else {
                        metadata::judge(&doc, source, &self.endpoint)
                    }
                }
                None if source == Source::Challenge => vec![(
                    "auth-prm-invalid",
                    format!(
                        "got HTTP {} and no JSON object at the URL the challenge names",
                        seen.status
                    ),
                )],
                None => Vec::new(),
            };
            self.amend_last(found);
        }
        if !discovery.found && self.revision >= RESOURCE_SERVER_REVISION {
            self.judged(
                "the Protected Resource Metadata",
                "found at the challenge's URL or a well-known URI",
                "none of the three URLs gave a metadata document",
            );
            self.amend_last(vec![(
                "auth-prm-undiscoverable",
                "no Protected Resource Metadata at the challenge's resource_metadata or either well-known URI".into(),
            )]);
        }
        discovery
    }

    /// A bad token sent as `Authorization: Bearer`: 401 with `error` (a SHOULD), never 2xx.
    fn bad_token(&mut self, label: &str, token: &str, accepted: &'static str) {
        let probe = self.probe(
            Method::POST,
            &[("authorization", format!("Bearer {token}"))],
        );
        let expected = "401 with a Bearer challenge, error=\"invalid_token\"";
        let Some(seen) = self.send(label, expected, &probe) else {
            return;
        };
        let mut found = Vec::new();
        match seen.status {
            200..=299 => found.push((
                accepted,
                format!("got HTTP {}: the token was accepted", seen.status),
            )),
            401 => match bearer(&seen.challenges) {
                None => found.push((
                    "auth-challenge-missing",
                    "the 401 has no WWW-Authenticate Bearer challenge".into(),
                )),
                Some(c) if c.get("error").is_none() => found.push((
                    "auth-invalid-token-no-error",
                    "the challenge has no error (invalid_token)".into(),
                )),
                Some(_) => {}
            },
            status => found.push((
                "auth-bad-token-status",
                format!("got HTTP {status}, not 401"),
            )),
        }
        self.amend_last(found);
    }

    /// `Bearer garbage`, an unsigned JWT, the forgeries of the valid token, the role tokens.
    fn bad_tokens(&mut self, tokens: &Tokens) {
        self.bad_token(
            "POST with Bearer garbage",
            GARBAGE,
            "auth-garbage-token-accepted",
        );
        let jwt = tokens.bearer.as_deref().and_then(Jwt::parse);
        let unsigned = jwt.as_ref().map_or_else(unsigned_stranger, Jwt::unsigned);
        self.bad_token(
            "POST with an unsigned JWT",
            &unsigned,
            "auth-unsigned-token-accepted",
        );
        let expected = "401 with a Bearer challenge, error=\"invalid_token\"";
        let forged: [(&str, &'static str, Option<String>); 3] = [
            (
                "POST with the token's claims under alg none",
                "auth-alg-none-accepted",
                jwt.as_ref().map(Jwt::alg_none),
            ),
            (
                "POST with the token's payload altered",
                "auth-altered-token-accepted",
                jwt.as_ref().map(Jwt::altered),
            ),
            (
                "POST with the token's claims re-signed with HS256 under a guessed key",
                "auth-hs256-token-accepted",
                jwt.as_ref().and_then(|j| j.hs256().ok()),
            ),
        ];
        for (label, kind, token) in forged {
            match token {
                Some(token) => self.bad_token(label, &token, kind),
                None if tokens.bearer.is_none() => {
                    self.not_run(label, expected, "no --bearer token to forge it from")
                }
                None => self.not_run(label, expected, "the --bearer token is not a JWT"),
            }
        }
        for (role, kind) in [
            (Role::Expired, "auth-expired-token-accepted"),
            (Role::WrongAudience, "auth-wrong-audience-accepted"),
        ] {
            let label = format!("POST with the {} token", role.name());
            match tokens.role(role) {
                Some(token) => self.bad_token(&label, token, kind),
                None => self.not_run(
                    &label,
                    expected,
                    &format!("no --bearer-for {}=TOKEN", role.name()),
                ),
            }
        }
    }

    /// The valid token: 2xx, the baseline the probes that need an accepted token rest on.
    fn valid(&mut self, tokens: &Tokens) -> Baseline {
        let label = "POST with the --bearer token";
        let expected = "2xx (the token is valid)";
        let Some(token) = &tokens.bearer else {
            self.not_run(label, expected, "no --bearer token");
            return Baseline::Absent;
        };
        let probe = self.probe(
            Method::POST,
            &[("authorization", format!("Bearer {token}"))],
        );
        match self.send(label, expected, &probe) {
            Some(seen) if (200..300).contains(&seen.status) => Baseline::Accepted(seen.session),
            Some(seen) => Baseline::Refused(format!(
                "the --bearer token itself was refused (HTTP {})",
                seen.status
            )),
            None => Baseline::Refused("the --bearer token's own probe failed".into()),
        }
    }

    /// The probes that need an accepted token: the query string, scope, Origin and Host.
    fn needing_valid(&mut self, tokens: &Tokens, baseline: &Baseline) {
        let cannot = match baseline {
            Baseline::Absent => Some("no --bearer token".to_owned()),
            Baseline::Refused(why) => Some(why.clone()),
            Baseline::Accepted(_) => None,
        };
        let query_label = "POST with the --bearer token in ?access_token= only";
        let scope_label = "POST with the insufficient-scope token";
        let origin_label = format!("POST with the --bearer token and Origin: {FOREIGN_ORIGIN}");
        let host_label = format!("POST with the --bearer token and Host: {FOREIGN_HOST}");
        let scope_expected = "403 with error=\"insufficient_scope\" and the scope needed";
        if let Some(why) = cannot {
            self.not_run(
                query_label,
                "401 (a token only in the query string is none)",
                &why,
            );
            self.not_run(scope_label, scope_expected, &why);
            self.not_run(&origin_label, "403", &why);
            self.not_run(&host_label, "403", &why);
            return;
        }
        let token = tokens.bearer.clone().unwrap_or_default();
        self.query(query_label, &token);
        match tokens.role(Role::InsufficientScope) {
            Some(scoped) => self.scope(scope_label, scope_expected, scoped),
            None => self.not_run(
                scope_label,
                scope_expected,
                "no --bearer-for insufficient-scope=TOKEN",
            ),
        }
        let auth = ("authorization", format!("Bearer {token}"));
        let probe = self.probe(
            Method::POST,
            &[auth.clone(), ("origin", FOREIGN_ORIGIN.into())],
        );
        if let Some(seen) = self.send(&origin_label, "403", &probe) {
            let found = match seen.status {
                200..=299 => vec![(
                    "auth-foreign-origin-accepted",
                    format!(
                        "got HTTP {}: a page on another origin reaches the endpoint with the user's token",
                        seen.status
                    ),
                )],
                403 => Vec::new(),
                status if self.revision >= REVISION_2025_11_25 => vec![(
                    "auth-foreign-origin-status",
                    format!("got HTTP {status}, not 403"),
                )],
                _ => Vec::new(),
            };
            self.amend_last(found);
        }
        let probe = self.probe(Method::POST, &[auth, ("host", FOREIGN_HOST.into())]);
        if let Some(seen) = self.send(&host_label, "403", &probe)
            && (200..300).contains(&seen.status)
        {
            self.amend_last(vec![(
                "auth-foreign-host-accepted",
                format!(
                    "got HTTP {}: a rebound DNS name reaches the endpoint",
                    seen.status
                ),
            )]);
        }
    }

    /// The valid token only in `?access_token=`: refused.
    fn query(&mut self, label: &str, token: &str) {
        let separator = if self.endpoint.query().is_some() {
            '&'
        } else {
            '?'
        };
        let joined = format!("{}{separator}access_token={}", self.endpoint, encode(token));
        let Ok(url) = joined.parse::<Uri>() else {
            self.not_run(label, "401", "the token cannot be written into a URL");
            return;
        };
        let probe = self.post(url, &[]);
        if let Some(seen) = self.send(
            label,
            "401 (a token only in the query string is none)",
            &probe,
        ) && (200..300).contains(&seen.status)
        {
            self.amend_last(vec![(
                "auth-query-token-accepted",
                format!(
                    "got HTTP {}: the token was read from the query string",
                    seen.status
                ),
            )]);
        }
    }

    /// The insufficient-scope token: 403 `insufficient_scope` naming a scope.
    fn scope(&mut self, label: &str, expected: &str, token: &str) {
        let probe = self.probe(
            Method::POST,
            &[("authorization", format!("Bearer {token}"))],
        );
        let Some(seen) = self.send(label, expected, &probe) else {
            return;
        };
        let found = match seen.status {
            200..=299 => vec![(
                "auth-insufficient-scope-accepted",
                format!(
                    "got HTTP {}: the token lacking the scope was served",
                    seen.status
                ),
            )],
            403 => {
                let challenge = bearer(&seen.challenges);
                let error = challenge
                    .as_ref()
                    .and_then(|c| c.get("error").map(str::to_owned));
                let scopes = challenge.as_ref().map(|c| c.scopes().len()).unwrap_or(0);
                if error.as_deref() != Some("insufficient_scope") || scopes == 0 {
                    vec![(
                        "auth-insufficient-scope-challenge",
                        format!(
                            "the 403's challenge has error {:?} and names {scopes} scope(s); it needs error=\"insufficient_scope\" and the scope needed",
                            error.unwrap_or_default()
                        ),
                    )]
                } else {
                    Vec::new()
                }
            }
            status => vec![(
                "auth-insufficient-scope-status",
                format!("got HTTP {status}, not 403"),
            )],
        };
        self.amend_last(found);
    }
}

/// Where the metadata was found.
#[derive(Debug, Clone, Copy, Default)]
struct Discovery {
    /// At the challenge's URL or a well-known URI.
    found: bool,
    /// At a well-known URI.
    well_known: bool,
}

/// A token as a query value (RFC 3986 unreserved characters kept, the rest %-escaped).
fn encode(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    for byte in token.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A probe as the report shows its input: the request line and the headers it set (a token
/// cut to its first characters).
fn describe(probe: &Probe) -> String {
    let url = probe.url.to_string();
    let url = match url.split_once("access_token=") {
        Some((before, _)) => format!("{before}access_token=…"),
        None => url,
    };
    let mut text = format!("{} {url}", probe.method);
    for (name, value) in &probe.headers {
        if matches!(name.as_str(), "content-type" | "accept") {
            continue;
        }
        let shown = if name == "authorization" {
            hide_token(value)
        } else {
            value.clone()
        };
        text.push_str(&format!("\n{name}: {shown}"));
    }
    text
}

/// A header value with its token cut to its first characters (reports end up in CI logs).
fn hide_token(value: &str) -> String {
    match value.split_once(' ') {
        Some((scheme, token)) if token.chars().count() > 12 => {
            format!("{scheme} {}…", token.chars().take(12).collect::<String>())
        }
        _ => value.to_owned(),
    }
}
