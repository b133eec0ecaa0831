//! The SARIF 2.1.0 report (`--format sarif`) for code-scanning views: one rule per finding
//! kind, one result per case and kind.

use serde_json::{Value, json};

use super::kinds::{KINDS, Level};
use super::report::Report;

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";
/// The schema URI a SARIF 2.1.0 log names.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF level of a finding level: a violation is an `error`, a strict finding a
/// `warning` (an `error` too under `--strict`, where it fails the run).
fn level(finding: Level, strict_mode: bool) -> &'static str {
    match finding {
        Level::Violation => "error",
        Level::Strict if strict_mode => "error",
        Level::Strict => "warning",
    }
}

/// The tool section: `mcpwire check` and every finding kind as a rule, with its level and the
/// spec sentence it rests on.
fn tool() -> Value {
    let rules: Vec<Value> = KINDS
        .iter()
        .map(|kind| {
            json!({
                "id": kind.name,
                "shortDescription": { "text": format!("{} ({})", kind.name, kind.level) },
                "fullDescription": { "text": kind.basis },
                "help": { "text": format!("{}. Every kind, its level and basis: mcpwire check --list-kinds; docs/check.md explains how verdicts are reached.", kind.basis) },
                "defaultConfiguration": { "level": level(kind.level, false) },
                "properties": { "level": kind.level.name() },
            })
        })
        .collect();
    json!({
        "driver": {
            "name": "mcpwire check",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }
    })
}

fn log(run: Value) -> String {
    let value = json!({
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [run],
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// The SARIF log of a check: one result per case and finding kind, located at the case (a
/// logical location named by its label under the target), with the input, the expected and
/// the observed bytes; kinds listed in `--expect-failures` carry an external suppression.
pub fn sarif(report: &Report) -> String {
    let mut results = Vec::new();
    for result in &report.results {
        for finding in &result.findings {
            let Some(index) = KINDS.iter().position(|k| k.name == finding.kind) else {
                continue;
            };
            let key = format!("{} {}", finding.rule.slug(), finding.kind);
            let observed = if result.observed.is_empty() {
                "nothing".to_owned()
            } else {
                result.observed.join("\n")
            };
            let mut text = format!(
                "{} [{}] case {:?}: {}\ninput: {}\nexpected: {}\nobserved: {}",
                finding.kind,
                finding.rule,
                result.label,
                finding.message,
                result.input,
                result.expected,
                observed
            );
            if let Some(note) = &result.note {
                text.push_str(&format!("\nby arrival order: {note}"));
            }
            let mut item = json!({
                "ruleId": finding.kind,
                "ruleIndex": index,
                "level": level(finding.level, report.strict),
                "message": { "text": text },
                "locations": [{
                    "logicalLocations": [{
                        "name": result.label,
                        "fullyQualifiedName": format!("{}#{}", report.target, result.label),
                        "kind": "case",
                    }]
                }],
                "partialFingerprints": {
                    "mcpwireCase/v1": format!("{}|{}|{}", finding.rule.slug(), finding.kind, result.label),
                },
                "properties": {
                    "rule": finding.rule.to_string(),
                    "ruleId": finding.rule.slug(),
                    "findingLevel": finding.level.name(),
                    "case": result.label,
                    "input": result.input,
                    "expected": result.expected,
                    "observed": result.observed,
                    "httpStatus": result.http_status,
                    "note": result.note,
                },
            });
            if report.verdict.known.contains(&key) {
                item["suppressions"] = json!([{
                    "kind": "external",
                    "justification": "listed in the --expect-failures file",
                }]);
            }
            results.push(item);
        }
    }
    let mut invocation = json!({ "executionSuccessful": report.aborted.is_none() });
    if let Some(reason) = &report.aborted {
        invocation["toolExecutionNotifications"] = json!([{
            "level": "error",
            "message": { "text": format!("stopped early: {reason}") },
        }]);
    }
    log(json!({
        "tool": tool(),
        "invocations": [invocation],
        "results": results,
        "properties": {
            "target": report.target,
            "profile": report.profile,
            "seed": report.seed,
            "cases": report.cases(),
            "failingCases": report.failing_cases(),
            "passed": report.passes(),
        },
    }))
}

/// The SARIF log of a run that could not check the server (exit 2): no results, and an
/// unsuccessful invocation whose notification carries the message.
pub fn sarif_error(target: &str, message: &str) -> String {
    log(json!({
        "tool": tool(),
        "invocations": [{
            "executionSuccessful": false,
            "toolExecutionNotifications": [{
                "level": "error",
                "message": { "text": message },
            }],
        }],
        "results": [],
        "properties": { "target": target, "error": message, "passed": false },
    }))
}
