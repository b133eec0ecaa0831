//! Sampling with tools (2025-11-25 on): tools, `toolChoice`, tool uses, tool results and
//! arrays of blocks written as each version's schema has them and read back equal; older
//! versions refuse them by name instead of dropping them. `metadata` under every version.

use mcpwire_model::{
    Content, Role, SampledBlock, SampledContent, SampledToolResult, SampledToolUse, SamplingReply,
    SamplingRequest, ToolChoice, ToolChoiceMode, ToolInfo, Version,
};
use serde_json::{Map, Value, json};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn weather_tool() -> ToolInfo {
    let mut tool = ToolInfo::new(
        "get_weather",
        object(json!({"type": "object", "properties": {"city": {"type": "string"}}})),
    );
    tool.description = Some("Current weather of a city".into());
    tool
}

fn use_of(id: &str, city: &str) -> SampledToolUse {
    SampledToolUse {
        id: id.into(),
        name: "get_weather".into(),
        input: object(json!({ "city": city })),
        meta: None,
    }
}

/// A conversation with two tool uses (an array) and their results (an array).
fn with_tools(structured: Value) -> SamplingRequest {
    let mut first = use_of("call_1", "Paris");
    first.meta = Some(object(json!({"cache": "k1"})));
    SamplingRequest::new(100)
        .user("Weather in Paris and London?")
        .message(
            Role::Assistant,
            SampledContent::Blocks(vec![
                SampledBlock::ToolUse(first),
                SampledBlock::ToolUse(use_of("call_2", "London")),
            ]),
        )
        .message(
            Role::User,
            SampledContent::Blocks(vec![
                SampledBlock::ToolResult(SampledToolResult {
                    tool_use_id: "call_1".into(),
                    content: vec![Content::text("18°C")],
                    structured_content: Some(structured),
                    is_error: None,
                    meta: None,
                }),
                SampledBlock::ToolResult(SampledToolResult {
                    tool_use_id: "call_2".into(),
                    content: vec![Content::text("no data")],
                    structured_content: None,
                    is_error: Some(true),
                    meta: None,
                }),
                SampledBlock::Content(Content::text("Go on.")),
            ]),
        )
        .tools(
            vec![weather_tool()],
            Some(ToolChoice {
                mode: Some(ToolChoiceMode::Required),
            }),
        )
        .metadata(object(json!({"provider": {"trace": true}})))
}

#[test]
fn tool_conversations_are_sent_as_the_schema_says_and_read_back_equal() {
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let request = with_tools(json!({"celsius": 18}));
        let sent = request.to_json(version).unwrap();
        assert_eq!(sent["tools"][0]["name"], "get_weather", "{version}");
        assert_eq!(sent["tools"][0]["inputSchema"]["type"], "object");
        assert_eq!(sent["toolChoice"], json!({"mode": "required"}));
        assert_eq!(sent["metadata"], json!({"provider": {"trace": true}}));
        let uses = &sent["messages"][1]["content"];
        assert_eq!(uses[0]["type"], "tool_use");
        assert_eq!(uses[0]["input"], json!({"city": "Paris"}));
        assert_eq!(uses[0]["_meta"], json!({"cache": "k1"}));
        assert_eq!(uses[1]["id"], "call_2");
        let results = &sent["messages"][2]["content"];
        assert_eq!(results[0]["type"], "tool_result");
        assert_eq!(results[0]["toolUseId"], "call_1");
        assert_eq!(results[0]["content"][0]["text"], "18°C");
        assert_eq!(results[0]["structuredContent"], json!({"celsius": 18}));
        assert_eq!(results[1]["isError"], true);
        assert_eq!(results[2]["type"], "text");
        let read = SamplingRequest::from_json(&sent.to_string(), version).unwrap();
        assert_eq!(read, request, "{version}");

        let reply = SamplingReply::tool_use("m", vec![use_of("call_3", "Rome")]);
        let sent = reply.to_json(version).unwrap();
        assert_eq!(sent["content"]["type"], "tool_use", "{version}");
        assert_eq!(sent["stopReason"], "toolUse");
        assert_eq!(
            SamplingReply::from_json(&sent.to_string(), version).unwrap(),
            reply
        );
        let two = SamplingReply::tool_use("m", vec![use_of("a", "X"), use_of("b", "Y")]);
        let sent = two.to_json(version).unwrap();
        assert_eq!(sent["content"][1]["id"], "b", "{version}");
        assert_eq!(
            SamplingReply::from_json(&sent.to_string(), version).unwrap(),
            two
        );
    }
}

#[test]
fn a_tool_choice_without_mode_and_an_empty_tool_list_read_back_equal() {
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let request = SamplingRequest::new(5)
            .user("hi")
            .tools(Vec::new(), Some(ToolChoice::default()));
        let sent = request.to_json(version).unwrap();
        assert_eq!(sent["tools"], json!([]), "{version}");
        assert_eq!(sent["toolChoice"], json!({}), "{version}");
        let read = SamplingRequest::from_json(&sent.to_string(), version).unwrap();
        assert_eq!(read, request, "{version}");
    }
}

#[test]
fn versions_before_2025_11_25_refuse_tools_by_name() {
    for version in [
        Version::V2024_11_05,
        Version::V2025_03_26,
        Version::V2025_06_18,
    ] {
        let offered = SamplingRequest::new(5)
            .user("hi")
            .tools(vec![weather_tool()], None);
        let error = offered.to_json(version).unwrap_err().to_string();
        assert!(error.contains("`tools`"), "{version}: {error}");
        let chosen = SamplingRequest {
            tool_choice: Some(ToolChoice::default()),
            ..SamplingRequest::new(5).user("hi")
        };
        let error = chosen.to_json(version).unwrap_err().to_string();
        assert!(error.contains("toolChoice"), "{version}: {error}");
        let used = SamplingRequest::new(5).message(
            Role::Assistant,
            SampledContent::Block(SampledBlock::ToolUse(use_of("c", "Paris"))),
        );
        let error = used.to_json(version).unwrap_err().to_string();
        assert!(error.contains("tool use"), "{version}: {error}");
        let array = SamplingRequest::new(5).message(
            Role::User,
            SampledContent::Blocks(vec![SampledBlock::Content(Content::text("a"))]),
        );
        let error = array.to_json(version).unwrap_err().to_string();
        assert!(error.contains("array"), "{version}: {error}");
        let reply = SamplingReply::tool_use("m", vec![use_of("c", "Paris")]);
        assert!(reply.to_json(version).is_err(), "{version}");

        // A tool use sent under an older version is refused when read, never dropped.
        let text = json!({
            "maxTokens": 5,
            "messages": [{"role": "assistant",
                "content": {"type": "tool_use", "id": "c", "name": "t", "input": {}}}],
        })
        .to_string();
        assert!(
            SamplingRequest::from_json(&text, version).is_err(),
            "{version}"
        );
    }
}

#[test]
fn metadata_reads_back_equal_under_every_version() {
    for version in Version::ALL {
        let request = SamplingRequest::new(5)
            .user("hi")
            .metadata(object(json!({"k": [1, 2]})));
        let sent = request.to_json(version).unwrap();
        assert_eq!(sent["metadata"], json!({"k": [1, 2]}), "{version}");
        let read = SamplingRequest::from_json(&sent.to_string(), version).unwrap();
        assert_eq!(read, request, "{version}");
    }
}

#[test]
fn task_is_2025_11_25_only() {
    let request = SamplingRequest {
        task: Some(object(json!({"ttl": 60000}))),
        ..SamplingRequest::new(5).user("hi")
    };
    let sent = request.to_json(Version::V2025_11_25).unwrap();
    assert_eq!(sent["task"], json!({"ttl": 60000}));
    let read = SamplingRequest::from_json(&sent.to_string(), Version::V2025_11_25).unwrap();
    assert_eq!(read, request);
    for version in Version::ALL {
        if version != Version::V2025_11_25 {
            let error = request.to_json(version).unwrap_err().to_string();
            assert!(error.contains("task"), "{version}: {error}");
        }
    }
}

#[test]
fn structured_tool_results_are_held_to_each_versions_type() {
    // 2025-11-25 types `structuredContent` as an object; 2026-07-28 takes any value.
    let request = with_tools(json!([1, 2]));
    assert!(request.to_json(Version::V2025_11_25).is_err());
    let sent = request.to_json(Version::V2026_07_28).unwrap();
    let read = SamplingRequest::from_json(&sent.to_string(), Version::V2026_07_28).unwrap();
    assert_eq!(read, request);
}

#[test]
fn meta_reads_back_equal_where_the_version_has_it_and_is_refused_elsewhere() {
    use mcpwire_model::{ElicitRequest, SamplingReply};
    for version in Version::ALL {
        let mut request = SamplingRequest::new(5).user("hi").assistant("yes");
        request.messages[0].meta = Some(object(json!({"example.com/m": 1})));
        let sent = request.to_json(version);
        if version < Version::V2025_11_25 {
            let error = sent.unwrap_err().to_string();
            assert!(error.contains("`_meta`"), "{version}: {error}");
        } else {
            let sent = sent.unwrap();
            assert_eq!(sent["messages"][0]["_meta"], json!({"example.com/m": 1}));
            assert_eq!(sent["messages"][1].get("_meta"), None, "{version}");
            let read = SamplingRequest::from_json(&sent.to_string(), version).unwrap();
            assert_eq!(read, request, "{version}");
        }
        // The params' `_meta`: 2025-11-25 only.
        let mut params = SamplingRequest::new(5).user("hi");
        params.meta = Some(object(json!({"example.com/p": true})));
        match params.to_json(version) {
            Ok(sent) => {
                assert_eq!(version, Version::V2025_11_25);
                assert_eq!(sent["_meta"], json!({"example.com/p": true}));
                let read = SamplingRequest::from_json(&sent.to_string(), version).unwrap();
                assert_eq!(read, params);
            }
            Err(error) => {
                assert_ne!(version, Version::V2025_11_25);
                assert!(error.to_string().contains("`_meta`"), "{version}: {error}");
            }
        }
        // The result's `_meta`: every version.
        let reply = SamplingReply::assistant_text("m", "ok").meta(object(json!({"r": [1]})));
        let sent = reply.to_json(version).unwrap();
        assert_eq!(sent["_meta"], json!({"r": [1]}), "{version}");
        assert_eq!(
            SamplingReply::from_json(&sent.to_string(), version).unwrap(),
            reply
        );
        // An elicitation's `_meta`: 2025-11-25 only.
        if version >= Version::V2025_06_18 {
            let text = json!({"message": "m", "requestedSchema": {"type": "object",
                "properties": {}}, "_meta": {"e": 1}})
            .to_string();
            let ElicitRequest::Form { meta, .. } = ElicitRequest::from_json(&text, version)
                .unwrap_or_else(|e| panic!("{version}: {e}"))
            else {
                panic!("{version}: a form");
            };
            let expected = (version == Version::V2025_11_25).then(|| object(json!({"e": 1})));
            assert_eq!(meta, expected, "{version}");
            let read = ElicitRequest::from_json(&text, version).unwrap();
            match read.to_json(version) {
                Ok(sent) => assert_eq!(sent.to_string().contains("_meta"), expected.is_some()),
                Err(error) => panic!("{version}: {error}"),
            }
        }
    }
}
