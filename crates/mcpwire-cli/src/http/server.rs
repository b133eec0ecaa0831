//! The hyper server loop of `mcpwire serve --http`.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{ACCEPT, ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcpwire::{MissingId, Profile, RpcError};
use tokio::net::TcpListener;

use super::sessions::{Outcome, Sessions};

/// The session header of the MCP Streamable HTTP transport.
pub const SESSION_HEADER: &str = "mcp-session-id";

type Shared = Arc<Mutex<Sessions>>;

/// Binds `addr` (e.g. `127.0.0.1:0`) for [`serve_listener`]; returns the listener's address too.
pub fn bind(addr: &str) -> io::Result<(std::net::TcpListener, SocketAddr)> {
    let listener = std::net::TcpListener::bind(addr)?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

/// Serves the reference server starting with `profile` on `addr` until the process ends,
/// printing `mcpwire serve: listening on http://ADDR/mcp` on stderr once bound.
pub fn serve(profile: Profile, addr: &str) -> io::Result<()> {
    let (listener, local) = bind(addr)?;
    eprintln!("mcpwire serve: listening on http://{local}/mcp");
    serve_listener(profile, listener)
}

/// Serves the reference server on an already bound listener, on a single-threaded runtime.
pub fn serve_listener(profile: Profile, listener: std::net::TcpListener) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::from_std(listener)?;
        let sessions: Shared = Arc::new(Mutex::new(Sessions::new(profile)));
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of descriptors and similar: skip this connection, keep serving.
                Err(_) => continue,
            };
            let sessions = Arc::clone(&sessions);
            tokio::spawn(async move {
                let service = service_fn(move |request| {
                    let sessions = Arc::clone(&sessions);
                    async move { Ok::<_, Infallible>(respond(&sessions, request).await) }
                });
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}

async fn respond(sessions: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    match *request.method() {
        Method::POST => post(sessions, request).await,
        Method::DELETE => delete(sessions, &request),
        _ => {
            let mut response = empty(StatusCode::METHOD_NOT_ALLOWED);
            response
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("POST, DELETE"));
            response
        }
    }
}

fn session_of<B>(request: &Request<B>) -> Result<Option<String>, ()> {
    match request.headers().get(SESSION_HEADER) {
        None => Ok(None),
        Some(value) => value.to_str().map(|s| Some(s.to_owned())).map_err(|_| ()),
    }
}

fn delete(sessions: &Shared, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let Ok(Some(id)) = session_of(request) else {
        return error(
            StatusCode::BAD_REQUEST,
            "DELETE needs an Mcp-Session-Id header",
        );
    };
    let ended = sessions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .end(&id);
    if ended {
        empty(StatusCode::NO_CONTENT)
    } else {
        error(StatusCode::NOT_FOUND, "unknown session")
    }
}

async fn post(sessions: &Shared, request: Request<Incoming>) -> Response<Full<Bytes>> {
    if !media_type_is(request.headers().get(CONTENT_TYPE), "application/json") {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        );
    }
    if !accepts_json(request.headers().get(ACCEPT)) {
        return error(
            StatusCode::NOT_ACCEPTABLE,
            "Accept must admit application/json",
        );
    }
    let Ok(session) = session_of(&request) else {
        return error(
            StatusCode::BAD_REQUEST,
            "the Mcp-Session-Id header is not visible ASCII",
        );
    };
    let max = sessions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .start_profile()
        .limits()
        .max_frame_bytes;
    let body = match http_body_util::Limited::new(request.into_body(), max)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "the body is larger than the frame limit",
            );
        }
    };
    let outcome = sessions
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .handle(session.as_deref(), &body);
    match outcome {
        Outcome::Handled {
            status,
            reply,
            new_session,
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
            let mut response = match reply {
                Some(reply) => json(status, reply),
                None => empty(status),
            };
            if let Some(id) = new_session.and_then(|id| HeaderValue::from_str(&id).ok()) {
                response.headers_mut().insert(SESSION_HEADER, id);
            }
            response
        }
        Outcome::SessionRequired => error(
            StatusCode::BAD_REQUEST,
            "no Mcp-Session-Id: send initialize first and name its session in every later request",
        ),
        Outcome::UnknownSession => error(
            StatusCode::NOT_FOUND,
            "unknown or ended session; initialize again",
        ),
    }
}

/// Whether a header's media type (before any `;` parameter) is `expected`.
fn media_type_is(value: Option<&HeaderValue>, expected: &str) -> bool {
    value
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(expected))
}

/// Whether an `Accept` header admits `application/json` (an absent header admits anything).
fn accepts_json(value: Option<&HeaderValue>) -> bool {
    let Some(value) = value else { return true };
    let Ok(value) = value.to_str() else {
        return false;
    };
    value
        .split(',')
        .filter_map(|range| range.split(';').next())
        .any(|range| {
            let range = range.trim();
            ["application/json", "application/*", "*/*"]
                .iter()
                .any(|ok| range.eq_ignore_ascii_case(ok))
        })
}

fn empty(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = status;
    response
}

fn json(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An HTTP-level error: the status and a JSON-RPC error reply without an id.
fn error(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    let reply = mcpwire::reply::error_reply(None, &RpcError::new(-32600, message), MissingId::Null);
    json(status, reply)
}
