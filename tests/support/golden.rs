//! A small JSON-RPC test server and helpers for the golden tests: exact reply bytes in,
//! exact reply bytes out.
//!
//! Methods (the ones JSON-RPC 2.0 section 7 uses, plus a few for the error paths):
//! - requests: `subtract` (`[minuend, subtrahend]` or `{"minuend","subtrahend"}`), `sum`
//!   (array of integers), `get_data` (→ `["hello",5]`), `echo` (returns its params, `null`
//!   when absent), `count` (`{"count": u32}` → the count), `fail` (→ -32000 `boom` with
//!   data `{"why":"asked to"}`), `panic` (panics), `switch` (`{"profile": name}` switches the
//!   profile for later frames, → `true`);
//! - notifications: `update`, `notify_hello`, `notify_sum`, `log` (each recorded in
//!   [`TestState::notifications`]); `panic` as a notification panics too;
//! - response-shaped input is recorded in [`TestState::events`].

use std::sync::Mutex;

use mcpwire::{CallContext, Profile, ProtocolEvent, Router, RpcError, Server};
use serde::Deserialize;
use serde_json::Value;

/// What the test server remembers (handlers see it as `&TestState`).
#[derive(Debug, Default)]
pub struct TestState {
    notifications: Mutex<Vec<(String, String)>>,
    events: Mutex<Vec<ProtocolEvent>>,
    requests: Mutex<usize>,
}

impl TestState {
    /// Every notification handled, as `method` plus its params JSON (`null` when absent).
    pub fn notifications(&self) -> Vec<(String, String)> {
        self.notifications.lock().unwrap().clone()
    }

    /// Every protocol event delivered.
    pub fn events(&self) -> Vec<ProtocolEvent> {
        self.events.lock().unwrap().clone()
    }

    /// Requests handled successfully.
    pub fn requests(&self) -> usize {
        *self.requests.lock().unwrap()
    }

    fn count_request(&self) {
        *self.requests.lock().unwrap() += 1;
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum SubtractParams {
    Positional(i64, i64),
    Named { minuend: i64, subtrahend: i64 },
}

#[derive(Deserialize)]
struct CountParams {
    count: u32,
}

#[derive(Deserialize)]
struct SwitchParams {
    profile: String,
}

fn record(
    method: &'static str,
) -> impl Fn(&TestState, Option<Value>, &mut CallContext<'_>) + Send + Sync {
    move |state, params, _ctx| {
        let params = params.map_or_else(|| "null".to_owned(), |p| p.to_string());
        state
            .notifications
            .lock()
            .unwrap()
            .push((method.to_owned(), params));
    }
}

/// The router of the test server.
pub fn router() -> Router<TestState> {
    Router::new()
        .request(
            "subtract",
            |state: &TestState, p: SubtractParams, _: &mut CallContext<'_>| {
                state.count_request();
                Ok::<_, RpcError>(match p {
                    SubtractParams::Positional(a, b) => a - b,
                    SubtractParams::Named {
                        minuend,
                        subtrahend,
                    } => minuend - subtrahend,
                })
            },
        )
        .request(
            "sum",
            |state: &TestState, p: Vec<i64>, _: &mut CallContext<'_>| {
                state.count_request();
                Ok::<_, RpcError>(p.iter().sum::<i64>())
            },
        )
        .request(
            "get_data",
            |state: &TestState, _: (), _: &mut CallContext<'_>| {
                state.count_request();
                Ok::<_, RpcError>(serde_json::json!(["hello", 5]))
            },
        )
        .request(
            "echo",
            |state: &TestState, p: Value, _: &mut CallContext<'_>| {
                state.count_request();
                Ok::<_, RpcError>(p)
            },
        )
        .request(
            "count",
            |state: &TestState, p: CountParams, _: &mut CallContext<'_>| {
                state.count_request();
                Ok::<_, RpcError>(p.count)
            },
        )
        .request(
            "fail",
            |_: &TestState, _: Value, _: &mut CallContext<'_>| {
                Err::<(), _>(
                    RpcError::new(-32000, "boom")
                        .with_data(&serde_json::json!({"why": "asked to"})),
                )
            },
        )
        .request(
            "panic",
            |_: &TestState, _: Value, _: &mut CallContext<'_>| -> Result<(), RpcError> {
                panic!("handler panicked on purpose")
            },
        )
        .request(
            "switch",
            |_: &TestState, p: SwitchParams, ctx: &mut CallContext<'_>| {
                let profile = Profile::by_name(&p.profile).ok_or_else(RpcError::invalid_params)?;
                ctx.set_profile(profile);
                Ok::<_, RpcError>(true)
            },
        )
        .notification("update", record("update"))
        .notification("notify_hello", record("notify_hello"))
        .notification("notify_sum", record("notify_sum"))
        .notification("log", record("log"))
        .notification(
            "panic",
            |_: &TestState, _: Value, _: &mut CallContext<'_>| {
                panic!("notification panicked on purpose")
            },
        )
        .on_event(|state: &TestState, event| state.events.lock().unwrap().push(event))
}

/// A test server under `profile`.
pub fn server(profile: Profile) -> Server<TestState> {
    Server::new(profile, TestState::default(), router())
}

/// A test server under the named profile (`jsonrpc-2.0`, `mcp-2025-11-25`, ...).
pub fn server_for(name: &str) -> Server<TestState> {
    server(Profile::by_name(name).unwrap_or_else(|| panic!("unknown profile {name}")))
}

/// Sends one frame; returns the reply as text (`None` when nothing is sent).
pub fn reply(server: &mut Server<TestState>, frame: &str) -> Option<String> {
    reply_bytes(server, frame.as_bytes())
}

/// Sends one frame given as bytes; returns the reply as text.
pub fn reply_bytes(server: &mut Server<TestState>, frame: &[u8]) -> Option<String> {
    server.handle_frame(frame).map(|bytes| {
        let text = String::from_utf8(bytes).expect("replies are UTF-8");
        assert!(
            !text.contains('\n') && !text.contains('\r'),
            "reply is not one line: {text}"
        );
        text
    })
}

/// Sends one frame to a fresh server under the named profile.
pub fn reply_under(profile: &str, frame: &str) -> Option<String> {
    reply(&mut server_for(profile), frame)
}

/// The reply for a frame answered with `error` and `id` (`None` = no id) under a profile
/// whose missing id is `"id":null` (`null_for_missing`) or omitted.
pub fn error_line(id: Option<&str>, code: i64, message: &str, null_for_missing: bool) -> String {
    let id_part = match (id, null_for_missing) {
        (Some(id), _) => format!(r#","id":{id}"#),
        (None, true) => r#","id":null"#.to_owned(),
        (None, false) => String::new(),
    };
    format!(r#"{{"jsonrpc":"2.0"{id_part},"error":{{"code":{code},"message":"{message}"}}}}"#)
}

/// Asserts that two JSON texts are the same JSON value (member order ignored).
pub fn assert_same_json(ours: &str, expected: &str) {
    let ours_value: Value = serde_json::from_str(ours).unwrap_or_else(|e| panic!("{ours}: {e}"));
    let expected_value: Value =
        serde_json::from_str(expected).unwrap_or_else(|e| panic!("{expected}: {e}"));
    assert_eq!(
        ours_value, expected_value,
        "\n ours: {ours}\n want: {expected}"
    );
}

/// Builds `{"jsonrpc":"2.0","id":<id>,"method":<method>,"params":<params>}` (params left
/// out when `None`).
pub fn request(id: &str, method: &str, params: Option<&str>) -> String {
    match params {
        Some(params) => {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
        }
        None => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#),
    }
}

/// Nests `inner` inside `depth` arrays.
pub fn nested_arrays(depth: usize, inner: &str) -> String {
    let mut text = String::with_capacity(depth * 2 + inner.len());
    text.push_str(&"[".repeat(depth));
    text.push_str(inner);
    text.push_str(&"]".repeat(depth));
    text
}
