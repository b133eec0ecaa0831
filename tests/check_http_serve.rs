//! `mcpwire serve --http`: the status, headers and body of each Streamable HTTP exchange, seen
//! as raw HTTP/1.1 bytes on a loopback socket.

use crate::check_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use check_support::{HttpServer, reference_bin};

/// A raw HTTP response.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request (`Connection: close`) and reads the whole response.
fn request(server: &HttpServer, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let authority = server
        .url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let mut stream = TcpStream::connect(&authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_owned(),
    }
}

const JSON: (&str, &str) = ("Content-Type", "application/json");
const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

#[test]
fn sessions_statuses_and_bodies_follow_the_transport() {
    // Under an MCP version with `initialize`, every other request needs the session.
    let server = HttpServer::start(
        reference_bin(),
        &["--profile", "mcp-2025-06-18", "--http", "127.0.0.1:0"],
    );

    let no_session = request(
        &server,
        "POST",
        &[JSON, ACCEPT],
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    );
    assert_eq!(no_session.status, 400);
    assert!(
        no_session.body.contains(r#""code":-32600"#),
        "{}",
        no_session.body
    );

    let init = request(&server, "POST", &[JSON, ACCEPT], INITIALIZE);
    assert_eq!(init.status, 200);
    assert_eq!(init.header("content-type"), Some("application/json"));
    assert!(
        init.body
            .starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"#),
        "{}",
        init.body
    );
    assert!(
        init.body.contains(r#""protocolVersion":"2025-06-18""#),
        "{}",
        init.body
    );
    let session = init
        .header("mcp-session-id")
        .expect("a session id at initialize")
        .to_owned();
    let with = || vec![JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];

    let ping = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#,
    );
    assert_eq!(
        (ping.status, ping.body.as_str()),
        (
            200,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#
        )
    );

    let note = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!((note.status, note.body.as_str()), (202, ""));
    let response = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
    );
    assert_eq!((response.status, response.body.as_str()), (202, ""));

    // 2025-06-18 requires "id":null when the id is unreadable.
    let parse = request(&server, "POST", &with(), "{");
    assert_eq!(parse.status, 400);
    assert!(
        parse
            .body
            .starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700"#),
        "{}",
        parse.body
    );
    let invalid = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
    );
    // Rejected input is an HTTP error; its error echoes the readable id (issue 33, item 7).
    assert_eq!(invalid.status, 400);
    assert!(
        invalid
            .body
            .starts_with(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600"#),
        "{}",
        invalid.body
    );
    let unknown = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"2.0","id":"u","method":"nope"}"#,
    );
    assert_eq!(unknown.status, 200);
    assert!(
        unknown
            .body
            .starts_with(r#"{"jsonrpc":"2.0","id":"u","error":{"code":-32601"#),
        "{}",
        unknown.body
    );

    let stranger = request(
        &server,
        "POST",
        &[JSON, ACCEPT, ("Mcp-Session-Id", "nope")],
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    );
    assert_eq!(stranger.status, 404);
    let text = request(
        &server,
        "POST",
        &[("Content-Type", "text/plain"), ACCEPT],
        INITIALIZE,
    );
    assert_eq!(text.status, 415);
    let html_only = request(
        &server,
        "POST",
        &[JSON, ("Accept", "text/html")],
        INITIALIZE,
    );
    assert_eq!(html_only.status, 406);
    // The MCP server offers each session a GET stream (list_changed and other messages not
    // tied to a request): a GET must name its session.
    let get = request(&server, "GET", &[ACCEPT], "");
    assert_eq!(get.status, 400);
    assert!(get.body.contains("Mcp-Session-Id"), "{}", get.body);
    let put = request(&server, "PUT", &with(), INITIALIZE);
    assert_eq!(put.status, 405);
    assert_eq!(put.header("allow"), Some("GET, POST, DELETE"));

    let delete = request(
        &server,
        "DELETE",
        &[("Mcp-Session-Id", session.as_str())],
        "",
    );
    assert_eq!(delete.status, 204);
    let after = request(
        &server,
        "POST",
        &with(),
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    );
    assert_eq!(after.status, 404, "an ended session is gone");
}

#[test]
fn plain_json_rpc_needs_no_session() {
    let server = HttpServer::start(
        reference_bin(),
        &["--profile", "jsonrpc-2.0", "--http", "127.0.0.1:0"],
    );
    let sum = request(
        &server,
        "POST",
        &[JSON],
        r#"[{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1},{"jsonrpc":"2.0","method":"update","params":[1]}]"#,
    );
    assert_eq!(
        (sum.status, sum.body.as_str()),
        (200, r#"[{"jsonrpc":"2.0","id":1,"result":19}]"#)
    );
    let empty = request(&server, "POST", &[JSON], "[]");
    assert_eq!(
        (empty.status, empty.body.as_str()),
        (
            400,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#
        )
    );
}
