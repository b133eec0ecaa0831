//! Issue 15: the peer's single-pass decode of a response (`Peer::receive`) gives exactly the
//! events, replies and pending table of the two-pass path (`Peer::receive_two_pass`) on
//! generated valid and malformed frames, for a typed result (`CallToolResult`, generated
//! MCP type), an untyped one (`serde_json::Value`) and a raw one (`request_raw`).

use mcpwire::Profile;
use mcpwire::peer::{Event, Peer, Received, Request};
use mcpwire_types::facts::ALL;
use mcpwire_types::mcp::v2025_11_25::{CallToolResult, strategies};
use proptest::prelude::*;
use serde_json::Value;
use serde_json::value::RawValue;

/// `tools/call` with the generated 2025-11-25 result type.
struct CallTool;

impl Request for CallTool {
    const METHOD: &'static str = "tools/call";
    type Params = Value;
    type Result = CallToolResult;
}

/// A request whose result is any JSON value.
struct Anything;

impl Request for Anything {
    const METHOD: &'static str = "x/anything";
    type Params = ();
    type Result = Value;
}

/// A client that sent `tools/call` (id 1), `x/anything` (id 2), a raw request (id 3) and a
/// `tools/call` it then cancelled (id 4): the same state every time.
fn client(profile: &Profile) -> Peer {
    let mut peer = Peer::new(profile.clone());
    peer.request::<CallTool>(&serde_json::json!({"name": "t"}), None)
        .unwrap();
    peer.request::<Anything>(&(), None).unwrap();
    peer.request_raw("x/raw", &(), None).unwrap();
    let (late, _) = peer
        .request::<CallTool>(&serde_json::json!({"name": "t"}), None)
        .unwrap();
    peer.cancel(late, None);
    peer
}

/// An event as comparable text: a result re-encoded by the type its request named.
fn describe(event: Event<'_>) -> String {
    let Event::Response {
        id,
        method,
        outcome: Ok(result),
    } = event
    else {
        return format!("{event:?}");
    };
    let json = match method.as_ref() {
        "tools/call" => serde_json::to_string(&result.downcast::<CallToolResult>().unwrap()),
        "x/anything" => serde_json::to_string(&result.downcast::<Value>().unwrap()),
        _ => Ok(result.downcast::<Box<RawValue>>().unwrap().get().to_owned()),
    };
    format!("Response {id} {method} Ok({})", json.unwrap())
}

/// What a caller of `receive` sees: the events, the reply, how many requests still wait.
fn observe(received: Received<'_>, peer: &Peer) -> (Vec<String>, Option<Vec<u8>>, usize) {
    let events = received.events.into_iter().map(describe).collect();
    (events, received.reply, peer.pending())
}

/// The id member's text: pending ids, a cancelled one, one never sent, other spellings.
fn id_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1u8..=3).prop_map(|n| n.to_string()),
        1 => Just("4".to_owned()),
        1 => Just("9".to_owned()),
        1 => prop::sample::select(vec!["\"1\"", "1.0", "01", "-1", "1e0", "null", "0"])
            .prop_map(str::to_owned),
    ]
}

/// A result text: a valid `CallToolResult`, arbitrary JSON, or a shape it does not decode as.
fn result_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => strategies::call_tool_result().prop_map(|r| serde_json::to_string(&r).unwrap()),
        1 => Just(r#"{"content":5}"#.to_owned()),
        1 => Just(r#"{"content":[],"content":[]}"#.to_owned()),
        1 => Just(r#"{"content":[{"type":"text","text":"\ud800"}]}"#.to_owned()),
        1 => Just(format!(r#"{{"content":[],"_meta":{{"d":{}{}}}}}"#, "[".repeat(150), "]".repeat(150))),
        1 => Just(r#"[1,2,{"a":"b"}]"#.to_owned()),
        1 => Just("\"text\"".to_owned()),
    ]
}

/// The frame: the common spelling, then one mutation.
fn frame() -> impl Strategy<Value = Vec<u8>> {
    (
        id_text(),
        result_text(),
        0usize..14,
        any::<usize>(),
        any::<u8>(),
    )
        .prop_map(|(id, result, mutation, at, byte)| {
            let common = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#);
            let mut frame = common.clone().into_bytes();
            let at = at % (frame.len() + 1);
            match mutation {
                0..=5 => {}
                6 => frame.truncate(at),
                7 => frame.insert(at, byte),
                8 => frame.insert(at.max(1), 0xFF),
                9 => frame.extend_from_slice(b" x"),
                10 => frame.splice(0..0, *b"\xEF\xBB\xBF").for_each(drop),
                11 => {
                    frame =
                        format!(r#"{{"id":{id},"jsonrpc":"2.0","result":{result}}}"#).into_bytes()
                }
                12 => {
                    frame.pop();
                    frame.extend_from_slice(br#","error":{"code":1,"message":"m"}}"#);
                }
                _ => {
                    frame.pop();
                    frame.extend_from_slice(b" \r\n\t} \n");
                }
            }
            frame
        })
}

fn profile() -> impl Strategy<Value = Profile> {
    (0..ALL.len()).prop_map(|i| Profile::from_facts(&ALL[i]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("MCPWIRE_PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn single_pass_and_two_pass_agree(profile in profile(), frame in frame()) {
        let mut fast = client(&profile);
        let mut reference = client(&profile);
        let fast_seen = observe(fast.receive(&frame), &fast);
        let reference_seen = observe(reference.receive_two_pass(&frame), &reference);
        prop_assert_eq!(fast_seen, reference_seen, "frame {}", String::from_utf8_lossy(&frame));
    }
}

#[test]
fn the_common_response_is_decoded_as_the_request_named() {
    let profile = Profile::mcp("2025-11-25").unwrap();
    let mut peer = client(&profile);
    let received = peer.receive(
        br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}"#,
    );
    let (events, reply, pending) = observe(received, &peer);
    assert_eq!(
        events,
        [r#"Response 1 tools/call Ok({"content":[{"text":"hi","type":"text"}],"isError":false})"#]
    );
    assert_eq!((reply, pending), (None, 2));
    let received = peer.receive(br#"{"jsonrpc":"2.0","id":3,"result":{"kept": 1e3}}"#);
    assert_eq!(
        observe(received, &peer).0,
        [r#"Response 3 x/raw Ok({"kept": 1e3})"#]
    );
}
