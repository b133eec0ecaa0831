//! Running a whole check: connect, send every case, shrink failures, report.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::JSONRPC_2_0;

use super::args::{CheckArgs, Format};
use super::cases::{CheckCase, Oracle, fixed_cases, generate};
use super::exchange::{Fault, Target};
use super::expect::{ExpectedFailures, Verdict};
use super::handshake::{default_version, has_handshake, has_ping, mcp_facts};
use super::http_client::HttpTarget;
use super::judge::{Finding, judge};
use super::progress::Progress;
use super::render::{self, Style};
use super::report::{Example, Report, Tally};
use super::shrink::{ShrinkBudget, shrink};
use super::stdio::{Setup, StdioTarget};

/// Consecutive transport failures (restart failed, connection refused) that stop a run.
const MAX_TRANSPORT_FAILURES: usize = 3;
/// The most time spent shrinking in one run.
const SHRINK_TIME: Duration = Duration::from_secs(60);

/// Runs `mcpwire check` and prints the report; the exit code is 0 when the run passes, 1 when
/// an unexpected violation (or a stale expectation) remains, 2 when the server could not be
/// checked (the message on stderr says what was needed).
pub fn run(args: &CheckArgs) -> ExitCode {
    match execute(args) {
        Ok(report) => {
            let text = match args.format {
                Format::Table => {
                    let colour = std::io::stdout().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
                    render::table(&report, Style { colour })
                }
                Format::Json => render::json(&report),
                Format::Junit => render::junit(&report),
            };
            print!("{text}");
            if report.passes() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("mcpwire check: {message}");
            ExitCode::from(2)
        }
    }
}

/// How to choose the profile, and the MCP version the server must agree to (if fixed).
fn setup_of(args: &CheckArgs) -> Result<(Setup, Option<&'static ProfileFacts>), String> {
    let version_setup = |version: &str| -> Result<Setup, String> {
        let facts = mcp_facts(version).ok_or_else(|| {
            format!(
                "unknown MCP version {version:?}; known versions: {}",
                known_versions()
            )
        })?;
        Ok(if has_handshake(facts) {
            Setup::Negotiate(version.to_owned())
        } else {
            Setup::Fixed(facts)
        })
    };
    match (&args.profile, &args.mcp_version) {
        (Some(name), _) if name == JSONRPC_2_0.name => Ok((Setup::Fixed(&JSONRPC_2_0), None)),
        (Some(name), _) => {
            let version = name.strip_prefix("mcp-").ok_or_else(|| {
                format!(
                    "unknown profile {name:?}; use jsonrpc-2.0 or mcp-<version> ({})",
                    known_versions()
                )
            })?;
            let setup = version_setup(version)?;
            Ok((setup, mcp_facts(version)))
        }
        (None, Some(version)) => Ok((version_setup(version)?, None)),
        (None, None) => Ok((Setup::Negotiate(default_version().to_owned()), None)),
    }
}

fn known_versions() -> String {
    mcpwire_types::facts::MCP_VERSIONS
        .iter()
        .filter_map(|f| f.protocol_version)
        .collect::<Vec<_>>()
        .join(", ")
}

fn connect(
    args: &CheckArgs,
    setup: Setup,
    timeout: Duration,
    startup: Duration,
) -> Result<Box<dyn Target>, String> {
    match (&args.http, args.stdio) {
        (Some(url), false) => Ok(Box::new(HttpTarget::start(url, setup, timeout, startup)?)),
        (None, true) => Ok(Box::new(StdioTarget::start(
            args.command.clone(),
            setup,
            timeout,
            startup,
        )?)),
        _ => Err("say how to reach the server: --stdio -- COMMAND [ARGS…] or --http URL".into()),
    }
}

fn seconds(flag: &str, value: f64) -> Result<Duration, String> {
    if value.is_finite() && value > 0.0 && value < 1e9 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!(
            "{flag} must be a positive number of seconds, not {value}"
        ))
    }
}

/// Runs the check and returns its report; `Err` when the server could not be checked.
pub fn execute(args: &CheckArgs) -> Result<Report, String> {
    let started = Instant::now();
    let timeout = seconds("--timeout", args.timeout)?;
    let startup = seconds("--startup-timeout", args.startup_timeout)?;
    let expectations = args
        .expect_failures
        .as_deref()
        .map(ExpectedFailures::read)
        .transpose()?;
    let (setup, required) = setup_of(args)?;
    let mut target = connect(args, setup, timeout, startup)?;
    let facts = target.profile();
    if let Some(required) = required {
        if required.name != facts.name {
            return Err(format!(
                "the server chose {}, not the requested profile {}",
                facts.name, required.name
            ));
        }
    }
    let known: &'static [&'static str] = if !args.methods.is_empty() {
        let names: Vec<&'static str> = args
            .methods
            .iter()
            .map(|m| &*Box::leak(m.clone().into_boxed_str()))
            .collect();
        Box::leak(names.into_boxed_slice())
    } else if has_ping(facts) {
        &["ping"]
    } else {
        &[]
    };
    let oracle = Oracle { facts, known };
    let http = target.is_http();
    let fixed = if args.no_fixed {
        Vec::new()
    } else {
        fixed_cases(&oracle, !http)
    };
    let mut generated = generate(&oracle, args.cases, args.seed);
    let total = fixed.len() + generated.trees.len();
    let progress = Progress::new(total);
    let mut tally = Tally::default();
    let mut transport_failures = 0;
    let mut aborted = None;
    let mut server_messages = 0;
    let mut failing = 0;
    for index in 0..total {
        let case = match fixed.get(index) {
            Some(case) => case.clone(),
            None => generated.case(&oracle, index - fixed.len()),
        };
        let exchange = target.exchange(&case.frame);
        server_messages += exchange.server_messages;
        let findings = judge(facts, &case.expected, &exchange);
        failing += usize::from(!findings.is_empty());
        tally.add(facts, &case, &exchange, &findings, http);
        progress.update(index + 1, failing);
        if matches!(exchange.fault, Some(Fault::Transport(_))) {
            transport_failures += 1;
            if transport_failures >= MAX_TRANSPORT_FAILURES {
                aborted = exchange
                    .fault
                    .as_ref()
                    .map(|f| format!("the server stopped answering ({f})"));
                break;
            }
        } else {
            transport_failures = 0;
        }
    }
    progress.finish();
    if aborted.is_none() && !args.no_shrink {
        let shrink_started = Instant::now();
        for group in tally.groups_mut() {
            let Some(index) = group.generated else {
                continue;
            };
            let left = SHRINK_TIME.saturating_sub(shrink_started.elapsed());
            if left.is_zero() {
                break;
            }
            let budget = ShrinkBudget {
                time: left.min(ShrinkBudget::default().time),
                ..ShrinkBudget::default()
            };
            let original = group.example.input_len;
            let mut send = |case: &CheckCase| {
                let exchange = target.exchange(&case.frame);
                let findings: Vec<Finding> = judge(facts, &case.expected, &exchange);
                (findings, exchange)
            };
            if let Some(shrunk) = shrink(
                &mut generated,
                &oracle,
                index,
                group.rule,
                &group.kind,
                budget,
                &mut send,
            ) {
                if shrunk.case.frame.len() < original {
                    let same = |f: &&Finding| f.kind == group.kind && f.rule == group.rule;
                    if let Some(finding) = shrunk.findings.iter().find(same) {
                        let mut example =
                            Example::new(facts, &shrunk.case, &shrunk.exchange, finding);
                        example.shrunk_from = Some(original);
                        group.example = example;
                    }
                }
            }
        }
    }
    let (rules, failures) = tally.finish();
    let verdict = Verdict::new(
        failures.iter().map(|g| g.kind.as_str()),
        expectations.as_ref(),
    );
    Ok(Report {
        target: target.describe(),
        profile: facts.name,
        seed: args.seed,
        fixed_cases: fixed.len(),
        generated_cases: total - fixed.len(),
        restarts: target.restarts(),
        server_messages,
        elapsed: started.elapsed(),
        rules,
        failures,
        verdict,
        aborted,
    })
}
