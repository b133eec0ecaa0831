//! Issue 13: `check_server` builds a fresh `mcpwire::Server` for every generated case, and can
//! fail on the -32603 a panicking handler is answered with. Issue 29: every reply is validated
//! against the version's schema (`reply-schema-invalid`).

use mcpwire::{CallContext, Profile, Router, RpcError, Server};
use mcpwire_proptest::{SchemaSource, ServerCheck, Vocabulary, check_server};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::{ALL, MCP_2025_03_26, MCP_2025_11_25};
use serde_json::{Value, json};
use std::cell::Cell;

/// Implements exactly `VOCABULARY.known`; `initialize` switches to MCP 2025-03-26 (which
/// reads batches and spells a missing id differently from the newest versions).
const VOCABULARY: Vocabulary = Vocabulary {
    known: &["ping", "tools/list", "initialize"],
    unknown: Vocabulary::DEFAULT.unknown,
};

fn server(facts: &'static ProfileFacts) -> Server<()> {
    let ping = versioned(facts, json!({}));
    let mut tools = versioned(facts, json!({"tools": []}));
    if facts.protocol_version == Some("2026-07-28") {
        // 2026-07-28's list results say how long a client may cache them.
        tools["cacheScope"] = json!("public");
        tools["ttlMs"] = json!(0);
    }
    let initialized = versioned(
        facts,
        json!({
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "serverInfo": {"name": "fixture", "version": "0"}
        }),
    );
    let router = Router::new()
        .request("ping", move |_: &(), _: Value, _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(ping.clone())
        })
        .request(
            "tools/list",
            move |_: &(), _: Value, _: &mut CallContext<'_>| Ok::<_, RpcError>(tools.clone()),
        )
        .request(
            "initialize",
            move |_: &(), _: Value, ctx: &mut CallContext<'_>| {
                ctx.negotiate(&MCP_2025_03_26);
                Ok::<_, RpcError>(initialized.clone())
            },
        );
    Server::new(Profile::from_facts(facts), (), router)
}

/// `result` as `facts`' schema wants it: from 2026-07-28 every result carries `resultType`.
fn versioned(facts: &ProfileFacts, mut result: Value) -> Value {
    if facts.protocol_version == Some("2026-07-28") {
        result["resultType"] = json!("complete");
    }
    result
}

fn reply_fn(mut server: Server<()>) -> impl FnMut(&[u8]) -> Vec<Vec<u8>> {
    move |frame| server.handle_frame(frame).into_iter().collect()
}

#[test]
fn a_fresh_server_per_case_passes_every_profile() {
    for facts in ALL {
        let built = Cell::new(0u32);
        let make = || {
            built.set(built.get() + 1);
            reply_fn(server(facts))
        };
        let options = ServerCheck {
            fail_on_internal_error: true,
            ..ServerCheck::with_cases(48)
        };
        if let Err(failure) = check_server(make, facts, VOCABULARY, &options) {
            panic!("{}: {failure}", facts.name);
        }
        assert!(
            built.get() >= 48,
            "{}: one server per case, got {}",
            facts.name,
            built.get()
        );
    }
}

#[test]
fn a_panicking_handler_fails_only_when_internal_errors_are_refused() {
    let facts = &mcpwire_types::facts::JSONRPC_2_0;
    let vocabulary = Vocabulary {
        known: &["ping"],
        unknown: Vocabulary::DEFAULT.unknown,
    };
    let make = || {
        let router = Router::new().request("ping", |_: &(), _: Value, _: &mut CallContext<'_>| {
            if true {
                panic!("handler bug");
            }
            Ok::<_, RpcError>(json!({}))
        });
        reply_fn(Server::new(Profile::from_facts(facts), (), router))
    };
    let lenient = ServerCheck::with_cases(128);
    assert_eq!(check_server(make, facts, vocabulary, &lenient), Ok(()));
    // A fixed seed: the failure this test expects is saved once in
    // prop_check_server.proptest-regressions and replayed from it, so the file does not grow.
    let strict = ServerCheck {
        fail_on_internal_error: true,
        ..lenient.seed(35)
    };
    let failure = check_server(make, facts, vocabulary, &strict).unwrap_err();
    assert!(failure.internal_error, "{failure}");
    assert!(
        String::from_utf8_lossy(&failure.frame).contains("ping"),
        "{failure}"
    );
}

/// The upstream MCP schemas: `MCP_SCHEMA_DIR`, else `../shared/schemas/mcp` beside the
/// workspace.
fn schema_dir() -> &'static str {
    let dir = std::env::var("MCP_SCHEMA_DIR").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/schemas/mcp").to_owned()
    });
    Box::leak(dir.into_boxed_str())
}

/// An MCP 2025-11-25 server whose `tools/list` answers `tools`.
fn tools_server(tools: Value) -> impl FnMut(&[u8]) -> Vec<Vec<u8>> {
    let router = Router::new()
        .request("ping", |_: &(), _: Value, _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(json!({}))
        })
        .request(
            "tools/list",
            move |_: &(), _: Value, _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(json!({ "tools": tools.clone() }))
            },
        );
    reply_fn(Server::new(
        Profile::from_facts(&MCP_2025_11_25),
        (),
        router,
    ))
}

const TOOLS_VOCABULARY: Vocabulary = Vocabulary {
    known: &["ping", "tools/list"],
    unknown: Vocabulary::DEFAULT.unknown,
};

#[test]
fn a_result_the_schema_refuses_is_reply_schema_invalid_with_its_pointer() {
    // A fixed seed: the failure is saved once in the regression file and replayed from it.
    let options = ServerCheck::with_cases(256)
        .seed(29)
        .schemas(SchemaSource::Dir(schema_dir()));
    let make = || tools_server(json!([{ "name": 7, "inputSchema": {"type": "object"} }]));
    let failure = check_server(make, &MCP_2025_11_25, TOOLS_VOCABULARY, &options).unwrap_err();
    let finding = failure
        .findings
        .iter()
        .find(|f| f.kind == "reply-schema-invalid")
        .unwrap_or_else(|| panic!("no reply-schema-invalid: {failure}"));
    assert_eq!(finding.level, mcpwire_proptest::Level::Violation);
    assert!(finding.message.contains("ListToolsResult"), "{failure}");
    assert!(
        finding.message.contains("at /result/tools/0/name"),
        "{failure}"
    );
    assert!(
        String::from_utf8_lossy(&failure.frame).contains("tools/list"),
        "{failure}"
    );
    assert!(
        failure
            .to_string()
            .contains("reply-schema-invalid (violation)"),
        "{failure}"
    );
}

#[test]
fn a_server_whose_replies_fit_the_schema_has_no_schema_finding() {
    let options = ServerCheck::with_cases(256)
        .seed(29)
        .strict(true)
        .schemas(SchemaSource::Dir(schema_dir()));
    let make = || tools_server(json!([{ "name": "echo", "inputSchema": {"type": "object"} }]));
    if let Err(failure) = check_server(make, &MCP_2025_11_25, TOOLS_VOCABULARY, &options) {
        panic!("{failure}");
    }
}
