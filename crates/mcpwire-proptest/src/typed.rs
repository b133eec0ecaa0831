//! Valid MCP messages built from the generated types (`mcpwire_types::mcp::<version>::strategies`).
//!
//! A typed call is a `ClientRequest` or `ClientNotification` of the profile's MCP version
//! (never the `Unknown` variant), encoded; its `method` and `params` become a [`Call`] with
//! an id admitted by the profile, so the usual oracles, mutations and renderings apply and
//! every generated call's method and params validate against that version's schema.
//!
//! Only the versions whose feature is enabled (`v2024_11_05` … `v2026_07_28`, `latest`,
//! `all-versions` = default) have typed strategies; the functions here return `None` for
//! the others, and [`call_bodies`] falls back to arbitrary bodies.
//!
//! ```
//! use mcpwire_proptest::{Vocabulary, typed};
//! use mcpwire_proptest::facts::MCP_LATEST;
//! use proptest::prelude::*;
//!
//! let requests = typed::mcp_request(&MCP_LATEST, Vocabulary::DEFAULT).expect("an MCP profile");
//! proptest!(ProptestConfig::with_cases(8), |(call in requests)| {
//!     let text = mcpwire_proptest::message::Message::Call(call).render();
//!     let value: serde_json::Value = serde_json::from_str(&text).unwrap();
//!     prop_assert!(value["method"].is_string());
//!     prop_assert!(value["id"].is_string() || value["id"].is_number());
//! });
//! ```

use mcpwire_types::ProfileFacts;
use proptest::prelude::*;
use serde_json::Value;

use crate::ids::admitted_id;
use crate::message::{Call, CallBodies, CallBody, Message, MethodName, response};
use crate::methods::Vocabulary;

/// The encoded client requests and notifications of one MCP version.
#[cfg_attr(
    not(any(
        feature = "v2024_11_05",
        feature = "v2025_03_26",
        feature = "v2025_06_18",
        feature = "v2025_11_25",
        feature = "v2026_07_28"
    )),
    allow(dead_code)
)]
struct Typed {
    requests: fn() -> BoxedStrategy<Value>,
    notifications: fn() -> BoxedStrategy<Value>,
}

macro_rules! typed_version {
    ($module:ident) => {
        Typed {
            requests: || {
                mcpwire_types::mcp::$module::strategies::client_request()
                    .prop_map(|r| serde_json::to_value(r).expect("encodes"))
                    .boxed()
            },
            notifications: || {
                mcpwire_types::mcp::$module::strategies::client_notification()
                    .prop_map(|n| serde_json::to_value(n).expect("encodes"))
                    .boxed()
            },
        }
    };
}

/// The typed strategies of MCP `version` (`"2025-11-25"`), when it is a known version whose
/// feature is enabled.
fn typed(version: &str) -> Option<Typed> {
    Some(match version {
        #[cfg(feature = "v2024_11_05")]
        "2024-11-05" => typed_version!(v2024_11_05),
        #[cfg(feature = "v2025_03_26")]
        "2025-03-26" => typed_version!(v2025_03_26),
        #[cfg(feature = "v2025_06_18")]
        "2025-06-18" => typed_version!(v2025_06_18),
        #[cfg(feature = "v2025_11_25")]
        "2025-11-25" => typed_version!(v2025_11_25),
        #[cfg(feature = "v2026_07_28")]
        "2026-07-28" => typed_version!(v2026_07_28),
        _ => return None,
    })
}

/// Method and params of an encoded typed call. `known` tells whether the server under test
/// implements the method (it is in `vocabulary.known`), which decides the expected outcome.
fn call_body(value: Value, vocabulary: Vocabulary) -> CallBody {
    let name = value["method"]
        .as_str()
        .expect("a typed call has a method")
        .to_owned();
    let method = MethodName {
        token: serde_json::to_string(&name).expect("string"),
        known: vocabulary.known.contains(&name.as_str()),
        name,
    };
    let params = value.get("params").map(Value::to_string);
    (method, params)
}

/// Typed request bodies (method and params) of the profile's MCP version.
fn request_bodies(
    profile: &ProfileFacts,
    vocabulary: Vocabulary,
) -> Option<BoxedStrategy<CallBody>> {
    let typed = typed(profile.protocol_version?)?;
    Some(
        (typed.requests)()
            .prop_map(move |v| call_body(v, vocabulary))
            .boxed(),
    )
}

/// Typed notification bodies (method and params) of the profile's MCP version.
fn notification_bodies(
    profile: &ProfileFacts,
    vocabulary: Vocabulary,
) -> Option<BoxedStrategy<CallBody>> {
    let typed = typed(profile.protocol_version?)?;
    Some(
        (typed.notifications)()
            .prop_map(move |v| call_body(v, vocabulary))
            .boxed(),
    )
}

/// Typed call bodies (requests and notifications) of an MCP profile, for every strategy that
/// takes [`CallBodies`] (`call_from`, `valid_message_from`, `mutations::case_from`); `None`
/// for a profile that is not MCP (plain JSON-RPC 2.0), an unknown version, or a version whose
/// feature (`v2025_11_25` ...) is not enabled.
pub fn mcp_call_bodies(profile: &ProfileFacts, vocabulary: Vocabulary) -> Option<CallBodies> {
    let requests = request_bodies(profile, vocabulary)?;
    let notifications = notification_bodies(profile, vocabulary)?;
    Some(CallBodies::custom(
        prop_oneof![3 => requests, 1 => notifications].boxed(),
    ))
}

/// The call bodies for exercising a server under `profile`: for an MCP profile mostly typed
/// ([`mcp_call_bodies`], 2 in 3) and otherwise arbitrary names and params from `vocabulary`
/// (unknown and escaped method names stay covered); for plain JSON-RPC only arbitrary.
///
/// The arbitrary bodies come first, so a failing case shrinks toward them: the first known
/// method without params (`{"jsonrpc":"2.0","id":0,"method":"ping"}`), not a typed
/// `initialize` or `tools/call` with params.
pub fn call_bodies(profile: &ProfileFacts, vocabulary: Vocabulary) -> CallBodies {
    let arbitrary = CallBodies::arbitrary(profile, vocabulary);
    match mcp_call_bodies(profile, vocabulary) {
        Some(typed) => CallBodies::custom(
            prop_oneof![1 => arbitrary.strategy(), 2 => typed.strategy()].boxed(),
        ),
        None => arbitrary,
    }
}

/// Valid MCP requests of the profile's version, with an id the profile admits.
pub fn mcp_request(profile: &ProfileFacts, vocabulary: Vocabulary) -> Option<BoxedStrategy<Call>> {
    let bodies = request_bodies(profile, vocabulary)?;
    Some(
        (admitted_id(profile), bodies)
            .prop_map(|(id, (method, params))| Call {
                id: Some(id),
                method,
                params,
            })
            .boxed(),
    )
}

/// Valid MCP notifications of the profile's version.
pub fn mcp_notification(
    profile: &ProfileFacts,
    vocabulary: Vocabulary,
) -> Option<BoxedStrategy<Call>> {
    let bodies = notification_bodies(profile, vocabulary)?;
    Some(
        bodies
            .prop_map(|(method, params)| Call {
                id: None,
                method,
                params,
            })
            .boxed(),
    )
}

/// Valid MCP messages of the profile's version: typed requests and notifications, and
/// responses (whose results are arbitrary JSON).
pub fn mcp_message(
    profile: &ProfileFacts,
    vocabulary: Vocabulary,
) -> Option<BoxedStrategy<Message>> {
    let requests = mcp_request(profile, vocabulary)?;
    let notifications = mcp_notification(profile, vocabulary)?;
    Some(
        prop_oneof![
            3 => requests.prop_map(Message::Call),
            1 => notifications.prop_map(Message::Call),
            1 => response(profile).prop_map(Message::Response),
        ]
        .boxed(),
    )
}
