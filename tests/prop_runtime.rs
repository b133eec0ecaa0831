//! Property tests 1–3 of issue 4 against the mcpwire runtime, checked by the independent
//! oracles of mcpwire-proptest (which never call the runtime).
//!
//! 1. Every generated valid and malformed input gets exactly the reply the wire rules
//!    require, in every profile, through `Server::handle_frame` and through `Server::serve`.
//! 2. Arbitrary bytes (invalid UTF-8, JSON-ish noise, 1 MiB frames) never panic and give
//!    at most one reply line, which obeys the rules too.
//! 3. Generated valid messages round-trip through the runtime's decode, and every reply
//!    validates against the profile's schema (MCP schemas admit no `"id":null`: that one
//!    member is the documented exception).
//!
//! Default case counts (per profile): 256 for test 1, 128 for test 2, 96 for test 3;
//! `MCPWIRE_PROPTEST_CASES=<n>` sets all of them for a soak run.

use std::cell::RefCell;
use std::sync::OnceLock;

use mcpwire::{
    CallContext, Decoded, Message, Profile, RawNotification, ResponseBody, Router, RpcError,
    Server, decode,
};
use mcpwire_proptest::config::config_at;
use mcpwire_proptest::message::{self, Message as Generated};
use mcpwire_proptest::mutations::case_from;
use mcpwire_proptest::typed;
use mcpwire_proptest::{Vocabulary, check_expected, check_with, json};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::ALL;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestRunner;
use serde_json::Value;

/// A server implementing exactly the methods of `Vocabulary::DEFAULT.known`. Their result
/// carries `resultType`, which MCP 2026-07-28's `Result` requires (older schemas allow it).
fn server(facts: &'static ProfileFacts) -> Server<()> {
    let mut router = Router::new();
    for method in Vocabulary::DEFAULT.known {
        router = router.request(method, |_: &(), _params: Value, _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(serde_json::json!({ "resultType": "complete" }))
        });
    }
    Server::new(Profile::from_facts(facts), (), router)
}

fn frames(reply: &Option<Vec<u8>>) -> Vec<&[u8]> {
    reply.iter().map(Vec::as_slice).collect()
}

fn report(violations: &[mcpwire_proptest::Violation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n  ")
}

// ---------------------------------------------------------------------------------------
// 1. Every generated input gets the reply the rules require.

#[test]
fn runtime_satisfies_every_invariant_for_generated_inputs() {
    for facts in ALL {
        let server = RefCell::new(server(facts));
        let mut runner = TestRunner::new(config_at(file!(), 256));
        runner
            .run(
                &case_from(facts, &typed::call_bodies(facts, Vocabulary::DEFAULT)),
                |case| {
                    let reply = server.borrow_mut().handle_frame(&case.frame);
                    // The mutation's oracle, and the checker's own reading of the frame.
                    let by_oracle = check_expected(facts, &case.expected, &frames(&reply));
                    let by_reading = check_with(
                        facts,
                        Vocabulary::DEFAULT.methods(),
                        &case.frame,
                        &frames(&reply),
                    );
                    if let Err(violations) = by_oracle.and(by_reading) {
                        let got = reply.as_deref().map(String::from_utf8_lossy);
                        prop_assert!(
                            false,
                            "{}: {} ({})\n  reply: {:?}\n  {}",
                            facts.name,
                            case.mutation.name(),
                            case.frame.len(),
                            got,
                            report(&violations)
                        );
                    }
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", facts.name));
    }
}

/// The same cases over the stdio loop: each frame as one line, each reply one line.
#[test]
fn serve_loop_satisfies_every_invariant_for_generated_inputs() {
    for facts in ALL {
        let mut runner = TestRunner::new(config_at(file!(), 64));
        runner
            .run(
                &case_from(facts, &typed::call_bodies(facts, Vocabulary::DEFAULT)),
                |case| {
                    let mut server = server(facts);
                    let mut input = case.frame.clone();
                    input.push(b'\n');
                    let mut output = Vec::new();
                    server
                        .serve(&input[..], &mut output)
                        .expect("in-memory I/O");
                    let lines: Vec<&[u8]> = output.split_inclusive(|&b| b == b'\n').collect();
                    prop_assert!(
                        output.is_empty() || output.ends_with(b"\n"),
                        "reply not terminated"
                    );
                    if let Err(violations) = check_expected(facts, &case.expected, &lines) {
                        prop_assert!(
                            false,
                            "{}: {}\n  {}",
                            facts.name,
                            case.mutation.name(),
                            report(&violations)
                        );
                    }
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", facts.name));
    }
}

/// The case a CI run drew at random (MCP 2025-03-26): a ping and, in the same batch, a cancel
/// naming it. The runtime drops the ping's reply, which MCP allows; a reply it sent would
/// still have to carry the ping's id.
#[test]
fn a_request_cancelled_in_its_own_batch_may_go_unanswered() {
    let facts = &mcpwire_types::facts::MCP_2025_03_26;
    let frame = br#"[{"jsonrpc":"2.0","\u0069d":"","method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":""}}]"#;
    let reply = server(facts).handle_frame(frame);
    assert_eq!(reply, None, "the runtime drops the cancelled ping's reply");
    let by_reading = check_with(facts, Vocabulary::DEFAULT.methods(), frame, &frames(&reply));
    assert_eq!(by_reading.map_err(|v| report(&v)), Ok(()));
    let mut output = Vec::new();
    let mut input = frame.to_vec();
    input.push(b'\n');
    server(facts)
        .serve(&input[..], &mut output)
        .expect("in-memory I/O");
    assert_eq!(String::from_utf8_lossy(&output), "");
}

// ---------------------------------------------------------------------------------------
// 2. Arbitrary bytes never panic and give at most one reply line.

/// Pseudo-random bytes from a seed (a 1 MiB `Vec<u8>` strategy would be slow to shrink).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn arbitrary_frame() -> BoxedStrategy<Vec<u8>> {
    let facts = &ALL[0];
    let jsonish = prop::sample::select(
        b"{}[]\":,0123456789-.eE+ \ttrufalsenidmethodjsonrpc\\u\xff\xc3\r".to_vec(),
    );
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..128),
        4 => prop::collection::vec(jsonish, 0..128),
        3 => (case_from(facts, &typed::call_bodies(facts, Vocabulary::DEFAULT)), prop::collection::vec((any::<Index>(), any::<u8>()), 1..4)).prop_map(|(case, flips)| {
            let mut frame = case.frame;
            if !frame.is_empty() {
                for (at, byte) in flips {
                    let i = at.index(frame.len());
                    frame[i] = byte;
                }
            }
            frame
        }),
        1 => (any::<u64>(), (1usize << 19)..=(1 << 20)).prop_map(|(seed, len)| noise(seed, len)),
        1 => ((1usize << 19)..=(1 << 20)).prop_map(|len| {
            let pad = "p".repeat(len);
            format!(r#"{{"jsonrpc":"2.0","pad":"{pad}","id":7,"method":"ping"}}"#).into_bytes()
        }),
    ]
    .boxed()
}

#[test]
fn arbitrary_bytes_never_panic_and_get_at_most_one_reply_line() {
    let methods = Vocabulary::DEFAULT.methods();
    for facts in ALL {
        let server = RefCell::new(server(facts));
        let mut runner = TestRunner::new(config_at(file!(), 128));
        runner
            .run(&arbitrary_frame(), |frame| {
                // Below the framing layer: one frame in, at most one line out.
                let reply = server.borrow_mut().handle_frame(&frame);
                if let Some(reply) = &reply {
                    prop_assert!(!reply.contains(&b'\n'), "reply spans lines");
                }
                // Over the stdio loop: the frame as one line (its line breaks made spaces).
                let line: Vec<u8> = frame
                    .iter()
                    .map(|&b| if b == b'\n' { b' ' } else { b })
                    .collect();
                let mut output = Vec::new();
                let input = [&line[..], b"\n"].concat();
                server
                    .borrow_mut()
                    .serve(&input[..], &mut output)
                    .expect("in-memory I/O");
                let lines: Vec<&[u8]> = output.split_inclusive(|&b| b == b'\n').collect();
                prop_assert!(lines.len() <= 1, "more than one reply line");
                // What was sent obeys the rules, by the checker's own reading of the line.
                if let Err(violations) = check_with(facts, methods, &line, &lines) {
                    let shown = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
                    prop_assert!(
                        false,
                        "{}: {:?}\n  {}",
                        facts.name,
                        shown,
                        report(&violations)
                    );
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", facts.name));
    }
}

// ---------------------------------------------------------------------------------------
// 3. Valid messages round-trip through the decode; replies validate against the schema.

fn schema_validator(facts: &ProfileFacts) -> &'static jsonschema::Validator {
    static VALIDATORS: OnceLock<Vec<(&'static str, jsonschema::Validator)>> = OnceLock::new();
    let all = VALIDATORS.get_or_init(|| ALL.iter().map(|f| (f.name, reply_validator(f))).collect());
    &all.iter()
        .find(|(name, _)| *name == facts.name)
        .expect("every profile")
        .1
}

/// The profile's schema document: the project's JSON-RPC 2.0 schema, or the upstream MCP
/// schema of that version (from `MCP_SCHEMA_DIR`, default `../shared/schemas/mcp`).
fn schema_document(facts: &ProfileFacts) -> Value {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let path = match facts.protocol_version {
        None => root.join("schema").join(
            std::path::Path::new(facts.schema_file)
                .file_name()
                .expect("a file name"),
        ),
        Some(version) => {
            let dir = std::env::var_os("MCP_SCHEMA_DIR")
                .map_or_else(|| root.join("../shared/schemas/mcp"), Into::into);
            dir.join(version).join("schema.json")
        }
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("schema is JSON")
}

/// A validator for `schema` with its root pointed at any of the named definitions.
fn validator_for_definitions(mut schema: Value, names: &[&str]) -> jsonschema::Validator {
    let defs = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let any_of: Vec<Value> = names
        .iter()
        .map(|n| serde_json::json!({ "$ref": format!("#/{defs}/{n}") }))
        .collect();
    let object = schema.as_object_mut().expect("schema is an object");
    object.insert("anyOf".into(), Value::Array(any_of));
    jsonschema::validator_for(&schema).expect("schema compiles")
}

/// A validator for one reply object: the profile's response definition(s).
fn reply_validator(facts: &ProfileFacts) -> jsonschema::Validator {
    let schema = schema_document(facts);
    let names: &[&str] = match facts.protocol_version {
        None => &["Response"],
        Some(_) if schema.pointer("/$defs/JSONRPCErrorResponse").is_some() => {
            &["JSONRPCResultResponse", "JSONRPCErrorResponse"]
        }
        Some(_) => &["JSONRPCResponse", "JSONRPCError"],
    };
    validator_for_definitions(schema, names)
}

/// Generated valid messages validate against the project's JSON-RPC 2.0 schema (`Message`).
/// (MCP messages need typed params and results: see the extension point
/// `mcpwire_proptest::message::CallBodies`.)
fn assert_valid_jsonrpc_message(text: &str) -> Result<(), TestCaseError> {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        validator_for_definitions(schema_document(facts_static(&ALL[0])), &["Message"])
    });
    let instance: Value = serde_json::from_str(text).expect("valid JSON");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect();
    prop_assert!(
        errors.is_empty(),
        "{} does not validate: {:?}",
        text,
        errors
    );
    Ok(())
}

/// A generated typed MCP request or notification validates against the version's schema
/// (`ClientRequest` or `ClientNotification`).
fn assert_valid_mcp_call(facts: &ProfileFacts, text: &str) -> Result<(), TestCaseError> {
    static VALIDATORS: OnceLock<Vec<(&'static str, jsonschema::Validator)>> = OnceLock::new();
    let all = VALIDATORS.get_or_init(|| {
        ALL.iter()
            .filter(|f| f.protocol_version.is_some())
            .map(|f| {
                let schema = schema_document(f);
                (
                    f.name,
                    validator_for_definitions(schema, &["ClientRequest", "ClientNotification"]),
                )
            })
            .collect()
    });
    let validator = &all
        .iter()
        .find(|(name, _)| *name == facts.name)
        .expect("every MCP profile")
        .1;
    let instance: Value = serde_json::from_str(text).expect("valid JSON");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect();
    prop_assert!(
        errors.is_empty(),
        "{}: {} does not validate: {:?}",
        facts.name,
        text,
        errors
    );
    Ok(())
}

/// The reply objects in a reply line (one, or a batch's elements).
fn reply_objects(reply: &[u8]) -> Vec<Value> {
    match serde_json::from_slice(reply).expect("reply is JSON") {
        Value::Array(elements) => elements,
        single => vec![single],
    }
}

fn assert_valid_reply(facts: &ProfileFacts, reply: &[u8]) -> Result<(), TestCaseError> {
    for mut object in reply_objects(reply) {
        // No MCP schema admits `"id": null`; the wire rules require it where the error
        // response's id is required. Validate everything else.
        if facts.protocol_version.is_some() && object.get("id") == Some(&Value::Null) {
            object["id"] = Value::from(0);
        }
        let validator = schema_validator(facts);
        let errors: Vec<String> = validator
            .iter_errors(&object)
            .map(|e| e.to_string())
            .collect();
        prop_assert!(
            errors.is_empty(),
            "{}: reply {} does not validate: {:?}",
            facts.name,
            object,
            errors
        );
    }
    Ok(())
}

/// The runtime's decode of a generated valid message gives back its parts exactly.
fn assert_round_trip(
    facts: &ProfileFacts,
    generated: &Generated,
    text: &str,
) -> Result<(), TestCaseError> {
    let profile = Profile::from_facts(facts_static(facts));
    match (generated, decode(text.as_bytes(), &profile)) {
        (Generated::Call(call), Decoded::Single(Message::Request { id, method, params })) => {
            let expected_id = call.id.as_ref().expect("a request has an id");
            prop_assert_eq!(id.raw(), expected_id.text.as_str());
            prop_assert_eq!(&*method, call.method.name.as_str());
            prop_assert_eq!(params.map(|p| p.get().to_owned()), call.params.clone());
        }
        (
            Generated::Call(call),
            Decoded::Single(Message::Notification(RawNotification { method, params })),
        ) => {
            prop_assert!(call.id.is_none());
            prop_assert_eq!(&*method, call.method.name.as_str());
            prop_assert_eq!(params.map(|p| p.get().to_owned()), call.params.clone());
        }
        (Generated::Response(response), Decoded::Single(Message::Response(decoded))) => {
            prop_assert_eq!(
                decoded.id.as_ref().map(|id| id.raw().to_owned()),
                Some(response.id.text.clone())
            );
            match (&response.body, &decoded.body) {
                (Ok(result), ResponseBody::Result(raw)) => {
                    prop_assert_eq!(*raw, result.as_str())
                }
                (Err((code, _)), ResponseBody::Error { code: got, .. }) => {
                    prop_assert_eq!(*got, *code)
                }
                (want, got) => prop_assert!(false, "body {want:?} decoded as {got:?}"),
            }
        }
        (generated, decoded) => prop_assert!(false, "{generated:?} decoded as {decoded:?}"),
    }
    Ok(())
}

/// The generated JSON-RPC 2.0 types decode a generated valid message and encode it back
/// to the same JSON value (as serde_json reads numbers; only the runtime keeps number text).
fn assert_typed_round_trip(text: &str) -> Result<(), TestCaseError> {
    let typed: mcpwire_types::jsonrpc::Message = serde_json::from_str(text)
        .map_err(|e| TestCaseError::fail(format!("{text} does not decode: {e}")))?;
    let back = serde_json::to_value(&typed).expect("encodes");
    let original: Value = serde_json::from_str(text).expect("valid JSON");
    prop_assert_eq!(back, original, "{}", text);
    Ok(())
}

fn facts_static(facts: &ProfileFacts) -> &'static ProfileFacts {
    ALL.iter()
        .find(|f| f.name == facts.name)
        .expect("a known profile")
}

#[test]
fn valid_messages_round_trip_and_replies_validate_against_the_schema() {
    for facts in ALL {
        let server = RefCell::new(server(facts));
        let mut runner = TestRunner::new(config_at(file!(), 96));
        runner
            .run(
                &typed::mcp_message(facts, Vocabulary::DEFAULT)
                    .unwrap_or_else(|| message::valid_message(facts, Vocabulary::DEFAULT)),
                |generated| {
                    let text = generated.render();
                    assert_round_trip(facts, &generated, &text)?;
                    if facts.protocol_version.is_none() {
                        assert_typed_round_trip(&text)?;
                        assert_valid_jsonrpc_message(&text)?;
                    } else if let Generated::Call(_) = generated {
                        assert_valid_mcp_call(facts, &text)?;
                    }
                    if let Some(reply) = server.borrow_mut().handle_frame(text.as_bytes()) {
                        assert_valid_reply(facts, &reply)?;
                    }
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", facts.name));
    }
}

/// Every reply to a generated (valid or malformed) input validates against the schema.
#[test]
fn every_reply_to_generated_inputs_validates_against_the_schema() {
    for facts in ALL {
        let server = RefCell::new(server(facts));
        let mut runner = TestRunner::new(config_at(file!(), 96));
        runner
            .run(
                &case_from(facts, &typed::call_bodies(facts, Vocabulary::DEFAULT)),
                |case| {
                    if let Some(reply) = server.borrow_mut().handle_frame(&case.frame) {
                        assert_valid_reply(facts, &reply)?;
                    }
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", facts.name));
    }
}

/// The checker's own JSON reader agrees with the runtime on what is one JSON value.
#[test]
fn readers_agree_on_generated_frames() {
    let facts = &ALL[0];
    let mut runner = TestRunner::new(config_at(file!(), 128));
    runner
        .run(
            &case_from(facts, &typed::call_bodies(facts, Vocabulary::DEFAULT)),
            |case| {
                let ours = !matches!(
                    json::read_frame(
                        case.frame
                            .strip_prefix(b"\xEF\xBB\xBF")
                            .unwrap_or(&case.frame)
                    ),
                    json::Frame::NotJson(_) | json::Frame::NotUtf8
                );
                let theirs = !matches!(
                    decode(&case.frame, &Profile::from_facts(facts_static(facts))),
                    Decoded::Rejected(mcpwire::Rejection::Parse(_))
                );
                prop_assert_eq!(ours, theirs, "{:?}", case);
                Ok(())
            },
        )
        .unwrap();
}

/// The schema validators used above are not vacuous.
#[test]
fn schema_validators_reject_bad_messages_and_replies() {
    let good = r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#;
    assert!(assert_valid_jsonrpc_message(good).is_ok());
    for bad in [
        // (`{"jsonrpc":"2.0","id":true,"method":"x"}` validates: as a Notification, whose
        // schema definition does not forbid an `id` member.)
        r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#,
    ] {
        assert!(assert_valid_jsonrpc_message(bad).is_err(), "{bad}");
    }
    for facts in ALL {
        let result = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#;
        assert!(assert_valid_reply(facts, result).is_ok(), "{}", facts.name);
        let string_error = br#"{"jsonrpc":"2.0","id":1,"error":"bad"}"#;
        assert!(
            assert_valid_reply(facts, string_error).is_err(),
            "{}",
            facts.name
        );
        let bool_id = br#"{"jsonrpc":"2.0","id":true,"result":{"resultType":"complete"}}"#;
        assert!(
            assert_valid_reply(facts, bool_id).is_err(),
            "{}",
            facts.name
        );
    }
}
