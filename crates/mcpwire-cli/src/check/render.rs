//! The three report formats: a human table, JSON and JUnit XML.

use std::fmt::Write;

use std::collections::BTreeMap;

use serde_json::json;

use super::judge::Finding;
use super::kinds::Level;
use super::report::{Example, Report};
use super::schema::SchemaCheck;

/// The table's styling: painted with `anstyle`, or plain. `mcpwire check` always paints and
/// writes through `anstream`, which keeps the colours on a terminal and strips them elsewhere
/// (a pipe, a file, `NO_COLOR`, `CLICOLOR=0`), so the choice follows the same conventions as
/// other command-line tools.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Whether to emit colour codes.
    pub colour: bool,
}

impl Style {
    fn paint(&self, style: anstyle::Style, text: &str) -> String {
        if self.colour {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    }
    fn fg(&self, colour: anstyle::AnsiColor, text: &str) -> String {
        self.paint(anstyle::Style::new().fg_color(Some(colour.into())), text)
    }
    fn red(&self, text: &str) -> String {
        self.fg(anstyle::AnsiColor::Red, text)
    }
    fn green(&self, text: &str) -> String {
        self.fg(anstyle::AnsiColor::Green, text)
    }
    fn yellow(&self, text: &str) -> String {
        self.fg(anstyle::AnsiColor::Yellow, text)
    }
    fn bold(&self, text: &str) -> String {
        self.paint(anstyle::Style::new().bold(), text)
    }
}

/// The human report: a header, a table of rules with pass/fail counts, then each failure
/// kind (violations first) with its most severe input, the expected and observed replies, and
/// the verdict. `verbose` lists every failing input of each kind, not only the first.
pub fn table(report: &Report, style: Style, verbose: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        style.bold(&format!("mcpwire check: {}", report.target))
    );
    let negotiated = match &report.requested_version {
        Some(version) => format!(" (asked for {version}; the server's choice selects the profile)"),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "profile {}{negotiated}, {} cases ({} fixed, {} generated, seed {}), {:.1}s, {} restart(s)",
        report.profile,
        report.cases(),
        report.fixed_cases,
        report.generated_cases,
        report.seed,
        report.elapsed.as_secs_f64(),
        report.restarts
    );
    let _ = match &report.schema_check {
        SchemaCheck::Checked(path) => {
            writeln!(out, "replies validated against {}", path.display())
        }
        SchemaCheck::NotChecked(why) => writeln!(
            out,
            "{}",
            style.yellow(&format!("replies not validated against a schema: {why}"))
        ),
    };
    let waiting = format!(
        "{} case(s) of {} leave a client waiting (a request whose readable id got no reply carrying it)",
        report.waiting_cases(),
        report.cases()
    );
    let _ = writeln!(
        out,
        "{}",
        if report.waiting_cases() > 0 {
            style.red(&waiting)
        } else {
            waiting
        }
    );
    if let Some(tools) = &report.tools {
        let _ = writeln!(
            out,
            "--tools: {} tool(s) listed on {} page(s), {} call(s) of a budget of {}; {} prompts/get, {} resources/read",
            tools.listed,
            tools.pages,
            tools.calls,
            tools.budget,
            tools.prompt_calls,
            tools.resource_reads
        );
        for line in &tools.lines {
            let _ = writeln!(out, "  {line}");
        }
    }
    if let Some(auth) = &report.auth {
        let _ = writeln!(
            out,
            "--auth: {} probe(s) under MCP {}, {} not run",
            auth.probes.len(),
            auth.revision,
            auth.not_run()
        );
        for probe in &auth.probes {
            let _ = writeln!(out, "  {}", probe.render());
        }
    }
    if report.attributed_by_order > 0 || report.attributed_late > 0 {
        let _ = writeln!(
            out,
            "{} repl(ies) attributed by arrival order (no usable id, or the input's id unreadable); {} late repl(ies) attributed by id",
            report.attributed_by_order, report.attributed_late
        );
    }
    let _ = writeln!(out);
    let width = report
        .rules
        .iter()
        .map(|t| t.rule.to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(out, "{:<width$}  {:>6}  {:>6}", "rule", "passed", "failed");
    for tally in &report.rules {
        let failed = format!("{:>6}", tally.failed);
        let failed = if tally.failed > 0 {
            style.red(&failed)
        } else {
            failed
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {failed}",
            tally.rule.to_string(),
            tally.passed
        );
    }
    for group in &report.failures {
        let _ = writeln!(out);
        let key = format!("{} {}", group.rule.slug(), group.kind);
        let tag = if report.verdict.known.contains(&key) {
            style.yellow("known")
        } else if group.level == Level::Strict && !report.strict {
            style.yellow("STRICT")
        } else {
            style.red("FAIL")
        };
        let _ = writeln!(
            out,
            "{tag} {} ({}) [{}]: {} case(s)",
            style.bold(&group.kind),
            group.level,
            group.rule,
            group.cases()
        );
        let shown = if verbose { group.examples.len() } else { 1 };
        for (n, example) in group.examples.iter().take(shown).enumerate() {
            if n > 0 {
                let _ = writeln!(out, "  --");
            }
            write_example(&mut out, example);
        }
        if !verbose && group.cases() > 1 {
            let _ = writeln!(
                out,
                "  ({} more case(s); --verbose lists them)",
                group.cases() - 1
            );
        }
    }
    write_cases(&mut out, report, style);
    let _ = writeln!(out);
    if let Some(reason) = &report.aborted {
        let _ = writeln!(out, "{}", style.red(&format!("stopped early: {reason}")));
    }
    for line in &report.verdict.stale {
        let _ = writeln!(
            out,
            "{}",
            style.yellow(&format!(
                "stale expectation: {line} is listed but no longer occurs; remove it"
            ))
        );
    }
    let counts = format!(
        "{} failing case(s) of {} ({} leave a client waiting, {} with a violation, {} with a strict finding; {} finding(s) by case and kind)",
        report.failing_cases(),
        report.cases(),
        report.waiting_cases(),
        report.cases_at(Level::Violation),
        report.cases_at(Level::Strict),
        report.count(Level::Violation) + report.count(Level::Strict)
    );
    let verdict = if report.passes() {
        style.green(&format!(
            "PASS: {counts}; {} known kind(s){}",
            report.verdict.known.len(),
            if report.strict {
                ""
            } else {
                "; strict findings fail only under --strict"
            }
        ))
    } else {
        style.red(&format!(
            "FAIL: {counts}; {} unexpected kind(s), {} stale expectation(s)",
            report.verdict.unexpected.len(),
            report.verdict.stale.len()
        ))
    };
    let _ = writeln!(out, "{verdict}");
    out
}

/// One line per case with a finding: its verdict, its label and its kinds (`RULE KIND`), and
/// a mark where a verdict rests on arrival order.
fn write_cases(out: &mut String, report: &Report, style: Style) {
    let with_findings: Vec<_> = report
        .results
        .iter()
        .filter(|r| !r.findings.is_empty())
        .collect();
    if with_findings.is_empty() {
        return;
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", style.bold("cases with findings:"));
    for result in with_findings {
        let tag = if result.findings.iter().any(|f| report.fails(f)) {
            style.red("FAIL  ")
        } else {
            style.yellow("STRICT")
        };
        let kinds: Vec<String> = result
            .findings
            .iter()
            .map(|f| format!("{} {} ({})", f.rule.slug(), f.kind, f.level))
            .collect();
        let _ = writeln!(out, "  {tag} {}: {}", result.label, kinds.join(", "));
        if let Some(note) = &result.note {
            let _ = writeln!(out, "         by arrival order: {note}");
        }
    }
}

fn write_example(out: &mut String, e: &Example) {
    let _ = writeln!(out, "  {}", e.message);
    let shrunk = e
        .shrunk_from
        .map_or(String::new(), |from| format!(", shrunk from {from} bytes"));
    if e.input_len == 0 && e.label.starts_with('(') {
        let _ = writeln!(out, "  input: none; seen {}", e.label);
    } else {
        let _ = writeln!(
            out,
            "  input ({}, {} bytes{shrunk}): {}",
            e.label, e.input_len, e.input
        );
    }
    let _ = writeln!(out, "  expected: {}", e.expected);
    if let Some(status) = e.http_status {
        let _ = writeln!(out, "  HTTP status: {status}");
    }
    if e.observed.is_empty() {
        let _ = writeln!(out, "  observed: nothing");
    }
    for line in &e.observed {
        let _ = writeln!(out, "  observed: {line}");
    }
    if let Some(note) = &e.note {
        let _ = writeln!(out, "  note: {note}");
    }
}

fn example_json(e: &Example) -> serde_json::Value {
    json!({
        "label": e.label,
        "input": e.input,
        "input_len": e.input_len,
        "shrunk_from": e.shrunk_from,
        "expected": e.expected,
        "observed": e.observed,
        "http_status": e.http_status,
        "message": e.message,
        "note": e.note,
    })
}

/// The JSON report's schema name.
pub const SCHEMA: &str = "mcpwire-check/3";

/// The JSON report: one object with stable field names (schema [`SCHEMA`], docs/check.md).
pub fn json(report: &Report) -> String {
    let rules: Vec<_> = report
        .rules
        .iter()
        .map(|t| json!({ "rule": t.rule.to_string(), "passed": t.passed, "failed": t.failed }))
        .collect();
    let failures: Vec<_> = report
        .failures
        .iter()
        .map(|g| {
            let key = format!("{} {}", g.rule.slug(), g.kind);
            json!({
                "kind": g.kind,
                "level": g.level.name(),
                "rule": g.rule.to_string(),
                "rule_id": g.rule.slug(),
                "count": g.cases(),
                "known": report.verdict.known.contains(&key),
                "cases": g.examples.iter().map(example_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let case_findings: Vec<_> = report
        .results
        .iter()
        .filter(|r| !r.findings.is_empty())
        .map(|r| {
            json!({
                "label": r.label,
                "input": r.input,
                "fails": r.findings.iter().any(|f| report.fails(f)),
                "findings": r.findings.iter().map(|f| json!({
                    "kind": f.kind,
                    "level": f.level.name(),
                    "rule_id": f.rule.slug(),
                })).collect::<Vec<_>>(),
                "note": r.note,
            })
        })
        .collect();
    let value = json!({
        "schema": SCHEMA,
        "target": report.target,
        "profile": report.profile,
        "requested_version": report.requested_version,
        "seed": report.seed,
        "cases": report.cases(),
        "fixed_cases": report.fixed_cases,
        "generated_cases": report.generated_cases,
        "skipped_cases": report.skipped_cases,
        "client_waiting_cases": report.waiting_cases(),
        "failing_cases": report.failing_cases(),
        "cases_with_findings": report.cases_with_findings(),
        "restarts": report.restarts,
        "server_messages": report.server_messages,
        "attributed_by_order": report.attributed_by_order,
        "attributed_late": report.attributed_late,
        "elapsed_seconds": report.elapsed.as_secs_f64(),
        "violations": report.cases_at(Level::Violation),
        "strict": report.cases_at(Level::Strict),
        "findings": {
            "violation": report.count(Level::Violation),
            "strict": report.count(Level::Strict),
        },
        "case_findings": case_findings,
        "strict_mode": report.strict,
        "rules": rules,
        "failures": failures,
        "unexpected": report.verdict.unexpected,
        "strict_only": report.verdict.strict_only,
        "stale": report.verdict.stale,
        "reply_schema": match &report.schema_check {
            SchemaCheck::Checked(path) => json!({ "checked": true, "file": path.display().to_string() }),
            SchemaCheck::NotChecked(why) => json!({ "checked": false, "why": why }),
        },
        "tools": report.tools.as_ref().map(|t| json!({
            "listed": t.listed,
            "pages": t.pages,
            "calls": t.calls,
            "budget": t.budget,
            "prompt_calls": t.prompt_calls,
            "resource_reads": t.resource_reads,
            "notes": t.lines,
        })),
        "auth": report.auth.as_ref().map(super::auth_summary::summary_json),
        "aborted": report.aborted,
        "error": null,
        "passed": report.passes(),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// The JUnit XML report (written by `quick-junit`): one `<testcase>` per case sent (named by its
/// label, numbered when a label repeats); a case with a finding that fails the run carries a
/// `<failure>` whose text holds the input, the expected and the observed bytes. Strict findings
/// that do not fail the run (no `--strict`) are listed in the case's `<system-out>`. Attribute
/// values hold one line: a message's further lines are in the element's text.
pub fn junit(report: &Report) -> String {
    let fails = |f: &&Finding| report.fails(f);
    let classname = format!("{} ({})", report.profile, report.target);
    let mut suite = quick_junit::TestSuite::new(format!("mcpwire check: {}", report.target));
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for result in &report.results {
        let n = seen.entry(result.label.as_str()).or_default();
        *n += 1;
        let name = if *n == 1 {
            result.label.clone()
        } else {
            format!("{} #{n}", result.label)
        };
        let body = format!(
            "input: {}\nexpected: {}\nobserved: {}{}",
            result.input,
            result.expected,
            if result.observed.is_empty() {
                "nothing".to_owned()
            } else {
                result.observed.join("\n          ")
            },
            result
                .http_status
                .map_or(String::new(), |s| format!("\nHTTP status: {s}")),
        );
        let body = match &result.note {
            Some(note) => format!("{body}\nby arrival order: {note}"),
            None => body,
        };
        let failed: Vec<&Finding> = result.findings.iter().filter(fails).collect();
        let noted: Vec<&Finding> = result.findings.iter().filter(|f| !fails(f)).collect();
        let status = match failed.first() {
            Some(first) => {
                let kinds: Vec<String> = failed
                    .iter()
                    .map(|f| format!("{} {}", f.rule.slug(), f.kind))
                    .collect();
                let messages: Vec<String> = failed
                    .iter()
                    .map(|f| format!("{} ({}): {}", f.kind, f.level, f.message))
                    .collect();
                let mut status =
                    quick_junit::TestCaseStatus::non_success(quick_junit::NonSuccessKind::Failure);
                status
                    .set_type(kinds.join(", "))
                    .set_message(one_line(&first.message))
                    .set_description(format!("{}\n{body}", messages.join("\n")));
                status
            }
            None => quick_junit::TestCaseStatus::success(),
        };
        let mut case = quick_junit::TestCase::new(name, status);
        case.set_classname(classname.as_str());
        if !noted.is_empty() {
            let messages: Vec<String> = noted
                .iter()
                .map(|f| {
                    format!(
                        "{} (strict, not failing without --strict): {}",
                        f.kind, f.message
                    )
                })
                .collect();
            case.set_system_out(format!("{}\n{body}", messages.join("\n")));
        }
        suite.add_test_case(case);
    }
    let mut junit = quick_junit::Report::new("mcpwire check");
    junit.set_time(report.elapsed).add_test_suite(suite);
    junit_text(&junit)
}

/// The first line of `text`, with a mark where more follows: attribute values are one line,
/// since XML parsers turn a raw newline in an attribute into a space.
fn one_line(text: &str) -> String {
    match text.split_once('\n') {
        Some((first, _)) => format!("{first} …"),
        None => text.to_owned(),
    }
}

/// The serialized report; `quick-junit` writes to memory, which cannot fail short of a bug
/// there, so a failure is reported inside the XML's place rather than lost.
fn junit_text(report: &quick_junit::Report) -> String {
    report.to_string().unwrap_or_else(|error| {
        format!("<!-- mcpwire check: JUnit serialization failed: {error} -->\n")
    })
}

/// The JSON report of a run that could not check the server (exit 2): the same schema, no
/// cases, `error` saying why, `passed` false.
pub fn json_error(target: &str, message: &str) -> String {
    let value = json!({
        "schema": SCHEMA,
        "target": target,
        "cases": 0,
        "client_waiting_cases": 0,
        "failing_cases": 0,
        "violations": 0,
        "strict": 0,
        "findings": { "violation": 0, "strict": 0 },
        "case_findings": [],
        "rules": [],
        "failures": [],
        "unexpected": [],
        "strict_only": [],
        "stale": [],
        "aborted": message,
        "error": message,
        "passed": false,
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// The JUnit XML of a run that could not check the server (exit 2): one test case,
/// `could not run`, whose `<error>` carries the message, so report publishers show it.
pub fn junit_error(target: &str, message: &str) -> String {
    let suite_name = format!("mcpwire check: {target}");
    let mut status = quick_junit::TestCaseStatus::non_success(quick_junit::NonSuccessKind::Error);
    status
        .set_type("could-not-run")
        .set_message(one_line(message))
        .set_description(message);
    let mut case = quick_junit::TestCase::new("could not run", status);
    case.set_classname(suite_name.as_str());
    let mut suite = quick_junit::TestSuite::new(suite_name);
    suite.add_test_case(case);
    let mut junit = quick_junit::Report::new("mcpwire check");
    junit.add_test_suite(suite);
    junit_text(&junit)
}

#[cfg(test)]
mod tests {
    use super::junit_error;

    /// A message of several lines keeps one line in the `message` attribute (a raw newline
    /// there reaches report publishers as a space) and all of them in the element's text.
    #[test]
    fn junit_attributes_hold_one_line_and_the_text_holds_all() {
        let xml = junit_error("stdio: x", "first line\nsecond <line> & more");
        let attribute = xml
            .split("message=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("a message attribute");
        assert_eq!(attribute, "first line …");
        assert!(
            xml.contains(">first line\nsecond &lt;line&gt; &amp; more</error>"),
            "{xml}"
        );
    }
}
