//! Issue 13: `check_server` builds a fresh `mcpwire::Server` for every generated case, and can
//! fail on the -32603 a panicking handler is answered with.

use mcpwire::{CallContext, Profile, Router, RpcError, Server};
use mcpwire_proptest::{ServerCheck, Vocabulary, check_server};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::{ALL, MCP_2025_03_26};
use serde_json::{Value, json};
use std::cell::Cell;

/// Implements exactly `VOCABULARY.known`; `initialize` switches to MCP 2025-03-26 (which
/// reads batches and spells a missing id differently from the newest versions).
const VOCABULARY: Vocabulary = Vocabulary {
    known: &["ping", "tools/list", "initialize"],
    unknown: Vocabulary::DEFAULT.unknown,
};

fn server(facts: &'static ProfileFacts) -> Server<()> {
    let router = Router::new()
        .request("ping", |_: &(), _: Value, _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(json!({}))
        })
        .request("tools/list", |_: &(), _: Value, _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(json!({"tools": []}))
        })
        .request(
            "initialize",
            |_: &(), _: Value, ctx: &mut CallContext<'_>| {
                ctx.negotiate(&MCP_2025_03_26);
                Ok::<_, RpcError>(json!({"protocolVersion": "2025-03-26"}))
            },
        );
    Server::new(Profile::from_facts(facts), (), router)
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
