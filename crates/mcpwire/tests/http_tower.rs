//! The endpoint as a `tower::Service<http::Request<B>>` (`McpEndpoint`), driven without a
//! socket, as a tower or axum application would: the same answers as `HttpServer`'s, the
//! client's address taken from the request's extensions for the per-client session share.
#![cfg(feature = "http")]

use crate::http_support;

use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use http_support::{INITIALIZE, Scripted, call};
use hyper::body::Bytes;
use hyper::{Request, StatusCode};
use mcpwire::http::{HttpConfig, McpEndpoint, PeerAddr};
use tower_service::Service;

struct Answer {
    status: StatusCode,
    session: Option<String>,
    body: String,
}

async fn send(
    endpoint: &mut McpEndpoint<Scripted>,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
    peer: Option<&str>,
) -> Answer {
    let mut request = Request::post(path)
        .header("Host", "localhost:8080")
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut request = request
        .body(Full::new(Bytes::from(body.to_owned())))
        .unwrap();
    if let Some(peer) = peer {
        let addr: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(PeerAddr(addr));
    }
    std::future::poll_fn(|cx| Service::<Request<Full<Bytes>>>::poll_ready(endpoint, cx))
        .await
        .unwrap();
    let response = endpoint.call(request).await.unwrap();
    let status = response.status();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        session,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

#[tokio::test]
async fn the_endpoint_answers_as_a_tower_service() {
    let mut endpoint = McpEndpoint::new(HttpConfig::default(), Scripted { unsolicited: false });
    assert_eq!(endpoint.path(), "/mcp");
    let opened = send(&mut endpoint, "/mcp", &[], INITIALIZE, None).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.body);
    let session = opened.session.expect("a session id");
    let ping = call(2, "ping");
    let pinged = send(
        &mut endpoint,
        "/mcp",
        &[("Mcp-Session-Id", &session)],
        &ping,
        None,
    )
    .await;
    assert_eq!(pinged.status, StatusCode::OK, "{}", pinged.body);
    assert!(pinged.body.contains(r#""id":2"#), "{}", pinged.body);
    // The endpoint's rules hold: another path, a foreign origin, a missing session.
    let elsewhere = send(&mut endpoint, "/other", &[], &ping, None).await;
    assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
    let foreign = [("Origin", "https://evil.example")];
    let refused = send(&mut endpoint, "/mcp", &foreign, &ping, None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let sessionless = send(&mut endpoint, "/mcp", &[], &ping, None).await;
    assert_eq!(sessionless.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_client_address_comes_from_the_request_extensions() {
    let config = HttpConfig::default().max_sessions_per_peer(1);
    let mut endpoint = McpEndpoint::new(config, Scripted { unsolicited: false });
    let alice = Some("203.0.113.1:5000");
    let bob = Some("198.51.100.2:6000");
    let first = send(&mut endpoint, "/mcp", &[], INITIALIZE, alice).await;
    let second = send(&mut endpoint, "/mcp", &[], INITIALIZE, bob).await;
    let ping = call(3, "ping");
    let status = |answer: &Answer| answer.status;
    let (first, second) = (first.session.unwrap(), second.session.unwrap());
    // Two clients: each keeps its session at a share of one.
    let alices = send(
        &mut endpoint,
        "/mcp",
        &[("Mcp-Session-Id", &first)],
        &ping,
        alice,
    )
    .await;
    assert_eq!(status(&alices), StatusCode::OK);
    // Alice's next session ends her first; Bob's stays.
    let again = send(&mut endpoint, "/mcp", &[], INITIALIZE, alice).await;
    assert_eq!(again.status, StatusCode::OK);
    let ended = send(
        &mut endpoint,
        "/mcp",
        &[("Mcp-Session-Id", &first)],
        &ping,
        alice,
    )
    .await;
    assert_eq!(ended.status, StatusCode::NOT_FOUND);
    let bobs = send(
        &mut endpoint,
        "/mcp",
        &[("Mcp-Session-Id", &second)],
        &ping,
        bob,
    )
    .await;
    assert_eq!(bobs.status, StatusCode::OK);
}
