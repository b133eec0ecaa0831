//! Issue 49 section 2: `mcpwire check --http URL --auth` against a protected server on
//! loopback, correct (`mcpwire-server`'s resource server, keys generated here, JWKS served on
//! loopback) and with each planted authorization defect. Each defect is found at its level and
//! nothing else is; the correct server gets no `auth-*` finding. Each run sends no JSON-RPC
//! case but the handshake (`--cases 0 --no-fixed`), so a run takes well under a second.

use crate::auth_fixture;

use auth_fixture::{Defect, Fixture};
use clap::Parser;
use mcpwire_cli::check::auth::Outcome;
use mcpwire_cli::check::kinds::Level;
use mcpwire_cli::check::{CheckArgs, Report, execute};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    check: CheckArgs,
}

/// `mcpwire check --http URL --auth` with `extra` arguments, in process.
fn check(fixture: &Fixture, extra: &[String]) -> Report {
    let mut args: Vec<String> = [
        "check",
        "--http",
        &fixture.url,
        "--auth",
        "--cases",
        "0",
        "--no-fixed",
        "--no-shrink",
        "--timeout",
        "3",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(extra.iter().cloned());
    execute(&Cli::parse_from(args).check).expect("the check runs")
}

/// The `auth-*` kinds of a report, with their levels, sorted.
fn auth_kinds(report: &Report) -> Vec<(String, Level)> {
    let mut kinds: Vec<(String, Level)> = report
        .failures
        .iter()
        .filter(|g| g.kind.starts_with("auth-"))
        .map(|g| (g.kind.clone(), g.level))
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// The run with every token against `defect`: exactly `expected` is found.
fn finds(defect: Defect, version: &str, expected: &[(&str, Level)]) {
    let fixture = Fixture::start(defect);
    let mut extra = fixture.token_args();
    extra.extend(["--mcp-version".to_owned(), version.to_owned()]);
    let report = check(&fixture, &extra);
    let mut want: Vec<(String, Level)> = expected
        .iter()
        .map(|(k, l)| ((*k).to_owned(), *l))
        .collect();
    want.sort();
    let summary = report.auth.as_ref().expect("the --auth summary");
    let lines: Vec<String> = summary.probes.iter().map(|p| p.render()).collect();
    assert_eq!(
        auth_kinds(&report),
        want,
        "{defect:?} under {version}:\n{}",
        lines.join("\n")
    );
    assert_eq!(summary.not_run(), 0, "{}", lines.join("\n"));
}

const V: Level = Level::Violation;
const S: Level = Level::Strict;

#[test]
fn the_correct_server_gets_no_auth_finding_and_every_probe_runs() {
    for version in ["2025-06-18", "2025-11-25"] {
        finds(Defect::None, version, &[]);
    }
    let fixture = Fixture::start(Defect::None);
    let report = check(&fixture, &fixture.token_args());
    assert!(report.passes());
    let summary = report.auth.expect("the summary");
    let seen = |label: &str| {
        summary
            .probes
            .iter()
            .find(|p| p.label.starts_with(label))
            .map(|p| p.outcome.clone())
            .unwrap_or_else(|| panic!("{label}"))
    };
    let Outcome::Seen {
        status: 401,
        challenge: Some(challenge),
    } = seen("POST without a token")
    else {
        panic!("{:?}", seen("POST without a token"))
    };
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{}",
            fixture
                .url
                .replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
        )),
        "{challenge}"
    );
    for label in ["GET (SSE) without a token on", "DELETE without a token on"] {
        assert!(
            matches!(seen(label), Outcome::Seen { status: 401, .. }),
            "{label}"
        );
    }
    assert!(matches!(
        seen("POST with the insufficient-scope token"),
        Outcome::Seen { status: 403, .. }
    ));
}

#[test]
fn a_probe_without_its_token_is_not_run_never_passed() {
    let fixture = Fixture::start(Defect::None);
    let report = check(&fixture, &[]);
    let summary = report.auth.as_ref().expect("the summary");
    let not_run: Vec<&str> = summary
        .probes
        .iter()
        .filter(|p| matches!(p.outcome, Outcome::NotRun(_)))
        .map(|p| p.label.as_str())
        .collect();
    assert_eq!(not_run.len(), 10, "{not_run:?}");
    assert!(not_run.iter().any(|l| l.contains("alg none")));
    assert!(not_run.iter().any(|l| l.contains("expired")));
    // Only the probes that were sent are results: the not-run ones pass nothing.
    let sent = summary.probes.len() - not_run.len();
    assert_eq!(report.results.len(), sent);
    assert!(auth_kinds(&report).is_empty());
}

#[test]
fn a_server_accepting_any_bearer_is_found() {
    finds(
        Defect::AnyBearer,
        "2025-11-25",
        &[
            ("auth-garbage-token-accepted", V),
            ("auth-unsigned-token-accepted", V),
            ("auth-alg-none-accepted", V),
            ("auth-altered-token-accepted", V),
            ("auth-hs256-token-accepted", V),
            ("auth-expired-token-accepted", V),
            ("auth-wrong-audience-accepted", V),
            ("auth-insufficient-scope-accepted", V),
        ],
    );
}

#[test]
fn a_server_accepting_alg_none_is_found() {
    finds(
        Defect::AlgNone,
        "2025-11-25",
        &[("auth-alg-none-accepted", V)],
    );
}

#[test]
fn a_server_skipping_the_signature_is_found() {
    finds(
        Defect::SkipSignature,
        "2025-11-25",
        &[
            ("auth-unsigned-token-accepted", V),
            ("auth-altered-token-accepted", V),
            ("auth-hs256-token-accepted", V),
        ],
    );
}

#[test]
fn a_server_skipping_the_audience_is_found() {
    finds(
        Defect::SkipAudience,
        "2025-11-25",
        &[("auth-wrong-audience-accepted", V)],
    );
}

#[test]
fn a_server_skipping_the_expiry_is_found() {
    finds(
        Defect::SkipExpiry,
        "2025-11-25",
        &[("auth-expired-token-accepted", V)],
    );
}

#[test]
fn a_challenge_without_resource_metadata_is_found_at_each_revisions_level() {
    // 2025-06-18: the header is the one way (MUST); from 2025-11-25 the well-known URI is
    // another, which the server serves.
    finds(
        Defect::NoResourceMetadata,
        "2025-06-18",
        &[("auth-resource-metadata-missing", V)],
    );
    finds(
        Defect::NoResourceMetadata,
        "2025-11-25",
        &[("auth-resource-metadata-not-in-challenge", S)],
    );
}

#[test]
fn metadata_without_authorization_servers_is_found() {
    finds(
        Defect::NoAuthorizationServers,
        "2025-11-25",
        &[("auth-prm-no-authorization-servers", V)],
    );
}

#[test]
fn metadata_naming_another_resource_is_found() {
    finds(
        Defect::WrongResource,
        "2025-11-25",
        &[("auth-prm-resource-mismatch", V)],
    );
}

#[test]
fn a_server_reading_the_query_token_is_found() {
    finds(
        Defect::QueryToken,
        "2025-11-25",
        &[("auth-query-token-accepted", S)],
    );
}

#[test]
fn a_server_protecting_post_but_not_the_stream_is_found() {
    finds(
        Defect::UnprotectedStream,
        "2025-11-25",
        &[("auth-unauthenticated-accepted", V)],
    );
}

#[test]
fn a_server_without_an_origin_check_is_found() {
    finds(
        Defect::NoOriginCheck,
        "2025-11-25",
        &[("auth-foreign-origin-accepted", V)],
    );
}

#[test]
fn a_401_where_403_is_due_is_found() {
    finds(
        Defect::UnauthorizedForForbidden,
        "2025-11-25",
        &[("auth-insufficient-scope-status", S)],
    );
}

#[test]
fn an_endpoint_that_does_not_answer_is_no_report() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/mcp", free.local_addr().expect("an address"));
    drop(free);
    let args = ["check", "--http", &url, "--auth", "--timeout", "2"];
    let error = execute(&Cli::parse_from(args).check).expect_err("nothing to check");
    assert!(error.contains("cannot reach the server"), "{error}");
}

/// The binary: the probes in the JSON report, beside the other findings; the exit status.
#[test]
fn the_json_report_lists_each_probe_with_its_status_and_challenge() {
    let fixture = Fixture::start(Defect::AlgNone);
    let mut args = vec![
        "check".to_owned(),
        "--http".into(),
        fixture.url.clone(),
        "--auth".into(),
        "--cases".into(),
        "0".into(),
        "--no-fixed".into(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(fixture.token_args());
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(&args)
        .output()
        .expect("mcpwire check runs");
    assert_eq!(output.status.code(), Some(1), "a violation fails the run");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let probes = report["auth"]["probes"].as_array().expect("the probes");
    let none = probes
        .iter()
        .find(|p| p["probe"].as_str().is_some_and(|l| l.contains("alg none")))
        .expect("the alg none probe");
    assert_eq!(none["status"], 200);
    assert_eq!(none["kinds"], serde_json::json!(["auth-alg-none-accepted"]));
    let unauthenticated = probes
        .iter()
        .find(|p| p["probe"] == "POST without a token")
        .expect("the unauthenticated POST");
    assert_eq!(unauthenticated["status"], 401);
    assert!(
        unauthenticated["www_authenticate"]
            .as_str()
            .is_some_and(|c| c.starts_with("Bearer resource_metadata=")),
        "{unauthenticated}"
    );
    let failures = report["failures"].as_array().expect("failures");
    assert!(
        failures
            .iter()
            .any(|f| f["kind"] == "auth-alg-none-accepted" && f["rule_id"] == "auth"),
        "{failures:?}"
    );
}
