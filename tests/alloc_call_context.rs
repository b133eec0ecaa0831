//! Issue 48, "one context per side": what a handler's context costs per call. The same
//! handler logic (it reads the call's id, method and profile) runs registered synchronous
//! under the blocking `Server` and under a `service::Session`, and registered async under a
//! session, while the counting global allocator of `tests/support` adds up what each call
//! allocates on this thread (a current-thread runtime runs the session's tasks here).
//!
//! The bounds are what each way cost before the context was unified (printed with
//! `--nocapture`): one context for both kinds of handler may not cost a synchronous call, or
//! an async one, an allocation more.

use std::sync::Arc;

use mcpwire::service::{AsyncCallContext, Session, Sink};
use mcpwire::{CallContext, Profile, Router, RpcError, Server};
use mcpwire_tests::counting_alloc::{self, CountingAllocator};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Calls counted per way (after as many warm-up calls).
const CALLS: u64 = 200;

/// The allocations (count, bytes) one call may cost at most, per way: the cost measured
/// before the context was unified.
const BLOCKING_SYNC: (u64, u64) = (12, 521);
const SESSION_SYNC: (u64, u64) = (12, 521);
const SESSION_ASYNC: (u64, u64) = (18, 1945);

/// The handler logic both kinds share: the call's id, method and profile, as the result.
fn describe(ctx: &CallContext<'_>) -> String {
    let id = ctx.id().map(|id| id.raw().to_owned());
    format!(
        "{}|{}|{}",
        id.unwrap_or_default(),
        ctx.method(),
        ctx.profile().name()
    )
}

fn router() -> Router<()> {
    Router::new()
        .request("sync", |_: &(), _: (), ctx: &mut CallContext<'_>| {
            Ok::<_, RpcError>(describe(ctx))
        })
        .request_async(
            "async",
            |_: Arc<()>, _: (), ctx: AsyncCallContext| async move {
                Ok::<_, RpcError>(describe(&ctx))
            },
        )
}

/// The request lines of calls `0..2 * CALLS` of `method` and their replies, made before
/// counting starts.
fn exchanges(method: &str) -> Vec<(String, Vec<u8>)> {
    (0..2 * CALLS)
        .map(|id| {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#);
            let reply =
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"{id}|{method}|mcp-2025-11-25"}}"#);
            (line, reply.into_bytes())
        })
        .collect()
}

fn profile() -> Profile {
    Profile::mcp("2025-11-25").expect("MCP 2025-11-25")
}

/// Allocations per call: (count, bytes), over `CALLS` calls of `call` (after `CALLS` warm-up
/// calls). `call(i)` makes call `i` and checks its reply.
async fn per_call<F: AsyncFnMut(u64)>(call: F) -> (u64, u64) {
    counting_alloc::per_call(CALLS, call).await
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime")
}

fn within(way: &str, measured: (u64, u64), bound: (u64, u64)) {
    println!(
        "{way}: {} allocations, {} bytes per call",
        measured.0, measured.1
    );
    assert!(
        measured.0 <= bound.0 && measured.1 <= bound.1,
        "{way}: {measured:?} per call, more than {bound:?}"
    );
}

#[test]
fn a_synchronous_call_under_the_blocking_server_allocates_within_its_bound() {
    let mut server = Server::new(profile(), (), router());
    let exchanges = exchanges("sync");
    let mut out = Vec::with_capacity(256);
    let measured = runtime().block_on(per_call(async |i| {
        let (line, reply) = &exchanges[i as usize];
        out.clear();
        assert!(server.handle_frame_into(line.as_bytes(), &mut out));
        assert_eq!(&out, reply);
    }));
    within("blocking Server, sync handler", measured, BLOCKING_SYNC);
}

/// Feeds `method` calls to a session, one frame at a time, reading each reply.
fn through_a_session(method: &str) -> (u64, u64) {
    runtime().block_on(async {
        let session = Session::new(profile(), (), router());
        let (sink, mut replies) = Sink::channel(4);
        let exchanges = exchanges(method);
        per_call(async |i| {
            let (line, expected) = &exchanges[i as usize];
            session.receive(line.as_bytes(), &sink).await;
            let reply = replies.recv().await.expect("a reply");
            assert!(reply.is_reply());
            assert_eq!(reply.bytes(), expected.as_slice());
        })
        .await
    })
}

#[test]
fn a_synchronous_call_in_a_session_allocates_within_its_bound() {
    within(
        "Session, sync handler",
        through_a_session("sync"),
        SESSION_SYNC,
    );
}

#[test]
fn an_async_call_in_a_session_allocates_within_its_bound() {
    within(
        "Session, async handler",
        through_a_session("async"),
        SESSION_ASYNC,
    );
}
