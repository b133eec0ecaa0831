//! What the server asks the client: sampling, elicitation (defaults applied), roots,
//! answered by the registered handlers; capabilities declared exactly for them.

use mcpwire_client::{
    CallOptions, ContentKind, ElicitAnswer, Root, SamplingReply, SamplingRequest, Version,
    result_text,
};
use mcpwire_model::FieldKind;
use serde_json::{Map, json};

use crate::support::{builder, connect};

fn answering() -> mcpwire_client::ClientBuilder {
    builder()
        .on_sampling(|request: SamplingRequest| async move {
            // The request as the server's model built it.
            assert_eq!(request.max_tokens, 10);
            let asked = match request.messages[0].content.content().map(|c| &c.kind) {
                Some(ContentKind::Text(text)) => text.clone(),
                other => format!("{other:?}"),
            };
            Ok(SamplingReply::assistant_text(
                "test-model",
                format!("model says: {asked}"),
            ))
        })
        .on_elicitation(|form| async move {
            assert!(
                form.requested_schema["properties"]["age"]
                    .get("default")
                    .is_some()
            );
            // The same form, read into the model.
            let age = form.form.fields.iter().find(|f| f.name == "age");
            assert!(
                matches!(
                    age.map(|f| &f.kind),
                    Some(FieldKind::Number {
                        default: Some(_),
                        ..
                    })
                ),
                "{:?}",
                form.form
            );
            let mut content = Map::new();
            content.insert("name".into(), json!("Ada"));
            // `age` left out: the schema's default (42) fills it (SEP-1034).
            Ok(ElicitAnswer::Accept(content))
        })
        .roots(vec![Root::new("file:///work").with_name("work")])
}

#[tokio::test]
async fn handlers_answer_the_server_under_every_version() {
    for version in Version::ALL {
        let context = format!("under {version}");
        let (client, _) = connect(version, answering()).await;
        let sampled = client
            .call_tool("sample", &(), &CallOptions::new())
            .await
            .expect(&context);
        assert_eq!(result_text(&sampled), "model says: Say hi", "{context}");
        let asked = client
            .call_tool("ask", &(), &CallOptions::new())
            .await
            .expect(&context);
        if version >= Version::V2025_11_25 {
            assert_eq!(result_text(&asked), "Ada 42", "{context}");
        } else if version == Version::V2025_06_18 {
            // Defaults arrived in 2025-11-25: the server cannot send this form.
            assert!(
                result_text(&asked).contains("default"),
                "{context}: {asked:?}"
            );
        } else {
            assert!(
                asked.is_error(),
                "{context}: no elicitation before 2025-06-18"
            );
        }
        let roots = client
            .call_tool("roots", &(), &CallOptions::new())
            .await
            .expect(&context);
        assert_eq!(result_text(&roots), "file:///work", "{context}: {roots:?}");
    }
}

#[tokio::test]
async fn without_handlers_nothing_is_declared_and_the_server_cannot_ask() {
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let (client, _) = connect(version, builder()).await;
        for tool in ["sample", "ask", "roots"] {
            let result = client.call_tool(tool, &(), &CallOptions::new()).await;
            match result {
                Ok(result) => assert!(result.is_error(), "{version} {tool}: {result:?}"),
                // 2026-07-28: -32021, the capability the call needs is missing.
                Err(error) => assert_eq!(error.rpc().map(|e| e.code()), Some(-32021)),
            }
        }
    }
}
