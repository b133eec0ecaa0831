//! `mcpwire check --capabilities`: the capabilities the handshake declared (`initialize`, or
//! `server/discover` under MCP 2026-07-28) against what the server then does. For `tools`,
//! `prompts` and `resources` the list method is called once: a declared capability's list
//! method answers with a result, an undeclared one's gets -32601 (Method not found). Then
//! every declared list method (`resources/templates/list` too) is walked to its last page
//! ([`super::pages`]). Each call is also a case like any other (the envelope rules and the
//! schema judge its reply).

use serde_json::{Map, Value};

use super::caller::Caller;
use super::finding::{Finding, RuleId};
use super::pages::{
    LIST_METHODS, ListMethod, PROMPTS, RESOURCES, TEMPLATES, TOOLS, Walk, declared_capabilities,
    declares, handshake_capabilities, walk,
};

/// The list method of each capability, called once.
const LISTED: [ListMethod; 3] = [TOOLS, PROMPTS, RESOURCES];

/// Calls each list method once and judges it against the declaration; for each declared
/// capability whose call got a result, the list method and that first page (its index and id),
/// from which a walk goes on. Nothing is sent when the handshake declared nothing readable
/// (that is the handshake's finding).
pub fn run_capabilities(caller: &mut Caller<'_>) -> Vec<(ListMethod, (usize, String))> {
    let mut first_pages = Vec::new();
    let Some((capabilities, source)) = handshake_capabilities(caller.results) else {
        return first_pages;
    };
    for list in LISTED {
        let (capability, method) = (list.capability, list.method);
        let is_declared = declares(&capabilities, capability);
        let label = format!(
            "{method} ({capability} {} by {source})",
            if is_declared {
                "declared"
            } else {
                "not declared"
            }
        );
        let (index, id) = caller.call("capability", label.clone(), method, Map::new());
        let reply = caller.reply(index, &id);
        let judged = reply
            .as_ref()
            .and_then(|r| judge(&label, capability, is_declared, r));
        if let Some(finding) = judged {
            caller.find(index, finding);
        }
        if is_declared && reply.is_some_and(|r| r.get("result").is_some()) {
            first_pages.push((list, (index, id)));
        }
    }
    first_pages
}

/// Every page of each list method walked: by method.
#[derive(Debug, Default)]
pub struct Lists {
    /// The walks, in the order made.
    pub walks: Vec<(ListMethod, Walk)>,
}

impl Lists {
    /// The walk of `list`, if it was walked.
    pub fn get(&self, list: ListMethod) -> Option<&Walk> {
        self.walks.iter().find(|(l, _)| *l == list).map(|(_, w)| w)
    }
}

/// The capability calls (with `--capabilities`) and the pagination walks: with
/// `--capabilities` or `--protocol` every declared list method, with `--tools` those whose
/// items it tests (tools, prompts, resource templates).
pub fn run_lists(
    caller: &mut Caller<'_>,
    capabilities: bool,
    tools: bool,
    protocol: bool,
) -> Lists {
    let first_pages = if capabilities {
        run_capabilities(caller)
    } else {
        Vec::new()
    };
    let declared = declared_capabilities(caller.results);
    let mut lists = Lists::default();
    for list in LIST_METHODS {
        let wanted = capabilities || protocol || (tools && list != RESOURCES);
        if !wanted || !declares(&declared, list.capability) {
            continue;
        }
        let first = first_pages
            .iter()
            .find(|(l, _)| *l == list)
            .map(|(_, sent)| sent.clone());
        if capabilities && first.is_none() && list != TEMPLATES {
            // Its call without a cursor got no result: that is the capability finding.
            continue;
        }
        let walked = walk(caller, list, first);
        lists.walks.push((list, walked));
    }
    lists
}

/// Judges one list call's reply against the declaration.
fn judge(label: &str, capability: &str, is_declared: bool, reply: &Value) -> Option<Finding> {
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
            &format!(
                "the server declared the capability, which the MCP schema's ServerCapabilities describes as \"{}\" (a description, no MUST: strict), so its list method exists; -32601 says it does not",
                offers(capability)
            ),
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

/// The MCP schema's description of a capability (the same in every version, 2024-11-05 to
/// 2026-07-28).
fn offers(capability: &str) -> &'static str {
    match capability {
        "tools" => "Present if the server offers any tools to call.",
        "prompts" => "Present if the server offers any prompt templates.",
        _ => "Present if the server offers any resources to read.",
    }
}
