//! The Streamable HTTP transport as the MCP specification describes it, seen as raw HTTP/1.1
//! on a loopback socket: statuses, headers, JSON and SSE bodies, sessions, GET and DELETE,
//! stateless mode.
#![cfg(feature = "http")]

use crate::http_support;

use std::io::Write;
use std::time::Duration;

use http_support::*;
use mcpwire::http::{HttpConfig, SyncServer};
use mcpwire::{CallContext, Profile, Router, RpcError, Server};

fn scripted(unsolicited: bool) -> Running {
    start(HttpConfig::default(), Scripted { unsolicited })
}

#[test]
fn a_request_gets_json_and_notifications_202_within_a_session() {
    let server = scripted(false);
    let init = request(server.addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(init.status, 200);
    assert_eq!(init.header("content-type"), Some("application/json"));
    assert_eq!(
        init.text(),
        r#"{"id":1,"jsonrpc":"2.0","result":{"streamed":false}}"#
    );
    let session = init.session();
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];

    let ping = request(server.addr, "POST", &with, call(7, "ping").as_bytes());
    assert_eq!((ping.status, ping.json()["id"].as_u64()), (200, Some(7)));
    assert_eq!(
        ping.header("mcp-session-id"),
        None,
        "issued at initialize only"
    );

    let note = request(
        server.addr,
        "POST",
        &with,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!((note.status, note.body.len()), (202, 0));

    let without = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        call(8, "ping").as_bytes(),
    );
    assert_eq!(
        without.status, 400,
        "a request other than initialize needs the session"
    );
    // Issue 28, item 4: the transport's refusal echoes the readable id.
    assert_eq!(without.json()["id"], 8);
    assert_eq!(without.json()["error"]["code"], -32600);
}

#[test]
fn an_initialize_that_fails_opens_no_session() {
    let server = scripted(false);
    let reply = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        br#"{"jsonrpc":"2.0","id":1,"method":"fail"}"#,
    );
    // `fail` is no initialize: refused for want of a session.
    assert_eq!(reply.status, 400);
    let service = SyncServer::new(|| Server::new(Profile::latest_mcp(), (), Router::new()));
    let server = start(HttpConfig::default(), service);
    let reply = request(server.addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["error"]["code"], -32601);
    assert_eq!(reply.header("mcp-session-id"), None);
}

#[test]
fn a_streaming_handler_answers_with_sse_events_then_the_reply_then_the_end() {
    let server = scripted(false);
    let session = open_session(server.addr);
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    let reply = request(server.addr, "POST", &with, call(3, "stream").as_bytes());
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    assert_eq!(reply.header("x-accel-buffering"), Some("no"));
    let expected = format!(
        "event: message\ndata: {}\n\nevent: message\ndata: {}\n\nevent: message\ndata: {}\n\n",
        progress(1),
        progress(2),
        r#"{"id":3,"jsonrpc":"2.0","result":{"streamed":true}}"#
    );
    assert_eq!(reply.text(), expected);
}

#[test]
fn a_client_that_takes_no_event_stream_gets_json_and_the_handler_learns_it() {
    let server = scripted(false);
    let session = open_session(server.addr);
    let with = [
        JSON,
        ("Accept", "application/json"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let reply = request(server.addr, "POST", &with, call(3, "stream").as_bytes());
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json()["result"]["streamed"], false);
}

#[test]
fn header_rules_content_type_accept_protocol_version_and_path() {
    let server = scripted(false);
    let text = request(
        server.addr,
        "POST",
        &[("Content-Type", "text/plain"), ACCEPT],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(text.status, 415);
    let html = request(
        server.addr,
        "POST",
        &[JSON, ("Accept", "text/html")],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(html.status, 406);
    let unknown_version = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT, ("MCP-Protocol-Version", "1999-01-01")],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(unknown_version.status, 400);
    assert!(
        unknown_version.text().contains("1999-01-01"),
        "{}",
        unknown_version.text()
    );
    let known_version = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT, ("MCP-Protocol-Version", "2025-06-18")],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(known_version.status, 200);
    let elsewhere = request_to(
        server.addr,
        "POST",
        "/",
        &[JSON, ACCEPT],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(elsewhere.status, 404);
    let other = request_to(
        server.addr,
        "POST",
        "/mcp/x",
        &[JSON, ACCEPT],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(other.status, 404);
    let put = request(server.addr, "PUT", &[JSON], b"");
    assert_eq!(
        (put.status, put.header("allow")),
        (405, Some("POST, DELETE"))
    );
}

/// A stateless plain JSON-RPC 2.0 server answering `ping`.
fn jsonrpc_pinger(config: HttpConfig) -> Running {
    let service = SyncServer::new(|| {
        let router = Router::new().request("ping", |_: &(), _: (), _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(serde_json::json!({}))
        });
        Server::new(Profile::jsonrpc_2_0(), (), router)
    });
    start(config.stateless(true), service)
}

/// Issue 33, item 7: input the server rejects gets an HTTP error status; the error echoes the
/// id whenever the id could be read, and has none only when it could not.
#[test]
fn rejected_input_is_400_and_its_error_echoes_the_id_when_readable() {
    let server = jsonrpc_pinger(HttpConfig::default());
    let parse = request(server.addr, "POST", &[JSON], b"{");
    assert_eq!(parse.status, 400);
    assert!(
        parse
            .text()
            .starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700"#),
        "{}",
        parse.text()
    );
    let invalid = request(
        server.addr,
        "POST",
        &[JSON],
        br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
    );
    assert_eq!(invalid.status, 400);
    assert!(
        invalid
            .text()
            .starts_with(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600"#),
        "{}",
        invalid.text()
    );
    let valid = request(server.addr, "POST", &[JSON], call(4, "ping").as_bytes());
    assert_eq!(valid.status, 200);
    let unknown = request(server.addr, "POST", &[JSON], call(6, "nope").as_bytes());
    assert_eq!(
        unknown.status, 200,
        "a readable request's error reply is 200"
    );
    let response = request(
        server.addr,
        "POST",
        &[JSON],
        br#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
    );
    assert_eq!((response.status, response.body.len()), (202, 0));
}

/// Issue 33, item 7: the transport's own reading of the body obeys the batch limit: a longer
/// batch is refused with 400 and an id-less error before any handler sees it; one within it is
/// served.
#[test]
fn a_batch_beyond_the_limit_is_400_before_any_handler_runs() {
    let server = jsonrpc_pinger(HttpConfig::default().max_batch_len(Some(3)));
    let batch = |n: u64| {
        let calls: Vec<String> = (1..=n).map(|id| call(id, "ping")).collect();
        format!("[{}]", calls.join(","))
    };
    let within = request(server.addr, "POST", &[JSON], batch(3).as_bytes());
    assert_eq!(within.status, 200, "{}", within.text());
    assert_eq!(within.json().as_array().map(Vec::len), Some(3));
    let beyond = request(server.addr, "POST", &[JSON], batch(4).as_bytes());
    assert_eq!(beyond.status, 400, "{}", beyond.text());
    let error = beyond.json();
    assert_eq!(error["id"], serde_json::Value::Null);
    assert_eq!(error["error"]["code"], -32600);
    let message = error["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("at most 3"), "{message}");
    // The default limit is a profile's (1000), whatever the server's own profile allows.
    let server = jsonrpc_pinger(HttpConfig::default());
    let beyond = request(server.addr, "POST", &[JSON], batch(1001).as_bytes());
    assert_eq!(beyond.status, 400, "{}", beyond.text());
    assert_eq!(beyond.json()["id"], serde_json::Value::Null);
}

/// A handler that panics, whether it runs inside its POST's exchange (stateless) or on a task
/// of its own (a session): that POST gets 500 with a JSON-RPC error carrying its id, and the
/// connection and the server go on serving.
#[test]
fn a_panicking_handler_gets_its_post_a_500_and_the_connection_goes_on() {
    for stateless in [true, false] {
        let server = start(
            HttpConfig::default().stateless(stateless),
            Scripted { unsolicited: false },
        );
        let session = (!stateless).then(|| open_session(server.addr));
        let mut headers = vec![JSON, ACCEPT];
        if let Some(session) = &session {
            headers.push(("Mcp-Session-Id", session.as_str()));
        }
        let mut stream = connect(server.addr);
        for (id, method) in [(7, "panic"), (8, "ping")] {
            // Kept alive (`head` asks to close): the second POST goes on the same connection.
            let reply = post_kept_alive(&mut stream, server.addr, &headers, &call(id, method));
            let expected = if method == "panic" { 500 } else { 200 };
            assert_eq!(
                reply.status,
                expected,
                "stateless {stateless}: {}",
                reply.text()
            );
            assert_eq!(
                reply.json()["id"],
                id,
                "stateless {stateless}: {}",
                reply.text()
            );
            if method == "panic" {
                assert_eq!(reply.json()["error"]["code"], -32603, "{}", reply.text());
            }
        }
    }
}

/// A lone client's requests, one after another on one connection, each wake one worker of
/// the server's two: the connection's own wakes (hyper's body reader, the exchange's queue
/// closing) poll it again in place instead of waking the other worker to steal it (which
/// `strace` counted as two or three thread wake-ups a request before).
#[test]
fn a_lone_clients_requests_wake_one_worker_each() {
    let server = start(
        HttpConfig::default().stateless(true),
        Scripted { unsolicited: false },
    );
    let parks = || {
        let metrics = server.runtime.metrics();
        (0..metrics.num_workers())
            .map(|worker| metrics.worker_park_count(worker))
            .sum::<u64>()
    };
    let mut stream = connect(server.addr);
    let mut post = |id: u64| {
        let reply = post_kept_alive(&mut stream, server.addr, &[JSON, ACCEPT], &call(id, "ping"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(reply.json()["id"], id, "{}", reply.text());
    };
    for id in 0..20 {
        post(id);
    }
    const REQUESTS: u64 = 300;
    let before = parks();
    for id in 100..100 + REQUESTS {
        post(id);
    }
    let parked = parks() - before;
    // One park a request: the worker that served it waits for the next (measured: 296 for
    // 300). Woken to steal, the other worker parks again too (measured without the in-place
    // polls: 454 and 575).
    assert!(
        parked <= REQUESTS * 5 / 4,
        "{parked} parks for {REQUESTS} requests"
    );
}

#[test]
fn stateless_mode_needs_no_session_and_refuses_get_and_delete() {
    let server = start(
        HttpConfig::default().stateless(true),
        Scripted { unsolicited: false },
    );
    let ping = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        call(1, "ping").as_bytes(),
    );
    assert_eq!(ping.status, 200);
    assert_eq!(ping.header("mcp-session-id"), None);
    let init = request(server.addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(
        init.header("mcp-session-id"),
        None,
        "no session ids are minted"
    );
    let ignored = request(
        server.addr,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("Mcp-Session-Id", "whatever"),
            ("Mcp-Method", "ping"),
        ],
        call(2, "ping").as_bytes(),
    );
    assert_eq!(ignored.status, 200, "an Mcp-Session-Id is ignored");
    let mismatch = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT, ("Mcp-Method", "tools/list")],
        call(3, "ping").as_bytes(),
    );
    assert_eq!(mismatch.status, 400);
    assert_eq!(mismatch.json()["error"]["code"], -32020);
    for method in ["GET", "DELETE"] {
        let refused = request(server.addr, method, &[ACCEPT], b"");
        assert_eq!(
            (refused.status, refused.header("allow")),
            (405, Some("POST")),
            "{method}"
        );
    }
}

#[test]
fn delete_ends_the_session_and_later_use_is_404() {
    let server = scripted(false);
    let session = open_session(server.addr);
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    assert_eq!(request(server.addr, "DELETE", &[], b"").status, 400);
    let delete = request(
        server.addr,
        "DELETE",
        &[("Mcp-Session-Id", session.as_str())],
        b"",
    );
    assert_eq!(delete.status, 204);
    let after = request(server.addr, "POST", &with, call(2, "ping").as_bytes());
    assert_eq!(after.status, 404);
    let again = request(
        server.addr,
        "DELETE",
        &[("Mcp-Session-Id", session.as_str())],
        b"",
    );
    assert_eq!(again.status, 404);
}

#[test]
fn get_is_405_without_unsolicited_messages() {
    let server = scripted(false);
    let get = request(server.addr, "GET", &[ACCEPT], b"");
    assert_eq!(
        (get.status, get.header("allow")),
        (405, Some("POST, DELETE"))
    );
}

#[test]
fn the_get_stream_delivers_unsolicited_messages_once_and_ends_with_the_session() {
    let server = scripted(true);
    let session = open_session(server.addr);
    let sid = ("Mcp-Session-Id", session.as_str());
    let no_session = request(server.addr, "GET", &[("Accept", "text/event-stream")], b"");
    assert_eq!(no_session.status, 400);
    let json_only = request(
        server.addr,
        "GET",
        &[("Accept", "application/json"), sid],
        b"",
    );
    assert_eq!(json_only.status, 406);

    let mut stream = connect(server.addr);
    stream
        .write_all(
            head(
                server.addr,
                "GET",
                "/mcp",
                &[("Accept", "text/event-stream"), sid],
                0,
            )
            .as_bytes(),
        )
        .unwrap();
    let opened = read_until(&mut stream, READ_LIMIT, |raw| {
        raw.windows(4).any(|w| w == b"\r\n\r\n")
    });
    let opened = parse(&opened);
    assert_eq!(opened.status, 200);
    assert_eq!(opened.header("content-type"), Some("text/event-stream"));

    let second = request(
        server.addr,
        "GET",
        &[("Accept", "text/event-stream"), sid],
        b"",
    );
    assert_eq!(second.status, 409, "one GET stream per session");

    let announce = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT, sid],
        call(4, "announce").as_bytes(),
    );
    assert_eq!(announce.status, 200);
    assert_eq!(
        announce.header("content-type"),
        Some("application/json"),
        "not on the POST's answer"
    );

    let expected = format!("event: message\ndata: {ANNOUNCEMENT}\n\n");
    // The head was read above; what follows is the chunked event stream.
    let raw = read_until(&mut stream, READ_LIMIT, |raw| {
        String::from_utf8_lossy(&dechunk(raw)).contains(&expected)
    });
    assert_eq!(String::from_utf8_lossy(&dechunk(&raw)), expected);

    let delete = request(server.addr, "DELETE", &[sid], b"");
    assert_eq!(delete.status, 204);
    assert!(
        closes_within(&mut stream, Duration::from_secs(10)),
        "the stream ends with the session"
    );
}

/// Issue 33, item 9: a second `Host` header is 400 (RFC 9112 §3.2), a body in a
/// `Content-Encoding` the endpoint does not decode is 415; `identity` is the body as is.
#[test]
fn a_second_host_is_400_and_an_encoded_body_is_415() {
    let server = scripted(false);
    let host = server.addr.to_string();
    let twice = [
        JSON,
        ACCEPT,
        ("Host", host.as_str()),
        ("Host", host.as_str()),
    ];
    let reply = request(server.addr, "POST", &twice, INITIALIZE.as_bytes());
    assert_eq!(reply.status, 400, "{}", reply.text());
    assert_eq!(reply.json()["id"], serde_json::Value::Null);
    for coding in ["gzip", "identity, br"] {
        let encoded = [JSON, ACCEPT, ("Content-Encoding", coding)];
        let reply = request(server.addr, "POST", &encoded, INITIALIZE.as_bytes());
        assert_eq!(reply.status, 415, "{coding}: {}", reply.text());
        assert!(
            reply.text().contains("Content-Encoding"),
            "{}",
            reply.text()
        );
    }
    let plain = [JSON, ACCEPT, ("Content-Encoding", "identity")];
    let reply = request(server.addr, "POST", &plain, INITIALIZE.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
}
