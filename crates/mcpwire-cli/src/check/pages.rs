//! Pagination walks (`--capabilities`, `--tools`): every page of a list method the server
//! declared (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`),
//! following `nextCursor` until it is absent, at most [`MAX_PAGES`] pages. A page that lists
//! an item already listed, or returns a cursor it returned before, is `page-repeats`; then the
//! method with a cursor the server never issued must get -32602 (`invalid-cursor-not-refused`).
//! Both are strict: MCP pagination says servers SHOULD "Provide stable cursors" and invalid
//! cursors SHOULD get -32602, and no MUST.

use serde_json::{Map, Value, json};

use super::caller::Caller;
use super::cases::CheckCase;
use super::exchange::Exchange;
use super::finding::{Finding, RuleId};
use super::handshake::short;

/// The most pages read of one list method.
pub const MAX_PAGES: usize = 50;
/// A cursor no server issues.
pub const FOREIGN_CURSOR: &str = "mcpwire-check-foreign-cursor";

/// A paginated list method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListMethod {
    /// The method, e.g. `prompts/list`.
    pub method: &'static str,
    /// The capability that offers it.
    pub capability: &'static str,
    /// The member of the result holding the page's items.
    pub items: &'static str,
    /// The member that identifies an item (two items with the same value are one repeated).
    pub key: &'static str,
}

const fn list(
    method: &'static str,
    capability: &'static str,
    items: &'static str,
    key: &'static str,
) -> ListMethod {
    ListMethod {
        method,
        capability,
        items,
        key,
    }
}

/// `tools/list`.
pub const TOOLS: ListMethod = list("tools/list", "tools", "tools", "name");
/// `prompts/list`.
pub const PROMPTS: ListMethod = list("prompts/list", "prompts", "prompts", "name");
/// `resources/list`.
pub const RESOURCES: ListMethod = list("resources/list", "resources", "resources", "uri");
/// `resources/templates/list`.
pub const TEMPLATES: ListMethod = list(
    "resources/templates/list",
    "resources",
    "resourceTemplates",
    "uriTemplate",
);
/// Every paginated list method.
pub const LIST_METHODS: [ListMethod; 4] = [TOOLS, PROMPTS, RESOURCES, TEMPLATES];

/// What a walk of one list method found.
#[derive(Debug, Clone, Default)]
pub struct Walk {
    /// Every item listed, each once (a repeat is left out), in the order listed.
    pub items: Vec<Value>,
    /// Pages read.
    pub pages: usize,
    /// Whether the walk reached a page without `nextCursor`.
    pub complete: bool,
    /// Why the walk stopped early, if it did.
    pub notes: Vec<String>,
}

/// The handshake's declared capabilities and the method that declared them (`initialize` or
/// `server/discover`), if the handshake has a reply with `result.capabilities`.
pub fn handshake_capabilities(
    results: &[(CheckCase, Exchange)],
) -> Option<(Map<String, Value>, String)> {
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

/// The capabilities the handshake declares (none when it declared nothing readable).
pub fn declared_capabilities(results: &[(CheckCase, Exchange)]) -> Map<String, Value> {
    handshake_capabilities(results)
        .map(|(capabilities, _)| capabilities)
        .unwrap_or_default()
}

/// Whether `capabilities` declare `capability` (as an object).
pub fn declares(capabilities: &Map<String, Value>, capability: &str) -> bool {
    capabilities.get(capability).is_some_and(Value::is_object)
}

/// Walks every page of `list`. `first` is a page-1 call already sent (its index and id), so
/// it is not sent again. The walk's findings go to the caller.
pub fn walk(caller: &mut Caller<'_>, list: ListMethod, first: Option<(usize, String)>) -> Walk {
    let mut walk = Walk::default();
    // Each item's key with the page it was first listed on; each cursor with the page it came on.
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut cursors: Vec<(Value, usize)> = Vec::new();
    let mut cursor: Option<Value> = None;
    let mut first = first;
    for page in 1..=MAX_PAGES {
        let (index, id) = match (page, first.take()) {
            (1, Some(sent)) => sent,
            _ => {
                let mut params = Map::new();
                if let Some(cursor) = &cursor {
                    params.insert("cursor".into(), cursor.clone());
                }
                let label = format!("{} page {page}", list.method);
                caller.call("list", label, list.method, params)
            }
        };
        walk.pages += 1;
        let Some(result) = caller
            .reply(index, &id)
            .and_then(|r| r.get("result").cloned())
        else {
            walk.notes.push(format!(
                "{} page {page} got no result: the walk stopped",
                list.method
            ));
            return walk;
        };
        let mut repeated = Vec::new();
        for item in result
            .get(list.items)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = match item.get(list.key) {
                Some(Value::String(key)) => key.clone(),
                Some(other) => other.to_string(),
                None => item.to_string(),
            };
            match seen.iter().find(|(k, _)| *k == key) {
                Some((_, on)) => repeated.push((key, *on)),
                None => {
                    seen.push((key, page));
                    walk.items.push(item.clone());
                }
            }
        }
        if !repeated.is_empty() {
            let shown: Vec<String> = repeated
                .iter()
                .take(3)
                .map(|(key, on)| format!("{key:?} (listed on page {on})"))
                .collect();
            caller.find(
                index,
                page_repeats(format!(
                        "{} page {page} lists {} item(s) already listed: {}{}; a cursor represents a position in the result set, and servers SHOULD provide stable cursors",
                        list.method,
                        repeated.len(),
                        shown.join(", "),
                        if repeated.len() > 3 { ", …" } else { "" }
                    )),
            );
        }
        let next = match result.get("nextCursor") {
            Some(next) if !next.is_null() => next.clone(),
            _ => {
                walk.complete = true;
                break;
            }
        };
        if let Some((_, on)) = cursors.iter().find(|(c, _)| *c == next) {
            caller.find(
                index,
                page_repeats(format!(
                        "{} page {page} returns the nextCursor {} it already returned on page {on}: a client following the cursors never reaches the end",
                        list.method,
                        short(&next)
                    )),
            );
            walk.notes.push(format!(
                "{} page {page} repeats a cursor: the walk stopped",
                list.method
            ));
            break;
        }
        cursors.push((next.clone(), page));
        cursor = Some(next);
        if page == MAX_PAGES {
            walk.notes.push(format!(
                "{}: the walk stopped after {MAX_PAGES} pages, every one with a new cursor",
                list.method
            ));
        }
    }
    if !walk.items.is_empty() {
        foreign_cursor(caller, list);
    }
    walk
}

/// A `page-repeats` finding saying `message`.
fn page_repeats(message: String) -> Finding {
    Finding::new("page-repeats", RuleId::Capabilities, message)
}

/// `list` with a cursor the server never issued: MCP pagination, "Invalid cursors SHOULD result
/// in an error with code -32602 (Invalid params)".
fn foreign_cursor(caller: &mut Caller<'_>, list: ListMethod) {
    let mut params = Map::new();
    params.insert("cursor".into(), json!(FOREIGN_CURSOR));
    let label = format!("{} with a foreign cursor", list.method);
    let (index, id) = caller.call("list", label, list.method, params);
    let Some(reply) = caller.reply(index, &id) else {
        return;
    };
    let code = reply.pointer("/error/code").and_then(Value::as_i64);
    if code == Some(-32602) {
        return;
    }
    let got = match code {
        Some(code) => format!("the error {code}"),
        None => "a result".to_owned(),
    };
    caller.find(
        index,
        Finding::new(
            "invalid-cursor-not-refused",
            RuleId::Capabilities,
            format!(
                "{} with the cursor {FOREIGN_CURSOR:?}, never issued by the server, got {got}; invalid cursors SHOULD get the error -32602",
                list.method
            ),
        ),
    );
}
