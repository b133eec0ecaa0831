//! `HttpServer::run_graceful`: once shut down, new connections are refused, an idle
//! connection is closed at once, and a stream that would never end (a GET stream) is cut
//! when the grace has passed, so the server returns within it.
#![cfg(feature = "http")]

use crate::http_support;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use http_support::*;
use mcpwire::http::{HttpConfig, HttpServer};

#[test]
fn a_graceful_shutdown_cuts_what_outlasts_its_grace_and_returns() {
    let config = HttpConfig::default().bind("127.0.0.1:0".parse().unwrap());
    let server = HttpServer::bind(config, Scripted { unsolicited: true }).unwrap();
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (done_tx, done) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let grace = Duration::from_millis(500);
        let served = runtime.block_on(server.run_graceful(
            async {
                let _ = stopped.await;
            },
            grace,
        ));
        done_tx.send((served.is_ok(), Instant::now())).unwrap();
    });
    let session = open_session(addr);
    let mut get = connect(addr);
    let get_headers = [
        ("Accept", "text/event-stream"),
        ("Mcp-Session-Id", &session),
    ];
    get.write_all(head(addr, "GET", "/mcp", &get_headers, 0).as_bytes())
        .unwrap();
    let opened = read_until(&mut get, READ_LIMIT, |raw| raw.ends_with(b"\r\n\r\n"));
    assert!(opened.starts_with(b"HTTP/1.1 200"), "{opened:?}");
    let mut idle = connect(addr);

    let asked = Instant::now();
    stop.send(()).unwrap();
    // The idle connection is closed at once; the GET stream when the grace has passed.
    assert!(closes_within(&mut idle, Duration::from_millis(400)));
    std::thread::sleep(Duration::from_millis(100));
    assert!(TcpStream::connect(addr).is_err(), "accepted after shutdown");
    assert!(closes_within(&mut get, Duration::from_secs(3)));
    let (ok, returned) = done.recv_timeout(Duration::from_secs(5)).expect("returned");
    assert!(ok);
    let took = returned - asked;
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_secs(3),
        "{took:?}"
    );
    thread.join().unwrap();
}
