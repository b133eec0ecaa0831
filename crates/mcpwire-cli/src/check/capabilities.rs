//! `mcpwire check --capabilities`: the capabilities the handshake declared (`initialize`, or
//! `server/discover` under MCP 2026-07-28) against what the server then does. For `tools`,
//! `prompts` and `resources` the list method is called once: a declared capability's list
//! method answers with a result, an undeclared one's gets -32601 (Method not found). Each call
//! is also a case like any other (the envelope rules and the schema judge its reply).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::cases::CheckCase;
use super::exchange::{Exchange, Target, attribute_late};
use super::finding::{Finding, RuleId};
use super::handshake::request_case;
use mcpwire_types::ProfileFacts;

/// Each capability with its list method.
const LISTED: &[(&str, &str)] = &[
    ("tools", "tools/list"),
    ("prompts", "prompts/list"),
    ("resources", "resources/list"),
];

/// The findings of the capability cases, by their index in the run's results.
pub type CapabilityFindings = BTreeMap<usize, Vec<Finding>>;

/// The handshake's declared capabilities and the method that declared them, if the
/// handshake has a reply with `result.capabilities`.
fn declared(results: &[(CheckCase, Exchange)]) -> Option<(Map<String, Value>, String)> {
    results.iter().find_map(|(case, exchange)| {
        let source = serde_json::from_slice::<Value>(&case.frame)
            .ok()?
            .get("method")?
            .as_str()?
            .to_owned();
        exchange.replies.iter().find_map(|reply| {
            let reply = serde_json::from_slice::<Value>(reply).ok()?;
            let capabilities = reply.pointer("/result/capabilities")?.as_object()?.clone();
            Some((capabilities, source.clone()))
        })
    })
}

/// Calls each list method once and judges it against the declaration. Nothing is sent when
/// the handshake declared nothing readable (that is the handshake's finding).
pub fn run_capabilities(
    target: &mut dyn Target,
    facts: &'static ProfileFacts,
    results: &mut Vec<(CheckCase, Exchange)>,
) -> CapabilityFindings {
    let mut findings = CapabilityFindings::new();
    let Some((capabilities, source)) = declared(results) else {
        return findings;
    };
    for (number, (capability, method)) in LISTED.iter().enumerate() {
        let is_declared = capabilities.get(*capability).is_some_and(Value::is_object);
        let id = format!("mcpwire-capability-{}", number + 1);
        let label = format!(
            "{method} ({capability} {} by {source})",
            if is_declared {
                "declared"
            } else {
                "not declared"
            }
        );
        let case = request_case(facts, &label, &id, method, Map::new());
        let index = results.len();
        let exchange = target.exchange(index, &case);
        attribute_late(results, &exchange.late);
        if let Some(finding) = judge(&label, &id, is_declared, &exchange) {
            findings.insert(index, vec![finding]);
        }
        results.push((case, exchange));
    }
    findings
}

/// Judges one list call (none when no reply with its id came: that is the envelope's finding).
fn judge(label: &str, id: &str, is_declared: bool, exchange: &Exchange) -> Option<Finding> {
    let reply = exchange
        .replies
        .iter()
        .filter_map(|r| serde_json::from_slice::<Value>(r).ok())
        .find(|r| r.get("id").and_then(Value::as_str) == Some(id))?;
    let code = reply.pointer("/error/code").and_then(Value::as_i64);
    let got = match code {
        Some(code) => format!("the error {code}"),
        None => "a result".to_owned(),
    };
    let finding = |kind: &str, why: &str| {
        Some(Finding::new(
            kind,
            RuleId::Capabilities,
            format!("{label}: got {got}; {why}"),
        ))
    };
    match (is_declared, code) {
        (true, None) | (false, Some(-32601)) => None,
        (true, Some(-32601)) => finding(
            "declared-capability-method-missing",
            "the server declared the capability, so its list method exists; -32601 says it does not",
        ),
        (true, Some(_)) => finding(
            "declared-capability-list-error",
            "a declared capability's list method, called without a cursor, answers with a result",
        ),
        (false, _) => finding(
            "undeclared-capability-answered",
            "the capability was not declared, so its list method is one the server does not offer: -32601 (Method not found)",
        ),
    }
}
