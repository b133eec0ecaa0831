//! A server that breaks the wire rules: each breach is a typed error naming the rule on
//! the call it concerns, or a reported violation; never a panic, a hang, or a dead reader.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire_client::{CallOptions, ClientError, Rule, Violation};
use serde_json::{Value, json};

use crate::support::{Scripted, builder, scripted};

/// A scripted client whose reported violations the test can read.
async fn watched() -> (mcpwire_client::Client, Scripted, Arc<Mutex<Vec<Violation>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let builder = builder().on_violation(move |v| sink.lock().unwrap().push(v));
    let (client, server) = scripted(builder).await;
    (client, server, seen)
}

/// Calls `tools/list` while the server answers its request with `answer(id)`.
async fn answered_with(
    client: &mcpwire_client::Client,
    server: &mut Scripted,
    answer: impl FnOnce(&Value) -> Vec<String>,
) -> Result<usize, ClientError> {
    let options = CallOptions::new().timeout(Duration::from_secs(5));
    let call = client.request::<ListTools>(&EMPTY, &options);
    let script = async {
        let request = server.recv().await;
        for line in answer(&request["id"]) {
            server.send(&line).await;
        }
    };
    let (result, ()) = tokio::join!(call, script);
    result.map(|tools| tools.tools.len())
}

static EMPTY: Value = Value::Null;

struct ListTools;

#[derive(serde::Deserialize)]
struct Tools {
    tools: Vec<Value>,
}

impl mcpwire::peer::Request for ListTools {
    const METHOD: &'static str = "tools/list";
    type Params = Value;
    type Result = Tools;
}

fn rules(seen: &Mutex<Vec<Violation>>) -> Vec<Rule> {
    seen.lock().unwrap().iter().map(|v| v.rule).collect()
}

/// Waits until `reported` holds (at most 5 s: the reader reports on its own task), then a
/// moment more for anything that should not be reported to show.
async fn settle(reported: impl Fn() -> bool) {
    for _ in 0..500 {
        if reported() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
}

#[tokio::test]
async fn a_response_id_of_another_json_type_fails_the_call_naming_the_rule() {
    let (client, mut server, seen) = watched().await;
    let result = answered_with(&client, &mut server, |id| {
        vec![json!({"jsonrpc": "2.0", "id": id.to_string(), "result": {"tools": []}}).to_string()]
    })
    .await;
    match result {
        Err(ClientError::Protocol(v)) => {
            assert_eq!(v.rule, Rule::ResponseIdEcho);
            assert!(v.detail.contains('"'), "{v}");
        }
        other => panic!("{other:?}"),
    }
    settle(|| !rules(&seen).is_empty()).await;
    assert_eq!(rules(&seen), [Rule::ResponseIdEcho]);
    // The reader lives on.
    let ok = answered_with(&client, &mut server, |id| {
        vec![json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{}]}}).to_string()]
    });
    assert_eq!(ok.await.expect("answered"), 1);
}

#[tokio::test]
async fn a_duplicate_response_is_reported_and_the_first_one_counts() {
    let (client, mut server, seen) = watched().await;
    let result = answered_with(&client, &mut server, |id| {
        vec![
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [{}, {}]}}).to_string(),
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}).to_string(),
        ]
    });
    assert_eq!(result.await.expect("the first response"), 2);
    settle(|| !rules(&seen).is_empty()).await;
    assert_eq!(rules(&seen), [Rule::OneResponse]);
}

#[tokio::test]
async fn non_json_and_unknown_ids_are_reported_and_answered_by_the_rules() {
    let (client, mut server, seen) = watched().await;
    let result = answered_with(&client, &mut server, |id| {
        vec![
            "this is not JSON".to_owned(),
            json!({"jsonrpc": "2.0", "id": 999, "result": {}}).to_string(),
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}).to_string(),
        ]
    });
    assert_eq!(result.await.expect("answered after the garbage"), 0);
    // The parse error is answered as JSON-RPC says: -32700 with a null id.
    let reply = server.recv().await;
    assert_eq!(reply["error"]["code"], -32700);
    assert_eq!(reply["id"], Value::Null);
    settle(|| rules(&seen).len() >= 2).await;
    assert_eq!(rules(&seen), [Rule::Json, Rule::ResponseToKnownRequest]);
    // A response is never answered: nothing else was sent.
    assert_eq!(server.silent_for(Duration::from_millis(50)).await, None);
}

#[tokio::test]
async fn a_server_flooding_garbage_without_reading_does_not_stall_the_reader() {
    // Each non-JSON line is answered -32700; the server never reads them, so the client's
    // writes stall once the pipe (64 KiB, about 800 replies) is full. The replies beyond
    // those on their way are dropped: the reader goes on and the call gets its answer.
    const GARBAGE: usize = 3_000;
    let (client, mut server, seen) = watched().await;
    let result = answered_with(&client, &mut server, |id| {
        let mut lines = vec!["x".to_owned(); GARBAGE];
        lines.push(json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}).to_string());
        lines
    });
    assert_eq!(result.await.expect("answered after the flood"), 0);
    settle(|| rules(&seen).len() >= GARBAGE).await;
    assert_eq!(rules(&seen), [Rule::Json; GARBAGE]);
}

#[tokio::test]
async fn a_result_of_the_wrong_shape_or_a_malformed_response_fails_the_call() {
    let (client, mut server, _) = watched().await;
    let result = answered_with(&client, &mut server, |id| {
        vec![json!({"jsonrpc": "2.0", "id": id, "result": {"tools": 5}}).to_string()]
    });
    match result.await {
        Err(ClientError::Protocol(v)) => {
            assert_eq!(v.rule, Rule::ResultShape);
            assert!(v.detail.contains("/tools"), "{v}");
        }
        other => panic!("{other:?}"),
    }
    let result = answered_with(&client, &mut server, |id| {
        vec![json!({"jsonrpc": "1.0", "id": id, "result": {"tools": []}}).to_string()]
    });
    match result.await {
        Err(ClientError::Protocol(v)) => {
            assert!(matches!(v.rule, Rule::ResponseShape(_)), "{v}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_server_that_ends_fails_every_pending_call() {
    let (client, mut server, _) = watched().await;
    let options = CallOptions::new().no_timeout();
    let first = client.request::<ListTools>(&EMPTY, &options);
    let second = client.request::<ListTools>(&EMPTY, &options);
    let end = async {
        server.recv().await;
        server.recv().await;
        drop(server);
    };
    let (first, second, ()) = tokio::join!(first, second, end);
    for result in [first, second] {
        assert!(
            matches!(result, Err(ClientError::Transport(_))),
            "{:?}",
            result.err()
        );
    }
}

#[tokio::test]
async fn results_are_held_to_the_version_schema() {
    for check in [true, false] {
        let (client, mut server) = scripted(builder().check_results(check)).await;
        // A text block without its `text` is not a 2025-06-18 CallToolResult: tool results
        // are read into the model through the version's type, whatever `check_results` says.
        let options = CallOptions::new();
        let call = client.call_tool("t", &(), &options);
        let answer = async {
            let request = server.recv().await;
            let result = json!({"content": [{"type": "text"}]});
            let line = json!({"jsonrpc": "2.0", "id": request["id"], "result": result});
            server.send(&line.to_string()).await;
        };
        let (result, ()) = tokio::join!(call, answer);
        match result {
            Err(ClientError::Protocol(v)) => {
                assert_eq!(v.rule, Rule::ResultShape);
                assert!(v.detail.contains("CallToolResult"), "{v}");
            }
            other => panic!("check {check}: {other:?}"),
        }
        // A hint that is not a boolean: tools are read into the model's `ToolInfo` through
        // the version's type, whatever `check_results` says, and the error names the member.
        let listed = client.list_tools(None);
        let answer = async {
            let request = server.recv().await;
            let tool = json!({"name": "t", "inputSchema": {"type": "object"},
                              "annotations": {"readOnlyHint": "yes"}});
            let line = json!({"jsonrpc": "2.0", "id": request["id"], "result": {"tools": [tool]}});
            server.send(&line.to_string()).await;
        };
        let (listed, ()) = tokio::join!(listed, answer);
        match listed {
            Err(ClientError::Protocol(v)) => {
                assert_eq!(v.rule, Rule::ResultShape);
                assert!(
                    v.detail.contains("\"/tools/0/annotations/readOnlyHint\""),
                    "{v}"
                );
            }
            other => panic!("check {check}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn server_messages_of_the_wrong_shape_are_refused_or_reported() {
    let logs = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&logs);
    let violations = Arc::new(Mutex::new(Vec::new()));
    let reported = Arc::clone(&violations);
    let builder = builder()
        .on_logging(move |m| sink.lock().unwrap().push(m.level))
        .on_violation(move |v| reported.lock().unwrap().push(v))
        .on_sampling(|_| async { Ok(mcpwire_client::SamplingReply::assistant_text("m", "t")) });
    let (_client, mut server) = scripted(builder).await;
    // A log level 2025-06-18 does not have: reported, not delivered.
    server
        .send(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":1}}"#)
        .await;
    server
        .send(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}"#)
        .await;
    // Sampling without `maxTokens`: refused with -32602 naming the member.
    server
        .send(r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[]}}"#)
        .await;
    let reply = server.recv().await;
    assert_eq!(reply["id"], 7);
    assert_eq!(reply["error"]["code"], -32602);
    assert!(
        reply["error"]["data"]
            .as_str()
            .unwrap_or("")
            .contains("maxTokens"),
        "{reply}"
    );
    settle(|| !logs.lock().unwrap().is_empty() && !violations.lock().unwrap().is_empty()).await;
    assert_eq!(*logs.lock().unwrap(), ["info"]);
    let violations = violations.lock().unwrap();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].rule, Rule::NotificationShape);
    assert!(
        violations[0].detail.contains("/params/level"),
        "{}",
        violations[0]
    );
}

/// A form outside the spec's restriction of `requestedSchema` (flat primitive properties
/// only, 2025-06-18 on) is refused -32602 naming the offending property or member; the
/// handler never sees it.
#[tokio::test]
async fn an_elicitation_form_outside_the_restriction_is_refused_naming_what() {
    let asked = Arc::new(Mutex::new(0));
    let count = Arc::clone(&asked);
    let builder = builder().on_elicitation(move |_| {
        *count.lock().unwrap() += 1;
        async { Ok(mcpwire_client::ElicitAnswer::Decline) }
    });
    let (_client, mut server) = scripted(builder).await;
    let cases = [
        // A nested object: the version's schema refuses it.
        (
            r#"{"type":"object","properties":{"name":{"type":"string"},"address":{"type":"object","properties":{"city":{"type":"string"}}}}}"#,
            "address",
        ),
        // A union at the root: no flat form.
        (
            r#"{"type":"object","properties":{"name":{"type":"string"}},"anyOf":[{"required":["name"]}]}"#,
            "anyOf",
        ),
    ];
    for (id, (schema, named)) in cases.into_iter().enumerate() {
        server
            .send(&format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"elicitation/create","params":{{"message":"m","requestedSchema":{schema}}}}}"#
            ))
            .await;
        let reply = server.recv().await;
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert!(
            reply["error"]["data"].to_string().contains(named),
            "{reply}"
        );
    }
    // A flat form of primitives reaches the handler.
    server
        .send(r#"{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#)
        .await;
    let reply = server.recv().await;
    assert_eq!(reply["result"]["action"], "decline", "{reply}");
    assert_eq!(*asked.lock().unwrap(), 1);
}
