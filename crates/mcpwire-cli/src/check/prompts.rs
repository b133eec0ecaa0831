//! `mcpwire check --tools`, prompts and resource templates (where it is cheap): each listed
//! prompt is got once with its required arguments (generated strings) and once without each
//! required argument (at most `MAX_MISSING`); each listed resource template is expanded
//! (RFC 6570) with generated values and read once. Every request is a case like any other: its
//! reply is validated against the version's `GetPromptResult` / `ReadResourceResult`.
//!
//! The levels follow the MCP pages, which put all of this under SHOULD: prompts, "Servers
//! SHOULD validate prompt arguments before processing" and "Missing required arguments: -32602
//! (Invalid params)"; resources, "Resource not found: -32002" and "Internal errors: -32603"
//! (2026-07-28 names -32602 for a resource not found). So every finding here is strict; a
//! broken result is `reply-schema-invalid`, a violation.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value};

use super::caller::Caller;
use super::capabilities::Lists;
use super::finding::{Finding, RuleId};
use super::handshake::short;
use super::pages::{PROMPTS, TEMPLATES, Walk};
use super::tools::{ToolOptions, ToolSummary, runner};

/// The most prompts, and the most resource templates, tested.
const MAX_ITEMS: usize = 50;
/// The most calls without a required argument per prompt.
const MAX_MISSING: usize = 4;
/// The codes the resources page documents for a failed read: -32002 (Resource not found, to
/// 2025-11-25), -32602 (Resource not found, 2026-07-28), -32603 (Internal error).
const READ_ERRORS: [i64; 3] = [-32002, -32602, -32603];

/// Tests the prompts and resource templates the walks found (not with `--tool`, which names
/// the only things to call).
pub fn run_prompts(
    caller: &mut Caller<'_>,
    lists: &Lists,
    options: &ToolOptions,
    summary: &mut ToolSummary,
) {
    if !options.only.is_empty() {
        if lists.get(PROMPTS).is_some() || lists.get(TEMPLATES).is_some() {
            summary
                .lines
                .push("--tool given: no prompt got, no resource template read".into());
        }
        return;
    }
    if let Some(walk) = lists.get(PROMPTS) {
        for prompt in tested(walk, "prompts", summary) {
            test_prompt(caller, prompt, options.seed, summary);
        }
    }
    if let Some(walk) = lists.get(TEMPLATES) {
        for template in tested(walk, "resource templates", summary) {
            test_template(caller, template, options.seed, summary);
        }
    }
}

/// The first [`MAX_ITEMS`] items of `walk`; its notes, and a note when items are left out,
/// go to the summary.
fn tested<'w>(walk: &'w Walk, what: &str, summary: &mut ToolSummary) -> &'w [Value] {
    summary.lines.extend(walk.notes.iter().cloned());
    if walk.items.len() > MAX_ITEMS {
        summary.lines.push(format!(
            "{what}: only the first {MAX_ITEMS} of {} tested",
            walk.items.len()
        ));
    }
    &walk.items[..walk.items.len().min(MAX_ITEMS)]
}

/// A generated value: 1 to 8 characters of `[a-z0-9]` (nothing a URI or a template escapes).
fn value(runner: &mut TestRunner) -> String {
    proptest::string::string_regex("[a-z0-9]{1,8}")
        .ok()
        .and_then(|s| s.new_tree(runner).ok())
        .map_or_else(|| "x".to_owned(), |tree| tree.current())
}

/// `prompts/get` of one prompt: with its required arguments, then without each.
fn test_prompt(caller: &mut Caller<'_>, prompt: &Value, seed: u64, summary: &mut ToolSummary) {
    let Some(name) = prompt.get("name").and_then(Value::as_str) else {
        return;
    };
    let required: Vec<String> = prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|a| a.get("required") == Some(&Value::Bool(true)))
        .filter_map(|a| a.get("name")?.as_str().map(str::to_owned))
        .collect();
    let mut runner = runner(seed, &format!("prompt {name}"));
    let arguments: Map<String, Value> = required
        .iter()
        .map(|a| (a.clone(), Value::String(value(&mut runner))))
        .collect();
    let get = |caller: &mut Caller<'_>, label: String, arguments: &Map<String, Value>| {
        let mut params = Map::new();
        params.insert("name".into(), Value::String(name.to_owned()));
        if !arguments.is_empty() {
            params.insert("arguments".into(), Value::Object(arguments.clone()));
        }
        let (index, id) = caller.call("prompts", label, "prompts/get", params);
        (index, caller.reply(index, &id))
    };
    let label = if required.is_empty() {
        format!("prompt {name}: no required arguments")
    } else {
        format!("prompt {name}: its required arguments (seed {seed})")
    };
    let (index, reply) = get(caller, label, &arguments);
    summary.prompt_calls += 1;
    let mut line = if required.is_empty() {
        format!("prompt {name}: got without arguments")
    } else {
        format!(
            "prompt {name}: got with its {} required argument(s)",
            required.len()
        )
    };
    match reply.as_ref().and_then(|r| r.get("error")) {
        Some(error) if error.get("code").and_then(Value::as_i64) == Some(-32602) => {
            line.push_str(&format!(
                " (refused the generated values {} with -32602: a prompt argument declares no type, so that is the server's call)",
                Value::Object(arguments.clone())
            ));
        }
        Some(error) => caller.find(
            index,
            Finding::new(
                "prompt-error-on-valid-arguments",
                RuleId::Tools,
                format!(
                    "prompt {name}: every required argument given ({}) got the error {}; arguments that satisfy the prompt's declared arguments get its messages",
                    Value::Object(arguments.clone()),
                    short(error)
                ),
            ),
        ),
        None => {}
    }
    for missing in required.iter().take(MAX_MISSING) {
        let mut without = arguments.clone();
        without.remove(missing);
        let label = format!("prompt {name}: missing required argument {missing}");
        let (index, reply) = get(caller, label, &without);
        summary.prompt_calls += 1;
        let Some(reply) = reply else { continue };
        let code = reply.pointer("/error/code").and_then(Value::as_i64);
        let finding = match (reply.get("result"), code) {
            (_, Some(-32602)) => None,
            (Some(_), _) => Some(Finding::new(
                "prompt-accepted-missing-argument",
                RuleId::Tools,
                format!(
                    "prompt {name}: the required argument {missing:?} left out (arguments {}) got a result; servers SHOULD validate prompt arguments, and a missing required argument SHOULD get -32602 (Invalid params)",
                    Value::Object(without)
                ),
            )),
            (None, _) => Some(Finding::new(
                "prompt-refusal-form",
                RuleId::Tools,
                format!(
                    "prompt {name}: the required argument {missing:?} left out got the error {}; the prompts page names -32602 (Invalid params) for missing required arguments",
                    reply.get("error").map_or_else(String::new, short)
                ),
            )),
        };
        if let Some(finding) = finding {
            caller.find(index, finding);
        }
    }
    if required.len() > MAX_MISSING {
        line.push_str(&format!(
            ", then without each of the first {MAX_MISSING} of them"
        ));
    } else if !required.is_empty() {
        line.push_str(", then without each of them");
    }
    summary.lines.push(line);
}

/// `resources/read` of one URI expanded from a resource template.
fn test_template(caller: &mut Caller<'_>, template: &Value, seed: u64, summary: &mut ToolSummary) {
    let Some(pattern) = template.get("uriTemplate").and_then(Value::as_str) else {
        return;
    };
    let mut runner = runner(seed, &format!("template {pattern}"));
    let uri = match expand(pattern, &mut || value(&mut runner)) {
        Ok(uri) => uri,
        Err(why) => {
            summary
                .lines
                .push(format!("resource template {pattern}: not read, {why}"));
            return;
        }
    };
    let mut params = Map::new();
    params.insert("uri".into(), Value::String(uri.clone()));
    let label = format!("resource template {pattern}: read {uri}");
    let (index, id) = caller.call("resources", label, "resources/read", params);
    summary.resource_reads += 1;
    let error = caller
        .reply(index, &id)
        .and_then(|r| r.get("error").cloned());
    let code = error
        .as_ref()
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64);
    let outcome = match (&error, code) {
        (None, _) => "contents".to_owned(),
        (Some(_), Some(code)) if READ_ERRORS.contains(&code) => format!("the error {code}"),
        (Some(error), _) => {
            caller.find(
                index,
                Finding::new(
                    "resource-read-error-undocumented",
                    RuleId::Tools,
                    format!(
                        "resource template {pattern}: reading {uri} got the error {}; a read answers with contents or a documented error: -32002 or -32602 (Resource not found), -32603 (Internal error)",
                        short(error)
                    ),
                ),
            );
            format!(
                "the error {}",
                code.map_or("?".to_owned(), |c| c.to_string())
            )
        }
    };
    summary.lines.push(format!(
        "resource template {pattern}: read {uri}, got {outcome}"
    ));
}

/// Expands an RFC 6570 URI template (levels 1 to 4), each variable with `value()`. Values are
/// `[a-z0-9]` only, so nothing needs percent-encoding.
pub fn expand(template: &str, value: &mut dyn FnMut() -> String) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .map(|c| open + c)
            .ok_or("its uriTemplate has an unclosed {")?;
        let expression = &rest[open + 1..close];
        rest = &rest[close + 1..];
        let (operator, list) = match expression.chars().next() {
            Some(op @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => (Some(op), &expression[1..]),
            Some(_) => (None, expression),
            None => return Err("its uriTemplate has an empty expression {}".into()),
        };
        let (first, separator, named) = match operator {
            None | Some('+') => ("", ",", false),
            Some('#') => ("#", ",", false),
            Some('.') => (".", ".", false),
            Some('/') => ("/", "/", false),
            Some(';') => (";", ";", true),
            Some('?') => ("?", "&", true),
            _ => ("&", "&", true),
        };
        let mut parts = Vec::new();
        for spec in list.split(',') {
            let (name, prefix) =
                match spec.trim_end_matches('*').split_once(':') {
                    Some((name, length)) => (
                        name,
                        Some(length.parse::<usize>().map_err(|_| {
                            format!("its uriTemplate's prefix {spec:?} is no length")
                        })?),
                    ),
                    None => (spec.trim_end_matches('*'), None),
                };
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '%'));
            if !valid {
                return Err(format!(
                    "its uriTemplate's variable {spec:?} is not RFC 6570"
                ));
            }
            let mut v = value();
            if let Some(length) = prefix {
                v.truncate(length.max(1));
            }
            parts.push(if named { format!("{name}={v}") } else { v });
        }
        out.push_str(first);
        out.push_str(&parts.join(separator));
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::expand;

    fn expanded(template: &str) -> String {
        let mut n = 0;
        expand(template, &mut || {
            n += 1;
            format!("v{n}")
        })
        .expect("expands")
    }

    #[test]
    fn every_operator_expands_as_rfc_6570_says() {
        assert_eq!(expanded("note:///{id}"), "note:///v1");
        assert_eq!(expanded("x://{a,b}/{+path}"), "x://v1,v2/v3");
        assert_eq!(expanded("x://h{/seg,more}"), "x://h/v1/v2");
        assert_eq!(expanded("x://h/f{.ext}{#frag}"), "x://h/f.v1#v2");
        assert_eq!(
            expanded("x://h/p{;k}{?q,r}{&s}"),
            "x://h/p;k=v1?q=v2&r=v3&s=v4"
        );
        assert_eq!(expanded("x://h/{name:1}{list*}"), "x://h/vv2");
        assert_eq!(expanded("plain://uri"), "plain://uri");
    }

    #[test]
    fn a_template_that_is_not_rfc_6570_is_not_read() {
        let mut value = || "v".to_owned();
        assert!(expand("x://{unclosed", &mut value).is_err());
        assert!(expand("x://{}", &mut value).is_err());
        assert!(expand("x://{a b}", &mut value).is_err());
    }
}
