//! The user's part of the flow: a [`UserAgent`] opens the authorization URL and hands back
//! the redirect's parameters; [`LoopbackReceiver`] receives the redirect on 127.0.0.1 for
//! command-line applications (RFC 8252 §7.3).

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Mutex;

use super::AuthError;
use crate::transport::BoxFuture;

/// The user's part of an authorization: where the authorization server redirects to, and
/// what happens between the authorization URL and that redirect (a browser, a prompt).
pub trait UserAgent: Send + Sync {
    /// The `redirect_uri` the authorization server sends the user back to.
    fn redirect_uri(&self) -> String;

    /// Sends the user to `authorization_url` and resolves to the parameters of the redirect
    /// that comes back (bounded in time by the implementation).
    fn authorize(
        &self,
        authorization_url: String,
    ) -> BoxFuture<'_, Result<AuthorizationResponse, AuthError>>;
}

/// The parameters of the redirect that ends the user's part (`code`, `state`, `iss`, or
/// `error` and `error_description`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthorizationResponse {
    params: Vec<(String, String)>,
}

impl AuthorizationResponse {
    /// The parameters of a redirect's query (`code=…&state=…`, without the `?`).
    pub fn from_query(query: &str) -> Self {
        Self {
            params: form_urlencoded::parse(query.as_bytes())
                .map(|(name, value)| (name.into_owned(), value.into_owned()))
                .collect(),
        }
    }

    /// The parameters of a redirect URL's query.
    pub fn from_url(url: &str) -> Self {
        let query = url.split_once('?').map_or("", |(_, query)| query);
        Self::from_query(query.split('#').next().unwrap_or_default())
    }

    /// The first value of the parameter `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }
}

/// The user of a client that has none (the client credentials grant): any authorization
/// that would need one fails.
pub(crate) struct NoUser;

impl UserAgent for NoUser {
    fn redirect_uri(&self) -> String {
        String::new()
    }

    fn authorize(
        &self,
        _authorization_url: String,
    ) -> BoxFuture<'_, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async {
            Err(AuthError::User(
                "this client has no user (client credentials grant)".to_owned(),
            ))
        })
    }
}

/// What [`LoopbackReceiver`] does with the authorization URL (print it, open a browser); an
/// error ends the authorization.
pub type OpenUrl = dyn Fn(&str) -> Result<(), String> + Send + Sync;

/// The longest request head the receiver reads.
const MAX_HEAD: usize = 8 * 1024;
/// How many connections one authorization's receiver accepts before it gives up (a browser
/// may ask for a favicon first).
const MAX_CONNECTIONS: usize = 16;

/// A [`UserAgent`] for command-line applications: it listens on 127.0.0.1 on an ephemeral
/// port, hands the authorization URL to a callback (which prints it or opens a browser),
/// and answers the browser's redirect to `http://127.0.0.1:PORT/callback` with a short
/// page, resolving to its parameters. Only loopback is bound: nothing off the machine can
/// reach it.
pub struct LoopbackReceiver {
    listener: Mutex<TcpListener>,
    port: u16,
    open: Arc<OpenUrl>,
    timeout: Duration,
}

impl std::fmt::Debug for LoopbackReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoopbackReceiver")
            .field("port", &self.port)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl LoopbackReceiver {
    /// Binds 127.0.0.1 on an ephemeral port; `open` is given each authorization URL.
    pub async fn bind(
        open: impl Fn(&str) -> Result<(), String> + Send + Sync + 'static,
    ) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Self {
            listener: Mutex::new(listener),
            port,
            open: Arc::new(open),
            timeout: Duration::from_secs(300),
        })
    }

    /// The longest wait for the redirect after the URL was opened (default 5 minutes).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    async fn receive(&self, listener: &TcpListener) -> Result<AuthorizationResponse, AuthError> {
        for _ in 0..MAX_CONNECTIONS {
            let (mut stream, _) = listener
                .accept()
                .await
                .map_err(|error| AuthError::User(format!("accepting the redirect: {error}")))?;
            let mut head = Vec::new();
            let mut buffer = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buffer[..n]),
                }
            }
            let line = String::from_utf8_lossy(&head);
            let target = line
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("GET "))
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or_default();
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let response = AuthorizationResponse::from_query(query);
            if path != "/callback"
                || (response.get("code").is_none() && response.get("error").is_none())
            {
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    )
                    .await;
                continue;
            }
            let page: &[u8] = if response.get("error").is_some() {
                b"<!doctype html><p>The authorization was refused. You can close this window.</p>"
            } else {
                b"<!doctype html><p>Authorization received. You can close this window.</p>"
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                page.len()
            );
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.write_all(page).await;
            let _ = stream.shutdown().await;
            return Ok(response);
        }
        Err(AuthError::User(format!(
            "{MAX_CONNECTIONS} connections to the redirect receiver, none the redirect"
        )))
    }
}

impl UserAgent for LoopbackReceiver {
    fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    fn authorize(
        &self,
        authorization_url: String,
    ) -> BoxFuture<'_, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async move {
            // One authorization at a time on this port.
            let listener = self.listener.lock().await;
            (self.open)(&authorization_url).map_err(AuthError::User)?;
            tokio::time::timeout(self.timeout, self.receive(&listener))
                .await
                .map_err(|_| AuthError::User(format!("no redirect within {:?}", self.timeout)))?
        })
    }
}
