//! Issue 33: what gives way when one client is at its connection share, seen as raw
//! HTTP/1.1 on loopback: its oldest GET stream is cut for its new call, a connection that
//! has just connected is not taken for an idle one while its request head is on its way, and
//! a connection whose request gave way is closed once its 429 is written; how long a
//! connection counts as just made is a setting (`HttpConfig::fresh_connection_grace`).
#![cfg(feature = "http")]

use crate::http_support;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Duration;

use http_support::*;
use mcpwire::http::{Bytes, HttpConfig, HttpService, Outbound, SessionHandler, SessionOpening};
use serde_json::Value;

/// A stateless service whose `slow` call takes 30 s (a long tool call); anything else is
/// answered at once with an empty result.
struct Slow;

impl HttpService for Slow {
    type Handler = Slow;
    fn open(&self, _: SessionOpening) -> Slow {
        Slow
    }
}

impl SessionHandler for Slow {
    async fn handle(&self, frame: Bytes, _: Outbound) -> Option<Bytes> {
        let message: Value = serde_json::from_slice(&frame).ok()?;
        let id = message.get("id")?.to_string();
        if message["method"] == "slow" {
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
        Some(Bytes::from(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#
        )))
    }
}

/// Sends a whole POST of `body` on a connection of its own, its answer unread.
fn send(addr: SocketAddr, body: &str) -> TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, "POST", "/mcp", &[JSON, ACCEPT], body.len()).as_bytes())
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

/// Item 3, the call missed under the hung-up-calls attack with sessions: a client at its
/// share with every connection busy on a long call opens a connection for a new call, and
/// before its request head arrives another of its connections comes. The connection just
/// made is not idle, only not yet used: the newcomer makes room by ending the oldest long
/// call, and the new call is served. (It used to be closed as "the longest idle".)
#[test]
fn a_connection_whose_head_is_on_its_way_is_not_taken_for_an_idle_one() {
    let server = start(
        HttpConfig::default()
            .stateless(true)
            .max_connections_per_peer(3),
        Slow,
    );
    let _long: Vec<TcpStream> = (1..=3)
        .map(|id| send(server.addr, &call(id, "slow")))
        .collect();
    thread::sleep(Duration::from_millis(300));
    // At the share: this connection makes room (the oldest long call gives way) ...
    let mut new_call = connect(server.addr);
    thread::sleep(Duration::from_millis(100));
    // ... and so does the next one, before the new call's head is sent.
    let _next = connect(server.addr);
    thread::sleep(Duration::from_millis(200));
    let body = call(9, "ping");
    new_call
        .write_all(head(server.addr, "POST", "/mcp", &[JSON, ACCEPT], body.len()).as_bytes())
        .and_then(|()| new_call.write_all(body.as_bytes()))
        .expect("the new call's connection is open");
    let raw = read_until(&mut new_call, READ_LIMIT, |raw| raw.ends_with(b"}"));
    assert!(
        !raw.is_empty(),
        "the new call's connection was closed unanswered"
    );
    let reply = parse(&raw);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["id"], 9);
}

/// Opens the GET stream of `session` and returns its connection once the stream's head
/// (200, `text/event-stream`) has arrived.
fn open_get_stream(addr: SocketAddr, session: &str) -> TcpStream {
    let mut stream = connect(addr);
    let headers = [("Accept", "text/event-stream"), ("Mcp-Session-Id", session)];
    stream
        .write_all(head(addr, "GET", "/mcp", &headers, 0).as_bytes())
        .unwrap();
    let raw = read_until(&mut stream, READ_LIMIT, |raw| {
        raw.windows(4).any(|w| w == b"\r\n\r\n")
    });
    let text = String::from_utf8_lossy(&raw);
    assert!(
        text.starts_with("HTTP/1.1 200"),
        "the GET stream opens: {text}"
    );
    assert!(
        text.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{text}"
    );
    stream
}

/// Item 4: a client at its connection share whose every connection holds a GET stream (one
/// per session, each a request in progress that never ends on its own) is not locked out:
/// its new call is served, and the stream that began first is cut to make room; the others
/// flow on.
#[test]
fn at_its_share_a_client_s_oldest_get_stream_is_cut_for_its_new_call() {
    let server = start(
        HttpConfig::default().max_connections_per_peer(3),
        Scripted { unsolicited: true },
    );
    let sessions: Vec<String> = (0..3).map(|_| open_session(server.addr)).collect();
    let mut streams: Vec<TcpStream> = sessions
        .iter()
        .map(|session| {
            let stream = open_get_stream(server.addr, session);
            // Each stream begins after the one before it.
            thread::sleep(Duration::from_millis(50));
            stream
        })
        .collect();
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", sessions[1].as_str())];
    let ping = request(server.addr, "POST", &with, call(7, "ping").as_bytes());
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert_eq!(ping.json()["id"], 7);
    assert!(
        closes_within(&mut streams[0], READ_LIMIT),
        "the oldest GET stream was cut"
    );
    // Only one connection had to give way, and it was the oldest: the newest stream is open.
    assert!(
        !closes_within(&mut streams[2], Duration::from_millis(300)),
        "the newest GET stream still flows"
    );
    // The cut stream's session lives on: its client opens its stream again.
    let mut again = open_get_stream(server.addr, &sessions[0]);
    assert!(!closes_within(&mut again, Duration::from_millis(100)));
}

/// Opens a connection that sends a POST head declaring a body and then the first bytes of
/// it, withholding the rest.
fn withhold_body(addr: SocketAddr) -> TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, "POST", "/mcp", &[JSON, ACCEPT], 1000).as_bytes())
        .unwrap();
    stream.write_all(br#"{"jsonrpc":"2.0","#).unwrap();
    stream
}

/// Item 4: a connection whose request gave way is closed as soon as its 429 is written,
/// although the rest of its body is withheld and the body, header and write timeouts are all
/// far away (it would otherwise hold its slot, beyond its client's share, until one of them
/// passed).
#[test]
fn a_connection_that_gave_way_closes_once_its_429_is_written() {
    let far = Duration::from_secs(120);
    let server = start(
        HttpConfig::default()
            .stateless(true)
            .max_connections_per_peer(1)
            .min_body_rate(0)
            .body_timeout(far)
            .header_timeout(far)
            .write_timeout(far),
        Scripted { unsolicited: false },
    );
    let mut withheld = withhold_body(server.addr);
    thread::sleep(Duration::from_millis(100));
    let ping = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        call(1, "ping").as_bytes(),
    );
    assert_eq!(ping.status, 200, "{}", ping.text());
    let refused = read_reply_head(&mut withheld);
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(
        closes_within(&mut withheld, Duration::from_secs(20)),
        "closed after its 429, long before any timeout"
    );
}

/// The status line and headers of the answer on `stream`.
fn read_reply_head(stream: &mut TcpStream) -> String {
    let raw = read_until(stream, READ_LIMIT, |raw| {
        raw.windows(4).any(|w| w == b"\r\n\r\n")
    });
    String::from_utf8_lossy(&raw).into_owned()
}

/// At a share of two, a client holds a long call and a connection that has sent nothing
/// for `silent_for`; then a third connection of its arrives and a `ping` on it is served. Returns the
/// server, the long call's connection and the silent one, once that ping has been answered.
fn at_the_share_with_a_silent_connection(
    config: HttpConfig,
    silent_for: Duration,
) -> (Running, TcpStream, TcpStream) {
    let server = start(config.stateless(true).max_connections_per_peer(2), Slow);
    let long = send(server.addr, &call(1, "slow"));
    thread::sleep(Duration::from_secs(1));
    let silent = connect(server.addr);
    thread::sleep(silent_for);
    let ping = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        call(2, "ping").as_bytes(),
    );
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert_eq!(ping.json()["id"], 2);
    (server, long, silent)
}

/// `fresh_connection_grace` is honoured: with a grace of 50 ms, a connection silent for
/// 300 ms (younger than the default grace of 1 s) counts as idle and is closed to make room,
/// and the client's long call runs on.
#[test]
fn past_a_short_fresh_connection_grace_a_silent_connection_is_closed_first() {
    let config = HttpConfig::default().fresh_connection_grace(Duration::from_millis(50));
    let (_server, mut long, mut silent) =
        at_the_share_with_a_silent_connection(config, Duration::from_millis(300));
    assert!(
        closes_within(&mut silent, READ_LIMIT),
        "the silent connection, older than the grace, is closed as idle"
    );
    let raw = read_until(&mut long, Duration::from_millis(500), |raw| !raw.is_empty());
    assert!(
        raw.is_empty(),
        "the long call did not give way: {}",
        String::from_utf8_lossy(&raw)
    );
}

/// `fresh_connection_grace` is honoured the other way: within a grace of 20 s, a connection
/// silent for a second is not taken for an idle one; the client's long call gives way (429
/// with its id) and the silent connection is then served.
#[test]
fn within_a_long_fresh_connection_grace_a_silent_connection_is_kept() {
    let config = HttpConfig::default()
        .header_timeout(Duration::from_secs(60))
        .fresh_connection_grace(Duration::from_secs(20));
    let (_server, mut long, mut silent) =
        at_the_share_with_a_silent_connection(config, Duration::from_secs(1));
    let raw = read_until(&mut long, READ_LIMIT, |raw| raw.ends_with(b"}"));
    let gave_way = parse(&raw);
    assert_eq!(gave_way.status, 429, "{}", gave_way.text());
    assert_eq!(gave_way.json()["id"], 1);
    let body = call(3, "ping");
    silent
        .write_all(head_of(&silent, body.len()).as_bytes())
        .and_then(|()| silent.write_all(body.as_bytes()))
        .expect("the silent connection is still open");
    let raw = read_until(&mut silent, READ_LIMIT, |raw| raw.ends_with(b"}"));
    let reply = parse(&raw);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["id"], 3);
}

/// The head of a POST of `len` bytes on `stream`'s connection.
fn head_of(stream: &TcpStream, len: usize) -> String {
    let addr = stream.peer_addr().unwrap();
    head(addr, "POST", "/mcp", &[JSON, ACCEPT], len)
}

/// A grace of zero, or longer than the header timeout, is refused at bind with the setting
/// named.
#[test]
fn a_zero_or_overlong_fresh_connection_grace_is_refused_at_bind() {
    let bind = |config: HttpConfig| {
        mcpwire::http::HttpServer::bind(config.bind("127.0.0.1:0".parse().unwrap()), Slow)
            .err()
            .map(|error| (error.kind(), error.to_string()))
    };
    let (kind, zero) = bind(HttpConfig::default().fresh_connection_grace(Duration::ZERO))
        .expect("a zero grace is refused");
    assert_eq!(kind, std::io::ErrorKind::InvalidInput);
    assert!(zero.contains("fresh_connection_grace"), "{zero}");
    assert!(zero.contains("more than zero"), "{zero}");
    let (_, long) = bind(
        HttpConfig::default()
            .header_timeout(Duration::from_secs(5))
            .fresh_connection_grace(Duration::from_secs(6)),
    )
    .expect("a grace beyond the header timeout is refused");
    assert!(long.contains("fresh_connection_grace"), "{long}");
    assert!(long.contains("header timeout (5s)"), "{long}");
    // Up to the header timeout is accepted, and so is the default beside a header timeout
    // shorter than 1 s.
    let accepted = [
        HttpConfig::default().fresh_connection_grace(Duration::from_secs(10)),
        HttpConfig::default().header_timeout(Duration::from_millis(300)),
    ];
    for config in accepted {
        assert_eq!(bind(config), None);
    }
}
