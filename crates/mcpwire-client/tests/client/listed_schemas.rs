//! A listed tool's schemas as the client keeps them: the text the server wrote, byte for
//! byte, parsed only when looked inside; checked by the version's schema when listed (a
//! malformed member named by its JSON pointer); and the output schema holding the tool's
//! results until the server lists the tool otherwise.

use mcpwire_client::{CallOptions, Client, ClientError, Rule, ToolInfo};
use serde_json::json;

use crate::support::{Scripted, builder, scripted};

/// An input schema as a server may spell it: spaces, members out of order, an exponent, an
/// escape.
const INPUT: &str = r#"{ "type" : "object", "required": ["n"], "properties": {"n": {"type": "number", "maximum": 1e3, "title": "a\/b"}} }"#;

/// An output schema requiring an integer `sum`, spelled loosely too.
const OUTPUT: &str =
    r#"{"required": [ "sum" ], "type": "object", "properties": {"sum": {"type": "integer"}}}"#;

/// Lists tools while the server answers with `tools` (the text of the `tools` array).
async fn listed(
    client: &Client,
    server: &mut Scripted,
    tools: &str,
) -> Result<Vec<ToolInfo>, ClientError> {
    let listing = client.list_tools(None);
    let answer = async {
        let request = server.recv().await;
        let id = request["id"].to_string();
        let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":{tools}}}}}"#);
        server.send(&line).await;
    };
    let (listed, ()) = tokio::join!(listing, answer);
    listed.map(|page| page.items)
}

/// Calls tool `t` while the server answers with `result`.
async fn called(
    client: &Client,
    server: &mut Scripted,
    result: serde_json::Value,
) -> Result<(), ClientError> {
    let options = CallOptions::new();
    let arguments = json!({"n": 1});
    let call = client.call_tool("t", &arguments, &options);
    let answer = async {
        let request = server.recv().await;
        assert_eq!(request["method"], "tools/call");
        let line = json!({"jsonrpc": "2.0", "id": request["id"], "result": result});
        server.send(&line.to_string()).await;
    };
    let (called, ()) = tokio::join!(call, answer);
    called.map(drop)
}

#[tokio::test]
async fn schemas_are_kept_as_sent_and_parsed_only_when_looked_inside() {
    let (client, mut server) = scripted(builder()).await;
    let tools = format!(r#"[{{"name":"t","inputSchema":{INPUT},"outputSchema":{OUTPUT}}}]"#);
    let tools = listed(&client, &mut server, &tools).await.expect("listed");
    let tool = &tools[0];
    assert_eq!(tool.input_schema.as_str(), INPUT);
    assert!(!tool.input_schema.is_parsed());
    let output = tool.output_schema.as_ref().expect("an output schema");
    assert_eq!(output.as_str(), OUTPUT);
    assert!(!output.is_parsed());
    // Looked inside: parsed then, with the values the text spells.
    assert_eq!(tool.input_schema["properties"]["n"]["maximum"], 1000.0);
    assert_eq!(tool.input_schema["properties"]["n"]["title"], "a/b");
    assert!(tool.input_schema.is_parsed());
    assert_eq!(output.get("required"), Some(&json!(["sum"])));
}

#[tokio::test]
async fn a_malformed_schema_member_is_named_by_its_pointer() {
    let (client, mut server) = scripted(builder()).await;
    for (tools, pointer) in [
        (
            r#"[{"name":"t","inputSchema":{"type":"object","properties":{"a":5}}}]"#,
            "\"/tools/0/inputSchema/properties\"",
        ),
        (
            r#"[{"name":"t","inputSchema":{"type":"object"}},{"name":"u","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}}]"#,
            "\"/tools/1/outputSchema/type\"",
        ),
        (
            r#"[{"name":"t","inputSchema":{"type":"object","required":"a"}}]"#,
            "\"/tools/0/inputSchema/required\"",
        ),
    ] {
        match listed(&client, &mut server, tools).await {
            Err(ClientError::Protocol(v)) => {
                assert_eq!(v.rule, Rule::ResultShape);
                assert!(v.detail.contains(pointer), "{pointer}: {v}");
            }
            other => panic!("{tools}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn the_listed_output_schema_holds_results_until_the_tool_is_listed_otherwise() {
    let (client, mut server) = scripted(builder()).await;
    let with_output = format!(r#"[{{"name":"t","inputSchema":{INPUT},"outputSchema":{OUTPUT}}}]"#);
    let text_only = json!({"content": [{"type": "text", "text": "5"}]});
    let good = json!({"content": [], "structuredContent": {"sum": 5}});
    let wrong = json!({"content": [], "structuredContent": {"sum": "five"}});
    // Listed twice the same: still held, to the same schema.
    for _ in 0..2 {
        listed(&client, &mut server, &with_output)
            .await
            .expect("listed");
        called(&client, &mut server, good.clone())
            .await
            .expect("matches");
        match called(&client, &mut server, text_only.clone()).await {
            Err(ClientError::Output { tool, reason }) => {
                assert_eq!(tool, "t");
                assert!(reason.contains("no structuredContent"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        let wrong = called(&client, &mut server, wrong.clone()).await;
        if cfg!(feature = "output-schema") {
            match wrong {
                Err(ClientError::Output { reason, .. }) => {
                    assert!(reason.contains("\"/sum\""), "{reason}")
                }
                other => panic!("{other:?}"),
            }
        } else {
            assert!(wrong.is_ok(), "{wrong:?}");
        }
    }
    // Listed without one: nothing to hold its results to.
    let without = format!(r#"[{{"name":"t","inputSchema":{INPUT}}}]"#);
    listed(&client, &mut server, &without)
        .await
        .expect("listed");
    called(&client, &mut server, text_only)
        .await
        .expect("no schema, no check");
}
