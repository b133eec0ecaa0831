//! Integers decoded from JSON text keep their spelling, byte for byte, wherever they are:
//! members, array items, and inside unions (which decode from the raw text, not from a
//! `serde_json::Value`). Every upstream 2026-07-28 example, as every version's definition of
//! the same name, with each integer respelled; plus the messages a proxy forwards.

use crate::common;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcpwire_types::support::roundtrip_text;
use serde_json::Value;
use serde_json::value::RawValue;

type RoundtripText = fn(&str, &str) -> Option<Result<String, String>>;

const VERSIONS: [(&str, RoundtripText, &[&str]); 5] = [
    (
        "2024-11-05",
        v2024_11_05::roundtrip_text,
        v2024_11_05::DEFINITIONS,
    ),
    (
        "2025-03-26",
        v2025_03_26::roundtrip_text,
        v2025_03_26::DEFINITIONS,
    ),
    (
        "2025-06-18",
        v2025_06_18::roundtrip_text,
        v2025_06_18::DEFINITIONS,
    ),
    (
        "2025-11-25",
        v2025_11_25::roundtrip_text,
        v2025_11_25::DEFINITIONS,
    ),
    (
        "2026-07-28",
        v2026_07_28::roundtrip_text,
        v2026_07_28::DEFINITIONS,
    ),
];

/// The spellings every integer position is tried with.
fn spellings(n: i64) -> [String; 6] {
    [
        format!("{n}.0"),
        "1e3".to_owned(),
        "9223372036854775808".to_owned(),
        "18446744073709551616".to_owned(),
        "1180591620717411303424".to_owned(),
        "1e30".to_owned(),
    ]
}

/// `value` as text with the value at `pointer` written as `spelled`.
fn respelled(value: &Value, pointer: &str, spelled: &str) -> String {
    const MARK: &str = "@@integer-under-test@@";
    let mut copy = value.clone();
    *copy.pointer_mut(pointer).expect("pointer from positions") = Value::from(MARK);
    let text = copy.to_string();
    text.replace(&format!("\"{MARK}\""), spelled)
}

/// The raw text at `pointer` in the JSON `text`, read without parsing any number.
fn raw_at<'a>(text: &'a str, pointer: &str) -> Option<&'a str> {
    let mut raw: &'a RawValue = serde_json::from_str(text).ok()?;
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        raw = match raw.get().as_bytes().first() {
            Some(b'{') => {
                let members: Vec<(String, &'a RawValue)> = serde_json::from_str::<
                    std::collections::BTreeMap<String, &'a RawValue>,
                >(raw.get())
                .ok()?
                .into_iter()
                .collect();
                members.into_iter().find(|(k, _)| *k == token)?.1
            }
            Some(b'[') => {
                let items: Vec<&'a RawValue> = serde_json::from_str(raw.get()).ok()?;
                *items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(raw.get())
}

#[test]
fn every_integer_position_of_every_example_keeps_its_text_through_serde_json() {
    let corpus = common::examples_2026();
    let mut failures = Vec::new();
    let mut kept = 0;
    let mut in_unions = 0;
    for (version, roundtrip_text, definitions) in VERSIONS {
        let schema = common::schema(version);
        for (def, file, example) in &corpus {
            if !definitions.contains(&def.as_str()) {
                continue;
            }
            let validator = common::validator(&schema, def);
            let mut spots = Vec::new();
            common::positions(example, "", &mut spots);
            let integers = spots.iter().filter(|(_, is_object)| !is_object);
            for (pointer, _) in integers {
                let n = example
                    .pointer(pointer)
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                // A schema `integer` refuses a fraction; a free-form member (`_meta`,
                // `structuredContent`, `arguments`: a `serde_json::Value`) or a `number`
                // takes it, and keeps the value but not the spelling.
                let with_fraction: Value =
                    serde_json::from_str(&respelled(example, pointer, "1.5")).unwrap();
                let schema_integer =
                    validator.is_valid(example) && !validator.is_valid(&with_fraction);
                for spelled in spellings(n) {
                    let case = format!("{version} {def}/{file} `{spelled}` at `{pointer}`");
                    let input = respelled(example, pointer, &spelled);
                    let input_value: Value = serde_json::from_str(&input).unwrap();
                    let valid = validator.is_valid(&input_value);
                    let outcome = roundtrip_text(def, &input).expect("listed definition");
                    let back = match outcome {
                        Ok(back) => back,
                        Err(e) if valid => {
                            failures.push(format!("{case}: valid but rejected: {e}"));
                            continue;
                        }
                        Err(_) => continue,
                    };
                    let back_value: Value = serde_json::from_str(&back).unwrap();
                    // The one documented respelling: an integer constant (the error `code`s)
                    // is a marker written back in plain digits.
                    let constant =
                        pointer.ends_with("/code") && spelled.ends_with(".0") && schema_integer;
                    if constant {
                        assert_eq!(
                            raw_at(&back, pointer).map(|t| format!("{t}.0")),
                            Some(spelled.clone()),
                            "{case}"
                        );
                        continue;
                    }
                    if back_value != input_value {
                        failures.push(format!("{case}: re-encoded as another value: {back}"));
                    }
                    if !schema_integer {
                        continue;
                    }
                    match raw_at(&back, pointer) {
                        Some(text) if text == spelled => {
                            kept += 1;
                            // Positions decoded through at least one union.
                            if ["JSONRPC", "Result", "Request", "Notification"]
                                .iter()
                                .any(|u| def.contains(u))
                                && pointer.matches('/').count() > 1
                            {
                                in_unions += 1;
                            }
                        }
                        other => failures.push(format!(
                            "{case}: the integer came back as {other:?}\n  in:  {input}\n  out: {back}"
                        )),
                    }
                }
            }
        }
    }
    eprintln!("{kept} integers kept byte for byte, {in_unions} of them inside unions");
    assert!(
        failures.is_empty(),
        "{} failures (first 30):\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        kept > 300 && in_unions > 100,
        "too few integer cases: {kept} ({in_unions} in unions)"
    );
}

#[test]
fn request_ids_keep_their_text_in_every_version() {
    for text in [
        "1e3",
        "-0",
        "2.0",
        "18446744073709551616",
        "1e400",
        "7",
        "\"x\"",
    ] {
        let round = |id: &str| -> Vec<String> {
            vec![
                serde_json::to_string(&serde_json::from_str::<v2024_11_05::RequestId>(id).unwrap())
                    .unwrap(),
                serde_json::to_string(&serde_json::from_str::<v2025_11_25::RequestId>(id).unwrap())
                    .unwrap(),
                serde_json::to_string(
                    &serde_json::from_reader::<_, v2026_07_28::RequestId>(id.as_bytes()).unwrap(),
                )
                .unwrap(),
            ]
        };
        assert_eq!(round(text), [text; 3], "{text}");
    }
    // A `serde_json::Value` parsed the number before the type saw it (documented).
    let id: v2026_07_28::RequestId = serde_json::from_value(serde_json::json!(1e3)).unwrap();
    assert_eq!(serde_json::to_string(&id).unwrap(), "1000.0");
    let err = serde_json::from_str::<v2026_07_28::RequestId>("1.5").unwrap_err();
    assert!(
        err.to_string().starts_with(
            "RequestId: no variant matches: expected a string or an integer, found a number"
        ),
        "{err}"
    );
}

/// What a proxy forwards: whole messages, through the message unions, each integer inside a
/// nested union (the id, a `ResourceLink.size` inside a `ContentBlock` inside a result,
/// progress numbers) written back exactly as it came.
#[test]
fn messages_through_nested_unions_keep_every_integer_text() {
    type Decode = fn(&str) -> Result<String, String>;
    let cases: [(Decode, &str, &[&str]); 7] = [
        (
            roundtrip_text::<v2026_07_28::JSONRPCMessage>,
            r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#,
            &["/id"],
        ),
        (
            roundtrip_text::<v2025_11_25::JSONRPCMessage>,
            r#"{"jsonrpc":"2.0","id":-0,"error":{"code":-32601,"message":"no such method"}}"#,
            &["/id"],
        ),
        (
            roundtrip_text::<v2025_11_25::ClientRequest>,
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#,
            &["/id"],
        ),
        (
            roundtrip_text::<v2025_11_25::ServerNotification>,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2.0,"progress":5,"total":10}}"#,
            &["/params/progressToken"],
        ),
        (
            roundtrip_text::<v2026_07_28::ServerResult>,
            r#"{"resultType":"complete","content":[{"type":"resource_link","uri":"file:///a","name":"a","size":1e30}],"isError":false}"#,
            &["/content/0/size"],
        ),
        (
            roundtrip_text::<v2025_11_25::ServerResult>,
            r#"{"content":[{"type":"text","text":"t"},{"type":"resource_link","uri":"file:///b","name":"b","size":9223372036854775808}]}"#,
            &["/content/1/size"],
        ),
        (
            roundtrip_text::<v2025_11_25::CallToolResult>,
            r#"{"content":[{"type":"resource_link","uri":"file:///c","name":"c","size":1180591620717411303424}]}"#,
            &["/content/0/size"],
        ),
    ];
    for (decode, text, pointers) in cases {
        let back = decode(text).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&back).unwrap(),
            serde_json::from_str::<Value>(text).unwrap(),
            "{text}"
        );
        for pointer in pointers {
            assert_eq!(
                raw_at(&back, pointer),
                raw_at(text, pointer),
                "{text}: {pointer}"
            );
        }
    }
    // From a reader too (the text is owned, not borrowed).
    let text = r#"{"jsonrpc":"2.0","id":1e3,"method":"ping"}"#;
    let message: v2026_07_28::JSONRPCMessage = serde_json::from_reader(text.as_bytes()).unwrap();
    let back = serde_json::to_string(&message).unwrap();
    assert_eq!(raw_at(&back, "/id"), Some("1e3"));
    let link =
        r#"{"type":"resource_link","uri":"file:///a","name":"a","size":1180591620717411303424}"#;
    let block: v2026_07_28::ContentBlock = serde_json::from_slice(link.as_bytes()).unwrap();
    assert_eq!(block.variant_name(), "ResourceLink");
    let back = serde_json::to_string(&block).unwrap();
    assert_eq!(raw_at(&back, "/size"), Some("1180591620717411303424"));
}

#[test]
fn errors_inside_unions_still_say_where() {
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#;
    let err = serde_json::from_str::<v2025_11_25::ClientRequest>(
        &text.replace(r#""jsonrpc":"2.0","id":1,"#, r#""jsonrpc":"2.0","id":1e3,"#),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        mcpwire_types::support::error_pointer(&err),
        "/params/name",
        "{err}"
    );
    assert!(
        err.starts_with("ClientRequest: decoding as variant `CallToolRequest` (chosen because member `method` is \"tools/call\") failed at `/params/name`: invalid type: integer `7`, expected a string"),
        "{err}"
    );
}
