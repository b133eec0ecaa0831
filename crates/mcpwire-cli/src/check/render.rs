//! The three report formats: a human table, JSON and JUnit XML.

use std::fmt::Write;

use serde_json::json;

use super::report::{FailureGroup, Report};

/// ANSI styling, on only for a terminal without `NO_COLOR`.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Whether to emit colour codes.
    pub colour: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
    fn red(&self, text: &str) -> String {
        self.paint("31", text)
    }
    fn green(&self, text: &str) -> String {
        self.paint("32", text)
    }
    fn yellow(&self, text: &str) -> String {
        self.paint("33", text)
    }
    fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
}

/// The human report: a header, a table of rules with pass/fail counts, then each failure
/// kind with the smallest input, the expected and observed replies, and the verdict.
pub fn table(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        style.bold(&format!("mcpwire check: {}", report.target))
    );
    let _ = writeln!(
        out,
        "profile {}, {} cases ({} fixed, {} generated, seed {}), {:.1}s, {} restart(s)",
        report.profile,
        report.cases(),
        report.fixed_cases,
        report.generated_cases,
        report.seed,
        report.elapsed.as_secs_f64(),
        report.restarts
    );
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
        let known = report.verdict.known.contains(&group.kind);
        let tag = if known {
            style.yellow("known")
        } else {
            style.red("FAIL")
        };
        let _ = writeln!(
            out,
            "{tag} {} [{}]: {} case(s)",
            style.bold(&group.kind),
            group.rule,
            group.cases
        );
        write_example(&mut out, group);
    }
    let _ = writeln!(out);
    if let Some(reason) = &report.aborted {
        let _ = writeln!(out, "{}", style.red(&format!("stopped early: {reason}")));
    }
    for kind in &report.verdict.stale {
        let _ = writeln!(
            out,
            "{}",
            style.yellow(&format!(
                "stale expectation: {kind} is listed but no longer occurs; remove it"
            ))
        );
    }
    let failed: usize = report.rules.iter().map(|t| t.failed).sum();
    let verdict = if report.passes() {
        style.green(&format!(
            "PASS: {} unexpected failure kind(s), {} known",
            0,
            report.verdict.known.len()
        ))
    } else {
        style.red(&format!(
            "FAIL: {} unexpected failure kind(s), {} stale expectation(s), {failed} failed rule check(s)",
            report.verdict.unexpected.len(),
            report.verdict.stale.len()
        ))
    };
    let _ = writeln!(out, "{verdict}");
    out
}

fn write_example(out: &mut String, group: &FailureGroup) {
    let e = &group.example;
    let _ = writeln!(out, "  {}", e.message);
    let shrunk = e
        .shrunk_from
        .map_or(String::new(), |from| format!(", shrunk from {from} bytes"));
    let _ = writeln!(
        out,
        "  input ({}, {} bytes{shrunk}): {}",
        e.label, e.input_len, e.input
    );
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
}

/// The JSON report (one object; stable field names).
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
            let e = &g.example;
            json!({
                "kind": g.kind,
                "rule": g.rule.to_string(),
                "cases": g.cases,
                "known": report.verdict.known.contains(&g.kind),
                "message": e.message,
                "input": e.input,
                "input_len": e.input_len,
                "input_label": e.label,
                "shrunk_from": e.shrunk_from,
                "expected": e.expected,
                "observed": e.observed,
                "http_status": e.http_status,
            })
        })
        .collect();
    let value = json!({
        "target": report.target,
        "profile": report.profile,
        "seed": report.seed,
        "cases": report.cases(),
        "fixed_cases": report.fixed_cases,
        "generated_cases": report.generated_cases,
        "restarts": report.restarts,
        "server_messages": report.server_messages,
        "elapsed_seconds": report.elapsed.as_secs_f64(),
        "rules": rules,
        "failures": failures,
        "unexpected": report.verdict.unexpected,
        "stale": report.verdict.stale,
        "aborted": report.aborted,
        "passed": report.passes(),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Escapes text for XML 1.0 (characters XML cannot hold become U+FFFD).
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The JUnit XML report: one `<testsuite>` per rule whose `tests`/`failures` are the table's
/// counts; each failure kind is a failing `<testcase>` (with the example), and the passing
/// checks are one `<testcase>` each so the counts match the elements.
pub fn junit(report: &Report) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let tests: usize = report.rules.iter().map(|t| t.passed + t.failed).sum();
    let failures: usize = report.rules.iter().map(|t| t.failed).sum();
    let _ = writeln!(
        out,
        "<testsuites name=\"mcpwire check\" tests=\"{tests}\" failures=\"{failures}\" time=\"{:.3}\">",
        report.elapsed.as_secs_f64()
    );
    for tally in &report.rules {
        let rule = tally.rule.to_string();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">",
            xml(&rule),
            tally.passed + tally.failed,
            tally.failed
        );
        let groups: Vec<&FailureGroup> = report
            .failures
            .iter()
            .filter(|g| g.rule == tally.rule)
            .collect();
        let mut failing_cases = 0;
        for group in &groups {
            let e = &group.example;
            let body = format!(
                "input ({}, {} bytes): {}\nexpected: {}\nobserved: {}{}",
                e.label,
                e.input_len,
                e.input,
                e.expected,
                if e.observed.is_empty() {
                    "nothing".to_owned()
                } else {
                    e.observed.join("\n          ")
                },
                e.http_status
                    .map_or(String::new(), |s| format!("\nHTTP status: {s}"))
            );
            let share = group
                .cases
                .min(tally.failed - failing_cases.min(tally.failed));
            for n in 0..share {
                let _ = writeln!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{} #{}\"><failure type=\"{}\" message=\"{}\">{}</failure></testcase>",
                    xml(&rule),
                    xml(&group.kind),
                    n + 1,
                    xml(&group.kind),
                    xml(&e.message),
                    xml(&body)
                );
            }
            failing_cases += share;
        }
        // A case can break one rule in several ways (kinds); pad so the elements match the count.
        for n in failing_cases..tally.failed {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"failure #{}\"><failure type=\"mixed\" message=\"see the other failures of this rule\"/></testcase>",
                xml(&rule),
                n + 1
            );
        }
        for n in 0..tally.passed {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"pass #{}\"/>",
                xml(&rule),
                n + 1
            );
        }
        let _ = writeln!(out, "  </testsuite>");
    }
    let _ = writeln!(out, "</testsuites>");
    out
}
