//! The Streamable HTTP transport's time settings and its refusal to follow redirects, against
//! loopback servers that misbehave on purpose: one that never answers, one that accepts TCP
//! but never speaks TLS, one that redirects every request to another origin.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcpwire_client::{Client, ClientError, HttpTransport, Version};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A loopback listener whose connections `serve` handles; its port and how many connections
/// it accepted.
async fn listener<F, Fut>(serve: F) -> (u16, Arc<AtomicUsize>)
where
    F: Fn(tokio::net::TcpStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve(stream));
        }
    });
    (port, accepted)
}

/// Reads what the client sends and never answers (for at most 30 s).
async fn silent(mut stream: tokio::net::TcpStream) {
    let mut buffer = [0u8; 4096];
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return,
            _ => {}
        }
    }
}

/// Connects a client with a 20 s call timeout; returns the outcome and how long it took.
async fn connect(transport: HttpTransport) -> (Result<Client, ClientError>, Duration) {
    let started = Instant::now();
    let outcome = Client::builder("settings-test", "1.0.0")
        .protocol_version(Version::V2025_11_25)
        .request_timeout(Some(Duration::from_secs(20)))
        .connect(transport)
        .await;
    (outcome, started.elapsed())
}

#[tokio::test]
async fn the_response_timeout_bounds_the_wait_for_an_answer() {
    let (port, _) = listener(silent).await;
    let transport = HttpTransport::new(&format!("http://127.0.0.1:{port}/mcp"))
        .expect("a URL")
        .response_timeout(Duration::from_millis(300));
    let (outcome, took) = connect(transport).await;
    let Err(error) = outcome else {
        panic!("a server that never answers cannot be connected to");
    };
    assert!(took < Duration::from_secs(5), "took {took:?}: {error}");
    assert!(
        error
            .to_string()
            .contains("no answer to the request within 300ms"),
        "{error}"
    );
}

#[tokio::test]
async fn the_connect_timeout_bounds_the_tls_handshake() {
    // TCP connects at once; the TLS handshake never gets an answer.
    let (port, accepted) = listener(silent).await;
    let transport = HttpTransport::new(&format!("https://127.0.0.1:{port}/mcp"))
        .expect("a URL")
        .connect_timeout(Duration::from_millis(300));
    let (outcome, took) = connect(transport).await;
    let Err(error) = outcome else {
        panic!("a server that never speaks TLS cannot be connected to");
    };
    assert!(took < Duration::from_secs(5), "took {took:?}: {error}");
    assert!(
        error.to_string().contains("took longer than 300ms"),
        "{error}"
    );
    assert!(accepted.load(Ordering::SeqCst) >= 1);
}

#[tokio::test]
async fn a_redirect_is_not_followed_and_no_header_reaches_its_origin() {
    // The origin a redirect names: it must never be reached.
    let (elsewhere, reached) = listener(silent).await;
    let location = format!("http://localhost:{elsewhere}/mcp");
    let answer = format!(
        "HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n"
    );
    let (port, _) = listener(move |mut stream| {
        let answer = answer.clone();
        async move {
            let mut buffer = [0u8; 4096];
            if let Ok(1..) = stream.read(&mut buffer).await {
                let _ = stream.write_all(answer.as_bytes()).await;
            }
            silent(stream).await;
        }
    })
    .await;
    let transport = HttpTransport::new(&format!("http://127.0.0.1:{port}/mcp"))
        .expect("a URL")
        .header("Authorization", "Bearer secret")
        .expect("a header");
    let (outcome, took) = connect(transport).await;
    let Err(error) = outcome else {
        panic!("a redirected initialize cannot connect");
    };
    let error = error.to_string();
    assert!(took < Duration::from_secs(5), "took {took:?}: {error}");
    assert!(
        error.contains("HTTP 307") && error.contains(&location) && error.contains("not followed"),
        "{error}"
    );
    assert_eq!(
        reached.load(Ordering::SeqCst),
        0,
        "the redirect was followed"
    );
}
