//! The Streamable HTTP transport over `https://`: a CA and a server certificate for
//! 127.0.0.1 are generated here, and a loopback TLS front (HTTP/1.1, and HTTP/2 where its
//! ALPN offers it) passes every request on to `mcpwire-server`'s plain HTTP serving. The
//! front records the protocol each TLS handshake agreed and the HTTP version of every
//! request, as the server saw them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::HOST;
use hyper::service::service_fn;
use hyper::{Request, Version as HttpVersion};
use hyper_util::client::legacy::Client as ProxyClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use mcpwire::http::HttpConfig;
use mcpwire_client::{CallOptions, Client, ClientError, HttpTransport, Version, result_text};
use mcpwire_server::{Context, McpServer, ToolResult};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

fn server() -> McpServer {
    McpServer::builder("https-fixture", "1.0.0")
        .tool(
            "greet",
            "Greet someone",
            |args: Name, _: Context| async move { ToolResult::text(format!("hello {}", args.name)) },
        )
        .build()
        .expect("the fixture builds")
}

/// A CA (its PEM) and the certificate and key it issued for 127.0.0.1 and localhost.
pub(crate) struct Pki {
    pub(crate) ca_pem: String,
    certificate: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl Pki {
    /// A TLS acceptor serving the certificate, offering `alpn`.
    pub(crate) fn acceptor(&self, alpn: &[&str]) -> TlsAcceptor {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(vec![self.certificate.clone()], self.key.clone_key())
            .expect("the server certificate");
        config.alpn_protocols = alpn.iter().map(|p| p.as_bytes().to_vec()).collect();
        TlsAcceptor::from(Arc::new(config))
    }
}

/// A CA named `name` and the certificate it issued for 127.0.0.1 and localhost.
pub(crate) fn pki(name: &str) -> Pki {
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name.push(DnType::CommonName, name);
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_key = KeyPair::generate().expect("a CA key");
    let ca_certificate = ca.self_signed(&ca_key).expect("the CA certificate");
    let issuer = Issuer::new(ca, ca_key);
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server parameters");
    leaf.distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let key = KeyPair::generate().expect("a server key");
    let certificate = leaf
        .signed_by(&key, &issuer)
        .expect("the server certificate");
    Pki {
        ca_pem: ca_certificate.pem(),
        certificate: certificate.der().clone(),
        key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
    }
}

/// A TLS front on loopback before the fixture server: its URL, its CA, and what it saw.
#[derive(Clone)]
struct Front {
    url: String,
    ca_pem: String,
    /// The protocol each TLS handshake agreed by ALPN (`None`: none).
    alpn: Arc<Mutex<Vec<Option<String>>>>,
    /// The method and HTTP version of every request.
    requests: Arc<Mutex<Vec<(String, HttpVersion)>>>,
}

impl Front {
    fn versions_of(&self, method: &str) -> Vec<HttpVersion> {
        self.requests
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|(m, _)| m == method)
            .map(|(_, v)| *v)
            .collect()
    }

    fn alpn(&self) -> Vec<Option<String>> {
        self.alpn.lock().expect("not poisoned").clone()
    }
}

/// Serves the fixture behind a TLS front offering `offer` by ALPN.
async fn front(offer: &[&str]) -> Front {
    let backend = server()
        .http_server(HttpConfig::default().bind("127.0.0.1:0".parse().expect("an address")))
        .expect("the server binds");
    let upstream = backend.local_addr();
    tokio::spawn(backend.run());

    let pki = pki("mcpwire test CA");
    let acceptor = pki.acceptor(offer);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let port = listener.local_addr().expect("an address").port();

    let alpn = Arc::new(Mutex::new(Vec::new()));
    let requests = Arc::new(Mutex::new(Vec::new()));
    let proxy: ProxyClient<HttpConnector, Incoming> =
        ProxyClient::builder(TokioExecutor::new()).build_http();
    let (seen_alpn, seen_requests) = (Arc::clone(&alpn), Arc::clone(&requests));
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            let proxy = proxy.clone();
            let (seen_alpn, seen_requests) = (Arc::clone(&seen_alpn), Arc::clone(&seen_requests));
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let agreed = tls.get_ref().1.alpn_protocol();
                seen_alpn
                    .lock()
                    .expect("not poisoned")
                    .push(agreed.map(|p| String::from_utf8_lossy(p).into_owned()));
                let service = service_fn(move |mut request: Request<Incoming>| {
                    seen_requests
                        .lock()
                        .expect("not poisoned")
                        .push((request.method().to_string(), request.version()));
                    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
                    *request.uri_mut() =
                        format!("http://{upstream}{target}").parse().expect("a URI");
                    *request.version_mut() = HttpVersion::HTTP_11;
                    request.headers_mut().remove(HOST);
                    proxy.request(request)
                });
                let _ = auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    Front {
        url: format!("https://127.0.0.1:{port}/mcp"),
        ca_pem: pki.ca_pem,
        alpn,
        requests,
    }
}

/// A transport to the front that trusts its CA.
fn trusting(front: &Front) -> HttpTransport {
    HttpTransport::new(&front.url)
        .expect("an https URL")
        .add_root_pem(front.ca_pem.as_bytes())
        .expect("the CA's PEM")
}

async fn connect(transport: HttpTransport) -> Result<Client, ClientError> {
    let connecting = Client::builder("https-test", "1.0.0")
        .protocol_version(Version::V2025_11_25)
        .request_timeout(Some(Duration::from_secs(10)))
        .connect(transport);
    // A certificate the client does not trust fails at once, never a hang.
    tokio::time::timeout(Duration::from_secs(10), connecting)
        .await
        .expect("the connection ends within 10 s")
}

async fn greet(client: &Client) -> String {
    let result = client
        .call_tool("greet", &json!({"name": "Ada"}), &CallOptions::new())
        .await
        .expect("the call succeeds");
    result_text(&result)
}

#[tokio::test]
async fn a_tool_is_called_over_https_with_a_private_ca() {
    let front = front(&["http/1.1"]).await;
    let transport = trusting(&front);
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(greet(&client).await, "hello Ada");
    client.close().await;
    assert!(!front.versions_of("POST").is_empty());
    assert!(
        front
            .versions_of("POST")
            .iter()
            .all(|v| *v == HttpVersion::HTTP_11),
        "{:?}",
        front.requests
    );
    assert!(
        front
            .alpn()
            .iter()
            .all(|p| p.as_deref() == Some("http/1.1")),
        "{:?}",
        front.alpn()
    );
}

#[tokio::test]
async fn http2_is_negotiated_where_the_server_offers_it() {
    let front = front(&["h2", "http/1.1"]).await;
    let transport = trusting(&front);
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(greet(&client).await, "hello Ada");
    assert_eq!(greet(&client).await, "hello Ada");
    client.close().await;
    let posts = front.versions_of("POST");
    assert!(
        posts.len() >= 3,
        "initialize, initialized, two calls: {posts:?}"
    );
    assert!(
        posts.iter().all(|v| *v == HttpVersion::HTTP_2),
        "every POST over HTTP/2: {posts:?}"
    );
    assert!(
        front.alpn().contains(&Some("h2".to_owned())),
        "{:?}",
        front.alpn()
    );
    // The session's GET stream shares the HTTP/2 connection.
    let gets = front.versions_of("GET");
    assert!(
        !gets.is_empty() && gets.iter().all(|v| *v == HttpVersion::HTTP_2),
        "{gets:?}"
    );
}

#[tokio::test]
async fn http2_can_be_turned_off() {
    let front = front(&["h2", "http/1.1"]).await;
    let transport = trusting(&front).http2(false);
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(greet(&client).await, "hello Ada");
    client.close().await;
    let posts = front.versions_of("POST");
    assert!(
        !posts.is_empty() && posts.iter().all(|v| *v == HttpVersion::HTTP_11),
        "{posts:?}"
    );
}

#[tokio::test]
async fn a_server_certificate_no_trusted_root_issued_fails_with_a_certificate_error() {
    let front = front(&["h2", "http/1.1"]).await;
    // The platform's roots alone: the test CA is not among them.
    let untrusted = HttpTransport::new(&front.url).expect("an https URL");
    let Err(error) = connect(untrusted).await else {
        panic!("an untrusted certificate fails");
    };
    let error = error.to_string();
    assert!(error.contains("certificate"), "{error}");
    // Another CA only: the server's certificate does not chain to it.
    let other = pki("another CA");
    let wrong_ca = HttpTransport::new(&front.url)
        .expect("an https URL")
        .platform_roots(false)
        .add_root_pem(other.ca_pem.as_bytes())
        .expect("the other CA's PEM");
    let Err(error) = connect(wrong_ca).await else {
        panic!("a certificate of another CA fails");
    };
    let error = error.to_string();
    assert!(
        error.contains("invalid peer certificate") && error.contains("UnknownIssuer"),
        "{error}"
    );
    assert!(front.requests.lock().expect("not poisoned").is_empty());
}

#[tokio::test]
async fn a_pem_without_a_certificate_is_refused_when_given() {
    let error = HttpTransport::new("https://127.0.0.1:1/mcp")
        .expect("an https URL")
        .add_root_pem(b"no certificate here")
        .expect_err("refused")
        .to_string();
    assert!(error.contains("no certificate"), "{error}");
}

/// An HTTP proxy on loopback that serves CONNECT only: its URL, and the `host:port` of every
/// tunnel it opened.
pub(crate) async fn connect_proxy() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let tunnels = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&tunnels);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let seen = Arc::clone(&seen);
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 8192 {
                    match client.read(&mut byte).await {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let mut words = head.split_whitespace();
                let (Some("CONNECT"), Some(target)) = (words.next(), words.next()) else {
                    let _ = client
                        .write_all(b"HTTP/1.1 405 Method Not Allowed\r\n\r\n")
                        .await;
                    return;
                };
                seen.lock().expect("not poisoned").push(target.to_owned());
                let Ok(mut server) = TcpStream::connect(target).await else {
                    return;
                };
                let established = b"HTTP/1.1 200 Connection Established\r\n\r\n";
                if client.write_all(established).await.is_ok() {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    (url, tunnels)
}

/// The `host:port` of the front's URL.
fn authority(front: &Front) -> String {
    let rest = front.url.trim_start_matches("https://");
    rest[..rest.find('/').unwrap_or(rest.len())].to_owned()
}

#[tokio::test]
async fn a_named_proxy_tunnels_the_tls_connection() {
    let front = front(&["h2", "http/1.1"]).await;
    let (proxy, tunnels) = connect_proxy().await;
    let transport = trusting(&front).proxy(&proxy).expect("an http proxy");
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(greet(&client).await, "hello Ada");
    client.close().await;
    let tunnels = tunnels.lock().expect("not poisoned").clone();
    assert!(!tunnels.is_empty(), "no tunnel opened");
    assert!(
        tunnels.iter().all(|t| *t == authority(&front)),
        "{tunnels:?}"
    );
    // TLS ran inside the tunnel, end to end: the front completed its handshakes.
    assert!(!front.alpn().is_empty());
}

#[tokio::test]
async fn a_proxy_that_is_not_http_is_refused() {
    let error = HttpTransport::new("https://127.0.0.1:1/mcp")
        .expect("an https URL")
        .proxy("socks5://127.0.0.1:1080")
        .expect_err("refused")
        .to_string();
    assert!(error.contains("only http:// proxies"), "{error}");
}

/// The variables that name proxies, all cleared before a child sets its own.
const PROXY_VARIABLES: [&str; 9] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
    "REQUEST_METHOD",
];

/// Runs [`greets_in_the_environment_it_is_given`] in a child test process with `env` as its
/// proxy variables; returns whether it passed, and its output.
fn greet_in_a_child(front: &Front, env: &[(&str, &str)]) -> (bool, String) {
    let mut command = std::process::Command::new(std::env::current_exe().expect("this test"));
    command
        .args([
            "--exact",
            "https::greets_in_the_environment_it_is_given",
            "--ignored",
            "--test-threads=1",
        ])
        .env("MCPWIRE_TEST_HTTPS_URL", &front.url)
        .env("MCPWIRE_TEST_HTTPS_CA", &front.ca_pem);
    for name in PROXY_VARIABLES {
        command.env_remove(name);
    }
    command.envs(env.iter().copied());
    let output = command.output().expect("run the child test");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success() && text.contains("1 passed"), text)
}

#[tokio::test]
async fn https_proxy_and_no_proxy_are_read_from_the_environment() {
    let front = front(&["h2", "http/1.1"]).await;
    let (proxy, tunnels) = connect_proxy().await;
    let child_front = front.clone();
    let through = tokio::task::spawn_blocking({
        let proxy = proxy.clone();
        move || greet_in_a_child(&child_front, &[("HTTPS_PROXY", &proxy)])
    })
    .await
    .expect("the child ran");
    assert!(through.0, "{}", through.1);
    let opened = tunnels.lock().expect("not poisoned").clone();
    assert!(!opened.is_empty(), "HTTPS_PROXY was not used");
    assert!(opened.iter().all(|t| *t == authority(&front)), "{opened:?}");

    tunnels.lock().expect("not poisoned").clear();
    let child_front = front.clone();
    let exempt = tokio::task::spawn_blocking(move || {
        greet_in_a_child(
            &child_front,
            &[("HTTPS_PROXY", &proxy), ("NO_PROXY", "localhost,127.0.0.1")],
        )
    })
    .await
    .expect("the child ran");
    assert!(exempt.0, "{}", exempt.1);
    assert!(
        tunnels.lock().expect("not poisoned").is_empty(),
        "NO_PROXY was not honoured"
    );
}

/// Run by [`https_proxy_and_no_proxy_are_read_from_the_environment`] in a child process whose
/// environment names the front and the proxy; on its own it has nothing to reach.
#[tokio::test]
#[ignore = "run by its parent test, in the environment the parent sets"]
async fn greets_in_the_environment_it_is_given() {
    let url = std::env::var("MCPWIRE_TEST_HTTPS_URL").expect("the front's URL");
    let ca = std::env::var("MCPWIRE_TEST_HTTPS_CA").expect("the front's CA");
    let transport = HttpTransport::new(&url)
        .expect("an https URL")
        .add_root_pem(ca.as_bytes())
        .expect("the CA's PEM");
    let client = connect(transport).await.expect("the client connects");
    assert_eq!(greet(&client).await, "hello Ada");
    client.close().await;
}
