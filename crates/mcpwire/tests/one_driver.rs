//! One driver: the blocking front ends give the bytes of the async engine. The same stream of
//! frames (valid and invalid requests, notifications, responses, batches, a handler that
//! panics, a version switch) is fed to [`Server::handle_frame`], to an async [`Session`] of the
//! same router driven on tokio, and, POST by POST, to a [`SyncServer`] over Streamable HTTP
//! (which runs the session the server becomes, [`Server::into_session`]); every reply must
//! be the same bytes.
#![cfg(feature = "http")]

use crate::http_support;

use std::sync::atomic::{AtomicU64, Ordering};

use http_support::*;
use mcpwire::http::{HttpConfig, SyncServer};
use mcpwire::service::{Outgoing, Session, Sink};
use mcpwire::{CallContext, Profile, ProtocolEvent, Router, RpcError, Server};
use serde::Deserialize;
use serde_json::value::RawValue;

/// What the server counts between frames, so that the order frames are taken in shows.
#[derive(Debug, Default)]
struct Seen {
    notes: AtomicU64,
    events: AtomicU64,
}

#[derive(Deserialize)]
struct Subtract {
    minuend: i64,
    subtrahend: i64,
}

/// The level of a note whose handler takes its time.
const SLOW: u8 = 5;

#[derive(Deserialize)]
struct Note {
    level: u8,
}

/// Typed, untyped, panicking and fallback handlers, a notification handler with typed
/// params, an event hook and an `initialize` that switches to MCP 2025-06-18 (no batches
/// there).
fn router() -> Router<Seen> {
    Router::new()
        .request(
            "subtract",
            |_: &Seen, p: Subtract, _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(p.minuend - p.subtrahend)
            },
        )
        .request(
            "echo",
            |_: &Seen, v: serde_json::Value, _: &mut CallContext<'_>| Ok::<_, RpcError>(v),
        )
        .request("count", |seen: &Seen, _: (), _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(serde_json::json!({
                "notes": seen.notes.load(Ordering::SeqCst),
                "events": seen.events.load(Ordering::SeqCst),
            }))
        })
        .request("panic", |_: &Seen, _: (), _: &mut CallContext<'_>| {
            if true {
                panic!("a handler bug");
            }
            Ok::<_, RpcError>(())
        })
        .request(
            "initialize",
            |_: &Seen, _: (), ctx: &mut CallContext<'_>| {
                let agreed = ctx.negotiate(Profile::mcp("2025-06-18").unwrap().facts());
                Ok::<_, RpcError>(agreed.name())
            },
        )
        .notification("note", |seen: &Seen, n: Note, _: &mut CallContext<'_>| {
            if n.level == SLOW {
                // Long enough for a frame read meanwhile to see the count without it.
                std::thread::sleep(std::time::Duration::from_millis(150));
            }
            seen.notes.fetch_add(u64::from(n.level), Ordering::SeqCst);
        })
        .fallback(|_: &Seen, params, ctx| {
            if !ctx.method().starts_with("dyn/") {
                return Err(RpcError::method_not_found());
            }
            let params = params.map_or("null", |p| p.get());
            Ok(RawValue::from_string(format!("{{\"params\":{params}}}")).unwrap())
        })
        .on_event(|seen: &Seen, _: ProtocolEvent| {
            seen.events.fetch_add(1, Ordering::SeqCst);
        })
}

/// The blocking server of [`router`].
fn server(profile: Profile) -> Server<Seen> {
    Server::new(profile, Seen::default(), router())
}

fn start_profile() -> Profile {
    Profile::jsonrpc_2_0().with_max_frame_bytes(4096)
}

/// Frames that need no state from the ones before them: each one means the same to a
/// fresh server.
fn independent_frames() -> Vec<Vec<u8>> {
    let frames: &[&[u8]] = &[
        br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"subtract","params":{"minuend":42,"subtrahend":23}}"#,
        br#"{"jsonrpc":"2.0","id":"a","method":"subtract","params":{"minuend":"x","subtrahend":1}}"#,
        br#"{"jsonrpc":"2.0","id":"b","method":"subtract","params":[42,23]}"#,
        br#"{"jsonrpc":"2.0","id":1e3,"method":"echo","params":{"x":[1,-0,1.5e300,"\u00e9"]}}"#,
        br#"{"jsonrpc":"2.0","id":-0,"method":"count"}"#,
        br#"{"jsonrpc":"2.0","id":7,"method":"nope"}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"panic"}"#,
        br#"{"jsonrpc":"2.0","id":13,"method":"dyn/x","params":{ "a" : [1] }}"#,
        br#"{"#,
        br#"[]"#,
        br#"[1,2]"#,
        br#""x""#,
        b"{\"jsonrpc\":\"2.0\",\"id\":\xff,\"method\":\"echo\"}",
        br#"{"jsonrpc":"1.0","id":3,"method":"subtract"}"#,
        br#"{"jsonrpc":"2.0","id":{},"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":4,"id":5,"method":"echo"}"#,
        br#"{"jsonrpc":"2.0","id":6,"method":"echo","params":"scalar"}"#,
        br#"{"jsonrpc":"2.0","method":"note","params":{"level":1}}"#,
        br#"{"jsonrpc":"2.0","method":"note","params":{"level":"high"}}"#,
        br#"{"jsonrpc":"2.0","method":"unknown"}"#,
        br#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        br#"{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"m"}}"#,
        br#"[{"jsonrpc":"2.0","id":10,"method":"subtract","params":{"minuend":1,"subtrahend":2}},{"jsonrpc":"2.0","method":"note","params":{"level":2}},{"foo":"boo"},{"jsonrpc":"2.0","id":"11","method":"nope"},{"jsonrpc":"2.0","id":12,"method":"panic"},{"jsonrpc":"2.0","id":14,"method":"count"}]"#,
        br#"[{"jsonrpc":"2.0","method":"note","params":{"level":3}},{"jsonrpc":"2.0","id":1,"result":null}]"#,
    ];
    let mut frames: Vec<Vec<u8>> = frames.iter().map(|f| f.to_vec()).collect();
    // Over the frame limit.
    frames.push(
        format!(
            r#"{{"jsonrpc":"2.0","id":15,"method":"echo","params":"{}"}}"#,
            "y".repeat(5000)
        )
        .into_bytes(),
    );
    frames
}

/// The stream of one conversation: the independent frames, then a version switch and what
/// reads differently after it, with the state counted in between.
fn conversation() -> Vec<Vec<u8>> {
    let mut frames = independent_frames();
    let after: &[&[u8]] = &[
        br#"{"jsonrpc":"2.0","id":20,"method":"count"}"#,
        br#"{"jsonrpc":"2.0","id":21,"method":"initialize"}"#,
        br#"[{"jsonrpc":"2.0","id":22,"method":"count"}]"#,
        br#"{"jsonrpc":"2.0","id":23,"method":"count"}"#,
        br#"{"jsonrpc":"2.0","id":null,"method":"count"}"#,
    ];
    frames.extend(after.iter().map(|f| f.to_vec()));
    frames
}

/// What the blocking front end answers to each frame, in turn.
fn blocking_replies(frames: &[Vec<u8>]) -> Vec<Option<String>> {
    let mut server = server(start_profile());
    frames
        .iter()
        .map(|frame| server.handle_frame(frame).map(text))
        .collect()
}

/// The frame, as a failure message shows it (its first 200 bytes).
fn shown(frame: &[u8]) -> String {
    String::from_utf8_lossy(&frame[..frame.len().min(200)]).into_owned()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("replies are UTF-8")
}

#[test]
fn the_async_engine_answers_a_stream_with_the_blocking_servers_bytes() {
    let frames = conversation();
    let expected = blocking_replies(&frames);
    // The stream exercises every kind of answer: none, a result, an error, a batch.
    assert!(expected.iter().any(Option::is_none));
    assert!(expected.iter().flatten().any(|r| r.contains("\"result\"")));
    assert!(expected.iter().flatten().any(|r| r.contains("\"error\"")));
    assert!(expected.iter().flatten().any(|r| r.starts_with('[')));

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let replies = runtime.block_on(async {
        // Built as an async server is, not from a `Server`.
        let session = Session::new(start_profile(), Seen::default(), router());
        let mut replies = Vec::new();
        for frame in &frames {
            let (sink, mut items) = Sink::channel(16);
            session.receive(frame, &sink).await;
            drop(sink);
            let mut reply = None;
            while let Some(item) = items.recv().await {
                assert!(reply.is_none(), "two replies to one frame");
                match item {
                    Outgoing::Reply(frame) => reply = Some(text(frame.into_bytes())),
                    Outgoing::Message(bytes) => panic!("a message: {}", text(bytes)),
                }
            }
            replies.push(reply);
        }
        replies
    });
    for ((frame, want), got) in frames.iter().zip(&expected).zip(&replies) {
        assert_eq!(got, want, "frame {}", shown(frame));
    }
    // The state the handlers built up is read back the same way too.
    assert_eq!(
        expected[expected.len() - 2].as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":23,"result":{"events":4,"notes":6}}"#)
    );
}

#[test]
fn sync_server_over_http_answers_each_post_with_the_blocking_servers_bytes() {
    let running = start(
        HttpConfig::default().stateless(true),
        SyncServer::new(|| server(start_profile())),
    );
    for frame in independent_frames() {
        let expected = blocking_replies(std::slice::from_ref(&frame)).remove(0);
        let reply = request(running.addr, "POST", &[JSON], &frame);
        let shown = shown(&frame);
        match expected {
            Some(expected) => {
                assert!(
                    reply.status == 200 || reply.status == 400,
                    "{shown}: {}",
                    reply.status
                );
                assert_eq!(reply.text(), expected, "{shown}");
            }
            None => assert_eq!(
                (reply.status, reply.text()),
                (202, String::new()),
                "{shown}"
            ),
        }
    }
}

#[test]
fn sync_server_over_http_answers_a_session_with_the_blocking_servers_bytes() {
    // An `initialize` that opens the HTTP session and keeps the profile: plain JSON-RPC 2.0,
    // batches included.
    let opening = || {
        let router = router().request(
            "initialize",
            |_: &Seen, _: serde_json::Value, _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(serde_json::json!({}))
            },
        );
        Server::new(start_profile(), Seen::default(), router)
    };
    let frames: Vec<Vec<u8>> = [
        INITIALIZE,
        r#"{"jsonrpc":"2.0","method":"note","params":{"level":2}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"count"}"#,
        r#"{"jsonrpc":"2.0","method":"note","params":{"level":"high"}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        // The slow note comes after the batch's reply: the next body still sees it counted.
        r#"[{"jsonrpc":"2.0","id":3,"method":"count"},{"jsonrpc":"2.0","method":"note","params":{"level":5}}]"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"count"}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"subtract","params":{"minuend":"x","subtrahend":1}}"#,
        r#"[{"jsonrpc":"2.0","id":7,"method":"panic"},{"jsonrpc":"2.0","id":8,"method":"count"}]"#,
    ]
    .iter()
    .map(|f| f.as_bytes().to_vec())
    .collect();
    let mut blocking = opening();
    let expected: Vec<_> = frames
        .iter()
        .map(|frame| blocking.handle_frame(frame).map(text))
        .collect();
    assert_eq!(
        expected[6].as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":4,"result":{"events":2,"notes":7}}"#)
    );

    let running = start(HttpConfig::default(), SyncServer::new(opening));
    let session = open_session(running.addr);
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    for (frame, expected) in frames.iter().zip(&expected).skip(1) {
        let reply = request(running.addr, "POST", &with, frame);
        let shown = shown(frame);
        match expected {
            Some(expected) => {
                assert_eq!(reply.status, 200, "{shown}");
                assert_eq!(&reply.text(), expected, "{shown}");
            }
            None => assert_eq!(
                (reply.status, reply.text()),
                (202, String::new()),
                "{shown}"
            ),
        }
    }
}
