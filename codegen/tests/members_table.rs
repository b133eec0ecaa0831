//! `mcp/members.rs`: the `mcp_if_member!` table the model's conversions ask which members a
//! version's struct lacks, generated from the lowered models of the versions together.

use mcpwire_codegen::{McpSchema, Options, generate_mcp_modules};

fn schema(tool: &str, resource: &str) -> Vec<u8> {
    format!(
        r#"{{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {{
            "Tool": {{"type": "object", "properties": {tool}, "required": ["name"]}},
            "Resource": {{"type": "object", "properties": {resource}, "required": ["uri"]}}
        }}}}"#
    )
    .into_bytes()
}

#[test]
fn a_member_one_version_lacks_gets_a_rule_and_nothing_else_does() {
    let mcp = vec![
        McpSchema {
            version: "2025-06-18".into(),
            // No `icons`; `title` on the resource.
            bytes: schema(
                r#"{"name": {"type": "string"}}"#,
                r#"{"uri": {"type": "string"}, "title": {"type": "string"}}"#,
            ),
        },
        McpSchema {
            version: "2025-11-25".into(),
            // `icons` and `_meta` added to the tool; the resource's `title` dropped.
            bytes: schema(
                r#"{"name": {"type": "string"}, "icons": {"type": "array"},
                    "_meta": {"type": "object"}}"#,
                r#"{"uri": {"type": "string"}}"#,
            ),
        },
    ];
    let files = generate_mcp_modules(&mcp, Options::default()).unwrap();
    let members = files
        .iter()
        .find(|f| f.path.ends_with("/mcp/members.rs"))
        .expect("members.rs is generated");
    let rules: Vec<&str> = members
        .contents
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("(v20"))
        .collect();
    assert_eq!(
        rules,
        [
            "(v2025_06_18, Tool, icons, $has:block, $lacks:block) => { $lacks };",
            "(v2025_06_18, Tool, meta, $has:block, $lacks:block) => { $lacks };",
            "(v2025_11_25, Resource, title, $has:block, $lacks:block) => { $lacks };",
        ]
    );
    assert!(
        members
            .contents
            .contains("($m:ident, $t:ident, $f:ident, $has:block, $lacks:block) => { $has };"),
        "every other question is answered `has it`"
    );
}
