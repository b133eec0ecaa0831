//! OAuth 2.1 (feature `oauth`) end to end on loopback: a protected MCP endpoint (a front
//! that demands a Bearer token before `mcpwire-server`) and an authorization server on
//! another port, both checking what the client sends (PKCE S256, `resource`, client
//! authentication, single-use codes) and recording every request. The user's part is a
//! [`LoopbackReceiver`] whose "browser" follows the authorization server's redirect to it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use http_body_util::{BodyExt, Either, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, LOCATION, WWW_AUTHENTICATE};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::client::legacy::Client as HttpClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use mcpwire::http::HttpConfig;
use mcpwire_client::auth::{LoopbackReceiver, MemoryTokenStore, OAuth, TokenStore};
use mcpwire_client::{CallOptions, Client, ClientError, HttpTransport, Version, result_text};
use mcpwire_server::{Context, McpServer, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::net::TcpListener;

type Body = Either<Full<Bytes>, Incoming>;

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// What the mock servers do differently from a correct pair.
#[derive(Clone, Default)]
struct Behaviour {
    /// The protected resource metadata's `resource` (default: the MCP endpoint; `{rs}`
    /// stands for the endpoint's origin).
    resource: Option<String>,
    /// The authorization server metadata's `issuer` (default: its URL).
    issuer: Option<String>,
    /// `code_challenge_methods_supported` (default `["S256"]`).
    methods: Option<Vec<&'static str>>,
    /// `token_endpoint_auth_methods_supported` (default: all three).
    token_auth_methods: Option<Vec<&'static str>>,
    /// The redirect's `state` is not the one sent.
    tamper_state: bool,
    /// The redirect's `iss` (default: the issuer).
    iss: Option<String>,
    /// The challenge names no `resource_metadata` URL.
    no_challenge_url: bool,
    /// The endpoint answers an authorized request with a 307 to this URL.
    redirect_to: Option<String>,
    /// `tools/call` needs this scope (else 403 insufficient_scope).
    tool_scope: Option<&'static str>,
    /// `tools/call` is always answered 403 insufficient_scope.
    always_forbidden: bool,
    /// `client_id_metadata_document_supported`.
    cimd: bool,
    /// The authorization server's `scopes_supported`.
    server_scopes: Option<Vec<&'static str>>,
    /// MCP 2025-03-26: no resource metadata; the endpoint's origin is the authorization
    /// server.
    legacy: bool,
    /// With `legacy`, no authorization server metadata either (the default endpoints).
    legacy_without_metadata: bool,
    /// The authorization server is served over https, its certificate issued by a CA
    /// generated for the test ([`Inner::ca_pem`]).
    tls_issuer: bool,
}

/// One request either mock server received.
#[derive(Debug, Clone)]
struct Record {
    server: &'static str,
    target: String,
    authorization: Option<String>,
    body: String,
}

/// A code the authorization server issued, and what it was issued for.
struct Grant {
    challenge: String,
    client_id: String,
    redirect_uri: String,
    scope: String,
    resource: String,
}

#[derive(Default)]
struct AsState {
    next: usize,
    /// Registered clients: their secret (`None`: public).
    clients: HashMap<String, Option<String>>,
    codes: HashMap<String, Grant>,
    /// Valid access tokens and their scope.
    access: HashMap<String, String>,
    /// Valid refresh tokens and their scope.
    refresh: HashMap<String, String>,
    /// Clients that authenticate with `private_key_jwt`: their public key (uncompressed
    /// P-256 point).
    jwt_keys: HashMap<String, Vec<u8>>,
}

struct Inner {
    endpoint: String,
    resource_base: String,
    issuer: String,
    /// The CA of the https authorization server ([`Behaviour::tls_issuer`]).
    ca_pem: Option<String>,
    behaviour: Behaviour,
    seen: Mutex<Vec<Record>>,
    state: Mutex<AsState>,
}

#[derive(Clone)]
struct Mock(Arc<Inner>);

impl Mock {
    fn seen(&self, server: &str, path: &str) -> Vec<Record> {
        self.0
            .seen
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|r| r.server == server && r.target.split('?').next() == Some(path))
            .cloned()
            .collect()
    }

    fn all(&self) -> Vec<Record> {
        self.0.seen.lock().expect("not poisoned").clone()
    }

    /// Forgets every access token (as if they expired), keeping refresh tokens.
    fn revoke_access_tokens(&self) {
        self.0.state.lock().expect("not poisoned").access.clear();
    }
}

fn reply(status: StatusCode, content_type: &str, body: String) -> Response<Body> {
    Response::builder()
        .status(status)
        .header(CONTENT_TYPE, content_type)
        .body(Either::Left(Full::new(Bytes::from(body))))
        .expect("a response")
}

fn json_reply(status: StatusCode, value: Value) -> Response<Body> {
    reply(status, "application/json", value.to_string())
}

fn query(target: &str) -> HashMap<String, String> {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

/// Serves `handle` on `listener`.
fn serve<F, Fut>(listener: TcpListener, handle: F)
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let handle = handle.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let handle = handle.clone();
                    async move { Ok::<_, Infallible>(handle(request).await) }
                });
                let _ = auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tcp), service)
                    .await;
            });
        }
    });
}

/// Serves `handle` on `listener` over TLS with `acceptor`.
fn serve_tls<F, Fut>(listener: TcpListener, acceptor: tokio_rustls::TlsAcceptor, handle: F)
where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (handle, acceptor) = (handle.clone(), acceptor.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let service = service_fn(move |request| {
                    let handle = handle.clone();
                    async move { Ok::<_, Infallible>(handle(request).await) }
                });
                let _ = auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tls), service)
                    .await;
            });
        }
    });
}

/// Reads a request whole and records it.
async fn record(
    mock: &Mock,
    server: &'static str,
    request: Request<Incoming>,
) -> (hyper::http::request::Parts, Bytes) {
    let (parts, body) = request.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    mock.0.seen.lock().expect("not poisoned").push(Record {
        server,
        target: parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned(),
        authorization: parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    (parts, body)
}

/// Starts the MCP server, its protecting front and the authorization server.
async fn mock(behaviour: Behaviour) -> Mock {
    let backend = McpServer::builder("oauth-fixture", "1.0.0")
        .tool(
            "greet",
            "Greet someone",
            |args: Name, _: Context| async move { ToolResult::text(format!("hello {}", args.name)) },
        )
        .build()
        .expect("the fixture builds")
        .http_server(HttpConfig::default().bind("127.0.0.1:0".parse().expect("an address")))
        .expect("the server binds");
    let upstream = backend.local_addr();
    tokio::spawn(backend.run());

    let rs_listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let as_listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let rs = rs_listener.local_addr().expect("an address");
    let scheme = if behaviour.tls_issuer {
        "https"
    } else {
        "http"
    };
    let issuer = if behaviour.legacy {
        format!("http://{rs}")
    } else {
        format!(
            "{scheme}://{}",
            as_listener.local_addr().expect("an address")
        )
    };
    let pki = behaviour
        .tls_issuer
        .then(|| crate::https::pki("mcpwire authorization server test CA"));
    let mock = Mock(Arc::new(Inner {
        endpoint: format!("http://{rs}/mcp"),
        resource_base: format!("http://{rs}"),
        issuer,
        ca_pem: pki.as_ref().map(|pki| pki.ca_pem.clone()),
        behaviour,
        seen: Mutex::new(Vec::new()),
        state: Mutex::new(AsState::default()),
    }));
    let proxy: HttpClient<HttpConnector, Full<Bytes>> =
        HttpClient::builder(TokioExecutor::new()).build_http();
    let front = mock.clone();
    serve(rs_listener, move |request| {
        let (mock, proxy) = (front.clone(), proxy.clone());
        async move { resource_server(mock, proxy, upstream, request).await }
    });
    let server = mock.clone();
    let handle = move |request| {
        let mock = server.clone();
        async move { authorization_server(mock, request).await }
    };
    match pki {
        Some(pki) => serve_tls(as_listener, pki.acceptor(&["h2", "http/1.1"]), handle),
        None => serve(as_listener, handle),
    }
    mock
}

/// The protected MCP endpoint and its metadata.
async fn resource_server(
    mock: Mock,
    proxy: HttpClient<HttpConnector, Full<Bytes>>,
    upstream: SocketAddr,
    request: Request<Incoming>,
) -> Response<Body> {
    let inner = &mock.0;
    let legacy = inner.behaviour.legacy;
    let path = request.uri().path();
    if legacy && ["/authorize", "/token", "/register"].contains(&path) {
        return authorization_server(mock, request).await;
    }
    if legacy
        && path == "/.well-known/oauth-authorization-server"
        && !inner.behaviour.legacy_without_metadata
    {
        return authorization_server(mock, request).await;
    }
    let (parts, body) = record(&mock, "RS", request).await;
    let path = parts.uri.path();
    let metadata_url = format!(
        "{}/.well-known/oauth-protected-resource/mcp",
        inner.resource_base
    );
    if path == "/.well-known/oauth-protected-resource/mcp" && !legacy {
        let resource = match &inner.behaviour.resource {
            Some(resource) => resource.replace("{rs}", &inner.resource_base),
            None => inner.endpoint.clone(),
        };
        return json_reply(
            StatusCode::OK,
            json!({
                "resource": resource,
                "authorization_servers": [inner.issuer],
                "scopes_supported": ["mcp"],
            }),
        );
    }
    if path != "/mcp" {
        return reply(StatusCode::NOT_FOUND, "text/plain", String::new());
    }
    let token = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    let scope = token.and_then(|token| {
        inner
            .state
            .lock()
            .expect("not poisoned")
            .access
            .get(&token)
            .cloned()
    });
    let challenge = |status: StatusCode, value: String| {
        Response::builder()
            .status(status)
            .header(WWW_AUTHENTICATE, value)
            .body(Either::Left(Full::default()))
            .expect("a response")
    };
    let Some(scope) = scope else {
        let value = if inner.behaviour.no_challenge_url || legacy {
            r#"Bearer scope="mcp""#.to_owned()
        } else {
            format!(r#"Bearer resource_metadata="{metadata_url}", scope="mcp""#)
        };
        return challenge(StatusCode::UNAUTHORIZED, value);
    };
    let calls_tool = String::from_utf8_lossy(&body).contains("\"tools/call\"");
    let needed = inner.behaviour.tool_scope;
    if calls_tool
        && (inner.behaviour.always_forbidden
            || needed.is_some_and(|needed| !scope.split(' ').any(|s| s == needed)))
    {
        let more = needed.unwrap_or("more");
        return challenge(
            StatusCode::FORBIDDEN,
            format!(
                r#"Bearer error="insufficient_scope", scope="mcp {more}", resource_metadata="{metadata_url}""#
            ),
        );
    }
    if let Some(to) = &inner.behaviour.redirect_to {
        return Response::builder()
            .status(StatusCode::TEMPORARY_REDIRECT)
            .header(LOCATION, to.as_str())
            .body(Either::Left(Full::default()))
            .expect("a response");
    }
    let mut forwarded = Request::from_parts(parts, Full::new(body));
    let target = forwarded
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    *forwarded.uri_mut() = format!("http://{upstream}{target}").parse().expect("a URI");
    forwarded.headers_mut().remove(HOST);
    forwarded.headers_mut().remove(AUTHORIZATION);
    match proxy.request(forwarded).await {
        Ok(response) => response.map(Either::Right),
        Err(error) => reply(StatusCode::BAD_GATEWAY, "text/plain", error.to_string()),
    }
}

/// The authorization server: metadata, registration, authorization and token endpoints.
async fn authorization_server(mock: Mock, request: Request<Incoming>) -> Response<Body> {
    let inner = &mock.0;
    let (parts, body) = record(&mock, "AS", request).await;
    let target = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let issuer = &inner.issuer;
    let b = &inner.behaviour;
    match parts.uri.path() {
        "/.well-known/oauth-authorization-server" => json_reply(
            StatusCode::OK,
            json!({
                "issuer": b.issuer.clone().unwrap_or(issuer.clone()),
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "registration_endpoint": format!("{issuer}/register"),
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": b.methods.clone().unwrap_or(vec!["S256"]),
                "token_endpoint_auth_methods_supported": b.token_auth_methods.clone()
                    .unwrap_or(vec!["client_secret_basic", "client_secret_post", "none"]),
                "authorization_response_iss_parameter_supported": true,
                "client_id_metadata_document_supported": b.cimd,
                "scopes_supported": b.server_scopes,
            }),
        ),
        "/register" => {
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let mut state = inner.state.lock().expect("not poisoned");
            state.next += 1;
            let id = format!("dyn-{}", state.next);
            state.clients.insert(id.clone(), None);
            json_reply(
                StatusCode::CREATED,
                json!({
                    "client_id": id,
                    "redirect_uris": request["redirect_uris"],
                    "token_endpoint_auth_method": "none",
                }),
            )
        }
        "/authorize" => {
            let q = query(&target);
            let get = |name: &str| q.get(name).cloned().unwrap_or_default();
            let redirect_uri = get("redirect_uri");
            let mut state = inner.state.lock().expect("not poisoned");
            let client_known = state.clients.contains_key(&get("client_id"))
                || (b.cimd && get("client_id").starts_with("https://"));
            let why = if get("response_type") != "code" {
                Some("response_type")
            } else if get("code_challenge_method") != "S256" || get("code_challenge").len() != 43 {
                Some("PKCE S256")
            } else if !client_known {
                Some("client_id")
            } else if get("resource") != inner.endpoint {
                Some("resource")
            } else {
                None
            };
            let sent_state = if b.tamper_state {
                "forged".to_owned()
            } else {
                get("state")
            };
            let iss = b.iss.clone().unwrap_or(issuer.clone());
            let location = match why {
                Some(why) => format!(
                    "{redirect_uri}?error=invalid_request&error_description={why}&state={sent_state}&iss={iss}"
                ),
                None => {
                    state.next += 1;
                    let code = format!("code-{}", state.next);
                    state.codes.insert(
                        code.clone(),
                        Grant {
                            challenge: get("code_challenge"),
                            client_id: get("client_id"),
                            redirect_uri: redirect_uri.clone(),
                            scope: get("scope"),
                            resource: get("resource"),
                        },
                    );
                    let mut query = form_urlencoded::Serializer::new(String::new());
                    query.append_pair("code", &code);
                    query.append_pair("state", &sent_state);
                    query.append_pair("iss", &iss);
                    format!("{redirect_uri}?{}", query.finish())
                }
            };
            Response::builder()
                .status(StatusCode::FOUND)
                .header(LOCATION, location)
                .body(Either::Left(Full::default()))
                .expect("a response")
        }
        "/token" => token(inner, &parts, &body),
        _ => reply(StatusCode::NOT_FOUND, "text/plain", String::new()),
    }
}

/// The token endpoint: the code grant (PKCE checked, single use) and refreshes, each bound
/// to the MCP endpoint as `resource`, with the client authenticated as registered.
fn token(inner: &Inner, parts: &hyper::http::request::Parts, body: &Bytes) -> Response<Body> {
    let form: HashMap<String, String> = form_urlencoded::parse(body).into_owned().collect();
    let get = |name: &str| form.get(name).cloned().unwrap_or_default();
    let refuse = |error: &str| {
        json_reply(
            StatusCode::BAD_REQUEST,
            json!({"error": "invalid_grant", "error_description": error}),
        )
    };
    // The client: Basic, or the form's client_id (and secret).
    let (client_id, secret) = match parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
    {
        Some(basic) => {
            let decoded =
                String::from_utf8(STANDARD.decode(basic).unwrap_or_default()).unwrap_or_default();
            let (id, secret) = decoded.split_once(':').unwrap_or_default();
            // RFC 6749 §2.3.1: each is form-encoded.
            let decode = |text: &str| {
                form_urlencoded::parse(format!("v={text}").as_bytes())
                    .next()
                    .map(|(_, v)| v.into_owned())
                    .unwrap_or_default()
            };
            (decode(id), Some(decode(secret)))
        }
        None => (get("client_id"), form.get("client_secret").cloned()),
    };
    let mut state = inner.state.lock().expect("not poisoned");
    if let Some(assertion) = form.get("client_assertion") {
        let Some(key) = state.jwt_keys.get(&client_id) else {
            return refuse("unknown client");
        };
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
        validation.set_audience(&[inner.issuer.as_str()]);
        validation.set_issuer(&[client_id.as_str()]);
        validation.sub = Some(client_id.clone());
        let decoded = jsonwebtoken::decode::<Value>(
            assertion,
            &jsonwebtoken::DecodingKey::from_ec_der(key),
            &validation,
        );
        if decoded.is_err()
            || get("client_assertion_type")
                != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        {
            return refuse("client assertion");
        }
    }
    let known = form.contains_key("client_assertion")
        || match state.clients.get(&client_id) {
            Some(expected) => expected == &secret,
            None => inner.behaviour.cimd && client_id.starts_with("https://") && secret.is_none(),
        };
    if !known {
        return refuse("client authentication");
    }
    if get("resource") != inner.endpoint {
        return refuse("resource");
    }
    let scope = match get("grant_type").as_str() {
        "authorization_code" => {
            let Some(grant) = state.codes.remove(&get("code")) else {
                return refuse("code");
            };
            let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(get("code_verifier").as_bytes()));
            if challenge != grant.challenge
                || grant.client_id != client_id
                || grant.redirect_uri != get("redirect_uri")
                || grant.resource != get("resource")
            {
                return refuse("code_verifier, client or redirect_uri");
            }
            grant.scope
        }
        "client_credentials" => get("scope"),
        "refresh_token" => match state.refresh.get(&get("refresh_token")) {
            Some(scope) => scope.clone(),
            None => return refuse("refresh_token"),
        },
        _ => return refuse("grant_type"),
    };
    state.next += 1;
    let n = state.next;
    let (access, refresh) = (format!("at-{n}"), format!("rt-{n}"));
    state.access.insert(access.clone(), scope.clone());
    state.refresh.insert(refresh.clone(), scope.clone());
    json_reply(
        StatusCode::OK,
        json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 3600,
            "refresh_token": refresh,
            "scope": scope,
        }),
    )
}

/// A receiver whose "browser" GETs the authorization URL and follows its redirect to the
/// receiver; the URLs it opened are counted in `opened`.
async fn browser(opened: Arc<Mutex<Vec<String>>>) -> LoopbackReceiver {
    let client: HttpClient<HttpConnector, Full<Bytes>> =
        HttpClient::builder(TokioExecutor::new()).build_http();
    LoopbackReceiver::bind(move |url| {
        opened.lock().expect("not poisoned").push(url.to_owned());
        let (client, url) = (client.clone(), url.to_owned());
        tokio::spawn(async move {
            let Ok(answer) = client.get(url.parse().expect("a URI")).await else {
                return;
            };
            let Some(location) = answer.headers().get(LOCATION).and_then(|v| v.to_str().ok())
            else {
                return;
            };
            let _ = client.get(location.parse().expect("a URI")).await;
        });
        Ok(())
    })
    .await
    .expect("the receiver binds")
    .timeout(Duration::from_secs(10))
}

async fn connect(transport: HttpTransport) -> Result<Client, ClientError> {
    let connecting = Client::builder("oauth-test", "1.0.0")
        .protocol_version(Version::V2025_11_25)
        .request_timeout(Some(Duration::from_secs(15)))
        .connect(transport);
    tokio::time::timeout(Duration::from_secs(20), connecting)
        .await
        .expect("the connection ends within 20 s")
}

async fn greet(client: &Client) -> Result<String, ClientError> {
    let result = client
        .call_tool("greet", &json!({"name": "Ada"}), &CallOptions::new())
        .await?;
    Ok(result_text(&result))
}

/// A transport to `mock` with `oauth`; the URLs the browser opened.
async fn transport(
    mock: &Mock,
    configure: impl FnOnce(OAuth) -> OAuth,
) -> (HttpTransport, Arc<Mutex<Vec<String>>>) {
    let opened = Arc::new(Mutex::new(Vec::new()));
    let oauth = configure(OAuth::new(browser(Arc::clone(&opened)).await));
    let transport = HttpTransport::new(&mock.0.endpoint)
        .expect("a URL")
        .oauth(oauth);
    (transport, opened)
}

/// A transport to `mock` with `oauth` (no browser).
fn direct(mock: &Mock, oauth: OAuth) -> HttpTransport {
    HttpTransport::new(&mock.0.endpoint)
        .expect("a URL")
        .oauth(oauth)
}

fn opened(urls: &Arc<Mutex<Vec<String>>>) -> Vec<HashMap<String, String>> {
    urls.lock()
        .expect("not poisoned")
        .iter()
        .map(|u| query(u))
        .collect()
}

/// The error text of a connection that must fail.
fn failure(outcome: Result<Client, ClientError>) -> String {
    match outcome {
        Ok(_) => panic!("the connection must fail"),
        Err(error) => error.to_string(),
    }
}

#[tokio::test]
async fn a_tool_call_succeeds_after_the_flow() {
    let mock = mock(Behaviour::default()).await;
    let (transport, urls) = transport(&mock, |oauth| oauth.client_name("oauth-test")).await;
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    client.close().await;

    let endpoint = &mock.0.endpoint;
    // The first request carried no token and was challenged; the metadata came from the
    // challenge's URL; the client registered as a native app.
    let mcp = mock.seen("RS", "/mcp");
    assert_eq!(mcp[0].authorization, None);
    assert_eq!(
        mock.seen("RS", "/.well-known/oauth-protected-resource/mcp")
            .len(),
        1
    );
    let registered = mock.seen("AS", "/register");
    assert_eq!(registered.len(), 1);
    let registration: Value = serde_json::from_str(&registered[0].body).expect("JSON");
    assert_eq!(registration["application_type"], "native");
    assert_eq!(registration["client_name"], "oauth-test");
    // One authorization: PKCE S256, the resource, the challenge's scope.
    let authorizations = opened(&urls);
    assert_eq!(authorizations.len(), 1);
    let asked = &authorizations[0];
    assert_eq!(asked["code_challenge_method"], "S256");
    assert_eq!(&asked["resource"], endpoint);
    assert_eq!(asked["scope"], "mcp");
    assert_eq!(asked["client_id"], "dyn-1");
    // The token request: the code, its verifier, the resource again.
    let tokens = mock.seen("AS", "/token");
    assert_eq!(tokens.len(), 1);
    let form = query(&format!("?{}", tokens[0].body));
    assert_eq!(form["grant_type"], "authorization_code");
    assert_eq!(&form["resource"], endpoint);
    assert_eq!(form["code_verifier"].len(), 43);
    // Every later MCP request carried the token; no URL and no other server ever saw it.
    let token = "at-3";
    assert!(
        mcp[1..]
            .iter()
            .all(|r| r.authorization.as_deref() == Some("Bearer at-3")),
        "{mcp:?}"
    );
    for record in mock.all() {
        assert!(!record.target.contains(token), "{record:?}");
        if record.server == "AS" {
            assert!(!record.body.contains(token), "{record:?}");
            assert!(
                record
                    .authorization
                    .as_deref()
                    .is_none_or(|a| !a.contains(token))
            );
        }
    }
}

#[tokio::test]
async fn metadata_is_found_at_the_well_known_uri_without_a_challenge_url() {
    let mock = mock(Behaviour {
        no_challenge_url: true,
        ..Behaviour::default()
    })
    .await;
    let (transport, _) = transport(&mock, |oauth| oauth).await;
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    assert_eq!(
        mock.seen("RS", "/.well-known/oauth-protected-resource/mcp")
            .len(),
        1
    );
}

#[tokio::test]
async fn metadata_for_another_resource_is_refused() {
    // Another origin; the same origin with another path; a path that only shares a prefix.
    for other in ["http://127.0.0.1:9/mcp", "{rs}/other", "{rs}/mc"] {
        let mock = mock(Behaviour {
            resource: Some(other.to_owned()),
            ..Behaviour::default()
        })
        .await;
        let (transport, urls) = transport(&mock, |oauth| oauth).await;
        let error = failure(connect(transport).await);
        let named = other.replace("{rs}", &mock.0.resource_base);
        assert!(
            error.contains("RFC 9728") && error.contains(&named),
            "{error}"
        );
        assert!(opened(&urls).is_empty());
        assert!(mock.all().iter().all(|r| r.server == "RS"));
    }
}

#[tokio::test]
async fn metadata_of_another_issuer_is_refused() {
    let mock = mock(Behaviour {
        issuer: Some("http://127.0.0.1:9".to_owned()),
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    let error = failure(connect(transport).await);
    assert!(error.contains("RFC 8414"), "{error}");
    assert!(opened(&urls).is_empty());
    assert!(mock.seen("AS", "/register").is_empty());
}

#[tokio::test]
async fn a_server_without_s256_is_refused() {
    let mock = mock(Behaviour {
        methods: Some(vec!["plain"]),
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    let error = failure(connect(transport).await);
    assert!(error.contains("S256"), "{error}");
    assert!(opened(&urls).is_empty());
}

#[tokio::test]
async fn a_redirect_with_another_state_is_refused() {
    let mock = mock(Behaviour {
        tamper_state: true,
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    let error = failure(connect(transport).await);
    assert!(error.contains("state"), "{error}");
    assert_eq!(opened(&urls).len(), 1);
    assert!(mock.seen("AS", "/token").is_empty());
}

#[tokio::test]
async fn a_redirect_from_another_issuer_is_refused() {
    let mock = mock(Behaviour {
        iss: Some("http://127.0.0.1:9".to_owned()),
        ..Behaviour::default()
    })
    .await;
    let (transport, _) = transport(&mock, |oauth| oauth).await;
    let error = failure(connect(transport).await);
    assert!(error.contains("RFC 9207"), "{error}");
    assert!(mock.seen("AS", "/token").is_empty());
}

#[tokio::test]
async fn the_token_never_goes_to_another_origin() {
    let other = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let other_url = format!("http://{}/mcp", other.local_addr().expect("an address"));
    let accepted = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok(_connection) = other.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
        }
    });
    let mock = mock(Behaviour {
        redirect_to: Some(other_url.clone()),
        ..Behaviour::default()
    })
    .await;
    let (transport, _) = transport(&mock, |oauth| oauth).await;
    let error = failure(connect(transport).await);
    assert!(
        error.contains("redirect") && error.contains(&other_url),
        "{error}"
    );
    // The request that was redirected carried the token; the other origin saw nothing.
    assert!(
        mock.seen("RS", "/mcp")
            .iter()
            .any(|r| r.authorization.is_some())
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn insufficient_scope_steps_up_and_the_call_succeeds() {
    let mock = mock(Behaviour {
        tool_scope: Some("admin"),
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    let scopes: Vec<String> = opened(&urls).iter().map(|q| q["scope"].clone()).collect();
    assert_eq!(scopes, ["mcp", "mcp admin"]);
}

#[tokio::test]
async fn step_ups_stop_at_the_limit() {
    let mock = mock(Behaviour {
        always_forbidden: true,
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth.max_step_ups(2)).await;
    let client = connect(transport).await.expect("the client connects");
    let error = greet(&client)
        .await
        .expect_err("the call fails")
        .to_string();
    assert!(error.contains("403"), "{error}");
    // The first authorization, then two step-ups.
    assert_eq!(opened(&urls).len(), 3);
}

#[tokio::test]
async fn an_expired_token_is_refreshed_without_the_user() {
    let mock = mock(Behaviour::default()).await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    let client = connect(transport).await.expect("the client connects");
    mock.revoke_access_tokens();
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    assert_eq!(opened(&urls).len(), 1);
    let tokens = mock.seen("AS", "/token");
    let last = query(&format!("?{}", tokens.last().expect("a refresh").body));
    assert_eq!(last["grant_type"], "refresh_token");
    assert_eq!(&last["resource"], &mock.0.endpoint);
}

#[tokio::test]
async fn pre_registered_credentials_authenticate_with_basic_or_post() {
    for (methods, basic) in [
        (vec!["client_secret_basic", "client_secret_post"], true),
        (vec!["client_secret_post"], false),
    ] {
        let mock = mock(Behaviour {
            token_auth_methods: Some(methods),
            ..Behaviour::default()
        })
        .await;
        mock.0
            .state
            .lock()
            .expect("not poisoned")
            .clients
            .insert("pre".to_owned(), Some("s3cret&=".to_owned()));
        let (transport, urls) = transport(&mock, |oauth| {
            oauth.client_credentials("pre", Some("s3cret&="))
        })
        .await;
        let client = connect(transport).await.expect("the client connects");
        assert_eq!(
            greet(&client).await.expect("the call succeeds"),
            "hello Ada"
        );
        assert!(mock.seen("AS", "/register").is_empty());
        assert_eq!(opened(&urls)[0]["client_id"], "pre");
        let token = &mock.seen("AS", "/token")[0];
        let form = query(&format!("?{}", token.body));
        if basic {
            // RFC 6749 §2.3.1: the secret is form-encoded before the Basic encoding.
            let expected = format!("Basic {}", STANDARD.encode("pre:s3cret%26%3D"));
            assert_eq!(token.authorization.as_deref(), Some(expected.as_str()));
            assert!(!form.contains_key("client_secret"));
        } else {
            assert_eq!(token.authorization, None);
            assert_eq!(form["client_secret"], "s3cret&=");
        }
    }
}

#[tokio::test]
async fn a_metadata_document_url_is_the_client_id_where_supported() {
    let document = "https://app.example/oauth/client.json";
    let mock = mock(Behaviour {
        cimd: true,
        ..Behaviour::default()
    })
    .await;
    let (with_document, urls) = transport(&mock, |oauth| oauth.client_metadata_url(document)).await;
    let client = connect(with_document).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    assert!(mock.seen("AS", "/register").is_empty());
    assert_eq!(opened(&urls)[0]["client_id"], document);

    // Where the server does not announce support, the client registers instead.
    let mock = self::mock(Behaviour::default()).await;
    let (registering, urls) = transport(&mock, |oauth| oauth.client_metadata_url(document)).await;
    connect(registering).await.expect("the client connects");
    assert_eq!(mock.seen("AS", "/register").len(), 1);
    assert_eq!(opened(&urls)[0]["client_id"], "dyn-1");
}

#[tokio::test]
async fn stored_tokens_serve_a_new_client_without_the_user() {
    let mock = mock(Behaviour::default()).await;
    let store: Arc<dyn TokenStore> = Arc::new(MemoryTokenStore::default());
    let (first, urls) = transport(&mock, |oauth| oauth.store(Arc::clone(&store))).await;
    connect(first)
        .await
        .expect("the client connects")
        .close()
        .await;
    let (second, again) = transport(&mock, |oauth| oauth.store(Arc::clone(&store))).await;
    let client = connect(second).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    client.close().await;
    assert_eq!(opened(&urls).len(), 1);
    assert!(opened(&again).is_empty());
    // A stored access token that no longer works is refreshed with the stored refresh token.
    mock.revoke_access_tokens();
    let (third, later) = transport(&mock, |oauth| oauth.store(Arc::clone(&store))).await;
    let client = connect(third).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    assert!(opened(&later).is_empty());
    let tokens = mock.seen("AS", "/token");
    let refresh = query(&format!(
        "?{}",
        tokens.last().expect("a token request").body
    ));
    assert_eq!(refresh["grant_type"], "refresh_token");
}

#[tokio::test]
async fn offline_access_is_asked_for_where_the_server_lists_it() {
    let mock = mock(Behaviour {
        server_scopes: Some(vec!["mcp", "offline_access"]),
        ..Behaviour::default()
    })
    .await;
    let (transport, urls) = transport(&mock, |oauth| oauth).await;
    connect(transport).await.expect("the client connects");
    assert_eq!(opened(&urls)[0]["scope"], "mcp offline_access");
}

#[tokio::test]
async fn a_server_without_resource_metadata_is_its_own_authorization_server() {
    for without_metadata in [false, true] {
        let mock = mock(Behaviour {
            legacy: true,
            legacy_without_metadata: without_metadata,
            ..Behaviour::default()
        })
        .await;
        let (transport, urls) = transport(&mock, |oauth| oauth).await;
        let client = connect(transport).await.expect("the client connects");
        assert_eq!(
            greet(&client).await.expect("the call succeeds"),
            "hello Ada"
        );
        // Both well-known URIs of the resource metadata were tried, then the origin's.
        assert_eq!(
            mock.seen("RS", "/.well-known/oauth-protected-resource/mcp")
                .len(),
            1
        );
        assert_eq!(
            mock.seen("RS", "/.well-known/oauth-protected-resource")
                .len(),
            1
        );
        let metadata = mock
            .seen("AS", "/.well-known/oauth-authorization-server")
            .len();
        assert_eq!(metadata, usize::from(!without_metadata));
        let authorization = &opened(&urls)[0];
        assert_eq!(&authorization["resource"], &mock.0.endpoint);
        assert_eq!(mock.seen("AS", "/token").len(), 1);
    }
}

#[tokio::test]
async fn the_client_credentials_grant_needs_no_user() {
    let mock = mock(Behaviour::default()).await;
    register_machine(&mock);
    let oauth = OAuth::client_credentials_grant("machine", "m-secret");
    let client = connect(direct(&mock, oauth))
        .await
        .expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    assert!(mock.seen("AS", "/authorize").is_empty());
    assert!(mock.seen("AS", "/register").is_empty());
    let tokens = mock.seen("AS", "/token");
    assert_eq!(tokens.len(), 1);
    let form = query(&format!("?{}", tokens[0].body));
    assert_eq!(form["grant_type"], "client_credentials");
    assert_eq!(form["scope"], "mcp");
    assert_eq!(&form["resource"], &mock.0.endpoint);
    let basic = format!("Basic {}", STANDARD.encode("machine:m-secret"));
    assert_eq!(tokens[0].authorization.as_deref(), Some(basic.as_str()));
}

#[tokio::test]
async fn the_client_credentials_grant_signs_a_jwt_assertion() {
    let key = rcgen::KeyPair::generate().expect("a P-256 key");
    let mock = mock(Behaviour::default()).await;
    mock.0
        .state
        .lock()
        .expect("not poisoned")
        .jwt_keys
        .insert("signer".to_owned(), key.public_key_raw().to_vec());
    let oauth = OAuth::client_credentials_jwt("signer", key.serialize_pem().as_bytes(), "ES256")
        .expect("a PKCS#8 key");
    let client = connect(direct(&mock, oauth))
        .await
        .expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    let tokens = mock.seen("AS", "/token");
    let form = query(&format!("?{}", tokens[0].body));
    assert_eq!(form["grant_type"], "client_credentials");
    assert!(!form.contains_key("client_secret"));
    assert_eq!(tokens[0].authorization, None);

    // A key the server does not know is refused.
    let other = rcgen::KeyPair::generate().expect("a P-256 key");
    let oauth = OAuth::client_credentials_jwt("signer", other.serialize_pem().as_bytes(), "ES256")
        .expect("a PKCS#8 key");
    let error = failure(connect(direct(&mock, oauth)).await);
    assert!(error.contains("client assertion"), "{error}");
    assert!(OAuth::client_credentials_jwt("signer", b"not a key", "ES256").is_err());
}

/// The machine client `machine` (secret `m-secret`) registered at `mock`.
fn register_machine(mock: &Mock) {
    mock.0
        .state
        .lock()
        .expect("not poisoned")
        .clients
        .insert("machine".to_owned(), Some("m-secret".to_owned()));
}

#[tokio::test]
async fn an_https_authorization_server_is_reached_through_the_proxy() {
    let mock = mock(Behaviour {
        tls_issuer: true,
        ..Behaviour::default()
    })
    .await;
    register_machine(&mock);
    let ca = mock.0.ca_pem.clone().expect("the CA of the https issuer");
    let issuer_authority = mock.0.issuer.trim_start_matches("https://").to_owned();
    let (proxy, tunnels) = crate::https::connect_proxy().await;
    let oauth = || OAuth::client_credentials_grant("machine", "m-secret");

    // The metadata and token requests go through the proxy's tunnel, TLS inside it, trusting
    // the transport's private CA; the http:// endpoint is reached directly.
    let transport = direct(&mock, oauth())
        .add_root_pem(ca.as_bytes())
        .expect("the CA's PEM")
        .proxy(&proxy)
        .expect("an http proxy");
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(
        greet(&client).await.expect("the call succeeds"),
        "hello Ada"
    );
    client.close().await;
    let opened = tunnels.lock().expect("not poisoned").clone();
    assert!(
        !opened.is_empty(),
        "the authorization server was reached directly"
    );
    assert!(opened.iter().all(|t| *t == issuer_authority), "{opened:?}");
    assert_eq!(mock.seen("AS", "/token").len(), 1);

    // Without the proxy, directly.
    tunnels.lock().expect("not poisoned").clear();
    let transport = direct(&mock, oauth())
        .add_root_pem(ca.as_bytes())
        .expect("the CA's PEM")
        .no_proxy();
    let client = connect(transport).await.expect("the client connects");
    client.close().await;
    assert!(tunnels.lock().expect("not poisoned").is_empty());
    assert_eq!(mock.seen("AS", "/token").len(), 2);

    // A certificate no trusted root issued fails the flow, naming why.
    let transport = direct(&mock, oauth()).platform_roots(false).no_proxy();
    let error = failure(connect(transport).await);
    assert!(error.contains("certificate"), "{error}");
    assert_eq!(mock.seen("AS", "/token").len(), 2);
}
