//! What the transport offers for several processes behind one endpoint, seen as raw HTTP/1.1:
//! `GET /healthz` from a health check (200 up, 503 down, 403 with an `Origin`, 404 without a
//! check); session ids tagged for the load balancer; and a GET with `Last-Event-ID` at a
//! server that does not hold the session, served from an event store the servers share
//! (unknown streams stay the session's 404).
#![cfg(feature = "http")]

use crate::http_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use http_support::*;
use mcpwire::http::{
    Bytes, EventStore, HttpConfig, MemoryEventStore, SessionId, StoreFuture, StoreResult,
    StoredEvents, StreamId,
};
use mcpwire::http::{Health, HealthCheck};

/// A health check whose state the test sets.
#[derive(Debug, Clone, Default)]
struct Switch(Arc<AtomicBool>);

impl HealthCheck for Switch {
    fn health(&self) -> Health {
        let up = self.0.load(Ordering::SeqCst);
        Health {
            up,
            checks: serde_json::json!({ "bus": if up { "up" } else { "down" } }),
        }
    }
}

#[test]
fn healthz_reports_the_check_to_probes_and_not_to_pages() {
    let plain = start(HttpConfig::default(), Scripted { unsolicited: false });
    let reply = request_to(plain.addr, "GET", "/healthz", &[], b"");
    assert_eq!(reply.status, 404, "no check configured: not an endpoint");

    let switch = Switch::default();
    let running = start(
        HttpConfig::default().health_check(switch.clone()),
        Scripted { unsolicited: false },
    );
    let down = request_to(running.addr, "GET", "/healthz", &[], b"");
    assert_eq!(down.status, 503);
    assert_eq!(
        down.json(),
        serde_json::json!({ "status": "down", "checks": { "bus": "down" } })
    );
    switch.0.store(true, Ordering::SeqCst);
    let up = request_to(running.addr, "GET", "/healthz", &[], b"");
    assert_eq!(up.status, 200);
    assert_eq!(up.header("content-type"), Some("application/json"));
    assert_eq!(up.json()["status"], "up");
    let page = request_to(
        running.addr,
        "GET",
        "/healthz",
        &[("Origin", "http://localhost")],
        b"",
    );
    assert_eq!(page.status, 403, "a browser's request is refused");
    let post = request_to(running.addr, "POST", "/healthz", &[JSON], b"{}");
    assert_eq!(post.status, 405);
}

#[test]
fn session_ids_carry_the_servers_tag() {
    let running = start(
        HttpConfig::default().session_id_tag(Some(0x0e)),
        Scripted { unsolicited: false },
    );
    let (a, b) = (open_session(running.addr), open_session(running.addr));
    assert!(a.starts_with("0e") && b.starts_with("0e"), "{a} {b}");
    assert_eq!(a.len(), 32);
    assert_ne!(a, b);
}

/// One store behind two servers (what a shared store such as Redis is to two processes).
#[derive(Debug, Clone)]
struct Shared(Arc<MemoryEventStore>);

impl EventStore for Shared {
    fn open<'a>(&'a self, session: &'a SessionId, stream: &'a StreamId) -> StoreResult<'a, ()> {
        self.0.open(session, stream)
    }

    fn append<'a>(&'a self, stream: &'a StreamId, frame: Bytes) -> StoreResult<'a, u64> {
        self.0.append(stream, frame)
    }

    fn finish<'a>(&'a self, stream: &'a StreamId) -> StoreFuture<'a, ()> {
        self.0.finish(stream)
    }

    fn read_after<'a>(
        &'a self,
        session: &'a SessionId,
        stream: &'a StreamId,
        after: u64,
    ) -> StoreResult<'a, StoredEvents> {
        self.0.read_after(session, stream, after)
    }
}

/// The `id:` values and JSON `data:` of an SSE body, in order.
fn ids_and_data(body: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(body);
    text.split("\n\n")
        .filter_map(|event| {
            let id = event.lines().find_map(|l| l.strip_prefix("id: "))?;
            let data = event.lines().find_map(|l| l.strip_prefix("data: "))?;
            (!data.is_empty()).then(|| (id.to_owned(), data.to_owned()))
        })
        .collect()
}

#[test]
fn a_stream_is_resumed_at_a_server_that_does_not_hold_its_session() {
    let store = Shared(Arc::new(MemoryEventStore::default()));
    let config = || HttpConfig::default().event_store(store.clone());
    let a = start(config(), Scripted { unsolicited: true });
    let b = start(config(), Scripted { unsolicited: true });
    let session = open_session(a.addr);
    let in_session = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    let streamed = request(a.addr, "POST", &in_session, call(5, "stream").as_bytes());
    assert_eq!(streamed.status, 200, "{}", streamed.text());
    let events = ids_and_data(&streamed.body);
    assert_eq!(
        events.len(),
        3,
        "two progress notifications, then the reply"
    );

    let resume = |last: &str, session: &str| {
        request(
            b.addr,
            "GET",
            &[
                ("Accept", "text/event-stream"),
                ("Mcp-Session-Id", session),
                ("Last-Event-ID", last),
            ],
            b"",
        )
    };
    let resumed = resume(&events[0].0, &session);
    assert_eq!(resumed.status, 200, "{}", resumed.text());
    assert_eq!(
        ids_and_data(&resumed.body),
        events[1..].to_vec(),
        "what followed the first event, once, with the same ids"
    );

    // B holds no session: anything but a stream of the named session is its 404.
    let stranger = SessionId::generate().unwrap();
    assert_eq!(resume(&events[0].0, stranger.as_str()).status, 404);
    assert_eq!(resume("not-an-event-id", &session).status, 404);
    let post = request(b.addr, "POST", &in_session, call(6, "ping").as_bytes());
    assert_eq!(
        post.status, 404,
        "a session is still served only where it lives"
    );
}
