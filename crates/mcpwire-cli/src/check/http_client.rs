//! The Streamable HTTP transport: one POST per input frame, over HTTP/1.1 in the clear
//! (`http://`) or inside TLS (`https://`, rustls with the system's roots and `--cacert`).
//! The checker writes each request itself (hyper's HTTP/1.1 connection on a stream of its
//! own, never a pool or a client that would fix up what it sends), so malformed bodies go out
//! byte for byte, TLS or not.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST};
use hyper::{Request, Response, Uri};
use hyper_util::rt::TokioIo;
use mcpwire_client::TransportError;
use mcpwire_client::tls::TrustRoots;
use mcpwire_proptest::json::{Frame, JsonKind, object_members, read_frame};
use mcpwire_types::ProfileFacts;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::runtime::Runtime;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

use super::cases::CheckCase;
use super::exchange::{Exchange, Fault, HttpMeta, ReplyKey, Target, is_server_message, reply_key};
use super::handshake::{self, INITIALIZED_FRAME};
use super::handshake::{Setup, Startup};
use super::ids::related;
use super::param_headers::ToolParams;
use super::route_headers::{ROUTED_VERSION, RouteHeaders};
use super::sse::{parse_events, resume_hint};
use mcpwire::http::PARAM_HEADER_PREFIX;

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";
const LAST_EVENT_ID: &str = "last-event-id";

/// How many times one answer's SSE stream is resumed at most.
const MAX_RESUMPTIONS: usize = 8;

/// How long after a call its `notifications/cancelled` is POSTed: well within the 200 ms a call
/// must have taken to be picked for cancelling (`IN_FLIGHT_MIN` of the cancellation module, which
/// depends on this one), so the call is still running.
const FOLLOW_DELAY: Duration = Duration::from_millis(50);

/// The longest wait a server's `retry` hint buys before a resumption.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(2);

/// A raw HTTP response: status, content type, session header and body.
#[derive(Debug, Clone, Default)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The `Mcp-Session-Id` header.
    pub session: Option<String>,
    /// The body as read (possibly cut short by the timeout).
    pub body: Vec<u8>,
    /// Whether the timeout ended the read before the body was complete.
    pub timed_out: bool,
    /// When the last part of the body holding a JSON-RPC message came (the answer, on a
    /// stream that ends with it).
    pub last_message: Option<Instant>,
    /// Whether the body was longer than [`MAX_BODY`] (the rest was not read).
    pub too_long: bool,
}

/// The longest response body the checker reads (4 MiB); a longer one is a `reply-too-long`
/// finding and the rest is not read.
pub const MAX_BODY: usize = 4 << 20;

/// A server reached over Streamable HTTP.
pub struct HttpTarget {
    url: Uri,
    /// The TLS of an `https://` URL: the connector and the name the certificate must carry.
    tls: Option<(TlsConnector, ServerName<'static>)>,
    runtime: Runtime,
    timeout: Duration,
    facts: &'static ProfileFacts,
    session: Option<String>,
    version_header: Option<String>,
    /// Whether every POST carries the routing headers of MCP 2026-07-28.
    routed: bool,
    handshake: Vec<(CheckCase, Exchange)>,
    broken: Option<String>,
    /// `Authorization: Bearer …` on every request (`--bearer`).
    authorization: Option<String>,
    /// The `x-mcp-header` declarations of the tools the session listed, mirrored in every
    /// routed `tools/call` (MCP 2026-07-28).
    tool_params: ToolParams,
}

impl HttpTarget {
    /// Connects to `url`, performs the handshake `setup` asks for (keeping the session id the
    /// server issues) and returns the target. `http://` and `https://` URLs are supported;
    /// an `https://` server's certificate must chain to the system's roots or to the CA
    /// certificates of the PEM file `cacert`. `timeout` bounds each case, `startup_timeout`
    /// the handshake. `bearer`: a token sent as `Authorization: Bearer` on every request.
    pub fn start(
        url: &str,
        cacert: Option<&Path>,
        bearer: Option<&str>,
        setup: Setup,
        timeout: Duration,
        startup_timeout: Duration,
    ) -> Result<HttpTarget, String> {
        let uri: Uri = url
            .parse()
            .map_err(|error| format!("`{url}` is not a URL: {error}"))?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            Some(other) => {
                return Err(format!(
                    "`{url}`: only http:// and https:// URLs are supported, not {other}://"
                ));
            }
            None => {
                return Err(format!(
                    "`{url}` has no scheme; write it as http://HOST:PORT/PATH or https://HOST/PATH"
                ));
            }
        };
        let Some(host) = uri.host() else {
            return Err(format!("`{url}` has no host"));
        };
        let tls = match (https, cacert) {
            (true, _) => Some(tls_connector(host, cacert)?),
            (false, Some(file)) => {
                return Err(format!(
                    "--cacert {} applies to https:// URLs only, and `{url}` is http://",
                    file.display()
                ));
            }
            (false, None) => None,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|error| format!("cannot start the HTTP client: {error}"))?;
        let mut target = HttpTarget {
            url: uri,
            tls,
            runtime,
            timeout: startup_timeout,
            facts: &mcpwire_types::facts::JSONRPC_2_0,
            session: None,
            version_header: None,
            routed: false,
            handshake: Vec::new(),
            broken: None,
            authorization: bearer.map(|token| format!("Bearer {token}")),
            tool_params: ToolParams::default(),
        };
        let outcome = match setup {
            Setup::Fixed(facts) => {
                target.facts = facts;
                Ok(())
            }
            Setup::Negotiate(version) => target.initialize(&version),
            Setup::Discover(facts) => target.discover(facts),
        };
        match outcome {
            Ok(()) => {}
            Err(Startup::CouldNotRun(message)) => return Err(message),
            Err(Startup::Broken(message)) => target.broken = Some(message),
        }
        target.timeout = timeout;
        Ok(target)
    }

    /// Why the handshake could not be completed although the server answered, if it could not.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// POSTs a handshake call, records the exchange to be judged like a case, and returns the
    /// reply with the call's id.
    fn handshake_call(
        &mut self,
        label: &str,
        id: &str,
        frame: Vec<u8>,
    ) -> Result<Vec<u8>, Startup> {
        let response = self.post(&frame).map_err(|error| {
            Startup::CouldNotRun(format!("cannot reach the server at {}: {error}", self.url))
        })?;
        let case = handshake::handshake_case(label, id, frame);
        let mut exchange = self.exchange_of(&response);
        let id_text = serde_json::Value::from(id).to_string();
        let found = exchange
            .replies
            .iter()
            .find(|reply| matches!(reply_key(reply), ReplyKey::Id(got) if related(&id_text, &got)))
            .cloned();
        if found.is_none() && response.timed_out {
            exchange.fault = Some(Fault::NoReply {
                timeout: self.timeout,
                id: id.to_owned(),
            });
        }
        if found.is_none()
            && !response.timed_out
            && !exchange.replies.iter().any(|r| speaks_json_rpc(r))
        {
            // No JSON-RPC message at all: a static file server, a wrong path, a proxy's error
            // page. Nothing of the protocol can be judged, so the checker could not run.
            return Err(Startup::CouldNotRun(format!(
                "{} is not an MCP endpoint: it answered the {label} POST with HTTP {} ({}) and no JSON-RPC message{}; check the URL (the MCP endpoint's path, often /mcp) and that the server speaks Streamable HTTP",
                self.url,
                response.status,
                describe_body(&response),
                if response.body.is_empty() {
                    String::new()
                } else {
                    let shown = &response.body[..response.body.len().min(120)];
                    format!(": {}", crate::check::describe::show_frame(shown))
                }
            )));
        }
        self.handshake.push((case, exchange));
        let Some(reply) = found else {
            return Err(Startup::Broken(format!(
                "the server at {} answered {label} with HTTP {} and no JSON-RPC reply carrying its id",
                self.url, response.status
            )));
        };
        self.session = response.session;
        Ok(reply)
    }

    fn discover(&mut self, facts: &'static ProfileFacts) -> Result<(), Startup> {
        let version = facts.protocol_version.unwrap_or_default();
        self.version_header = Some(version.to_owned());
        self.routed = version == ROUTED_VERSION;
        let reply = self.handshake_call(
            "server/discover",
            handshake::DISCOVER_ID,
            handshake::discover_frame(version),
        )?;
        handshake::accept_discover(&reply, version)?;
        self.facts = facts;
        Ok(())
    }

    fn initialize(&mut self, version: &str) -> Result<(), Startup> {
        let reply = self.handshake_call(
            "initialize",
            handshake::INITIALIZE_ID,
            handshake::initialize_frame(version),
        )?;
        let server = format!("the server at {}", self.url);
        let (negotiated, facts) = handshake::accept_initialize(&reply, version, &server)?;
        self.facts = facts;
        // MCP 2025-06-18 and later: the negotiated version on every later request.
        if negotiated.as_str() >= "2025-06-18" {
            self.version_header = Some(negotiated);
        }
        let initialized = self.post(INITIALIZED_FRAME).map_err(|error| {
            Startup::CouldNotRun(format!("notifications/initialized failed: {error}"))
        })?;
        if !(200..300).contains(&initialized.status) {
            return Err(Startup::Broken(format!(
                "the server at {} answered notifications/initialized with HTTP {}",
                self.url, initialized.status
            )));
        }
        Ok(())
    }

    /// POSTs a case (with `route` as its routing headers, if given) and reads its exchange.
    fn exchange_routed(&mut self, case: &CheckCase, route: Option<&RouteHeaders>) -> Exchange {
        match self.post_with(&case.frame, route) {
            Ok(response) => {
                let exchange = self.exchange_of(&response);
                self.tool_params.learn(&case.frame, &exchange.replies);
                exchange
            }
            Err(error) => Exchange {
                fault: Some(Fault::Transport(error)),
                ..Exchange::default()
            },
        }
    }

    /// The exchange a response makes: status, headers and the JSON-RPC frames of its body.
    fn exchange_of(&self, response: &RawResponse) -> Exchange {
        let mut exchange = Exchange {
            http: Some(HttpMeta {
                status: response.status,
                content_type: response.content_type.clone(),
                body_len: response.body.len(),
            }),
            ..Exchange::default()
        };
        if response.too_long {
            exchange.too_long = Some(response.body.len());
            return exchange;
        }
        for frame in body_frames(response) {
            if is_server_message(&frame) {
                exchange.server_message(frame);
            } else {
                exchange.replies.push(frame);
            }
        }
        if response.timed_out && exchange.replies.is_empty() {
            exchange.fault = Some(Fault::NoReply {
                timeout: self.timeout,
                id: "(the POSTed message)".into(),
            });
        }
        exchange
    }

    /// POSTs `body` and reads the response until it ends or the timeout passes.
    pub fn post(&self, body: &[u8]) -> Result<RawResponse, String> {
        self.post_with(body, None)
    }

    /// POSTs `body` with the routing headers `route` (instead of those the body implies).
    pub fn post_with(
        &self,
        body: &[u8],
        route: Option<&RouteHeaders>,
    ) -> Result<RawResponse, String> {
        let deadline = Instant::now() + self.timeout;
        let request = self.request(body, route)?;
        let mut raw = self.send(request, deadline)?;
        // Streamable HTTP (from 2025-11-25) lets a server close an SSE stream before its
        // answer and the client resume it with GET and `Last-Event-ID`: a checker that did
        // not resume would blame the server for an answer it was about to give.
        for _ in 0..MAX_RESUMPTIONS {
            let (Some(last), retry) = resume_hint(&raw.body) else {
                break;
            };
            if !self.awaits_answer(&raw) {
                break;
            }
            let wait = Duration::from_millis(retry.unwrap_or(0)).min(MAX_RETRY_WAIT);
            if Instant::now() + wait >= deadline {
                break;
            }
            std::thread::sleep(wait);
            let more = self.send(self.resume_request(&last)?, deadline)?;
            if more.status != 200 || !is_media(more.content_type.as_deref(), "text/event-stream") {
                break;
            }
            raw.body.extend_from_slice(b"\n\n");
            raw.body.extend_from_slice(&more.body);
            raw.timed_out = more.timed_out;
            raw.too_long = more.too_long;
        }
        Ok(raw)
    }

    /// Whether `raw` is an SSE stream that ended, complete and in time, without an answer.
    fn awaits_answer(&self, raw: &RawResponse) -> bool {
        is_media(raw.content_type.as_deref(), "text/event-stream")
            && raw.status == 200
            && !raw.timed_out
            && !raw.too_long
            && body_frames(raw)
                .iter()
                .all(|frame| is_server_message(frame))
    }

    /// The GET that resumes this session's stream after the event `last`.
    fn resume_request(&self, last: &str) -> Result<Request<Full<Bytes>>, String> {
        let path = self.url.path_and_query().map_or("/", |p| p.as_str());
        let host = self.url.authority().map_or("localhost", |a| a.as_str());
        let mut builder = Request::get(path)
            .header(HOST, host)
            .header(ACCEPT, "text/event-stream")
            .header(LAST_EVENT_ID, last);
        if let Some(session) = &self.session {
            builder = builder.header(SESSION_HEADER, session);
        }
        if let Some(authorization) = &self.authorization {
            builder = builder.header(AUTHORIZATION, authorization);
        }
        if let Some(version) = &self.version_header {
            builder = builder.header(VERSION_HEADER, version);
        }
        builder
            .body(Full::new(Bytes::new()))
            .map_err(|error| format!("cannot build the request: {error}"))
    }

    /// Sends `request` on a new connection (inside TLS for `https://`) and reads the
    /// response until it ends or `deadline` passes.
    fn send(
        &self,
        request: Request<Full<Bytes>>,
        deadline: Instant,
    ) -> Result<RawResponse, String> {
        self.runtime.block_on(send_on(
            self.authority(),
            self.tls.clone(),
            request,
            deadline,
        ))
    }

    /// POSTs `case` (a call) and, [`FOLLOW_DELAY`] later while its answer is awaited,
    /// `follow` (its `notifications/cancelled`) on a connection of its own, as MCP Streamable
    /// HTTP to 2025-11-25 has a client cancel: "To cancel, the client SHOULD explicitly send
    /// an MCP `CancelledNotification`" (a disconnect is not a cancellation there). The call's
    /// answer is judged as one after the cancel only where it came after the server
    /// acknowledged the notification (`202`); otherwise the cancel may have come too late
    /// and the exchange says so ([`Exchange::answered_before_follow`]).
    fn exchange_cancelled(&mut self, case: &CheckCase, follow: &[u8]) -> Exchange {
        let deadline = Instant::now() + self.timeout;
        let requests = self
            .request(&case.frame, None)
            .and_then(|call| Ok((call, self.request(follow, None)?)));
        let (call, cancel) = match requests {
            Ok(requests) => requests,
            Err(error) => {
                return Exchange {
                    fault: Some(Fault::Transport(error)),
                    ..Exchange::default()
                };
            }
        };
        let (authority, tls) = (self.authority(), self.tls.clone());
        let (answer, acknowledged) = self.runtime.block_on(async {
            let (to, over) = (authority.clone(), tls.clone());
            let cancel = tokio::spawn(async move {
                tokio::time::sleep(FOLLOW_DELAY).await;
                let response = send_on(to, over, cancel, deadline).await;
                response
                    .ok()
                    .filter(|response| response.status == 202)
                    .map(|_| Instant::now())
            });
            let answer = send_on(authority, tls, call, deadline).await;
            (answer, cancel.await.ok().flatten())
        });
        let answer = match answer {
            Ok(answer) => answer,
            Err(error) => {
                return Exchange {
                    fault: Some(Fault::Transport(error)),
                    ..Exchange::default()
                };
            }
        };
        let mut exchange = self.exchange_of(&answer);
        // Silence is what the cancel asks for: a stream held open without an answer is not
        // a missing reply.
        if exchange.replies.is_empty() {
            exchange.fault = None;
        }
        exchange.answered_before_follow = match (acknowledged, answer.last_message) {
            (Some(acknowledged), Some(answered)) => answered <= acknowledged,
            (None, _) => true,
            (Some(_), None) => false,
        };
        exchange
    }

    fn authority(&self) -> String {
        let host = self.url.host().unwrap_or("localhost");
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let default_port = if self.tls.is_some() { 443 } else { 80 };
        let port = self.url.port_u16().unwrap_or(default_port);
        if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        }
    }

    fn request(
        &self,
        body: &[u8],
        route: Option<&RouteHeaders>,
    ) -> Result<Request<Full<Bytes>>, String> {
        let path = self.url.path_and_query().map_or("/", |p| p.as_str());
        let host = self.url.authority().map_or("localhost", |a| a.as_str());
        let mut builder = Request::post(path)
            .header(HOST, host)
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        if let Some(session) = &self.session {
            builder = builder.header(SESSION_HEADER, session);
        }
        if let Some(authorization) = &self.authorization {
            builder = builder.header(AUTHORIZATION, authorization);
        }
        let implied;
        let route = match route {
            Some(route) => Some(route),
            None if self.routed => {
                implied = RouteHeaders::of_frame(body, self.version_header.as_deref());
                Some(&implied)
            }
            None => None,
        };
        match route {
            Some(route) => {
                let headers = [
                    (METHOD_HEADER, &route.method),
                    (NAME_HEADER, &route.name),
                    (VERSION_HEADER, &route.version),
                ];
                for (name, value) in headers {
                    if let Some(value) = value {
                        builder = builder.header(name, value);
                    }
                }
                for (name, value) in self.tool_params.headers(body) {
                    builder = builder.header(format!("{PARAM_HEADER_PREFIX}{name}"), value);
                }
            }
            None => {
                if let Some(version) = &self.version_header {
                    builder = builder.header(VERSION_HEADER, version);
                }
            }
        }
        builder
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(|error| format!("cannot build the request: {error}"))
    }
}

/// Sends `request` to `authority` on a new connection (inside TLS where `tls` is given) and
/// reads the response until it ends or `deadline` passes.
async fn send_on(
    authority: String,
    tls: Option<(TlsConnector, ServerName<'static>)>,
    request: Request<Full<Bytes>>,
    deadline: Instant,
) -> Result<RawResponse, String> {
    let connect = TcpStream::connect(authority.clone());
    let stream = tokio::time::timeout_at(deadline.into(), connect)
        .await
        .map_err(|_| format!("connecting to {authority} timed out"))?
        .map_err(|error| format!("cannot connect to {authority}: {error}"))?;
    let Some((connector, name)) = tls else {
        return exchange_on(stream, request, deadline, &authority).await;
    };
    let handshake = connector.connect(name, stream);
    let stream = tokio::time::timeout_at(deadline.into(), handshake)
        .await
        .map_err(|_| format!("the TLS handshake with {authority} timed out"))?
        .map_err(|error| tls_failure(&authority, &error))?;
    exchange_on(stream, request, deadline, &authority).await
}

/// Writes `request` with hyper's HTTP/1.1 connection on `stream` and reads the response
/// until it ends or `deadline` passes.
async fn exchange_on<S>(
    stream: S,
    request: Request<Full<Bytes>>,
    deadline: Instant,
    authority: &str,
) -> Result<RawResponse, String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|error| format!("HTTP handshake with {authority} failed: {error}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let response = tokio::time::timeout_at(deadline.into(), sender.send_request(request))
        .await
        .map_err(|_| "no response headers before the timeout".to_owned())?
        .map_err(|error| format!("the HTTP request failed: {error}"))?;
    Ok(read_response(response, deadline).await)
}

/// The TLS connector of an `https://` URL whose host is `host`: the system's roots and the
/// CA certificates of the PEM file `cacert`, HTTP/1.1 offered by ALPN.
pub(crate) fn tls_connector(
    host: &str,
    cacert: Option<&Path>,
) -> Result<(TlsConnector, ServerName<'static>), String> {
    let mut roots = TrustRoots::platform();
    if let Some(file) = cacert {
        let pem = std::fs::read(file)
            .map_err(|error| format!("cannot read --cacert {}: {error}", file.display()))?;
        roots = roots
            .add_pem(&pem)
            .map_err(|error| format!("--cacert {}: {}", file.display(), text_of(error)))?;
    }
    let config = roots.client_config(&[b"http/1.1"]).map_err(text_of)?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let name = ServerName::try_from(bare.to_owned())
        .map_err(|error| format!("`{host}` cannot name a TLS server: {error}"))?;
    Ok((TlsConnector::from(Arc::new(config)), name))
}

/// The text of a TLS setup error.
fn text_of(error: TransportError) -> String {
    match error {
        TransportError::Io(text) => text,
        other => other.to_string(),
    }
}

/// Why a TLS handshake failed, with what to do about a certificate the roots do not cover.
fn tls_failure(authority: &str, error: &std::io::Error) -> String {
    let text = error.to_string();
    let hint = if text.contains("certificate") {
        "; if a private CA issued the server's certificate, give its PEM file with --cacert FILE"
    } else {
        ""
    };
    format!("the TLS handshake with {authority} failed: {text}{hint}")
}

async fn read_response(response: Response<Incoming>, deadline: Instant) -> RawResponse {
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &hyper::header::HeaderValue| v.to_str().ok())
            .map(str::to_owned)
    };
    let mut raw = RawResponse {
        status: response.status().as_u16(),
        content_type: header(CONTENT_TYPE.as_str()),
        session: header(SESSION_HEADER),
        ..RawResponse::default()
    };
    let mut body = response.into_body();
    loop {
        match tokio::time::timeout_at(deadline.into(), body.frame()).await {
            Err(_) => {
                raw.timed_out = true;
                break;
            }
            Ok(None) | Ok(Some(Err(_))) => break,
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if raw.body.len() + data.len() > MAX_BODY {
                        raw.too_long = true;
                        break;
                    }
                    raw.body.extend_from_slice(&data);
                    if data.windows(9).any(|w| w == b"\"jsonrpc\"") {
                        raw.last_message = Some(Instant::now());
                    }
                }
            }
        }
    }
    raw
}

/// Whether a frame is a JSON object with a JSON-RPC member (`jsonrpc`, `id`, `result`,
/// `error`, `method`): the server speaks the protocol, however badly.
fn speaks_json_rpc(frame: &[u8]) -> bool {
    match read_frame(frame) {
        Frame::Value {
            text,
            kind: JsonKind::Object,
        } => object_members(text).iter().any(|m| {
            matches!(
                m.key.as_str(),
                "jsonrpc" | "id" | "result" | "error" | "method"
            )
        }),
        _ => false,
    }
}

/// The body's type and length, for messages: `text/html, 153 bytes`, `no body`.
fn describe_body(response: &RawResponse) -> String {
    if response.body.is_empty() {
        return "no body".into();
    }
    format!(
        "{}, {} bytes",
        response
            .content_type
            .as_deref()
            .unwrap_or("no Content-Type"),
        response.body.len()
    )
}

/// Whether a `Content-Type` names `media` (ignoring parameters and case).
pub fn is_media(content_type: Option<&str>, media: &str) -> bool {
    content_type
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(media))
}

/// The JSON-RPC frames of a response body: the SSE events' data for `text/event-stream`,
/// else the body itself (nothing for an empty body).
/// Line breaks are whitespace between JSON tokens (a raw one inside a string makes the text
/// invalid either way), so they become spaces: over HTTP a message may span lines.
fn body_frames(response: &RawResponse) -> Vec<Vec<u8>> {
    let frames = if is_media(response.content_type.as_deref(), "text/event-stream") {
        parse_events(&response.body)
    } else {
        let body = response.body.trim_ascii();
        if body.is_empty() {
            Vec::new()
        } else {
            vec![body.to_vec()]
        }
    };
    frames
        .into_iter()
        .map(|mut frame| {
            for byte in &mut frame {
                if matches!(*byte, b'\n' | b'\r') {
                    *byte = b' ';
                }
            }
            frame
        })
        .collect()
}

impl Target for HttpTarget {
    fn exchange(&mut self, _index: usize, case: &CheckCase) -> Exchange {
        self.exchange_routed(case, None)
    }

    fn exchange_with_headers(
        &mut self,
        _index: usize,
        case: &CheckCase,
        route: &RouteHeaders,
    ) -> Option<Exchange> {
        Some(self.exchange_routed(case, Some(route)))
    }

    fn exchange_followed(
        &mut self,
        _index: usize,
        case: &CheckCase,
        follow: &[u8],
    ) -> Option<Exchange> {
        // MCP 2026-07-28: "Closing the SSE response stream is the cancellation signal … No
        // `notifications/cancelled` message is required or expected", and after the close
        // nothing the server does for the request can be seen.
        if self.routed {
            return None;
        }
        Some(self.exchange_cancelled(case, follow))
    }

    fn profile(&self) -> &'static ProfileFacts {
        self.facts
    }

    fn describe(&self) -> String {
        format!("http: {}", self.url)
    }

    fn is_http(&self) -> bool {
        true
    }

    fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    fn handshake(&mut self) -> Vec<(CheckCase, Exchange)> {
        std::mem::take(&mut self.handshake)
    }

    fn fresh_session(&mut self, frame: &[u8]) -> Option<Exchange> {
        Some(self.fresh(frame))
    }

    fn bare_status(&mut self, method: &str) -> Option<Result<u16, String>> {
        Some(
            self.bare(method, self.session.clone().as_deref())
                .map(|r| r.status),
        )
    }
}

impl HttpTarget {
    /// POSTs `frame` (an `initialize`) outside the run's session: no `Mcp-Session-Id` and no
    /// `MCP-Protocol-Version`, as a client's first message. The session it opens, if the
    /// server issues one, is ended with DELETE.
    fn fresh(&mut self, frame: &[u8]) -> Exchange {
        let session = self.session.take();
        let version = self.version_header.take();
        let posted = self.post(frame);
        self.session = session;
        self.version_header = version;
        match posted {
            Ok(response) => {
                let exchange = self.exchange_of(&response);
                if let Some(opened) = &response.session {
                    // Ending it is a courtesy; a server that keeps it is not judged here.
                    let _ = self.bare("DELETE", Some(opened));
                }
                exchange
            }
            Err(error) => Exchange {
                fault: Some(Fault::Transport(error)),
                ..Exchange::default()
            },
        }
    }

    /// Sends a body-less `method` (GET, DELETE) to the endpoint with `session` and the run's
    /// protocol version, and reads the response (an SSE stream until the timeout at most).
    pub fn bare(&self, method: &str, session: Option<&str>) -> Result<RawResponse, String> {
        let path = self.url.path_and_query().map_or("/", |p| p.as_str());
        let host = self.url.authority().map_or("localhost", |a| a.as_str());
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, host)
            .header(ACCEPT, "text/event-stream");
        if let Some(session) = session {
            builder = builder.header(SESSION_HEADER, session);
        }
        if let Some(version) = &self.version_header {
            builder = builder.header(VERSION_HEADER, version);
        }
        let request = builder
            .body(Full::new(Bytes::new()))
            .map_err(|error| format!("cannot build the request: {error}"))?;
        self.send(request, Instant::now() + self.timeout)
    }
}
