//! Trusted proxies (issue 48): behind a reverse proxy every connection comes from the proxy,
//! so the client is taken from `X-Forwarded-For` / `Forwarded` — when, and only when, the
//! connection comes from a listed proxy. Two clients behind the proxy are two clients for the
//! per-client session share (one's `initialize` flood leaves the other's session served); a
//! client that is not a listed proxy is not believed; the proxy's own connections are not
//! held to one client's connection share.
#![cfg(feature = "http")]

use crate::http_support;

use http_support::*;
use mcpwire::http::HttpConfig;

/// Opens a session as the client `forwarded_for` names, and returns its id.
fn open_as(server: &Running, forwarded: (&str, &str)) -> String {
    let reply = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT, forwarded],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.session()
}

fn ping_status(server: &Running, session: &str, forwarded: (&str, &str)) -> u16 {
    let headers = [JSON, ACCEPT, ("Mcp-Session-Id", session), forwarded];
    request(server.addr, "POST", &headers, call(2, "ping").as_bytes()).status
}

/// One session per client: a client's second session ends its first (its own least
/// recently used), never another client's.
fn one_session_each() -> HttpConfig {
    HttpConfig::default().max_sessions_per_peer(1)
}

#[test]
fn two_clients_behind_a_trusted_proxy_are_two_clients() {
    let server = start(
        one_session_each().trusted_proxy("127.0.0.1".parse::<std::net::IpAddr>().unwrap()),
        Scripted { unsolicited: false },
    );
    let alice = ("X-Forwarded-For", "203.0.113.1");
    let bob = ("X-Forwarded-For", "198.51.100.7, 203.0.113.2");
    let alices = open_as(&server, alice);
    let bobs = open_as(&server, bob);
    assert_eq!(
        ping_status(&server, &alices, alice),
        200,
        "bob ended alice's session"
    );
    assert_eq!(ping_status(&server, &bobs, bob), 200);
    // Alice's second session ends her first: she is one client, at her share.
    let alices_second = open_as(&server, alice);
    assert_eq!(ping_status(&server, &alices, alice), 404);
    assert_eq!(ping_status(&server, &alices_second, alice), 200);
    assert_eq!(ping_status(&server, &bobs, bob), 200);
    // RFC 7239's header names the client as well.
    let carol = ("Forwarded", "for=\"[2001:db8::7]:4711\";proto=https");
    let carols = open_as(&server, carol);
    assert_eq!(ping_status(&server, &bobs, bob), 200);
    assert_eq!(ping_status(&server, &carols, carol), 200);
}

#[test]
fn a_client_that_is_not_a_listed_proxy_is_not_believed() {
    // The proxy is 127.0.0.2; the test connects from 127.0.0.1 and claims to forward.
    let server = start(
        one_session_each()
            .trusted_proxy("127.0.0.2".parse::<mcpwire::http::TrustedProxy>().unwrap()),
        Scripted { unsolicited: false },
    );
    let alice = ("X-Forwarded-For", "203.0.113.1");
    let spoofed = ("X-Forwarded-For", "203.0.113.2");
    let alices = open_as(&server, alice);
    let other = open_as(&server, spoofed);
    // Both came from the same (loopback) client, whatever the header said: at its share
    // of one, the second session ended the first.
    assert_eq!(ping_status(&server, &alices, alice), 404);
    assert_eq!(ping_status(&server, &other, spoofed), 200);
}

/// The attack of issue 48 through a proxy: one client floods `initialize` while another
/// holds a session. Through a trusted proxy the flood churns the flooder's own share only;
/// with the proxy not listed, every client behind it is one client and the flood ends the
/// other's session.
#[test]
fn an_initialize_flood_through_the_proxy_leaves_another_clients_session_served() {
    let bob = ("X-Forwarded-For", "198.51.100.7");
    let alice = ("X-Forwarded-For", "203.0.113.1");
    let trusted = HttpConfig::default()
        .max_sessions_per_peer(4)
        .trusted_proxy("127.0.0.1".parse::<std::net::IpAddr>().unwrap());
    let server = start(trusted, Scripted { unsolicited: false });
    let bobs = open_as(&server, bob);
    let mut flood = Vec::new();
    for round in 0..5 {
        flood.extend((0..10).map(|_| open_as(&server, alice)));
        assert_eq!(
            ping_status(&server, &bobs, bob),
            200,
            "after {} of alice's sessions",
            (round + 1) * 10
        );
    }
    // Alice holds her share, her newest sessions; her first ones ended.
    assert_eq!(ping_status(&server, &flood[0], alice), 404);
    for session in &flood[flood.len() - 4..] {
        assert_eq!(ping_status(&server, session, alice), 200);
    }

    // The same flood with the proxy not listed: one client, and bob's session is gone.
    let untrusted = HttpConfig::default().max_sessions_per_peer(4);
    let server = start(untrusted, Scripted { unsolicited: false });
    let bobs = open_as(&server, bob);
    for _ in 0..10 {
        open_as(&server, alice);
    }
    assert_eq!(ping_status(&server, &bobs, bob), 404);
}

/// A trusted proxy carries many clients over its connections: the per-client connection
/// share does not apply to it (the server's cap still does). A client that is not a listed
/// proxy gives way at its share.
#[test]
fn a_trusted_proxys_connections_are_not_held_to_one_clients_share() {
    let share = HttpConfig::default().max_connections_per_peer(2);
    for trusted in [true, false] {
        let config = if trusted {
            share
                .clone()
                .trusted_proxy("127.0.0.1".parse::<std::net::IpAddr>().unwrap())
        } else {
            share.clone()
        };
        let server = start(config, Scripted { unsolicited: false });
        let forwarded = ("X-Forwarded-For", "203.0.113.1");
        // Five kept-alive connections, each opened and used in turn.
        let mut connections = Vec::new();
        for _ in 0..5 {
            let mut connection = connect(server.addr);
            let reply = post_kept_alive(
                &mut connection,
                server.addr,
                &[JSON, ACCEPT, forwarded],
                INITIALIZE,
            );
            assert_eq!(reply.status, 200, "{}", reply.text());
            connections.push(connection);
        }
        if trusted {
            // Every connection is still open and served.
            for connection in &mut connections {
                let reply = post_kept_alive(
                    connection,
                    server.addr,
                    &[JSON, ACCEPT, forwarded],
                    INITIALIZE,
                );
                assert_eq!(reply.status, 200, "{}", reply.text());
            }
        } else {
            // At its share of two, the client's idle connections were closed for its new ones.
            assert!(closes_within(&mut connections[0], READ_LIMIT));
        }
    }
}
