//! Tool parameters mirrored in HTTP headers (MCP 2026-07-28, SEP-2243), the client's side: a
//! property of a tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent both in the
//! arguments and as an `Mcp-Param-Name` header (the HTTP transport spells the value).
//!
//! Which declarations are valid, and the text of each value, is the one rule the server
//! holds too ([`mcpwire::http::param_headers`], [`mcpwire::http::param_header_text`]): a
//! tool with an invalid declaration is left out of listings, and a call whose argument the
//! rule cannot mirror is refused before it is sent, so the client never sends what a server
//! holding the rule refuses.

use mcpwire::http::{ParamHeader, param_header_text, param_headers};
use mcpwire_model::{SchemaText, ToolInfo};
use serde_json::{Map, Value};

use crate::violation::{Rule, Violation};

/// The `x-mcp-header` declarations of the input schema `schema`, or why they break the rule
/// (or why the schema cannot be read to find them).
///
/// The schema is kept as text and parsed only when its text can declare a header: the key
/// `x-mcp-header` is then written out, or spelled with a `\u` escape (its characters need no
/// other escape). A schema whose text has neither declares none, and stays unparsed.
pub(crate) fn declared(schema: &SchemaText) -> Result<Vec<ParamHeader>, String> {
    let text = schema.as_str();
    if !text.contains("x-mcp-header") && !text.contains("\\u") {
        return Ok(Vec::new());
    }
    let members = schema
        .members()
        .map_err(|e| format!("its inputSchema cannot be read: {e}"))?;
    param_headers(members).map_err(|e| e.to_string())
}

/// Leaves out of `tools` every tool whose `x-mcp-header` declarations are invalid, reporting
/// each as a violation of the server.
pub(crate) fn retain_valid(tools: &mut Vec<ToolInfo>, report: impl Fn(Violation)) {
    tools.retain(|tool| match declared(&tool.input_schema) {
        Ok(_) => true,
        Err(reason) => {
            report(Violation::new(
                Rule::ResultShape,
                format!("tool `{}` is left out: {reason}", tool.name),
            ));
            false
        }
    });
}

/// The `Mcp-Param-*` values of one call: `(header name, text)` for each parameter the tool
/// declared (`declared`, from its listed `inputSchema`) that `arguments` has (not `null`),
/// or why an argument cannot be mirrored.
pub(crate) fn values(
    declared: &[ParamHeader],
    arguments: &Map<String, Value>,
) -> Result<Vec<(String, String)>, String> {
    let mut headers = Vec::new();
    for declaration in declared {
        let Some(argument) = arguments.get(&declaration.property) else {
            continue;
        };
        let text = param_header_text(argument).map_err(|reason| {
            format!(
                "argument `{}` is mirrored in Mcp-Param-{}: {reason}",
                declaration.property, declaration.header
            )
        })?;
        if let Some(text) = text {
            headers.push((declaration.header.clone(), text));
        }
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(properties: Value) -> Map<String, Value> {
        let schema = json!({ "type": "object", "properties": properties });
        schema.as_object().cloned().expect("an object")
    }

    #[test]
    fn declared_parameters_are_mirrored_when_present_and_mirrorable() {
        let schema = schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": ["boolean", "null"], "x-mcp-header": "Verbose"},
            "debug": {"type": "boolean", "x-mcp-header": "Debug"},
            "query": {"type": "string"},
        }));
        let schema = param_headers(&schema).expect("valid declarations");
        let arguments = json!({"region": "us west", "priority": 42, "verbose": null,
                               "debug": false, "query": "q"});
        let mut headers =
            values(&schema, arguments.as_object().expect("an object")).expect("mirrorable");
        headers.sort();
        assert_eq!(
            headers,
            vec![
                ("Debug".to_owned(), "false".to_owned()),
                ("Priority".to_owned(), "42".to_owned()),
                ("Region".to_owned(), "us west".to_owned()),
            ]
        );
        // What the server would refuse is never sent.
        let listed = json!({"region": ["us"], "priority": 1});
        let error = values(&schema, listed.as_object().expect("an object")).unwrap_err();
        assert!(error.contains("Mcp-Param-Region"), "{error}");
        let fraction = json!({"priority": 1.5});
        assert!(values(&schema, fraction.as_object().expect("an object")).is_err());
    }

    #[test]
    fn tools_breaking_the_rule_are_left_out_and_reported() {
        let good = ToolInfo::new(
            "good",
            schema(json!({"r": {"type": "string", "x-mcp-header": "R"}})),
        );
        let bad = ToolInfo::new(
            "bad",
            schema(json!({"s": {"type": "number", "x-mcp-header": "S"}})),
        );
        let mut tools = vec![good.clone(), bad];
        let reported = std::cell::RefCell::new(Vec::new());
        retain_valid(&mut tools, |v| reported.borrow_mut().push(v.detail));
        assert_eq!(tools, [good]);
        let reported = reported.into_inner();
        assert_eq!(reported.len(), 1);
        assert!(
            reported[0].contains("tool `bad` is left out"),
            "{reported:?}"
        );
    }
}
