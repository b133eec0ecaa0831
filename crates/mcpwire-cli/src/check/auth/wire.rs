//! One authorization probe on the wire: a request with exactly the headers the probe names
//! (no `Authorization` unless it sets one), on a connection of its own, inside TLS for an
//! `https://` URL. Only the status, the challenge and a bounded start of the body are read;
//! an event stream's body is never waited for.

use std::path::Path;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{CONTENT_TYPE, HOST, WWW_AUTHENTICATE};
use hyper::{Method, Request, Uri};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::runtime::Runtime;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::pki_types::ServerName;

use crate::check::http_client::{is_media, tls_connector};

/// The most of a probe's body the checker reads (a metadata document is far smaller).
const MAX_PROBE_BODY: usize = 256 << 10;

/// The longest a probe waits for the rest of a body once the headers came.
const BODY_WAIT: Duration = Duration::from_secs(2);

/// What one probe saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    /// The status code.
    pub status: u16,
    /// Every `WWW-Authenticate` header, in order.
    pub challenges: Vec<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The `Mcp-Session-Id` header.
    pub session: Option<String>,
    /// The start of the body (nothing for an event stream).
    pub body: Vec<u8>,
}

/// A request a probe sends.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The method.
    pub method: Method,
    /// The absolute URL (its query included).
    pub url: Uri,
    /// Headers beyond `Host` (which is the URL's unless given here).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// Sends probes to one server (and the documents its metadata names), each on a connection of
/// its own.
pub struct Wire {
    runtime: Runtime,
    timeout: Duration,
    cacert: Option<std::path::PathBuf>,
}

impl Wire {
    /// A sender whose requests each end within `timeout`; `https://` URLs trust the system's
    /// roots and the PEM file `cacert`.
    pub fn new(timeout: Duration, cacert: Option<&Path>) -> Result<Wire, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|error| format!("cannot start the HTTP client: {error}"))?;
        Ok(Wire {
            runtime,
            timeout,
            cacert: cacert.map(Path::to_path_buf),
        })
    }

    /// Sends `probe` and reads what came back.
    pub fn send(&self, probe: &Probe) -> Result<Seen, String> {
        let url = &probe.url;
        let https = match url.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => return Err(format!("`{url}` is not an http:// or https:// URL")),
        };
        let host = url.host().ok_or_else(|| format!("`{url}` has no host"))?;
        let tls = if https {
            Some(tls_connector(host, self.cacert.as_deref())?)
        } else {
            None
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let port = url.port_u16().unwrap_or(if https { 443 } else { 80 });
        let authority = if bare.contains(':') {
            format!("[{bare}]:{port}")
        } else {
            format!("{bare}:{port}")
        };
        let request = build(probe)?;
        let deadline = Instant::now() + self.timeout;
        self.runtime.block_on(async move {
            let connect = TcpStream::connect(authority.clone());
            let stream = tokio::time::timeout_at(deadline.into(), connect)
                .await
                .map_err(|_| format!("connecting to {authority} timed out"))?
                .map_err(|error| format!("cannot connect to {authority}: {error}"))?;
            match tls {
                None => exchange(stream, request, deadline).await,
                Some((connector, name)) => {
                    let stream = tls_stream(connector, name, stream, deadline).await?;
                    exchange(stream, request, deadline).await
                }
            }
        })
    }
}

async fn tls_stream(
    connector: TlsConnector,
    name: ServerName<'static>,
    stream: TcpStream,
    deadline: Instant,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, String> {
    tokio::time::timeout_at(deadline.into(), connector.connect(name, stream))
        .await
        .map_err(|_| "the TLS handshake timed out".to_owned())?
        .map_err(|error| format!("the TLS handshake failed: {error}"))
}

/// The request of `probe`: its method, the URL's path and query, `Host` (unless the probe
/// names one), then the probe's headers.
fn build(probe: &Probe) -> Result<Request<Full<Bytes>>, String> {
    let path = probe.url.path_and_query().map_or("/", |p| p.as_str());
    let mut builder = Request::builder().method(probe.method.clone()).uri(path);
    if !probe
        .headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        let host = probe.url.authority().map_or("localhost", |a| a.as_str());
        builder = builder.header(HOST, host);
    }
    for (name, value) in &probe.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    builder
        .body(Full::new(Bytes::from(probe.body.clone())))
        .map_err(|error| format!("cannot build the request: {error}"))
}

async fn exchange<S>(
    stream: S,
    request: Request<Full<Bytes>>,
    deadline: Instant,
) -> Result<Seen, String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|error| format!("the HTTP handshake failed: {error}"))?;
    let driver = tokio::spawn(async move {
        let _ = connection.await;
    });
    let response = tokio::time::timeout_at(deadline.into(), sender.send_request(request))
        .await
        .map_err(|_| "no response headers before the timeout".to_owned())?
        .map_err(|error| format!("the HTTP request failed: {error}"))?;
    let headers = response.headers();
    let mut seen = Seen {
        status: response.status().as_u16(),
        challenges: headers
            .get_all(WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect(),
        content_type: headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        session: headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        body: Vec::new(),
    };
    if !is_media(seen.content_type.as_deref(), "text/event-stream") {
        let until = deadline.min(Instant::now() + BODY_WAIT);
        let mut body = response.into_body();
        while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(until.into(), body.frame()).await {
            if let Ok(data) = frame.into_data() {
                let room = MAX_PROBE_BODY - seen.body.len();
                seen.body.extend_from_slice(&data[..data.len().min(room)]);
                if seen.body.len() == MAX_PROBE_BODY {
                    break;
                }
            }
        }
    }
    driver.abort();
    Ok(seen)
}
