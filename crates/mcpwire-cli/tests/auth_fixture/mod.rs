//! A protected MCP server on loopback for `mcpwire check --auth`: `mcpwire-server`'s resource
//! server with a P-256 key generated here and its JWKS served by a loopback responder, correct
//! or with one planted authorization defect.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hyper::header::{HeaderValue, WWW_AUTHENTICATE};
use hyper::{HeaderMap, Method, Response, StatusCode, Uri};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use mcpwire::http::{
    Bytes, Caller, Gate, Guard, GuardFuture, HttpConfig, HttpServer, MessageTarget,
};
use mcpwire_server::McpServer;
use mcpwire_server::auth::{
    Identity, JwtValidator, ResourceServer, TokenError, TokenValidator, ValidateFuture,
};
use serde_json::{Map, Value, json};

/// The issuer the tokens name (its keys come from the loopback JWKS, so it is never fetched).
pub const ISSUER: &str = "https://issuer.mcpwire.test";
/// The scope every request needs.
pub const SCOPE: &str = "mcp";

/// One planted defect (or none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// None: `mcpwire-server`'s resource server as it is.
    None,
    /// Any `Bearer` value is accepted.
    AnyBearer,
    /// A token with `alg: none` is accepted.
    AlgNone,
    /// Signatures are not checked.
    SkipSignature,
    /// `aud` is not checked.
    SkipAudience,
    /// `exp` is not checked.
    SkipExpiry,
    /// 401 challenges without `resource_metadata`.
    NoResourceMetadata,
    /// The metadata lists no authorization server.
    NoAuthorizationServers,
    /// The metadata names another resource.
    WrongResource,
    /// A token in `?access_token=` is read.
    QueryToken,
    /// GET and DELETE are served without a token (sessions not bound to a subject).
    UnprotectedStream,
    /// A foreign `Origin` is allowed.
    NoOriginCheck,
    /// 401 `invalid_token` where 403 `insufficient_scope` is due.
    UnauthorizedForForbidden,
}

/// A P-256 key generated for the test.
pub struct Key {
    pkcs8: Vec<u8>,
    x: String,
    y: String,
}

impl Key {
    /// A new key.
    pub fn generate() -> Key {
        let pair = rcgen::KeyPair::generate().expect("a P-256 key");
        let point = pair.public_key_raw();
        Key {
            pkcs8: pair.serialize_der(),
            x: URL_SAFE_NO_PAD.encode(&point[1..33]),
            y: URL_SAFE_NO_PAD.encode(&point[33..65]),
        }
    }

    /// The JWKS publishing it.
    fn jwks(&self) -> String {
        json!({"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256", "x": self.x, "y": self.y}]})
            .to_string()
    }

    /// `claims` signed with ES256.
    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("k1".into());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ec_der(&self.pkcs8))
            .expect("signed")
    }

    fn decoding(&self) -> DecodingKey {
        DecodingKey::from_ec_components(&self.x, &self.y).expect("the public key")
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// Serves `body` as JSON to every request on `listener` (loopback), on a thread of its own,
/// until the process ends (each test process is short).
fn serve_json(listener: TcpListener, body: String) {
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let mut request = Vec::new();
            let mut buffer = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buffer[..n]),
                }
            }
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
}

/// The validation of the defects that weaken it: ES256 against the test's key, `iss`, `aud`
/// and `exp` checked unless the defect skips one.
struct Planted {
    key: DecodingKey,
    audience: String,
    defect: Defect,
}

impl Planted {
    fn decide(&self, token: &str) -> Result<Identity, TokenError> {
        let invalid = TokenError::Invalid;
        if self.defect == Defect::AnyBearer {
            let claims = json!({"sub": "anyone", "scope": SCOPE});
            return Identity::from_claims(object(claims)).ok_or_else(|| invalid("no sub".into()));
        }
        if self.defect == Defect::AlgNone {
            let mut parts = token.split('.');
            let header = parts.next().and_then(|h| URL_SAFE_NO_PAD.decode(h).ok());
            let header: Value = header
                .and_then(|h| serde_json::from_slice(&h).ok())
                .unwrap_or(Value::Null);
            if header["alg"] == "none" {
                let payload = parts.next().and_then(|p| URL_SAFE_NO_PAD.decode(p).ok());
                let claims: Value = payload
                    .and_then(|p| serde_json::from_slice(&p).ok())
                    .unwrap_or(Value::Null);
                return Identity::from_claims(object(claims))
                    .ok_or_else(|| invalid("no sub".into()));
            }
        }
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[&self.audience]);
        match self.defect {
            Defect::SkipSignature => validation.insecure_disable_signature_validation(),
            Defect::SkipAudience => validation.validate_aud = false,
            Defect::SkipExpiry => validation.validate_exp = false,
            _ => {}
        }
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &self.key, &validation)
            .map_err(|e| invalid(e.to_string()))?;
        Identity::from_claims(data.claims).ok_or_else(|| invalid("no sub".into()))
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

impl TokenValidator for Planted {
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a> {
        Box::pin(async move { self.decide(token) })
    }
}

/// `mcpwire-server`'s resource server, with the defects that change what it answers.
struct Wrapped {
    inner: ResourceServer,
    defect: Defect,
}

impl Wrapped {
    /// The answer as the defect rewrites it.
    fn rewrite(&self, mut response: Response<Bytes>) -> Response<Bytes> {
        let status = response.status();
        match self.defect {
            Defect::NoResourceMetadata if status == StatusCode::UNAUTHORIZED => {
                let challenge = response
                    .headers()
                    .get(WWW_AUTHENTICATE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("Bearer")
                    .to_owned();
                let kept: Vec<&str> = challenge
                    .trim_start_matches("Bearer ")
                    .split(", ")
                    .filter(|p| !p.starts_with("resource_metadata="))
                    .collect();
                let value = format!("Bearer {}", kept.join(", "));
                response.headers_mut().insert(
                    WWW_AUTHENTICATE,
                    HeaderValue::from_str(&value).expect("a header value"),
                );
                response
            }
            Defect::UnauthorizedForForbidden if status == StatusCode::FORBIDDEN => {
                *response.status_mut() = StatusCode::UNAUTHORIZED;
                response.headers_mut().insert(
                    WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer error=\"invalid_token\""),
                );
                response
            }
            Defect::NoAuthorizationServers | Defect::WrongResource if status == StatusCode::OK => {
                let mut document: Value =
                    serde_json::from_slice(response.body()).unwrap_or(Value::Null);
                if self.defect == Defect::NoAuthorizationServers {
                    document["authorization_servers"] = json!([]);
                } else {
                    document["resource"] = json!("https://elsewhere.mcpwire.test/mcp");
                }
                let (parts, _) = response.into_parts();
                Response::from_parts(parts, Bytes::from(document.to_string()))
            }
            _ => response,
        }
    }
}

impl Guard for Wrapped {
    fn check<'a>(
        &'a self,
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
    ) -> GuardFuture<'a> {
        Box::pin(async move {
            let mut headers = headers.clone();
            let mut uri = uri.clone();
            if self.defect == Defect::UnprotectedStream
                && matches!(*method, Method::GET | Method::DELETE)
                && uri.path() == "/mcp"
            {
                return Gate::Pass(None);
            }
            if self.defect == Defect::QueryToken
                && let Some(token) = uri
                    .query()
                    .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("access_token=")))
            {
                let value = HeaderValue::from_str(&format!("Bearer {token}")).expect("a value");
                headers.insert(hyper::header::AUTHORIZATION, value);
                uri = uri.path().parse().expect("a path");
            }
            match self.inner.check(method, &uri, &headers).await {
                Gate::Answer(response) => Gate::Answer(self.rewrite(response)),
                // A server that serves the stream without a token binds no session to anyone.
                Gate::Pass(_) if self.defect == Defect::UnprotectedStream => Gate::Pass(None),
                pass => pass,
            }
        })
    }

    fn authorize(
        &self,
        caller: Option<&Caller>,
        message: MessageTarget<'_>,
    ) -> Option<Response<Bytes>> {
        self.inner
            .authorize(caller, message)
            .map(|r| self.rewrite(r))
    }
}

/// A protected server on loopback, stopped when dropped.
pub struct Fixture {
    /// The endpoint's URL (its canonical resource URI).
    pub url: String,
    key: Key,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Answers with the caller's subject.
async fn whoami(
    _: mcpwire_server::NoArguments,
    context: mcpwire_server::Context,
) -> Result<String, String> {
    Ok(context
        .identity()
        .map_or_else(|| "nobody".into(), |i| i.subject.clone()))
}

impl Fixture {
    /// Starts the server with `defect` planted.
    pub fn start(defect: Defect) -> Fixture {
        let key = Key::generate();
        let jwks = TcpListener::bind("127.0.0.1:0").expect("a port");
        let jwks_url = format!("http://{}/jwks", jwks.local_addr().expect("an address"));
        serve_json(jwks, key.jwks());
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let addr: SocketAddr = listener.local_addr().expect("an address");
        drop(listener);
        let url = format!("http://{addr}/mcp");
        let builder = ResourceServer::builder(url.clone())
            .authorization_server(ISSUER)
            .required_scope(SCOPE);
        let inner = match defect {
            Defect::AnyBearer
            | Defect::AlgNone
            | Defect::SkipSignature
            | Defect::SkipAudience
            | Defect::SkipExpiry => builder.build(Planted {
                key: key.decoding(),
                audience: url.clone(),
                defect,
            }),
            _ => builder.build(
                JwtValidator::builder(ISSUER, url.clone())
                    .jwks_url(jwks_url)
                    .allow_loopback_http(true)
                    .build()
                    .expect("the validator"),
            ),
        }
        .expect("the resource server");
        let mut config = HttpConfig::default().bind(addr);
        if defect == Defect::NoOriginCheck {
            config = config.allowed_origin("mcpwire-check.invalid");
        }
        let config = config.guard(Wrapped { inner, defect });
        let server = McpServer::builder("protected", "1")
            .tool("whoami", "Names the caller", whoami)
            .build()
            .expect("the server");
        let http = HttpServer::bind(config, server.http_service()).expect("bound");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("a runtime");
            let _ = runtime.block_on(http.run_until(async {
                let _ = stopped.await;
            }));
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        Fixture {
            url,
            key,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// A token this server's issuer signed: for this resource with the scope, unless `edit`
    /// changes a claim.
    pub fn token(&self, edit: impl FnOnce(&mut Value)) -> String {
        let mut claims = json!({
            "iss": ISSUER, "sub": "alice", "aud": self.url,
            "exp": now() + 300, "iat": now(), "scope": SCOPE,
        });
        edit(&mut claims);
        self.key.sign(&claims)
    }

    /// `--bearer` and every `--bearer-for` role, as command-line arguments.
    pub fn token_args(&self) -> Vec<String> {
        let expired = self.token(|c| c["exp"] = json!(now() - 3600));
        let wrong = self.token(|c| c["aud"] = json!("https://elsewhere.mcpwire.test/mcp"));
        let scoped = self.token(|c| c["scope"] = json!("other"));
        vec![
            "--bearer".into(),
            self.token(|_| {}),
            "--bearer-for".into(),
            format!("expired={expired}"),
            "--bearer-for".into(),
            format!("wrong-audience={wrong}"),
            "--bearer-for".into(),
            format!("insufficient-scope={scoped}"),
        ]
    }
}
