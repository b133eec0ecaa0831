//! The endpoint as an OAuth 2.1 protected resource (feature `auth`), over real HTTP on
//! loopback: keys generated here, the issuer's metadata and JWKS served by a loopback test
//! server, every refusal checked by its status and `WWW-Authenticate` challenge.
#![cfg(feature = "auth")]

use crate::example;
use crate::http_support;

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_support::{ACCEPT, INITIALIZE, JSON, Reply, request_to};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcpwire::http::{HttpConfig, HttpServer};
use mcpwire_server::auth::{
    IntrospectionValidator, JwtValidator, JwtValidatorBuilder, ResourceServer,
};
use mcpwire_server::{Context, McpServer};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde_json::{Value, json};

/// A P-256 signing key generated for the test, and its public JWK.
struct SigningKey {
    kid: String,
    pkcs8: Vec<u8>,
    jwk: Value,
}

impl SigningKey {
    fn generate(kid: &str) -> SigningKey {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .unwrap();
        // The uncompressed point: 0x04, x, y.
        let point = pair.public_key().as_ref();
        let jwk = json!({
            "kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        });
        SigningKey {
            kid: kid.to_owned(),
            pkcs8: pkcs8.as_ref().to_vec(),
            jwk,
        }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ec_der(&self.pkcs8)).unwrap()
    }
}

/// The authorization server's documents on loopback: its RFC 8414 metadata and its JWKS
/// (replaceable, to rotate keys), counting the JWKS fetches.
struct Issuer {
    url: String,
    jwks: Arc<Mutex<Value>>,
    fetches: Arc<AtomicUsize>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Issuer {
    fn start(keys: &[&SigningKey]) -> Issuer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let jwks = Arc::new(Mutex::new(json!({"keys": []})));
        let fetches = Arc::new(AtomicUsize::new(0));
        let metadata = json!({"issuer": url, "jwks_uri": format!("{url}/jwks")}).to_string();
        let as_json = |text: String| {
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                text,
            )
        };
        let (served, counted) = (Arc::clone(&jwks), Arc::clone(&fetches));
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(move || {
                    let text = metadata.clone();
                    async move { as_json(text) }
                }),
            )
            .route(
                "/jwks",
                axum::routing::get(move || {
                    counted.fetch_add(1, Ordering::SeqCst);
                    let text = served.lock().unwrap().to_string();
                    async move { as_json(text) }
                }),
            );
        let issuer = Issuer {
            url,
            jwks,
            fetches,
            _stop: serve_loopback(listener, app),
        };
        issuer.publish(keys);
        issuer
    }

    fn publish(&self, keys: &[&SigningKey]) {
        let keys: Vec<Value> = keys.iter().map(|key| key.jwk.clone()).collect();
        *self.jwks.lock().unwrap() = json!({ "keys": keys });
    }

    fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}

/// Serves `app` on `listener` (loopback) on a thread of its own until the sender is dropped.
fn serve_loopback(listener: TcpListener, app: axum::Router) -> tokio::sync::oneshot::Sender<()> {
    listener.set_nonblocking(true).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    on_own_thread(move || async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    stop
}

/// Runs the future `task` makes on a runtime of a thread of its own.
fn on_own_thread<F: std::future::Future<Output = ()>>(task: impl FnOnce() -> F + Send + 'static) {
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(task());
    });
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Answers with the caller's subject and scopes, as the handler's `Context` tells them.
async fn whoami(_: mcpwire_server::NoArguments, context: Context) -> Result<String, String> {
    let identity = context.identity().ok_or("no identity")?;
    let scopes: Vec<&str> = identity.scopes.iter().map(String::as_str).collect();
    Ok(format!("{} {}", identity.subject, scopes.join(" ")))
}

/// The protected MCP server on loopback.
struct Protected {
    addr: SocketAddr,
    resource: String,
    _running: Running,
}

struct Running {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

const SCOPES: [&str; 2] = ["mcp:tools", "mcp:read"];

impl Protected {
    /// The server guarded by the JWT validator of `issuer` (with `validator`'s additions)
    /// and the test's scopes.
    fn start(
        issuer: &Issuer,
        validator: impl FnOnce(JwtValidatorBuilder) -> JwtValidatorBuilder,
    ) -> Protected {
        Protected::guarded(|resource| {
            let validator = validator(
                JwtValidator::builder(issuer.url.clone(), resource).allow_loopback_http(true),
            )
            .build()
            .unwrap();
            let mut guard = ResourceServer::builder(resource)
                .authorization_server(issuer.url.clone())
                .supported_scope("mcp:admin")
                .tool_scope("purge", "mcp:admin")
                .scope_implies("mcp:owner", "mcp:superuser")
                .scope_implies("mcp:superuser", "mcp:admin");
            for scope in SCOPES {
                guard = guard.required_scope(scope);
            }
            guard.build(validator).unwrap()
        })
    }

    /// Serves on a port chosen first, so that the resource URI names it, behind the guard
    /// `guard` builds for that URI.
    fn guarded(guard: impl FnOnce(&str) -> ResourceServer) -> Protected {
        Protected::configured(HttpConfig::default(), guard)
    }

    /// [`guarded`](Self::guarded) with `config`'s settings.
    fn configured(config: HttpConfig, guard: impl FnOnce(&str) -> ResourceServer) -> Protected {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let resource = format!("http://{addr}/mcp");
        let guard = guard(&resource);
        let server = McpServer::builder("protected", "1")
            .tool("whoami", "Names the caller", whoami)
            .tool("purge", "Needs mcp:admin", whoami)
            .build()
            .unwrap();
        let config = config.bind(addr).guard(guard);
        let http = HttpServer::bind(config, server.http_service()).unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime
                .block_on(http.run_until(async {
                    let _ = stopped.await;
                }))
                .unwrap();
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        Protected {
            addr,
            resource,
            _running: Running {
                stop: Some(stop),
                thread: Some(thread),
            },
        }
    }

    fn metadata_url(&self) -> String {
        format!(
            "http://{}/.well-known/oauth-protected-resource/mcp",
            self.addr
        )
    }

    /// The claims of a token this server accepts, for `subject`.
    fn claims(&self, issuer: &Issuer, subject: &str) -> Value {
        json!({
            "iss": issuer.url, "sub": subject, "aud": self.resource,
            "exp": now() + 300, "iat": now(), "scope": "mcp:tools mcp:read",
        })
    }

    fn send(&self, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
        request_to(self.addr, method, "/mcp", headers, body.as_bytes())
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// Asserts a 401 whose challenge points at the metadata and names the required scopes, with
/// `error="invalid_token"` exactly when `invalid` is set.
fn assert_challenge(reply: &Reply, protected: &Protected, invalid: bool, what: &str) {
    assert_eq!(reply.status, 401, "{what}: {}", reply.text());
    let challenge = reply
        .header("www-authenticate")
        .unwrap_or_else(|| panic!("{what}: no WWW-Authenticate"));
    let expected = format!(
        "Bearer resource_metadata=\"{}\", scope=\"mcp:tools mcp:read\"",
        protected.metadata_url()
    );
    assert!(challenge.starts_with(&expected), "{what}: {challenge}");
    assert_eq!(
        challenge.contains("error=\"invalid_token\""),
        invalid,
        "{what}: {challenge}"
    );
}

/// Opens a session with `token`; its id.
fn open(protected: &Protected, token: &str) -> String {
    let auth = bearer(token);
    let opened = protected.send(
        "POST",
        &[JSON, ACCEPT, ("Authorization", &auth)],
        INITIALIZE,
    );
    assert_eq!(opened.status, 200, "{}", opened.text());
    opened.session()
}

const CALL: &str =
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}"#;

#[test]
fn the_metadata_is_served_at_both_well_known_uris_without_a_token() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = request_to(protected.addr, "GET", path, &[], b"");
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let document = reply.json();
        assert_eq!(
            document["resource"],
            protected.resource.as_str(),
            "{document}"
        );
        assert_eq!(document["authorization_servers"], json!([issuer.url]));
        assert_eq!(
            document["scopes_supported"],
            json!(["mcp:admin", "mcp:tools", "mcp:read"])
        );
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
        // The same Host and Origin checks as the endpoint.
        for foreign in [("Host", "evil.example"), ("Origin", "https://evil.example")] {
            let refused = request_to(protected.addr, "GET", path, &[foreign], b"");
            assert_eq!(refused.status, 403, "{path} {foreign:?}");
        }
        let post = request_to(protected.addr, "POST", path, &[JSON], b"{}");
        assert_eq!(post.status, 405, "{path}");
    }
}

#[test]
fn offline_access_and_an_empty_server_list_are_refused_at_build() {
    let validator = || {
        JwtValidator::builder("https://as.example", "https://mcp.example/mcp")
            .build()
            .unwrap()
    };
    let no_server = ResourceServer::builder("https://mcp.example/mcp").build(validator());
    assert!(no_server.is_err());
    let offline = ResourceServer::builder("https://mcp.example/mcp")
        .authorization_server("https://as.example")
        .supported_scope("offline_access")
        .build(validator());
    assert!(offline.is_err());
    let http_issuer =
        JwtValidator::builder("http://127.0.0.1:9", "https://mcp.example/mcp").build();
    assert!(http_issuer.is_err(), "loopback http needs asking for");
    let remote_http = JwtValidator::builder("http://as.example", "https://mcp.example/mcp")
        .allow_loopback_http(true)
        .build();
    assert!(remote_http.is_err());
}

#[test]
fn post_get_and_delete_without_a_valid_token_get_the_challenge() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let session = open(&protected, &key.sign(&protected.claims(&issuer, "alice")));
    let with_session = ("Mcp-Session-Id", session.as_str());
    let sse = ("Accept", "text/event-stream");
    for (method, headers, body) in [
        ("POST", vec![JSON, ACCEPT], INITIALIZE),
        ("POST", vec![JSON, ACCEPT, with_session], CALL),
        ("GET", vec![sse, with_session], ""),
        ("DELETE", vec![with_session], ""),
    ] {
        let what = format!("{method} {body}");
        let none = protected.send(method, &headers, body);
        assert_challenge(&none, &protected, false, &format!("{what} without a token"));
        for (value, invalid) in [("foo", false), ("Bearer garbage", true), ("Bearer", true)] {
            let mut with = headers.clone();
            with.push(("Authorization", value));
            let refused = protected.send(method, &with, body);
            assert_challenge(
                &refused,
                &protected,
                invalid,
                &format!("{what} with {value:?}"),
            );
        }
    }
    // The session is still there for its owner.
    let auth = bearer(&key.sign(&protected.claims(&issuer, "alice")));
    let called = protected.send(
        "POST",
        &[JSON, ACCEPT, with_session, ("Authorization", &auth)],
        CALL,
    );
    assert_eq!(called.status, 200, "{}", called.text());
}

#[test]
fn a_token_in_the_query_string_is_never_read() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let token = key.sign(&protected.claims(&issuer, "alice"));
    let path = format!("/mcp?access_token={token}");
    let reply = request_to(
        protected.addr,
        "POST",
        &path,
        &[JSON, ACCEPT],
        INITIALIZE.as_bytes(),
    );
    assert_challenge(&reply, &protected, false, "a query token alone");
    // Sent two ways at once: a malformed request (RFC 6750 §2).
    let auth = bearer(&token);
    let both = request_to(
        protected.addr,
        "POST",
        &path,
        &[JSON, ACCEPT, ("Authorization", &auth)],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(both.status, 400, "{}", both.text());
    // Two Authorization headers: as malformed.
    let twice = protected.send(
        "POST",
        &[
            JSON,
            ACCEPT,
            ("Authorization", &auth),
            ("Authorization", &auth),
        ],
        INITIALIZE,
    );
    assert_eq!(twice.status, 400, "{}", twice.text());
    assert!(
        twice
            .header("www-authenticate")
            .unwrap()
            .contains("invalid_request")
    );
    assert!(
        both.header("www-authenticate")
            .unwrap()
            .contains("invalid_request")
    );
}

#[test]
fn origin_and_host_are_checked_before_the_token() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let auth = bearer(&key.sign(&protected.claims(&issuer, "alice")));
    for foreign in [("Origin", "https://evil.example"), ("Host", "evil.example")] {
        for authorization in [None, Some(auth.as_str())] {
            let mut headers = vec![JSON, ACCEPT, foreign];
            if let Some(value) = authorization {
                headers.push(("Authorization", value));
            }
            let reply = protected.send("POST", &headers, INITIALIZE);
            assert_eq!(reply.status, 403, "{foreign:?} {authorization:?}");
            assert!(reply.header("www-authenticate").is_none(), "{foreign:?}");
        }
    }
}

#[test]
fn each_class_of_bad_token_is_refused_and_the_right_one_accepted() {
    let key = SigningKey::generate("a");
    let stranger = SigningKey::generate("a"); // same kid, another key
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let good = protected.claims(&issuer, "alice");
    let with = |change: &dyn Fn(&mut Value)| {
        let mut claims = good.clone();
        change(&mut claims);
        key.sign(&claims)
    };
    let signed = key.sign(&good);
    let parts: Vec<&str> = signed.split('.').collect();
    let encode = |value: &Value| URL_SAFE_NO_PAD.encode(value.to_string());
    let altered = {
        let mut claims = good.clone();
        claims["sub"] = json!("mallory");
        format!("{}.{}.{}", parts[0], encode(&claims), parts[2])
    };
    let unsigned = format!("{}.{}.", parts[0], parts[1]);
    let none = format!(
        "{}.{}.",
        encode(&json!({"alg": "none", "typ": "JWT", "kid": "a"})),
        parts[1]
    );
    // HS256 keyed with the public key: the classic confusion of a public key with a secret.
    let public = key.jwk.to_string();
    let hs256 = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("a".to_owned());
        jsonwebtoken::encode(&header, &good, &EncodingKey::from_secret(public.as_bytes())).unwrap()
    };
    // A symmetric key slipped into the JWKS, and a token HMAC-signed with it.
    let secret = b"a shared secret of 32 bytes, ok!";
    issuer.jwks.lock().unwrap()["keys"]
        .as_array_mut()
        .unwrap()
        .push(json!({"kty": "oct", "kid": "hmac", "k": URL_SAFE_NO_PAD.encode(secret)}));
    let hmac_jwks = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("hmac".to_owned());
        jsonwebtoken::encode(&header, &good, &EncodingKey::from_secret(secret)).unwrap()
    };
    let cases: Vec<(&str, String)> = vec![
        ("HS256 with an oct key of the JWKS", hmac_jwks),
        ("unsigned", unsigned),
        ("alg none", none),
        ("HS256 with the public key", hs256),
        ("altered payload", altered),
        ("signed by another key", stranger.sign(&good)),
        ("expired", with(&|c| c["exp"] = json!(now() - 600))),
        ("not yet valid", with(&|c| c["nbf"] = json!(now() + 600))),
        (
            "wrong audience",
            with(&|c| c["aud"] = json!("http://127.0.0.1:1/mcp")),
        ),
        (
            "wrong issuer",
            with(&|c| c["iss"] = json!("http://127.0.0.1:1")),
        ),
        (
            "no expiry",
            with(&|c| drop(c.as_object_mut().unwrap().remove("exp"))),
        ),
        (
            "no subject",
            with(&|c| drop(c.as_object_mut().unwrap().remove("sub"))),
        ),
    ];
    for (what, token) in &cases {
        let auth = bearer(token);
        let reply = protected.send(
            "POST",
            &[JSON, ACCEPT, ("Authorization", &auth)],
            INITIALIZE,
        );
        assert_challenge(&reply, &protected, true, what);
    }
    // Within the leeway, a just-expired token still passes; the right token does.
    let just_expired = with(&|c| c["exp"] = json!(now() - 5));
    open(&protected, &just_expired);
    let session = open(&protected, &signed);
    let auth = bearer(&signed);
    let called = protected.send(
        "POST",
        &[
            JSON,
            ACCEPT,
            ("Mcp-Session-Id", &session),
            ("Authorization", &auth),
        ],
        CALL,
    );
    assert_eq!(called.status, 200, "{}", called.text());
    assert_eq!(
        called.json()["result"]["content"][0]["text"],
        "alice mcp:read mcp:tools"
    );
}

#[test]
fn a_token_lacking_scope_gets_403_naming_every_scope_needed() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let mut claims = protected.claims(&issuer, "alice");
    claims["scope"] = json!("mcp:tools mcp:admin");
    let auth = bearer(&key.sign(&claims));
    let reply = protected.send(
        "POST",
        &[JSON, ACCEPT, ("Authorization", &auth)],
        INITIALIZE,
    );
    assert_eq!(reply.status, 403, "{}", reply.text());
    let challenge = reply.header("www-authenticate").unwrap();
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains("scope=\"mcp:tools mcp:read\""),
        "{challenge}"
    );
    assert!(challenge.contains(&protected.metadata_url()), "{challenge}");
    // GET and DELETE too: no message, the endpoint's scopes.
    let session = open(&protected, &key.sign(&protected.claims(&issuer, "alice")));
    let with_session = ("Mcp-Session-Id", session.as_str());
    let stream = [
        ("Accept", "text/event-stream"),
        with_session,
        ("Authorization", &auth),
    ];
    assert_eq!(protected.send("GET", &stream, "").status, 403);
    let delete = protected.send("DELETE", &[with_session, ("Authorization", &auth)], "");
    assert_eq!(delete.status, 403);
}

#[test]
fn a_session_answers_only_the_subject_that_opened_it() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let alice = bearer(&key.sign(&protected.claims(&issuer, "alice")));
    let bob = bearer(&key.sign(&protected.claims(&issuer, "bob")));
    let session = open(&protected, &alice["Bearer ".len()..]);
    let with_session = ("Mcp-Session-Id", session.as_str());
    let as_bob = protected.send(
        "POST",
        &[JSON, ACCEPT, with_session, ("Authorization", &bob)],
        CALL,
    );
    assert_eq!(as_bob.status, 404, "{}", as_bob.text());
    let stream = protected.send(
        "GET",
        &[
            ("Accept", "text/event-stream"),
            with_session,
            ("Authorization", &bob),
        ],
        "",
    );
    assert_eq!(stream.status, 404);
    let deleted = protected.send("DELETE", &[with_session, ("Authorization", &bob)], "");
    assert_eq!(deleted.status, 404);
    let as_alice = protected.send(
        "POST",
        &[JSON, ACCEPT, with_session, ("Authorization", &alice)],
        CALL,
    );
    assert_eq!(as_alice.status, 200, "{}", as_alice.text());
    let ended = protected.send("DELETE", &[with_session, ("Authorization", &alice)], "");
    assert_eq!(ended.status, 204);
}

#[test]
fn an_unknown_kid_is_fetched_again_at_most_once_per_interval_and_rotation_followed() {
    let old = SigningKey::generate("old");
    let new = SigningKey::generate("new");
    let issuer = Issuer::start(&[&old]);
    let interval = Duration::from_millis(800);
    let jwks = format!("{}/jwks", issuer.url);
    let protected = Protected::start(&issuer, |v| v.jwks_url(jwks).min_refetch_interval(interval));
    let claims = protected.claims(&issuer, "alice");
    open(&protected, &old.sign(&claims));
    assert_eq!(issuer.fetches(), 1);
    // The issuer rotates; tokens signed with the new key arrive at once.
    issuer.publish(&[&old, &new]);
    let fresh = bearer(&new.sign(&claims));
    for _ in 0..5 {
        let reply = protected.send(
            "POST",
            &[JSON, ACCEPT, ("Authorization", &fresh)],
            INITIALIZE,
        );
        assert_challenge(&reply, &protected, true, "a kid fetched too recently");
    }
    assert_eq!(
        issuer.fetches(),
        1,
        "unknown kids within the interval fetch nothing"
    );
    std::thread::sleep(interval + Duration::from_millis(100));
    open(&protected, &new.sign(&claims));
    assert_eq!(issuer.fetches(), 2, "one fetch found the new key");
    // A flood of made-up kids costs at most one fetch per interval.
    let bogus = SigningKey::generate("bogus");
    let bogus = bearer(&bogus.sign(&claims));
    std::thread::sleep(interval + Duration::from_millis(100));
    for _ in 0..10 {
        let reply = protected.send(
            "POST",
            &[JSON, ACCEPT, ("Authorization", &bogus)],
            INITIALIZE,
        );
        assert_challenge(&reply, &protected, true, "a made-up kid");
    }
    assert_eq!(issuer.fetches(), 3);
}

#[test]
fn a_tool_with_its_own_scope_needs_it_and_the_403_names_every_scope_of_the_call() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let claims = protected.claims(&issuer, "alice");
    let session = open(&protected, &key.sign(&claims));
    let purge = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"purge","arguments":{}}}"#;
    let call = |claims: &Value, body: &str| {
        let auth = bearer(&key.sign(claims));
        protected.send(
            "POST",
            &[
                JSON,
                ACCEPT,
                ("Mcp-Session-Id", &session),
                ("Authorization", &auth),
            ],
            body,
        )
    };
    let refused = call(&claims, purge);
    assert_eq!(refused.status, 403, "{}", refused.text());
    let challenge = refused.header("www-authenticate").unwrap();
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains("scope=\"mcp:tools mcp:read mcp:admin\""),
        "{challenge}"
    );
    // Another tool of the same session needs only the endpoint's scopes.
    assert_eq!(call(&claims, CALL).status, 200);
    let mut admin = claims.clone();
    admin["scope"] = json!("mcp:tools mcp:read mcp:admin");
    let allowed = call(&admin, purge);
    assert_eq!(allowed.status, 200, "{}", allowed.text());
    assert!(allowed.json()["result"].is_object(), "{}", allowed.text());
    // Scope hierarchies: mcp:owner implies mcp:superuser, which implies mcp:admin.
    for broader in ["mcp:superuser", "mcp:owner"] {
        let mut claims = claims.clone();
        claims["scope"] = json!(format!("mcp:tools mcp:read {broader}"));
        let allowed = call(&claims, purge);
        assert_eq!(allowed.status, 200, "{broader}: {}", allowed.text());
    }
}

#[test]
fn an_allowed_page_may_send_a_token_and_read_the_challenge() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let page = ("Origin", "http://localhost:5173");
    let preflight = protected.send(
        "OPTIONS",
        &[page, ("Access-Control-Request-Method", "POST")],
        "",
    );
    assert_eq!(preflight.status, 204, "a preflight carries no token");
    let allowed = preflight.header("access-control-allow-headers").unwrap();
    assert!(allowed.contains("Authorization"), "{allowed}");
    let refused = protected.send("POST", &[JSON, ACCEPT, page], INITIALIZE);
    assert_challenge(&refused, &protected, false, "a page without a token");
    let exposed = refused.header("access-control-expose-headers").unwrap();
    assert!(exposed.contains("WWW-Authenticate"), "{exposed}");
}

/// An RFC 7662 introspection endpoint on loopback: `good-<subject>` is active for the
/// audience, `elsewhere` for another audience, anything else inactive; counts its calls and
/// refuses a client without the right credentials.
fn introspection_endpoint(
    audience: &str,
) -> (String, Arc<AtomicUsize>, tokio::sync::oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/introspect", listener.local_addr().unwrap());
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let audience = audience.to_owned();
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode("rs:s3cret")
    );
    let app = axum::Router::new().route(
        "/introspect",
        axum::routing::post(move |headers: axum::http::HeaderMap, body: String| {
            counted.fetch_add(1, Ordering::SeqCst);
            let authorized = headers
                .get("authorization")
                .is_some_and(|value| value.as_bytes() == expected.as_bytes());
            let token = form_urlencoded::parse(body.as_bytes())
                .find(|(name, _)| name == "token")
                .map(|(_, value)| value.into_owned())
                .unwrap_or_default();
            let answer = if !authorized {
                json!({"error": "invalid_client"})
            } else if let Some(subject) = token.strip_prefix("good-") {
                json!({"active": true, "sub": subject, "aud": audience, "scope": "mcp:tools",
                       "exp": now() + 300})
            } else if token == "elsewhere" {
                json!({"active": true, "sub": "x", "aud": "http://127.0.0.1:1/mcp",
                       "scope": "mcp:tools", "exp": now() + 300})
            } else {
                json!({"active": false})
            };
            let status = if authorized { 200 } else { 401 };
            async move {
                (
                    axum::http::StatusCode::from_u16(status).unwrap(),
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    answer.to_string(),
                )
            }
        }),
    );
    let stop = serve_loopback(listener, app);
    (url, calls, stop)
}

#[test]
fn introspected_tokens_are_accepted_only_when_active_for_this_resource_and_cached() {
    let mut endpoint = None;
    let protected = Protected::guarded(|resource| {
        let (url, calls, stop) = introspection_endpoint(resource);
        let validator = IntrospectionValidator::builder(url.clone(), "rs", "s3cret", resource)
            .allow_loopback_http(true)
            .build()
            .unwrap();
        endpoint = Some((calls, stop));
        ResourceServer::builder(resource)
            .authorization_server("http://127.0.0.1:1")
            .required_scope("mcp:tools")
            .build(validator)
            .unwrap()
    });
    let (calls, _stop) = endpoint.unwrap();
    let session = open(&protected, "good-alice");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let called = protected.send(
        "POST",
        &[
            JSON,
            ACCEPT,
            ("Mcp-Session-Id", &session),
            ("Authorization", "Bearer good-alice"),
        ],
        CALL,
    );
    assert_eq!(called.status, 200, "{}", called.text());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the second request is answered from the cache"
    );
    for token in ["Bearer inactive", "Bearer elsewhere"] {
        let reply = protected.send(
            "POST",
            &[JSON, ACCEPT, ("Authorization", token)],
            INITIALIZE,
        );
        assert_eq!(reply.status, 401, "{token}");
        let challenge = reply.header("www-authenticate").unwrap();
        assert!(
            challenge.contains("error=\"invalid_token\""),
            "{token}: {challenge}"
        );
    }
}

#[test]
fn introspection_with_wrong_client_credentials_refuses_with_503() {
    let mut endpoint = None;
    let protected = Protected::guarded(|resource| {
        let (url, calls, stop) = introspection_endpoint(resource);
        let validator = IntrospectionValidator::builder(url, "rs", "wrong", resource)
            .allow_loopback_http(true)
            .build()
            .unwrap();
        endpoint = Some((calls, stop));
        ResourceServer::builder(resource)
            .authorization_server("http://127.0.0.1:1")
            .build(validator)
            .unwrap()
    });
    let reply = protected.send(
        "POST",
        &[JSON, ACCEPT, ("Authorization", "Bearer good-alice")],
        INITIALIZE,
    );
    assert_eq!(reply.status, 503, "never let through: {}", reply.text());
}

#[test]
fn the_conformance_example_runs_protected() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let audience = "http://127.0.0.1/mcp";
    let example = example::Example::start_named(
        "conformance",
        &[
            "--http",
            "127.0.0.1:0",
            "--auth-issuer",
            &issuer.url,
            "--auth-audience",
            audience,
            "--auth-scope",
            "mcp:tools",
            "--auth-allow-loopback-http",
        ],
    );
    let refused = request_to(
        example.addr,
        "POST",
        "/mcp",
        &[JSON, ACCEPT],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(refused.status, 401);
    let challenge = refused.header("www-authenticate").unwrap();
    assert!(challenge.contains("scope=\"mcp:tools\""), "{challenge}");
    let claims = json!({
        "iss": issuer.url, "sub": "alice", "aud": audience,
        "exp": now() + 300, "scope": "mcp:tools",
    });
    let auth = bearer(&key.sign(&claims));
    let opened = request_to(
        example.addr,
        "POST",
        "/mcp",
        &[JSON, ACCEPT, ("Authorization", &auth)],
        INITIALIZE.as_bytes(),
    );
    assert_eq!(opened.status, 200, "{}", opened.text());
}

#[test]
fn a_stateless_request_hands_its_own_callers_identity_to_the_handler() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::configured(HttpConfig::default().stateless(true), |resource| {
        let validator = JwtValidator::builder(issuer.url.clone(), resource)
            .allow_loopback_http(true)
            .build()
            .unwrap();
        ResourceServer::builder(resource)
            .authorization_server(issuer.url.clone())
            .required_scope("mcp:tools")
            .build(validator)
            .unwrap()
    });
    let body = json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "whoami", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }}
    })
    .to_string();
    let routing = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "whoami"),
    ];
    let refused = protected.send("POST", &routing, &body);
    assert_eq!(refused.status, 401);
    for subject in ["alice", "bob"] {
        let mut claims = protected.claims(&issuer, subject);
        claims["scope"] = json!("mcp:tools");
        let auth = bearer(&key.sign(&claims));
        let mut headers = routing.to_vec();
        headers.push(("Authorization", &auth));
        let called = protected.send("POST", &headers, &body);
        assert_eq!(called.status, 200, "{}", called.text());
        assert_eq!(
            called.json()["result"]["content"][0]["text"],
            format!("{subject} mcp:tools")
        );
    }
}

/// After a step-up the client sends a new token of the same subject on the session it has:
/// the handler of each call sees the scopes of the token that call came with, not those of
/// the token that opened the session.
#[test]
fn each_request_of_a_session_hands_its_own_tokens_identity_to_the_handler() {
    let key = SigningKey::generate("a");
    let issuer = Issuer::start(&[&key]);
    let protected = Protected::start(&issuer, |v| v);
    let first = key.sign(&protected.claims(&issuer, "alice"));
    let mut stepped = protected.claims(&issuer, "alice");
    stepped["scope"] = json!("mcp:tools mcp:read mcp:admin");
    let stepped = key.sign(&stepped);
    let session = open(&protected, &first);
    let call = |token: &str| {
        let auth = bearer(token);
        let called = protected.send(
            "POST",
            &[
                JSON,
                ACCEPT,
                ("Mcp-Session-Id", session.as_str()),
                ("Authorization", &auth),
            ],
            CALL,
        );
        assert_eq!(called.status, 200, "{}", called.text());
        called.json()["result"]["content"][0]["text"].clone()
    };
    assert_eq!(call(&first), "alice mcp:read mcp:tools");
    assert_eq!(call(&stepped), "alice mcp:admin mcp:read mcp:tools");
    assert_eq!(call(&first), "alice mcp:read mcp:tools");
}

/// An issuer over https on loopback: its JWKS (`/jwks`) and RFC 8414 metadata behind a
/// certificate for 127.0.0.1 issued by a CA generated here. Its URL and the CA's PEM.
fn https_issuer(keys: &[&SigningKey]) -> (String, String, tokio::sync::oneshot::Sender<()>) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer as CaIssuer, KeyPair};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_key = KeyPair::generate().unwrap();
    let ca_pem = ca.self_signed(&ca_key).unwrap().pem();
    let ca = CaIssuer::new(ca, ca_key);
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
    let key = KeyPair::generate().unwrap();
    let certificate = leaf.signed_by(&key, &ca).unwrap().der().clone();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    let keys: Vec<Value> = keys.iter().map(|key| key.jwk.clone()).collect();
    let jwks = json!({ "keys": keys }).to_string();
    let metadata = json!({"issuer": url, "jwks_uri": format!("{url}/jwks")}).to_string();
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    on_own_thread(move || async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        loop {
            let (tcp, _) = tokio::select! {
                accepted = listener.accept() => accepted.unwrap(),
                _ = &mut stopped => return,
            };
            let Ok(mut tls) = acceptor.accept(tcp).await else {
                continue; // a client that does not trust the CA gives up here
            };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                if tls.read(&mut byte).await.unwrap_or(0) == 0 {
                    break;
                }
                head.push(byte[0]);
            }
            let text = String::from_utf8_lossy(&head);
            let body = if text.starts_with("GET /jwks ") {
                &jwks
            } else {
                &metadata
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = tls.write_all(answer.as_bytes()).await;
            let _ = tls.shutdown().await;
        }
    });
    (url, ca_pem, stop)
}

#[test]
fn the_issuers_documents_come_over_https_verified_against_the_given_root() {
    let key = SigningKey::generate("a");
    let (url, ca_pem, _stop) = https_issuer(&[&key]);
    let start = |trusted: bool| {
        Protected::guarded(|resource| {
            let mut validator = JwtValidator::builder(url.clone(), resource);
            if trusted {
                validator = validator.root_certificates_pem(ca_pem.clone());
            }
            ResourceServer::builder(resource)
                .authorization_server(url.clone())
                .build(validator.build().unwrap())
                .unwrap()
        })
    };
    let protected = start(true);
    let claims = json!({
        "iss": url, "sub": "alice", "aud": protected.resource, "exp": now() + 300,
    });
    open(&protected, &key.sign(&claims));
    // Without the CA the issuer's certificate is not trusted: nothing is let through.
    let untrusting = start(false);
    let mut claims = claims.clone();
    claims["aud"] = json!(untrusting.resource);
    let auth = bearer(&key.sign(&claims));
    let refused = untrusting.send(
        "POST",
        &[JSON, ACCEPT, ("Authorization", &auth)],
        INITIALIZE,
    );
    assert_eq!(refused.status, 503, "{}", refused.text());
}
