//! Running a whole check: connect, send every case, shrink failures, report.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::JSONRPC_2_0;

use super::args::{CheckArgs, Format};
use super::caller::Caller;
use super::capabilities::run_lists;
use super::cases::{CheckCase, Oracle, fixed_cases, generate};
use super::describe::show_frame;
use super::exchange::{Exchange, Fault, Leftovers, Target, attribute_late};
use super::expect::{ExpectedFailures, Found, Verdict};
use super::handshake::Setup;
use super::handshake::{default_version, has_handshake, has_ping, mcp_facts};
use super::http_client::HttpTarget;
use super::http_rules::run_http_rules;
use super::judge::{Finding, RuleId, judge};
use super::kinds::Level;
use super::pages::{declared_capabilities, declares};
use super::progress::Progress;
use super::prompts::run_prompts;
use super::protocol::run_protocol;
use super::render::{self, Style};
use super::report::{Example, Report, Tally};
use super::schema::{self, ReplySchemas};
use super::shrink::{ShrinkBudget, shrink};
use super::stdio::StdioTarget;
use super::tools::{ToolFindings, ToolOptions, run_tools};

/// Consecutive transport failures (restart failed, connection refused) that stop a run.
const MAX_TRANSPORT_FAILURES: usize = 3;
/// The most time spent shrinking in one run.
const SHRINK_TIME: Duration = Duration::from_secs(60);

/// Runs `mcpwire check` and prints the report; the exit code is 0 when the run passes, 1 when
/// an unexpected violation (or a stale expectation) remains, 2 when the server could not be
/// checked (the message on stderr says what was needed).
pub fn run(args: &CheckArgs) -> ExitCode {
    let mut args = args.clone();
    if args.all {
        args.capabilities = true;
        args.tools = true;
        args.protocol = true;
    }
    let args = &args;
    if args.list_kinds {
        print!("{}", super::kinds::listing());
        return ExitCode::SUCCESS;
    }
    match execute(args) {
        Ok(report) => {
            let text = match args.format {
                Format::Table => render::table(&report, Style { colour: true }, args.verbose),
                Format::Json => render::json(&report),
                Format::Junit => render::junit(&report),
                Format::Sarif => super::sarif::sarif(&report),
            };
            // anstream strips the table's colours unless stdout is a terminal that wants them.
            let mut stdout = anstream::stdout();
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
            if report.passes() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("mcpwire check: {message}");
            let target = describe_target(args);
            match args.format {
                Format::Table => {}
                Format::Json => print!("{}", render::json_error(&target, &message)),
                Format::Junit => print!("{}", render::junit_error(&target, &message)),
                Format::Sarif => print!("{}", super::sarif::sarif_error(&target, &message)),
            }
            ExitCode::from(2)
        }
    }
}

/// The target as the report names it, from the arguments (for a run that could not start).
fn describe_target(args: &CheckArgs) -> String {
    match &args.http {
        Some(url) => format!("http: {url}"),
        None => format!("stdio: {}", args.command.join(" ")),
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
            Setup::Discover(facts)
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

/// The target, or why the checker could not run; a target whose handshake broke a rule
/// comes back with the reason (its findings are judged, the run stops).
fn connect(
    args: &CheckArgs,
    setup: Setup,
    timeout: Duration,
    startup: Duration,
) -> Result<(Box<dyn Target>, Option<String>), String> {
    match (&args.http, args.stdio) {
        (Some(url), false) => {
            let target = HttpTarget::start(
                url,
                args.cacert.as_deref(),
                args.bearer.as_deref(),
                setup,
                timeout,
                startup,
            )?;
            let broken = target.broken().map(str::to_owned);
            Ok((Box::new(target), broken))
        }
        (None, true) => {
            let target = StdioTarget::start(
                args.command.clone(),
                setup,
                args.methods.clone(),
                timeout,
                startup,
            )?;
            let broken = target.broken().map(str::to_owned);
            Ok((Box::new(target), broken))
        }
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

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Runs the check and returns its report; `Err` when the checker could not run at all.
pub fn execute(args: &CheckArgs) -> Result<Report, String> {
    let started = Instant::now();
    let timeout = seconds("--timeout", args.timeout)?;
    let startup = seconds("--startup-timeout", args.startup_timeout)?;
    let tool_timeout = seconds("--tool-timeout", args.tool_timeout)?;
    let expectations = args
        .expect_failures
        .as_deref()
        .map(ExpectedFailures::read)
        .transpose()?;
    let (setup, required) = setup_of(args)?;
    let requested_version = match &setup {
        Setup::Negotiate(version) => Some(version.clone()),
        Setup::Discover(facts) => facts.protocol_version.map(str::to_owned),
        Setup::Fixed(_) => None,
    };
    let auth = run_auth_probes(args, requested_version.as_deref(), timeout)?;
    if let Some(auth) = auth
        .as_ref()
        .filter(|a| args.bearer.is_none() || a.refused_token.is_some())
    {
        // Without an accepted token the endpoint serves nothing: the probes are the run.
        return Ok(probes_only(
            args,
            auth,
            requested_version,
            expectations.as_ref(),
            started.elapsed(),
        ));
    }
    let (mut target, broken) = connect(args, setup, timeout, startup)?;
    let facts = target.profile();
    if let (Some(required), None) = (required, &broken)
        && required.name != facts.name
    {
        return Err(format!(
            "the server chose {}, not the requested profile {}; use --mcp-version to let the server's choice select the profile",
            facts.name, required.name
        ));
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
    let (schemas, schema_check) = schema::load(facts, args.schema_dir.as_deref())?;
    let oracle = Oracle { facts, known };
    let http = target.is_http();
    let mut tally = Tally::default();
    let mut results: Vec<(CheckCase, Exchange)> = target.handshake();
    let fixed = if args.no_fixed || broken.is_some() {
        Vec::new()
    } else {
        fixed_cases(&oracle, !http)
    };
    let count = if broken.is_some() { 0 } else { args.cases };
    let mut generated = generate(&oracle, count, args.seed);
    let total = fixed.len() + generated.trees.len();
    let progress = Progress::new(total);
    let mut transport_failures = 0;
    let mut aborted = broken;
    let mut skipped = 0;
    let mut failing = 0;
    for index in 0..total {
        let case = match fixed.get(index) {
            Some(case) => case.clone(),
            None => generated.case(&oracle, index - fixed.len()),
        };
        if http && case.frame.starts_with(BOM) {
            // RFC 8259 §8.1: senders MUST NOT add a byte order mark.
            skipped += 1;
            continue;
        }
        let exchange = target.exchange(results.len(), &case);
        // An estimate for the progress bar: late replies may still change a verdict.
        failing += usize::from(!judge(facts, &case, &exchange).is_empty());
        progress.update(index + 1, failing);
        let fault = exchange.fault.clone();
        attribute_late(&mut results, &exchange.late);
        results.push((case, exchange));
        if matches!(fault, Some(Fault::Transport(_))) {
            transport_failures += 1;
            if transport_failures >= MAX_TRANSPORT_FAILURES {
                aborted = fault.map(|f| format!("the server stopped answering ({f})"));
                break;
            }
        } else {
            transport_failures = 0;
        }
    }
    progress.finish();
    let mut tool_findings = ToolFindings::new();
    let mut tools = None;
    let mut cancelled = None;
    if aborted.is_none() {
        let declared = declares(&declared_capabilities(&results), "tools");
        tool_findings.extend(run_http_rules(target.as_mut(), &mut results, declared));
        if args.capabilities || args.tools || args.protocol {
            let mut caller = Caller::new(target.as_mut(), facts, &mut results);
            let lists = run_lists(&mut caller, args.capabilities, args.tools, args.protocol);
            let options = ToolOptions {
                only: args.tool.clone(),
                skip: args.skip_tool.clone(),
                budget: args.tool_calls,
                timeout: tool_timeout,
                case_timeout: timeout,
                seed: args.seed,
            };
            if args.protocol {
                cancelled = run_protocol(&mut caller, &lists, &options);
            }
            if args.tools {
                let mut summary = run_tools(&mut caller, &lists, &options);
                run_prompts(&mut caller, &lists, &options, &mut summary);
                tools = Some(summary);
            }
            tool_findings.extend(caller.findings);
        }
    }
    let leftovers = target.finish();
    attribute_late(&mut results, &leftovers.late);
    if let Some(cancelled) = &cancelled {
        super::cancel::settle(&mut results, &mut tool_findings, cancelled);
    }
    let generated_run = results
        .iter()
        .filter(|(case, _)| case.generated.is_some())
        .count();
    let fixed_run = results.len() - generated_run;
    let mut attributed_by_order = 0;
    let mut attributed_late = 0;
    let mut server_messages = 0;
    for (index, (case, exchange)) in results.iter_mut().enumerate() {
        // Several frames for one input are kept in one fixed order (by their bytes), not in
        // the order they came: the report must not change with timing.
        exchange.replies.sort_unstable();
        attributed_by_order += exchange.by_order;
        attributed_late += exchange.arrived_late;
        server_messages += exchange.server_messages;
        let mut findings = judge(facts, case, exchange);
        if let Some(schemas) = &schemas {
            schema_findings(schemas, case, exchange, &mut findings);
        }
        findings.extend(tool_findings.remove(&index).unwrap_or_default());
        tally.add(facts, case, exchange, &findings, http);
    }
    add_leftovers(&mut tally, &leftovers);
    if let Some(auth) = &auth {
        for result in &auth.results {
            tally.add_result(RuleId::Auth, result.clone());
        }
    }
    if aborted.is_none() && !args.no_shrink {
        shrink_groups(&mut tally, &mut generated, &oracle, target.as_mut());
    }
    let (rules, failures, case_results) = tally.finish();
    let verdict = verdict_of(&failures, expectations.as_ref(), args.strict);
    Ok(Report {
        target: target.describe(),
        profile: facts.name,
        requested_version,
        seed: args.seed,
        fixed_cases: fixed_run,
        generated_cases: generated_run,
        skipped_cases: skipped,
        restarts: target.restarts(),
        server_messages,
        attributed_by_order,
        attributed_late,
        elapsed: started.elapsed(),
        rules,
        failures,
        results: case_results,
        verdict,
        strict: args.strict,
        aborted,
        schema_check,
        tools,
        auth: auth.map(|a| a.summary),
    })
}

/// The failures compared with `--expect-failures`.
fn verdict_of(
    failures: &[super::report::FailureGroup],
    expectations: Option<&ExpectedFailures>,
    strict: bool,
) -> Verdict {
    let found: Vec<Found<'_>> = failures
        .iter()
        .flat_map(|g| {
            g.examples.iter().map(move |e| Found {
                rule: g.rule.slug(),
                kind: &g.kind,
                level: g.level,
                label: &e.label,
            })
        })
        .collect();
    Verdict::new(&found, expectations, strict)
}

/// The `--auth` probes (`None` without `--auth`), judged under the version asked for.
fn run_auth_probes(
    args: &CheckArgs,
    requested: Option<&str>,
    timeout: Duration,
) -> Result<Option<super::auth::AuthRun>, String> {
    let (true, Some(url)) = (args.auth, &args.http) else {
        return Ok(None);
    };
    let tokens = super::auth::tokens::Tokens::parse(args.bearer.as_deref(), &args.bearer_for)?;
    let wire = super::auth::wire::Wire::new(timeout, args.cacert.as_deref())?;
    let revision = requested.unwrap_or(default_version());
    super::auth::run_auth(&wire, url, revision, &tokens).map(Some)
}

/// Validates the replies of a case whose envelope broke no MUST against the version's schema
/// (an envelope violation is the one finding of its defect): the first reply that breaks it is
/// one `reply-schema-invalid` finding with the JSON pointer.
fn schema_findings(
    schemas: &ReplySchemas,
    case: &CheckCase,
    exchange: &Exchange,
    findings: &mut Vec<Finding>,
) {
    if findings.iter().any(|f| f.level == Level::Violation) {
        return;
    }
    if let Some(message) = mcpwire_proptest::reply_schema::first_schema_error(
        schemas,
        &case.frame,
        &case.expected,
        &exchange.replies,
    ) {
        findings.push(Finding::new(
            mcpwire_proptest::reply_schema::REPLY_SCHEMA_INVALID,
            RuleId::of_rule(mcpwire_proptest::rules::REPLY_SHAPE),
            message,
        ));
    }
}

/// The findings that belong to no case: stdout noise and replies to ids never sent.
fn add_leftovers(tally: &mut Tally, leftovers: &Leftovers) {
    let orphan = |kind: &str, rule: RuleId, message: String, label: &str, lines: &[Vec<u8>]| {
        let finding = Finding::new(kind, rule, message);
        let example = Example {
            label: label.to_owned(),
            input: String::new(),
            input_len: 0,
            expected: "nothing".into(),
            observed: lines.iter().map(|l| show_frame(l)).collect(),
            http_status: None,
            message: finding.message.clone(),
            note: None,
            shrunk_from: None,
            generated: None,
            severity: 0,
        };
        (finding, example)
    };
    if leftovers.noise_count > 0 {
        let (finding, example) = orphan(
            "stdout-not-protocol",
            RuleId::of_rule(mcpwire_proptest::rules::FRAMING),
            format!(
                "{} line(s) on stdout are not JSON-RPC messages (log lines, banners); they were left out of the replies judged. Write logs to stderr: stdout carries only protocol messages",
                leftovers.noise_count
            ),
            "(on stdout)",
            &leftovers.noise,
        );
        tally.add_orphan(&finding, example);
    }
    if leftovers.unknown_count > 0 {
        let (finding, example) = orphan(
            "reply-id-unknown",
            RuleId::of_rule(mcpwire_proptest::rules::ID_RECOVERY),
            format!(
                "{} repl(ies) carried an id the checker never sent (or had already seen answered); a response carries the id of the request it answers",
                leftovers.unknown_count
            ),
            "(as a reply to no request)",
            &leftovers.unknown,
        );
        tally.add_orphan(&finding, example);
    }
}

/// Shrinks the generated example at the front of each group (time-bounded).
fn shrink_groups(
    tally: &mut Tally,
    generated: &mut super::cases::Generated,
    oracle: &Oracle,
    target: &mut dyn Target,
) {
    let facts = oracle.facts;
    let shrink_started = Instant::now();
    let mut next_index = usize::MAX / 2;
    for group in tally.groups_mut() {
        let Some(example) = group.examples.first() else {
            continue;
        };
        let Some(index) = example.generated else {
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
        let original = example.input_len;
        // A candidate whose reply comes late must not pass for one without a reply.
        target.set_patient(
            group.kind == "missing-reply" || group.kind == "unreadable-input-unanswered",
        );
        let mut send = |case: &CheckCase| {
            next_index += 1;
            let exchange = target.exchange(next_index, case);
            let findings: Vec<Finding> = judge(facts, case, &exchange);
            (findings, exchange)
        };
        let Some(shrunk) = shrink(
            generated,
            oracle,
            index,
            group.rule,
            &group.kind,
            budget,
            &mut send,
        ) else {
            continue;
        };
        if shrunk.case.frame.len() >= original {
            continue;
        }
        let same = |f: &&Finding| f.kind == group.kind && f.rule == group.rule;
        if let Some(finding) = shrunk.findings.iter().find(same) {
            let mut example = Example::new(facts, &shrunk.case, &shrunk.exchange, finding);
            example.shrunk_from = Some(original);
            if let Some(first) = group.examples.first_mut() {
                *first = example;
            }
        }
    }
}

/// The report of the probes of `auth` alone (no JSON-RPC case was sent).
fn probes_only(
    args: &CheckArgs,
    auth: &super::auth::AuthRun,
    requested_version: Option<String>,
    expectations: Option<&ExpectedFailures>,
    elapsed: Duration,
) -> Report {
    let mut tally = Tally::default();
    for result in &auth.results {
        tally.add_result(RuleId::Auth, result.clone());
    }
    let (rules, failures, results) = tally.finish();
    let verdict = verdict_of(&failures, expectations, args.strict);
    let version = requested_version.as_deref().unwrap_or(default_version());
    Report {
        target: format!("http: {}", args.http.as_deref().unwrap_or_default()),
        profile: mcp_facts(version).map_or(JSONRPC_2_0.name, |f| f.name),
        requested_version,
        seed: args.seed,
        fixed_cases: 0,
        generated_cases: 0,
        skipped_cases: 0,
        restarts: 0,
        server_messages: 0,
        attributed_by_order: 0,
        attributed_late: 0,
        elapsed,
        rules,
        failures,
        results,
        verdict,
        strict: args.strict,
        aborted: auth.refused_token.clone(),
        schema_check: schema::SchemaCheck::NotChecked(
            "no accepted --bearer token: only the --auth probes were sent".into(),
        ),
        tools: None,
        auth: Some(auth.summary.clone()),
    }
}
