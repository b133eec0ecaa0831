//! Issue 48, "one context per side": a handler sees its call through one [`CallContext`],
//! registered synchronous or async, and a switch of the profile takes effect at the same
//! point for both: from the frame after the one that carried the call, the rest of a batch
//! finished under the profile it was decoded under. Observed as bytes on the wire.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire::service::{AsyncCallContext, Session, Sink, SinkReceiver};
use mcpwire::{CallContext, Profile, Router, RpcError, Server};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// The handlers' state: what the notification handlers saw, and the release of `held`.
#[derive(Default)]
struct Seen {
    notes: Mutex<Vec<Value>>,
    release: Notify,
}

/// The handler logic both registrations share: what the context says of the call.
fn describe(ctx: &CallContext<'_>) -> Value {
    json!({
        "id": ctx.id().map(|id| id.raw().to_owned()),
        "notification": ctx.is_notification(),
        "method": ctx.method(),
        "profile": ctx.profile().name(),
        "depth": ctx.profile().limits().max_params_depth,
    })
}

/// `initialize`'s logic: switches to MCP 2025-03-26 with params at most 2 deep, and says
/// what the call was decoded under.
fn switch(ctx: &CallContext<'_>) -> Value {
    let agreed = ctx.negotiate(Profile::mcp("2025-03-26").unwrap().facts());
    // The last switch before the frame's end wins.
    ctx.set_profile(agreed.with_max_params_depth(2));
    describe(ctx)
}

fn raw(value: Value) -> Box<RawValue> {
    RawValue::from_string(value.to_string()).expect("JSON")
}

fn sync_router() -> Router<Seen> {
    Router::new()
        .request(
            "initialize",
            |_: &Seen, _: Value, ctx: &mut CallContext<'_>| Ok::<_, RpcError>(switch(ctx)),
        )
        .request("probe", |_: &Seen, _: Value, ctx: &mut CallContext<'_>| {
            Ok::<_, RpcError>(describe(ctx))
        })
        // A synchronous handler cannot wait for its release: it answers at once.
        .request("held", |_: &Seen, _: Value, ctx: &mut CallContext<'_>| {
            Ok::<_, RpcError>(describe(ctx))
        })
        .notification(
            "note",
            |seen: &Seen, _: Value, ctx: &mut CallContext<'_>| {
                seen.notes.lock().unwrap().push(describe(ctx));
            },
        )
        .notification("release", |_: &Seen, _: Value, _: &mut CallContext<'_>| {})
        .fallback(|_: &Seen, _, ctx: &mut CallContext<'_>| Ok(raw(describe(ctx))))
}

fn async_router() -> Router<Seen> {
    Router::new()
        .request_async(
            "initialize",
            |_: Arc<Seen>, _: Value, ctx: AsyncCallContext| async move {
                Ok::<_, RpcError>(switch(&ctx))
            },
        )
        .request_async(
            "probe",
            |_: Arc<Seen>, _: Value, ctx: AsyncCallContext| async move {
                Ok::<_, RpcError>(describe(&ctx))
            },
        )
        // Answers once released, after later frames switched the profile.
        .request_async(
            "held",
            |seen: Arc<Seen>, _: Value, ctx: AsyncCallContext| async move {
                seen.release.notified().await;
                Ok::<_, RpcError>(describe(&ctx))
            },
        )
        .notification_async(
            "note",
            |seen: Arc<Seen>, _: Value, ctx: AsyncCallContext| async move {
                seen.notes.lock().unwrap().push(describe(&ctx));
            },
        )
        .notification_async(
            "release",
            |seen: Arc<Seen>, _: Value, _: AsyncCallContext| async move {
                seen.release.notify_one();
            },
        )
        .fallback_async(
            |_: Arc<Seen>, _, ctx: AsyncCallContext| async move { Ok(raw(describe(&ctx))) },
        )
}

/// A session fed one frame at a time, its replies read from the frames' sink.
struct Fed {
    session: Session<Seen>,
    sink: Sink,
    replies: SinkReceiver,
}

impl Fed {
    fn new(router: Router<Seen>) -> Self {
        let session = Session::new(Profile::jsonrpc_2_0(), Seen::default(), router);
        let (sink, replies) = Sink::channel(8);
        Self {
            session,
            sink,
            replies,
        }
    }

    /// Feeds `frame`.
    async fn feed(&mut self, frame: &str) {
        self.session.receive(frame.as_bytes(), &self.sink).await;
    }

    /// The replies to `frames`, each read before the next frame is fed.
    async fn exchange(&mut self, frames: &[&str]) -> Vec<String> {
        let mut replies = Vec::new();
        for frame in frames {
            self.feed(frame).await;
            replies.push(self.reply().await);
        }
        replies
    }

    /// The next reply.
    async fn reply(&mut self) -> String {
        let reply = tokio::time::timeout(Duration::from_secs(10), self.replies.recv())
            .await
            .expect("a reply in time")
            .expect("a reply");
        assert!(reply.is_reply());
        String::from_utf8(reply.into_bytes()).unwrap()
    }

    /// What the notification handlers saw, once `n` of them have run.
    async fn notes(&self, n: usize) -> Vec<Value> {
        for _ in 0..1000 {
            let notes = self.session.state().notes.lock().unwrap().clone();
            if notes.len() >= n {
                return notes;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("the notification handlers did not run");
    }
}

/// Frames whose calls read their id, method and profile, one of them answered (async)
/// after later frames switched the profile; six are answered.
const READS: [&str; 8] = [
    r#"{"jsonrpc":"2.0","id":"a\"b","method":"probe"}"#,
    r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"probe","params":[[[1]]]}"#,
    r#"{"jsonrpc":"2.0","method":"note","params":{}}"#,
    r#"{"jsonrpc":"2.0","id":1e3,"method":"other/thing"}"#,
    r#"[{"jsonrpc":"2.0","id":-0,"method":"held"},{"jsonrpc":"2.0","method":"note"}]"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"initialize"}"#,
    r#"{"jsonrpc":"2.0","method":"release"}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"probe"}"#,
];

/// The replies to [`READS`], in the order they came, and the notes taken.
async fn transcript(router: Router<Seen>) -> (Vec<String>, Vec<Value>) {
    let mut fed = Fed::new(router);
    for frame in READS {
        fed.feed(frame).await;
    }
    let mut replies = Vec::new();
    for _ in 0..6 {
        replies.push(fed.reply().await);
    }
    let notes = fed.notes(2).await;
    (replies, notes)
}

#[tokio::test]
async fn the_same_handler_logic_reads_the_call_alike_sync_and_async() {
    let (sync_replies, sync_notes) = transcript(sync_router()).await;
    let (mut async_replies, async_notes) = transcript(async_router()).await;
    let depth = Profile::jsonrpc_2_0().limits().max_params_depth;
    let said = |id: &str, method: &str| json!({"id": id, "notification": false, "method": method, "profile": "jsonrpc-2.0", "depth": depth});
    let expected = [
        json!({"jsonrpc": "2.0", "id": "a\"b", "result": said(r#""a\"b""#, "probe")}),
        json!({"jsonrpc": "2.0", "id": 9007199254740993_u64, "result": said("9007199254740993", "probe")}),
        json!({"jsonrpc": "2.0", "id": 1000.0, "result": said("1e3", "other/thing")}),
        // Decoded before the switch: told the profile it was decoded under, also when it
        // answers after the switch (the async registration does).
        json!([{"jsonrpc": "2.0", "id": -0.0, "result": said("-0", "held")}]),
        json!({"jsonrpc": "2.0", "id": 6, "result": said("6", "initialize")}),
        json!({"jsonrpc": "2.0", "id": 8, "result": {"id": "8", "notification": false, "method": "probe", "profile": "mcp-2025-03-26", "depth": 2}}),
    ];
    assert_eq!(sync_replies.len(), expected.len());
    for (reply, expected) in sync_replies.iter().zip(&expected) {
        assert_eq!(&serde_json::from_str::<Value>(reply).unwrap(), expected);
    }
    // The ids come back with their own text, read by the handler as sent.
    assert!(sync_replies[2].starts_with(r#"{"jsonrpc":"2.0","id":1e3,"#));
    assert!(sync_replies[3].starts_with(r#"[{"jsonrpc":"2.0","id":-0,"#));
    // The async registration answers the same bytes (the held call later).
    let held = async_replies.remove(
        async_replies
            .iter()
            .position(|reply| reply.contains(r#""held""#))
            .expect("held is answered"),
    );
    async_replies.insert(3, held);
    assert_eq!(async_replies, sync_replies);
    let note = json!({"id": null, "notification": true, "method": "note", "profile": "jsonrpc-2.0", "depth": depth});
    assert_eq!(sync_notes, [note.clone(), note]);
    assert_eq!(async_notes, sync_notes);
}

/// The switch: a batch whose `initialize` switches the profile, then the frame after it.
const SWITCH: [&str; 3] = [
    r#"[{"jsonrpc":"2.0","id":1,"method":"initialize"},{"jsonrpc":"2.0","id":2,"method":"probe","params":{"a":{"b":{}}}}]"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"probe","params":{"a":{"b":{}}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"probe"}"#,
];

/// What the three frames of [`SWITCH`] are answered, with whatever kind of handler.
fn switched_replies() -> [String; 3] {
    let depth = Profile::jsonrpc_2_0().limits().max_params_depth;
    let old = |id: u32, method: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"depth":{depth},"id":"{id}","method":"{method}","notification":false,"profile":"jsonrpc-2.0"}}}}"#
        )
    };
    [
        // The rest of the batch is finished under the profile it was decoded under: the
        // probe's deep params decode, and it is told the old profile.
        format!("[{},{}]", old(1, "initialize"), old(2, "probe")),
        // The next frame is read under the new one: its params are too deep.
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"","reason":"params nested 3 deep exceed the limit of 2"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":4,"result":{"depth":2,"id":"4","method":"probe","notification":false,"profile":"mcp-2025-03-26"}}"#.to_owned(),
    ]
}

#[tokio::test]
async fn a_switch_in_a_batch_applies_from_the_next_frame_for_sync_handlers() {
    let replies = Fed::new(sync_router()).exchange(&SWITCH).await;
    assert_eq!(replies, switched_replies());
    // The blocking server, the same session driven in place, answers the same.
    let mut server = Server::new(Profile::jsonrpc_2_0(), Seen::default(), sync_router());
    let blocking: Vec<String> = SWITCH
        .iter()
        .map(|frame| String::from_utf8(server.handle_frame(frame.as_bytes()).unwrap()).unwrap())
        .collect();
    assert_eq!(blocking, switched_replies());
}

#[tokio::test]
async fn a_switch_in_a_batch_applies_from_the_next_frame_for_async_handlers() {
    let replies = Fed::new(async_router()).exchange(&SWITCH).await;
    assert_eq!(replies, switched_replies());
}

/// Over Streamable HTTP, what the transport attached to a POST (the [`Caller`] a guard
/// identified) reaches a synchronous handler as it reaches an async one.
#[cfg(feature = "http")]
mod over_http {
    use super::*;
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper::{HeaderMap, Method, Request, Uri};
    use mcpwire::http::{
        AsyncServer, Caller, Gate, Guard, GuardFuture, HttpConfig, HttpService, McpEndpoint,
        SyncServer,
    };
    use tower_service::Service;

    /// Lets every request through, the caller named by its `X-Who` header.
    struct Named;

    impl Guard for Named {
        fn check<'a>(
            &'a self,
            _: &'a Method,
            _: &'a Uri,
            headers: &'a HeaderMap,
        ) -> GuardFuture<'a> {
            let subject = headers
                .get("x-who")
                .and_then(|who| who.to_str().ok())
                .unwrap_or("nobody")
                .to_owned();
            let caller = Caller {
                subject,
                details: Arc::new(()),
            };
            Box::pin(async move { Gate::Pass(Some(caller)) })
        }
    }

    /// The handler logic both registrations share: who sent the call's POST.
    fn who(ctx: &CallContext<'_>) -> Value {
        json!(
            ctx.attachment::<Caller>()
                .map(|caller| caller.subject.clone())
        )
    }

    fn sync_server() -> Server<()> {
        let router = Router::new()
            .request("initialize", |_: &(), _: Value, _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(json!({}))
            })
            .request("who", |_: &(), _: Value, ctx: &mut CallContext<'_>| {
                Ok::<_, RpcError>(who(ctx))
            });
        Server::new(Profile::jsonrpc_2_0(), (), router)
    }

    fn async_session() -> Session<()> {
        let router = Router::new()
            .request_async(
                "initialize",
                |_: Arc<()>, _: Value, _: AsyncCallContext| async { Ok::<_, RpcError>(json!({})) },
            )
            .request_async(
                "who",
                |_: Arc<()>, _: Value, ctx: AsyncCallContext| async move {
                    Ok::<_, RpcError>(who(&ctx))
                },
            );
        Session::new(Profile::jsonrpc_2_0(), (), router)
    }

    /// POSTs `body` as `who` (in the session `session`); the answer's body and session id.
    async fn post<S: HttpService>(
        endpoint: &mut McpEndpoint<S>,
        who: &str,
        session: Option<&str>,
        body: &str,
    ) -> (String, Option<String>) {
        let mut request = Request::post("/mcp")
            .header("Host", "localhost:8080")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("X-Who", who);
        if let Some(session) = session {
            request = request.header("Mcp-Session-Id", session);
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_owned())))
            .unwrap();
        std::future::poll_fn(|cx| Service::<Request<Full<Bytes>>>::poll_ready(endpoint, cx))
            .await
            .unwrap();
        let response = endpoint.call(request).await.unwrap();
        let session = response
            .headers()
            .get("mcp-session-id")
            .map(|id| id.to_str().unwrap().to_owned());
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (String::from_utf8(bytes.to_vec()).unwrap(), session)
    }

    /// Opens a session as `alice` and asks who sent a call of it.
    async fn ask<S: HttpService>(service: S) -> String {
        let mut endpoint = McpEndpoint::new(HttpConfig::default().guard(Named), service);
        let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        let (_, session) = post(&mut endpoint, "alice", None, initialize).await;
        let session = session.expect("a session");
        let call = r#"{"jsonrpc":"2.0","id":2,"method":"who"}"#;
        post(&mut endpoint, "alice", Some(&session), call).await.0
    }

    #[tokio::test]
    async fn a_posts_caller_reaches_sync_and_async_handlers_alike() {
        let expected = r#"{"jsonrpc":"2.0","id":2,"result":"alice"}"#;
        assert_eq!(ask(SyncServer::new(sync_server)).await, expected);
        assert_eq!(ask(AsyncServer::new(async_session)).await, expected);
    }
}
