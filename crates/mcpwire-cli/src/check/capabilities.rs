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
    let version = caller.facts.protocol_version.unwrap_or_default();
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
            .and_then(|r| judge(&label, list, is_declared, version, r));
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

/// The first MCP version whose tools, resources and prompts pages bind a declared capability
/// to answering its list method: "Servers that declare the `tools` capability MUST respond to
/// `tools/list` requests with the set of tools currently available to the requesting client."
const LIST_MUST_FROM: &str = "2026-07-28";

/// Judges one list call's reply against the declaration, under MCP `version`.
fn judge(
    label: &str,
    list: ListMethod,
    is_declared: bool,
    version: &str,
    reply: &Value,
) -> Option<Finding> {
    let capability = list.capability;
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
        (true, Some(_)) if version >= LIST_MUST_FROM => finding(
            "declared-list-refused",
            &format!(
                "MCP {version} {capability}: \"Servers that declare the `{capability}` capability MUST respond to `{}` requests with the set of {capability} currently available to the requesting client.\"",
                list.method
            ),
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind_of(version: &str, code: i64) -> Option<String> {
        let reply = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "x"}});
        judge("tools/list", TOOLS, true, version, &reply).map(|f| f.kind)
    }

    #[test]
    fn a_declared_list_refused_is_judged_by_the_text_of_its_version() {
        // To 2025-11-25 only a schema description binds the declaration: strict kinds.
        assert_eq!(
            kind_of("2025-11-25", -32601).as_deref(),
            Some("declared-capability-method-missing")
        );
        assert_eq!(
            kind_of("2025-11-25", -32603).as_deref(),
            Some("declared-capability-list-error")
        );
        // From 2026-07-28 the tools page's MUST does, whatever the error.
        for code in [-32601, -32603] {
            assert_eq!(
                kind_of("2026-07-28", code).as_deref(),
                Some("declared-list-refused")
            );
        }
    }
}
