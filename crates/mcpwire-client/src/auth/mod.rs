//! # OAuth 2.1 for Streamable HTTP (feature `oauth`)
//!
//! The client side of the MCP authorization specification (2025-06-18, 2025-11-25,
//! 2026-07-28): an [`HttpTransport`](crate::HttpTransport) given an [`OAuth`] answers a
//! server's `401` by finding the server's authorization server, obtaining an access token
//! with the authorization code grant and PKCE, and sending the request again with
//! `Authorization: Bearer …`.
//!
//! | step | what the client does | specification |
//! |---|---|---|
//! | discovery | reads `resource_metadata` and `scope` from the `WWW-Authenticate: Bearer` challenge; fetches the Protected Resource Metadata from the challenge's URL, else from the path-suffixed well-known URI, else from the root one | RFC 9728 §3, §5.1; MCP 2025-11-25 "Protected Resource Metadata Discovery Requirements" |
//! | resource check | refuses metadata whose `resource` is not the server's origin with a path that is the endpoint's path or a segment-wise prefix of it | RFC 9728 §3.3 |
//! | authorization server metadata | RFC 8414 path-inserted well-known URI, then OpenID Connect discovery path-inserted, then path-appended (an issuer without a path: RFC 8414, then OpenID Connect) | MCP 2025-11-25 "Authorization Server Metadata Discovery" |
//! | issuer check | refuses metadata whose `issuer` is not the issuer it was fetched for | RFC 8414 §3.3 |
//! | PKCE | S256 only; an authorization server whose metadata does not list S256 in `code_challenge_methods_supported` is refused | OAuth 2.1 §4.1.1, MCP "Authorization Code Protection" |
//! | `state` and `iss` | a redirect whose `state` is not the one sent is refused; an `iss` that is not the issuer is refused, and so is a missing one where the metadata announces `authorization_response_iss_parameter_supported` | RFC 6749 §10.12, RFC 9207 §2.4 |
//! | `resource` | the protected resource's identifier in the authorization and in every token request | RFC 8707, MCP "Resource Parameter Implementation" |
//! | scopes | the challenge's `scope`, else the resource metadata's `scopes_supported`, else none; on `403` with `error="insufficient_scope"` a new authorization asks for the scopes granted and those the challenge names, at most [`OAuth::max_step_ups`] times per request | MCP 2025-11-25 "Scope Selection Strategy", "Step-Up Authorization Flow" |
//! | `offline_access` | added to the scopes asked for where the authorization server lists it in `scopes_supported`, so that an OpenID-flavoured server grants a refresh token | SEP-2207 (MCP 2026-07-28) |
//! | no resource metadata | a server without any is taken as its own authorization server: its origin's RFC 8414 metadata (same checks), else `/authorize`, `/token`, `/register` at its origin; the resource is the endpoint | MCP 2025-03-26 "Server Metadata Discovery", "Fallbacks for Servers without Metadata Discovery" |
//! | client | pre-registered credentials; else a Client ID Metadata Document URL where the server announces `client_id_metadata_document_supported`; else dynamic client registration | MCP 2025-11-25 "Client Registration Approaches", RFC 7591 |
//! | client credentials | [`OAuth::client_credentials_grant`] (a secret) or [`OAuth::client_credentials_jwt`] (`private_key_jwt`, RFC 7523): no user; `grant_type=client_credentials` with the scope and `resource` | OAuth 2.1 §4.2, SEP-1046 (extension `io.modelcontextprotocol/oauth-client-credentials`) |
//! | token endpoint authentication | `client_secret_basic`, `client_secret_post` or `none`, as the registration or the server's metadata say | RFC 6749 §2.3.1 |
//! | tokens | refreshed with the refresh token on a `401` before a new authorization; kept in a [`TokenStore`] under the issuer and the resource | RFC 6749 §6 |
//! | security | the access token goes only in the `Authorization` header of requests to the MCP endpoint (redirects are never followed), never in a URL, never to the authorization server | OAuth 2.1 §7, MCP "Token Audience Binding" |
//!
//! The user's part (opening the authorization URL, receiving the redirect) is a
//! [`UserAgent`]; [`LoopbackReceiver`] is one for command-line applications.

mod assertion;
mod challenge;
mod client;
mod discovery;
mod error;
mod fetch;
mod pkce;
mod registration;
mod store;
mod token;
mod urls;
mod user;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

pub(crate) use challenge::Challenge;
pub(crate) use client::Authorizer;
pub use error::AuthError;
pub use registration::ClientRegistration;
pub use store::{MemoryTokenStore, StoreKey, StoredCredentials, TokenStore};
pub use token::Tokens;
pub use user::{AuthorizationResponse, LoopbackReceiver, UserAgent};

/// The default of [`OAuth::max_step_ups`].
pub const DEFAULT_MAX_STEP_UPS: u32 = 2;

/// How an [`HttpTransport`](crate::HttpTransport) obtains access tokens: the user's part of
/// the flow, how the client registers, where tokens are kept.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use mcpwire_client::auth::{LoopbackReceiver, OAuth};
/// use mcpwire_client::{Client, HttpTransport};
/// // Show the URL to the user (or open a browser); the redirect comes back to 127.0.0.1.
/// let receiver = LoopbackReceiver::bind(|url| {
///     eprintln!("open {url}");
///     Ok(())
/// })
/// .await?;
/// let oauth = OAuth::new(receiver).client_name("my-agent");
/// let transport = HttpTransport::new("https://mcp.example.com/mcp")?.oauth(oauth);
/// let client = Client::builder("my-agent", "1.0.0").connect(transport).await?;
/// # let _ = client; Ok(()) }
/// ```
#[derive(Clone)]
pub struct OAuth {
    pub(crate) user: Arc<dyn UserAgent>,
    pub(crate) store: Arc<dyn TokenStore>,
    pub(crate) credentials: Option<ClientRegistration>,
    pub(crate) metadata_url: Option<String>,
    pub(crate) client_name: String,
    pub(crate) max_step_ups: u32,
    pub(crate) timeout: Duration,
    /// The client credentials grant instead of the authorization code grant.
    pub(crate) machine: bool,
    /// The key of `private_key_jwt`, if the client authenticates so.
    pub(crate) signer: Option<Arc<assertion::Signer>>,
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.user.redirect_uri())
            .field("credentials", &self.credentials)
            .field("metadata_url", &self.metadata_url)
            .field("client_name", &self.client_name)
            .field("max_step_ups", &self.max_step_ups)
            .field("timeout", &self.timeout)
            .field("client_credentials_grant", &self.machine)
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// OAuth with `user` doing the user's part, tokens kept in a [`MemoryTokenStore`], and
    /// dynamic client registration (unless credentials or a metadata document are given).
    pub fn new(user: impl UserAgent + 'static) -> Self {
        Self {
            user: Arc::new(user),
            store: Arc::new(MemoryTokenStore::default()),
            credentials: None,
            metadata_url: None,
            client_name: "mcpwire-client".to_owned(),
            max_step_ups: DEFAULT_MAX_STEP_UPS,
            timeout: Duration::from_secs(30),
            machine: false,
            signer: None,
        }
    }

    /// [`client_credentials_grant`](Self::client_credentials_grant) authenticated with
    /// `private_key_jwt` (RFC 7523 §2.2) instead of a secret: each token request carries a
    /// JWT signed with `private_key_pem` (PKCS#8; `algorithm` `ES256` or `ES384`) whose
    /// `iss` and `sub` are `client_id` and whose `aud` is the authorization server's issuer.
    /// A key that cannot be read is an error.
    pub fn client_credentials_jwt(
        client_id: &str,
        private_key_pem: &[u8],
        algorithm: &str,
    ) -> Result<Self, AuthError> {
        let signer = assertion::Signer::from_pem(private_key_pem, algorithm)?;
        let mut oauth = Self::new(user::NoUser).client_credentials(client_id, None);
        oauth.machine = true;
        oauth.signer = Some(Arc::new(signer));
        Ok(oauth)
    }

    /// OAuth for a client acting on its own behalf, with no user: the client credentials
    /// grant (OAuth 2.1 §4.2; the `io.modelcontextprotocol/oauth-client-credentials`
    /// extension, SEP-1046) with these pre-registered credentials, authenticated at the token
    /// endpoint as the server's metadata allows (`client_secret_basic` unless it lists only
    /// `client_secret_post`). Discovery, the checks, `resource` and the scope selection are
    /// the same as for the authorization code grant.
    pub fn client_credentials_grant(client_id: &str, client_secret: &str) -> Self {
        let mut oauth = Self::new(user::NoUser).client_credentials(client_id, Some(client_secret));
        oauth.machine = true;
        oauth
    }

    /// Pre-registered credentials, used with every authorization server (a `None` secret is
    /// a public client: token endpoint authentication `none`).
    pub fn client_credentials(mut self, client_id: &str, client_secret: Option<&str>) -> Self {
        self.credentials = Some(ClientRegistration {
            client_id: client_id.to_owned(),
            client_secret: client_secret.map(str::to_owned),
            token_endpoint_auth_method: None,
        });
        self
    }

    /// The `https://` URL of this client's Client ID Metadata Document, used as its
    /// `client_id` with an authorization server that announces
    /// `client_id_metadata_document_supported` (and no pre-registered credentials).
    pub fn client_metadata_url(mut self, url: &str) -> Self {
        self.metadata_url = Some(url.to_owned());
        self
    }

    /// The `client_name` of a dynamic registration (default `mcpwire-client`).
    pub fn client_name(mut self, name: &str) -> Self {
        self.client_name = name.to_owned();
        self
    }

    /// Where credentials are kept (default: a [`MemoryTokenStore`] of this `OAuth` and its
    /// clones).
    pub fn store(mut self, store: Arc<dyn TokenStore>) -> Self {
        self.store = store;
        self
    }

    /// How many times one request may be answered `403 insufficient_scope` and authorized
    /// again with more scopes (default [`DEFAULT_MAX_STEP_UPS`]); then the `403` fails it.
    pub fn max_step_ups(mut self, limit: u32) -> Self {
        self.max_step_ups = limit;
        self
    }

    /// The longest wait for each exchange with an authorization server or a metadata
    /// endpoint (default 30 s); the user's part is bounded by the [`UserAgent`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}
