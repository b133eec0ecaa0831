//! `mcpwire check --http https://…`: the shipped binary checks `mcpwire serve --http` through a
//! loopback TLS front. The test generates a CA and a certificate for 127.0.0.1; the front
//! (tokio-rustls, HTTP/1.1 by ALPN) passes the decrypted bytes to the server unchanged, so
//! the check sees the same server as over plain http://.

use crate::serving;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

use serving::{Serving, serve};

/// `mcpwire serve --http` on loopback, in session mode (MCP 2025-11-25).
fn serve_session() -> Serving {
    serve(&["--profile", "mcp-2025-11-25", "--http", "127.0.0.1:0"])
}

/// A TLS front before `upstream` (host:port): the https URL of `path`, the CA's PEM file, and
/// how many TLS handshakes it completed.
struct Front {
    url: String,
    ca_file: PathBuf,
    handshakes: Arc<AtomicUsize>,
    _runtime: tokio::runtime::Runtime,
}

impl Drop for Front {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.ca_file);
    }
}

fn front(upstream: &str, path: &str) -> Front {
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "mcpwire check test CA");
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_key = KeyPair::generate().expect("a CA key");
    let ca_pem = ca.self_signed(&ca_key).expect("the CA certificate").pem();
    let issuer = Issuer::new(ca, ca_key);
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server parameters");
    let key = KeyPair::generate().expect("a server key");
    let certificate = leaf
        .signed_by(&key, &issuer)
        .expect("the server certificate");

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![certificate.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        )
        .expect("the server certificate");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let acceptor = TlsAcceptor::from(Arc::new(config));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let listener = runtime
        .block_on(TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let handshakes = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&handshakes);
    let upstream = upstream.to_owned();
    runtime.spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, upstream, counted) =
                (acceptor.clone(), upstream.clone(), Arc::clone(&counted));
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                counted.fetch_add(1, Ordering::SeqCst);
                let Ok(mut server) = TcpStream::connect(upstream).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
            });
        }
    });
    let ca_file = std::env::temp_dir().join(format!(
        "mcpwire-check-https-{}-{port}.pem",
        std::process::id()
    ));
    std::fs::write(&ca_file, ca_pem).expect("write the CA's PEM");
    Front {
        url: format!("https://127.0.0.1:{port}{path}"),
        ca_file,
        handshakes,
        _runtime: runtime,
    }
}

/// `mcpwire check --http <url> <args>` with a fixed case set.
fn check(url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["check", "--cases", "10", "--seed", "3"])
        .args(["--http", url])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mcpwire check")
}

fn report(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "report is JSON ({e}); stdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The split of a URL into `host:port` and path.
fn authority_and_path(url: &str) -> (&str, &str) {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let at = rest.find('/').unwrap_or(rest.len());
    (&rest[..at], &rest[at..])
}

#[test]
fn an_https_endpoint_is_checked_with_the_private_ca_as_over_http() {
    let serving = serve_session();
    let (upstream, path) = authority_and_path(&serving.url);
    let front = front(upstream, path);
    let ca = front.ca_file.to_str().expect("a UTF-8 path").to_owned();

    let plain = check(&serving.url, &["--format", "json"]);
    let tls = check(&front.url, &["--cacert", &ca, "--format", "json"]);
    let (plain_report, tls_report) = (report(&plain), report(&tls));
    assert_eq!(plain.status.code(), Some(0), "{plain_report:#}");
    assert_eq!(tls.status.code(), Some(0), "{tls_report:#}");
    // The same cases, judged the same way, as over plain http://.
    let cases = tls_report["cases"].as_u64().expect("a case count");
    assert!(cases > 10, "{tls_report:#}");
    for member in ["cases", "rules", "findings", "passed"] {
        assert_eq!(
            tls_report[member], plain_report[member],
            "{member}: {tls_report:#}"
        );
    }
    // Every request went through TLS, each on a connection of its own.
    let handshakes = front.handshakes.load(Ordering::SeqCst) as u64;
    assert!(
        handshakes >= cases,
        "{handshakes} TLS handshakes for {cases} cases"
    );
    assert_eq!(
        tls_report["target"]
            .as_str()
            .map(|t| t.starts_with("http: https://")),
        Some(true),
        "{tls_report:#}"
    );
}

#[test]
fn without_cacert_an_untrusted_certificate_exits_2_naming_the_cause() {
    let serving = serve_session();
    let (upstream, path) = authority_and_path(&serving.url);
    let front = front(upstream, path);
    let started = Instant::now();
    let output = check(&front.url, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(started.elapsed() < Duration::from_secs(10), "no hang");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("invalid peer certificate") && stderr.contains("--cacert"),
        "{stderr}"
    );
    assert_eq!(front.handshakes.load(Ordering::SeqCst), 0);
}

#[test]
fn a_cacert_file_without_a_certificate_exits_2() {
    let serving = serve_session();
    let (upstream, path) = authority_and_path(&serving.url);
    let front = front(upstream, path);
    std::fs::write(&front.ca_file, "not a certificate").expect("overwrite the PEM");
    let ca = front.ca_file.to_str().expect("a UTF-8 path").to_owned();
    let output = check(&front.url, &["--cacert", &ca]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no certificate"), "{stderr}");
}
