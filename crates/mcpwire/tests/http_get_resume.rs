//! The session's GET stream with an event store, as a client sees it on the wire: an id on
//! every unsolicited message, and after the connection drops a GET with
//! `Last-Event-ID` that gets what followed that event, once each, on the same stream, which
//! then carries the next messages on. While the stream is open elsewhere a resumption is 409.
#![cfg(feature = "http")]

use crate::http_support;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use http_support::*;
use mcpwire::http::{HttpConfig, MemoryEventStore};

/// An open GET stream: its status, its connection and what of its body came with the head.
struct Get {
    status: u16,
    stream: TcpStream,
    body: Vec<u8>,
}

/// Opens a GET stream (with `extra` headers) and reads its head.
fn open_get(addr: SocketAddr, session: &str, extra: &[(&str, &str)]) -> Get {
    let mut headers = vec![("Accept", "text/event-stream"), ("Mcp-Session-Id", session)];
    headers.extend_from_slice(extra);
    let mut stream = connect(addr);
    let head = head(addr, "GET", "/mcp", &headers, 0);
    stream.write_all(head.as_bytes()).unwrap();
    let raw = read_until(&mut stream, Duration::from_secs(5), |raw| {
        raw.windows(4).any(|w| w == b"\r\n\r\n")
    });
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(raw.len(), |at| at + 4);
    Get {
        status: parse(&raw).status,
        stream,
        body: raw[end..].to_vec(),
    }
}

/// The ids and data of the messages of `get`'s body until `count` arrived.
fn messages(get: &mut Get, count: usize) -> Vec<(String, String)> {
    let parsed = |raw: &[u8]| -> Vec<(String, String)> {
        let text = String::from_utf8_lossy(&dechunk(raw)).into_owned();
        text.split("\n\n")
            .filter_map(|block| {
                let id = block.lines().find_map(|l| l.strip_prefix("id: "))?;
                let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
                Some((id.to_owned(), data.to_owned()))
            })
            .filter(|(_, data)| !data.is_empty())
            .collect()
    };
    let known = get.body.clone();
    let more = read_until(&mut get.stream, Duration::from_secs(5), |raw| {
        parsed(&[&known[..], raw].concat()).len() >= count
    });
    get.body.extend_from_slice(&more);
    parsed(&get.body)
}

fn announce(addr: SocketAddr, session: &str, id: u64) {
    let headers = [JSON, ACCEPT, ("Mcp-Session-Id", session)];
    let reply = request(addr, "POST", &headers, call(id, "announce").as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
}

#[test]
fn the_get_stream_resumes_after_its_last_event_id_and_goes_on() {
    let config = HttpConfig::default().event_store(MemoryEventStore::default());
    let server = start(config, Scripted { unsolicited: true });
    let addr = server.addr;
    let session = open_session(addr);

    let mut first = open_get(addr, &session, &[]);
    assert_eq!(first.status, 200);
    announce(addr, &session, 2);
    let seen = messages(&mut first, 1);
    assert_eq!(seen.len(), 1, "{seen:?}");
    let (last, data) = &seen[0];
    assert_eq!(data, ANNOUNCEMENT);
    let stream_id = last
        .strip_suffix("-1")
        .expect("the first message is event 1");
    assert_eq!(stream_id.len(), 32, "{last}");
    let last = last.clone();
    let stream_id = stream_id.to_owned();
    let busy = open_get(addr, &session, &[("Last-Event-ID", last.as_str())]);
    assert_eq!(busy.status, 409, "the GET stream is still open");

    // The connection drops; two messages come while the client is away.
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut resumed = loop {
        let get = open_get(addr, &session, &[("Last-Event-ID", last.as_str())]);
        if get.status == 200 {
            break get;
        }
        assert_eq!(get.status, 409, "until the server sees the client gone");
        assert!(
            Instant::now() < deadline,
            "the dropped GET stream never let go"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    announce(addr, &session, 3);
    announce(addr, &session, 4);
    let seen = messages(&mut resumed, 2);
    let ids: Vec<&str> = seen.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, [format!("{stream_id}-2"), format!("{stream_id}-3")]);
    assert!(seen.iter().all(|(_, data)| data == ANNOUNCEMENT));

    // Resuming from the start replays every stored message once (on a new connection, after
    // this one drops), and a stream id of no stream of this session is refused.
    drop(resumed);
    let from_start = format!("{stream_id}-0");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut again = loop {
        let get = open_get(addr, &session, &[("Last-Event-ID", from_start.as_str())]);
        if get.status == 200 {
            break get;
        }
        assert!(
            Instant::now() < deadline,
            "the resumed GET stream never let go"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let seen = messages(&mut again, 3);
    let ids: Vec<String> = seen.into_iter().map(|(id, _)| id).collect();
    assert_eq!(
        ids,
        (1..=3)
            .map(|n| format!("{stream_id}-{n}"))
            .collect::<Vec<_>>()
    );
    let foreign = format!("{}-1", "0".repeat(32));
    let refused = open_get(addr, &session, &[("Last-Event-ID", foreign.as_str())]);
    assert_eq!(refused.status, 400);
}
