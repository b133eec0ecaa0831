//! Async serving: what the other side observes on the wire.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire::Router;
use mcpwire::peer::Request;
use mcpwire::service::{self, AsyncCallContext, Options, RequestError, Session};
use mcpwire::{Profile, ProtocolEvent, RpcError};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;

/// A raw client: writes lines to a served session and reads its lines back.
struct Wire {
    input: WriteHalf<DuplexStream>,
    output: Lines<BufReader<ReadHalf<DuplexStream>>>,
    served: JoinHandle<std::io::Result<()>>,
}

const PATIENCE: Duration = Duration::from_secs(10);

impl Wire {
    fn serve<S: Send + Sync + 'static>(session: Session<S>) -> Self {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (their_in, their_out) = tokio::io::split(theirs);
        let (_, served) = service::spawn(session, their_in, their_out);
        let (output, input) = tokio::io::split(ours);
        Self {
            input,
            output: BufReader::new(output).lines(),
            served,
        }
    }

    async fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    async fn recv(&mut self) -> String {
        tokio::time::timeout(PATIENCE, self.output.next_line())
            .await
            .expect("a line in time")
            .unwrap()
            .expect("a line before end of output")
    }

    /// Reads the next lines, which must be exactly `lines`.
    async fn expect(&mut self, lines: &[&str]) {
        for line in lines {
            assert_eq!(self.recv().await, *line);
        }
    }

    /// The `roots/list` request with id 1, then its cancellation with `reason`.
    async fn expect_roots_request_cancelled(&mut self, reason: &str) {
        let cancel = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":1,"reason":"{reason}"}}}}"#
        );
        self.expect(&[r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#, &cancel])
            .await;
    }

    /// Ends the input; returns every line written after that, once the server has returned.
    async fn close(mut self) -> Vec<String> {
        self.input.shutdown().await.unwrap();
        let mut rest = Vec::new();
        while let Some(line) = tokio::time::timeout(PATIENCE, self.output.next_line())
            .await
            .expect("output ends in time")
            .unwrap()
        {
            rest.push(line);
        }
        self.served.await.unwrap().unwrap();
        rest
    }
}

fn ping<S: Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router.request_async("ping", |_: Arc<S>, _: (), _: AsyncCallContext| async {
        Ok::<_, RpcError>(json!({}))
    })
}

fn session<S: Send + Sync + 'static>(state: S, router: Router<S>, options: Options) -> Session<S> {
    Session::with_options(
        Profile::latest_mcp(),
        Arc::new(state),
        ping(router),
        options,
    )
}

#[tokio::test]
async fn a_slow_handler_does_not_block_ping() {
    let router = Router::<Notify>::new().request_async(
        "slow",
        |go: Arc<Notify>, _: (), _: AsyncCallContext| async move {
            go.notified().await;
            Ok::<_, RpcError>("slow done")
        },
    );
    let sess = session(Notify::new(), router, Options::default());
    let go = Arc::clone(sess.state());
    let mut wire = Wire::serve(sess);
    wire.send(r#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#)
        .await;
    wire.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(wire.recv().await, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    go.notify_one();
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":1,"result":"slow done"}"#
    );
    assert!(wire.close().await.is_empty());
}

#[tokio::test]
async fn notifications_and_progress_arrive_before_the_reply() {
    let router = Router::<()>::new().request_async(
        "work",
        |_: Arc<()>, _: Value, ctx: AsyncCallContext| async move {
            ctx.notify_raw(
                "notifications/message",
                &json!({"level": "info", "data": "starting"}),
            )
            .await
            .unwrap();
            let sent = ctx.progress(1.0, Some(2.0), Some("half")).await.unwrap();
            ctx.progress(2.0, Some(2.0), None).await.unwrap();
            Ok::<_, RpcError>(json!({"progress_sent": sent}))
        },
    );
    let mut wire = Wire::serve(session((), router, Options::default()));
    wire.send(r#"{"jsonrpc":"2.0","id":"w","method":"work","params":{"_meta":{"progressToken":"tok-1"}}}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"starting","level":"info"}}"#
    );
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":1.0,"total":2.0,"message":"half"}}"#
    );
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":2.0,"total":2.0}}"#
    );
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":"w","result":{"progress_sent":true}}"#
    );

    // Without a progress token, no progress notification is sent.
    wire.send(r#"{"jsonrpc":"2.0","id":7,"method":"work","params":{}}"#)
        .await;
    assert!(wire.recv().await.contains("notifications/message"));
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":7,"result":{"progress_sent":false}}"#
    );
    assert!(wire.close().await.is_empty());
}

/// A fallback whose own decode reads `_meta` (`Router::fallback_reads_progress_token`): the
/// runtime does not read the params for the token, and the handler gives it.
#[tokio::test]
async fn a_fallback_that_reads_meta_gives_the_context_its_progress_token() {
    let router = Router::<()>::new()
        .fallback_async_decoding(
            |_: Arc<()>, params: Option<mcpwire::RawParams<'_>>, ctx: AsyncCallContext| {
                let params: Value = serde_json::from_str(params.unwrap().get()).unwrap();
                let raw = |text: String| RawValue::from_string(text).unwrap();
                let unread = ctx.progress_token().is_none();
                let array_refused = !ctx.set_progress_token(raw("[1]".into()));
                let taken =
                    ctx.set_progress_token(raw(params["_meta"]["progressToken"].to_string()));
                let second_taken = ctx.set_progress_token(raw("\"other\"".into()));
                Ok(async move {
                    let sent = ctx.progress(1.0, None, None).await.unwrap();
                    let seen = json!({
                        "unread": unread, "array_refused": array_refused, "taken": taken,
                        "second_taken": second_taken, "sent": sent,
                    });
                    Ok(raw(seen.to_string()))
                })
            },
        )
        .fallback_reads_progress_token();
    let mut wire = Wire::serve(session((), router, Options::default()));
    wire.send(
        r#"{"jsonrpc":"2.0","id":1,"method":"work","params":{"_meta":{"progressToken":"tok-2"}}}"#,
    )
    .await;
    wire.expect(&[
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-2","progress":1.0}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"array_refused":true,"second_taken":false,"sent":true,"taken":true,"unread":true}}"#,
    ])
    .await;
    assert!(wire.close().await.is_empty());
}

/// MCP `roots/list`, typed.
struct ListRoots;

#[derive(Debug, Deserialize)]
struct Roots {
    roots: Vec<Root>,
}

#[derive(Debug, Deserialize)]
struct Root {
    uri: String,
}

impl Request for ListRoots {
    const METHOD: &'static str = "roots/list";
    type Params = ();
    type Result = Roots;
}

fn roots_router() -> Router<()> {
    Router::<()>::new().request_async(
        "count_roots",
        |_: Arc<()>, _: (), ctx: AsyncCallContext| async move {
            match ctx.request::<ListRoots>(&()).await {
                Ok(roots) => Ok(json!(
                    roots
                        .roots
                        .iter()
                        .map(|r| r.uri.as_str())
                        .collect::<Vec<_>>()
                )),
                Err(RequestError::InvalidResult(error)) => {
                    Err(RpcError::new(-32000, "bad roots").with_data(&error.pointer))
                }
                Err(RequestError::Timeout) => Err(RpcError::new(-32001, "timeout")),
                Err(other) => Err(RpcError::new(-32002, other.to_string())),
            }
        },
    )
}

#[tokio::test]
async fn a_server_to_client_request_gets_its_typed_result() {
    let mut wire = Wire::serve(session((), roots_router(), Options::default()));
    wire.send(r#"{"jsonrpc":"2.0","id":10,"method":"count_roots"}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#
    );
    wire.send(
        r#"{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}}"#,
    )
    .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":10,"result":["file:///a","file:///b"]}"#
    );

    // A result of the wrong shape: the handler learns where.
    wire.send(r#"{"jsonrpc":"2.0","id":11,"method":"count_roots"}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":2,"method":"roots/list"}"#
    );
    wire.send(r#"{"jsonrpc":"2.0","id":2,"result":{"roots":[{"uri":5}]}}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":11,"error":{"code":-32000,"message":"bad roots","data":"/roots/0/uri"}}"#
    );
    assert!(wire.close().await.is_empty());
}

#[tokio::test]
async fn a_request_that_times_out_is_cancelled_and_its_late_response_reported() {
    let options = Options {
        request_timeout: Some(Duration::from_millis(50)),
        ..Options::default()
    };
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let router = roots_router().on_event(move |_, event| seen.lock().unwrap().push(event));
    let mut wire = Wire::serve(session((), router, options));
    wire.send(r#"{"jsonrpc":"2.0","id":"t","method":"count_roots"}"#)
        .await;
    wire.expect_roots_request_cancelled("timed out").await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":"t","error":{"code":-32001,"message":"timeout"}}"#
    );
    wire.send(r#"{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}"#)
        .await;
    assert!(wire.close().await.is_empty());
    let events = events.lock().unwrap();
    assert!(
        matches!(&events[..], [ProtocolEvent::Result { id, .. }] if id.raw() == "1"),
        "{events:?}"
    );
}

#[tokio::test]
async fn cancellation_fires_the_token_and_suppresses_the_reply() {
    let (told, mut cancelled) = mpsc::channel::<String>(4);
    let router = Router::<mpsc::Sender<String>>::new().request_async(
        "wait",
        |told: Arc<mpsc::Sender<String>>, _: (), ctx: AsyncCallContext| async move {
            ctx.cancelled().await;
            told.send(ctx.id().unwrap().raw().to_owned()).await.unwrap();
            Ok::<_, RpcError>("finished anyway")
        },
    );
    let mut wire = Wire::serve(session(told, router, Options::default()));
    wire.send(r#"{"jsonrpc":"2.0","id":5,"method":"wait"}"#)
        .await;
    wire.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"changed my mind"}}"#)
        .await;
    let which = tokio::time::timeout(PATIENCE, cancelled.recv())
        .await
        .unwrap();
    assert_eq!(which.as_deref(), Some("5"));
    wire.send(r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#)
        .await;
    assert_eq!(wire.recv().await, r#"{"jsonrpc":"2.0","id":6,"result":{}}"#);
    assert!(
        wire.close().await.is_empty(),
        "no reply for the cancelled request"
    );
}

#[tokio::test]
async fn end_of_input_lets_handlers_in_flight_finish_and_flush() {
    let router = Router::<Notify>::new().request_async(
        "slow",
        |go: Arc<Notify>, N { n }: N, ctx: AsyncCallContext| async move {
            go.notified().await;
            ctx.notify_raw(
                "notifications/message",
                &json!({"level": "info", "data": n}),
            )
            .await
            .unwrap();
            Ok::<_, RpcError>(n)
        },
    );
    let sess = session(Notify::new(), router, Options::default());
    let go = Arc::clone(sess.state());
    let mut wire = Wire::serve(sess);
    wire.send(r#"{"jsonrpc":"2.0","id":1,"method":"slow","params":{"n":"x"}}"#)
        .await;
    wire.send(r#"{"jsonrpc":"2.0","id":2,"method":"slow","params":{"n":7}}"#)
        .await;
    // Id 1's params are invalid: answered at once, without running the handler.
    assert!(
        wire.recv()
            .await
            .starts_with(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602"#)
    );
    let release = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        go.notify_one();
    });
    let rest = wire.close().await;
    release.await.unwrap();
    assert_eq!(
        rest,
        [
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":7,"level":"info"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":7}"#,
        ]
    );
}

/// Params `{"n": <u32>}`.
#[derive(Deserialize)]
struct N {
    n: u32,
}

async fn next_start(starts: &mut mpsc::Receiver<u32>) -> u32 {
    tokio::time::timeout(PATIENCE, starts.recv())
        .await
        .expect("a start in time")
        .unwrap()
}

#[tokio::test]
async fn concurrency_is_bounded() {
    struct Gate {
        started: mpsc::Sender<u32>,
        go: tokio::sync::Semaphore,
    }
    let (started, mut starts) = mpsc::channel(8);
    let router = Router::<Gate>::new().request_async(
        "block",
        |gate: Arc<Gate>, N { n }: N, _: AsyncCallContext| async move {
            gate.started.send(n).await.unwrap();
            gate.go.acquire().await.unwrap().forget();
            Ok::<_, RpcError>(n)
        },
    );
    let options = Options {
        max_concurrency: 2,
        ..Options::default()
    };
    let gate = Gate {
        started,
        go: tokio::sync::Semaphore::new(0),
    };
    let sess = session(gate, router, options);
    let observer = sess.clone();
    let mut wire = Wire::serve(sess);
    for n in 1..=3 {
        wire.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"block","params":{{"n":{n}}}}}"#
        ))
        .await;
    }
    let mut first = vec![next_start(&mut starts).await, next_start(&mut starts).await];
    first.sort_unstable();
    assert_eq!(first, [1, 2]);
    assert_eq!(observer.running(), 2);
    // The third waits for a free place: it does not start while two run.
    assert!(
        tokio::time::timeout(Duration::from_millis(100), starts.recv())
            .await
            .is_err()
    );
    observer.state().go.add_permits(1);
    assert_eq!(next_start(&mut starts).await, 3);
    observer.state().go.add_permits(2);
    let mut replies = vec![wire.recv().await, wire.recv().await, wire.recv().await];
    replies.sort();
    assert_eq!(
        replies,
        [
            r#"{"jsonrpc":"2.0","id":1,"result":1}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":2}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":3}"#,
        ]
    );
    assert!(wire.close().await.is_empty());
}

#[tokio::test]
async fn a_panicking_handler_is_answered_internal_error_and_the_session_goes_on() {
    let router = Router::<AtomicUsize>::new()
        .request_async(
            "boom",
            |_: Arc<AtomicUsize>, _: (), _: AsyncCallContext| async move {
                if true {
                    panic!("handler bug");
                }
                Ok::<_, RpcError>(())
            },
        )
        .notification_async(
            "boom/note",
            |_: Arc<AtomicUsize>, _: (), _: AsyncCallContext| async move {
                panic!("notification bug");
            },
        )
        .notification_async(
            "count",
            |n: Arc<AtomicUsize>, _: (), _: AsyncCallContext| async move {
                n.fetch_add(1, Ordering::SeqCst);
            },
        );
    let sess = session(AtomicUsize::new(0), router, Options::default());
    let counter = sess.clone();
    let mut wire = Wire::serve(sess);
    wire.send(r#"{"jsonrpc":"2.0","id":"b","method":"boom"}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":"b","error":{"code":-32603,"message":"Internal error"}}"#
    );
    wire.send(r#"{"jsonrpc":"2.0","method":"boom/note"}"#).await;
    wire.send(r#"{"jsonrpc":"2.0","method":"count"}"#).await;
    wire.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .await;
    assert_eq!(wire.recv().await, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert!(wire.close().await.is_empty());
    assert_eq!(counter.state().load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn invalid_input_and_invalid_notifications() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let router = Router::<()>::new()
        .notification_async(
            "note",
            |_: Arc<()>, _: HashMap<String, u8>, _: AsyncCallContext| async {},
        )
        .on_event(move |_, event| seen.lock().unwrap().push(event));
    let mut wire = Wire::serve(session((), router, Options::default()));
    wire.send("{").await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#
    );
    wire.send(r#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}"#
    );
    wire.send(r#"{"jsonrpc":"2.0","method":"note","params":{"level":"x"}}"#)
        .await;
    let rest = wire.close().await;
    assert!(rest.is_empty(), "{rest:?}");
    let events = events.lock().unwrap();
    let [ProtocolEvent::InvalidNotification { method, error }] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!((method.as_str(), error.code()), ("note", -32602));
    assert!(
        error
            .data()
            .unwrap()
            .get()
            .contains(r#""pointer":"/level""#)
    );
}

#[tokio::test]
async fn negotiate_switches_the_profile_keeping_the_policy() {
    let router = Router::<()>::new().request_async(
        "initialize",
        |_: Arc<()>, _: Value, ctx: AsyncCallContext| async move {
            let agreed = ctx.negotiate(Profile::mcp("2025-03-26").unwrap().facts());
            Ok::<_, RpcError>(agreed.name())
        },
    );
    let start = Profile::latest_mcp().with_max_frame_bytes(200);
    let sess = Session::with_options(start, Arc::new(()), ping(router), Options::default());
    let observer = sess.clone();
    let mut wire = Wire::serve(sess);
    wire.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        .await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":1,"result":"mcp-2025-03-26"}"#
    );
    assert_eq!(observer.profile().limits().max_frame_bytes, 200);
    // 2025-03-26 has batches; the batch's replies come back as one array.
    wire.send(
        r#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]"#,
    )
    .await;
    assert_eq!(
        wire.recv().await,
        r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}}]"#
    );
    // The kept limit still applies.
    wire.send(&format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(300)
    ))
    .await;
    // 2025-03-26 requires "id":null in an error without an id (the user chose no spelling).
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#
    );
    assert!(wire.close().await.is_empty());
}

#[tokio::test]
async fn an_in_process_client_and_server_talk_both_ways() {
    // The client answers the server's roots/list and counts the server's notifications.
    let notes = Arc::new(AtomicUsize::new(0));
    let client_router = Router::<AtomicUsize>::new()
        .request_async(
            "roots/list",
            |_: Arc<AtomicUsize>, _: (), _: AsyncCallContext| async {
                Ok::<_, RpcError>(json!({"roots": [{"uri": "file:///work"}]}))
            },
        )
        .notification_async(
            "notifications/message",
            |n: Arc<AtomicUsize>, _: Value, _: AsyncCallContext| async move {
                n.fetch_add(1, Ordering::SeqCst);
            },
        );
    let server_router = roots_router().request_async(
        "tell",
        |_: Arc<()>, _: (), ctx: AsyncCallContext| async move {
            ctx.notify_raw(
                "notifications/message",
                &json!({"level": "info", "data": 1}),
            )
            .await
            .unwrap();
            Ok::<_, RpcError>("told")
        },
    );
    let server = session((), server_router, Options::default());
    let client = Session::with_options(
        Profile::latest_mcp(),
        Arc::clone(&notes),
        client_router,
        Options::default(),
    );

    let (client_io, server_io) = tokio::io::duplex(4096);
    let (server_in, server_out) = tokio::io::split(server_io);
    let (client_in, client_out) = tokio::io::split(client_io);
    let (_, served) = service::spawn(server, server_in, server_out);
    let (to_server, connection) = service::spawn(client.clone(), client_in, client_out);

    let roots = to_server.request_raw("count_roots", &()).await.unwrap();
    assert_eq!(roots.get(), r#"["file:///work"]"#);
    let told = to_server.request_raw("tell", &()).await.unwrap();
    assert_eq!(told.get(), r#""told""#);
    // The notification was read before the reply that followed it.
    assert_eq!(notes.load(Ordering::SeqCst), 1);
    let refused = to_server
        .request_raw("missing", &json!({}))
        .await
        .unwrap_err();
    assert_eq!(refused, RequestError::Rpc(RpcError::method_not_found()));

    // The client hangs up: both sides finish and return.
    client.close();
    connection.await.unwrap().unwrap();
    served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_request_the_handler_stops_waiting_for_is_cancelled_on_the_wire() {
    let router = Router::<()>::new().request_async(
        "impatient",
        |_: Arc<()>, _: (), ctx: AsyncCallContext| async move {
            tokio::select! {
                _ = ctx.request::<ListRoots>(&()) => Ok::<_, RpcError>("answered"),
                _ = tokio::time::sleep(Duration::from_millis(20)) => Ok("gave up"),
            }
        },
    );
    let mut wire = Wire::serve(session((), router, Options::default()));
    wire.send(r#"{"jsonrpc":"2.0","id":1,"method":"impatient"}"#)
        .await;
    wire.expect_roots_request_cancelled("abandoned").await;
    assert_eq!(
        wire.recv().await,
        r#"{"jsonrpc":"2.0","id":1,"result":"gave up"}"#
    );
    assert!(wire.close().await.is_empty());
}

#[tokio::test]
async fn a_per_request_transport_gets_each_frames_output_on_its_own_sink() {
    use mcpwire::service::{Outgoing, Sink};

    let router = Router::<()>::new().request_async(
        "work",
        |_: Arc<()>, _: Value, ctx: AsyncCallContext| async move {
            ctx.notify_raw(
                "notifications/message",
                &json!({"level": "info", "data": "w"}),
            )
            .await
            .unwrap();
            Ok::<_, RpcError>("done")
        },
    );
    let sess = session((), router, Options::default());
    let mut unsolicited = sess.take_unsolicited().expect("not taken yet");
    assert!(sess.take_unsolicited().is_none());

    // One frame, one sink: its notification, then its reply; then the stream ends.
    let (sink, mut stream) = Sink::channel(8);
    sess.receive(br#"{"jsonrpc":"2.0","id":1,"method":"work"}"#, &sink)
        .await;
    drop(sink);
    let mut lines = Vec::new();
    while let Some(item) = tokio::time::timeout(PATIENCE, stream.recv()).await.unwrap() {
        lines.push((
            item.is_reply(),
            String::from_utf8(item.into_bytes()).unwrap(),
        ));
    }
    assert_eq!(
        lines,
        [
            (
                false,
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"w","level":"info"}}"#.to_owned()
            ),
            (true, r#"{"jsonrpc":"2.0","id":1,"result":"done"}"#.to_owned()),
        ]
    );

    // A frame that needs no reply: its stream ends empty.
    let (sink, mut stream) = Sink::channel(8);
    sess.receive(
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &sink,
    )
    .await;
    drop(sink);
    assert_eq!(
        tokio::time::timeout(PATIENCE, stream.recv()).await.unwrap(),
        None
    );

    // What is not tied to a call goes to the session-wide stream.
    sess.handle()
        .notify_raw("notifications/tools/list_changed", &())
        .await
        .unwrap();
    assert_eq!(
        unsolicited.recv().await.unwrap(),
        Outgoing::Message(
            br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.to_vec()
        )
    );
    sess.finish().await;
}

#[tokio::test]
async fn frames_after_initialize_are_read_under_the_version_it_agrees() {
    let router = Router::<()>::new().request_async(
        "initialize",
        |_: Arc<()>, _: Value, ctx: AsyncCallContext| async move {
            // Slow on purpose: the next frame is already waiting when the version switches.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let agreed = ctx.negotiate(Profile::mcp("2025-06-18").unwrap().facts());
            Ok::<_, RpcError>(agreed.name())
        },
    );
    let mut wire = Wire::serve(session((), router, Options::default()));
    // Both frames in one write: the second arrives before the first is answered.
    wire.send(concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
    ))
    .await;
    // 2026-07-28 (the start) omits an unreadable id; 2025-06-18 (agreed) writes `null`.
    wire.expect(&[
        r#"{"jsonrpc":"2.0","id":1,"result":"mcp-2025-06-18"}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
    ])
    .await;
    assert!(wire.close().await.is_empty());
}

/// Issue 33, item 8: when the input ends (the client exited) the handlers in flight are
/// cancelled, and serving ends once they have finished, or after the grace period for one
/// that ignores its token.
#[tokio::test]
async fn end_of_input_cancels_handlers_and_serving_ends_within_the_grace_period() {
    let (seen, mut cancelled) = mpsc::unbounded_channel::<&'static str>();
    let router = || {
        Router::<mpsc::UnboundedSender<&'static str>>::new()
        .request_async(
            "polite",
            |seen: Arc<mpsc::UnboundedSender<&'static str>>, _: (), ctx: AsyncCallContext| async move {
                let _ = seen.send("started");
                if tokio::time::timeout(Duration::from_secs(30), ctx.cancelled())
                    .await
                    .is_ok()
                {
                    let _ = seen.send("cancelled");
                }
                Ok::<_, RpcError>(json!({}))
            },
        )
        .request_async(
            "stubborn",
            |seen: Arc<mpsc::UnboundedSender<&'static str>>, _: (), _: AsyncCallContext| async move {
                let _ = seen.send("started");
                tokio::time::sleep(Duration::from_secs(30)).await;
                Ok::<_, RpcError>(json!({}))
            },
        )
    };
    let options = Options {
        end_of_input_grace: Duration::from_millis(2_000),
        ..Options::default()
    };
    // The polite one ends well before the grace, the stubborn one at the grace, not at its 30 s.
    for (method, bound) in [("polite", 1_500), ("stubborn", 10_000)] {
        let mut wire = Wire::serve(session(seen.clone(), router(), options));
        wire.send(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{method}"}}"#
        ))
        .await;
        assert_eq!(cancelled.recv().await, Some("started"));
        let ended = std::time::Instant::now();
        let _ = tokio::time::timeout(Duration::from_secs(15), wire.close())
            .await
            .expect("serving ends once the input has ended");
        assert!(
            ended.elapsed() < Duration::from_millis(bound),
            "{method}: {:?}",
            ended.elapsed()
        );
        if method == "polite" {
            assert_eq!(cancelled.recv().await, Some("cancelled"));
        } else {
            assert!(ended.elapsed() >= Duration::from_millis(2_000));
        }
    }
}

/// Records what an [`service::Observer`] is told, as text.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl service::Observer for Seen {
    fn event(&self, event: &mcpwire::peer::Event<'_>) {
        use mcpwire::peer::Event;
        let seen = match event {
            Event::Response { id, .. } => format!("response {id}"),
            Event::LateResponse { id, .. } => format!("late {id}"),
            Event::UnmatchedResponse(response) => {
                format!("unmatched {}", response.id.map_or("-", |id| id.raw()))
            }
            Event::Notification(notification) => format!("notification {}", notification.method),
            other => format!("other {other:?}"),
        };
        self.0.lock().unwrap().push(seen);
    }

    fn answered_at_once(&self, frame: &[u8], with_events: bool) {
        let frame = String::from_utf8_lossy(frame);
        self.0
            .lock()
            .unwrap()
            .push(format!("answered at once {frame} {with_events}"));
    }
}

#[tokio::test]
async fn an_observer_sees_each_event_and_the_frames_answered_at_once() {
    use mcpwire::service::Sink;

    // 2025-03-26 takes batches: one frame may hold valid and invalid messages.
    let profile = Profile::mcp("2025-03-26").unwrap();
    let session = Session::new(profile, (), Router::new());
    let seen = Seen::default();
    assert!(session.observe(seen.clone()));
    assert!(!session.observe(Seen::default()), "one observer");
    let (sink, mut replies) = Sink::channel(8);
    for frame in [
        "not json",
        r#"{"jsonrpc":"2.0","id":"7","result":{}}"#,
        r#"[{"jsonrpc":"2.0","method":"notifications/x"},5]"#,
    ] {
        session.receive(frame.as_bytes(), &sink).await;
    }
    assert_eq!(
        *seen.0.lock().unwrap(),
        [
            "answered at once not json false",
            r#"unmatched "7""#,
            "notification notifications/x",
            r#"answered at once [{"jsonrpc":"2.0","method":"notifications/x"},5] true"#,
        ]
    );
    // What the other side reads is unchanged: the parse error, the batch's invalid element.
    let first = replies.recv().await.unwrap();
    assert!(String::from_utf8_lossy(first.bytes()).contains("-32700"));
    let second = replies.recv().await.unwrap();
    assert!(String::from_utf8_lossy(second.bytes()).contains("-32600"));
    assert!(replies.try_recv().is_err(), "nothing else is sent");
}

#[tokio::test]
async fn a_request_the_caller_sends_itself_is_answered_through_the_session() {
    use mcpwire::peer::Ping;
    use mcpwire::service::{Outgoing, Sink};

    let session = Session::new(Profile::latest_mcp(), (), Router::new());
    let seen = Seen::default();
    session.observe(seen.clone());
    let mut unsolicited = session.take_unsolicited().unwrap();
    let (sink, _replies) = Sink::channel(8);
    let handle = session.handle();

    // Answered: the response reaches the caller, who sent the frame itself.
    let mut answered = handle.start::<Ping>(&()).unwrap();
    let answered_id = answered.id;
    let frame: Value = serde_json::from_slice(&answered.frame).unwrap();
    assert_eq!(frame["method"], "ping");
    let id = frame["id"].clone();
    let response = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
    session.receive(response.as_bytes(), &sink).await;
    let result = (&mut answered.response).await.unwrap();
    assert!(result.downcast::<serde_json::Map<String, Value>>().is_ok());
    answered.guard.settle();
    drop(answered);
    assert!(
        unsolicited.try_recv().is_err(),
        "a settled request sends nothing"
    );

    // Cancelled by the caller: the cancellation is handed back, its response is late.
    let mut cancelled = handle.start::<Ping>(&()).unwrap();
    let id = cancelled.id;
    let cancelled_id = id;
    let line = cancelled.guard.cancel("stop").expect("a cancellation");
    let line: Value = serde_json::from_slice(&line).unwrap();
    assert_eq!(line["method"], "notifications/cancelled");
    assert_eq!(line["params"]["requestId"], json!(id.get()));
    assert_eq!(line["params"]["reason"], "stop");
    let late = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
    session.receive(late.as_bytes(), &sink).await;
    assert_eq!(
        (&mut cancelled.response).await.unwrap_err(),
        RequestError::Closed
    );
    drop(cancelled);
    assert!(
        unsolicited.try_recv().is_err(),
        "cancelled once, by the caller"
    );

    // Dropped while armed: the guard sends the cancellation to the session-wide sink.
    let dropped = handle.start::<Ping>(&()).unwrap();
    let id = dropped.id;
    drop(dropped);
    match unsolicited.try_recv().unwrap() {
        Outgoing::Message(line) => {
            let line: Value = serde_json::from_slice(&line).unwrap();
            assert_eq!(line["params"]["requestId"], json!(id.get()));
            assert_eq!(line["params"]["reason"], "abandoned");
        }
        other => panic!("a cancellation, not {other:?}"),
    }

    // Forgotten (the transport knows no response will come): no cancellation is sent.
    let forgotten = handle.start::<Ping>(&()).unwrap();
    handle.forget(forgotten.id);
    assert_eq!(forgotten.response.await.unwrap_err(), RequestError::Closed);
    assert!(unsolicited.try_recv().is_err());

    assert_eq!(
        *seen.0.lock().unwrap(),
        [
            format!("response {answered_id}"),
            format!("late {cancelled_id}")
        ]
    );
}
