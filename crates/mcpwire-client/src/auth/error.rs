//! Why an authorization failed.

use std::fmt;

/// Why the client could not obtain an access token. The transport fails the request with
/// [`TransportError::Http`](crate::TransportError::Http) carrying this text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// No usable Protected Resource or authorization server metadata was found, or it is
    /// malformed; the text names the URLs tried.
    Discovery(String),
    /// The Protected Resource Metadata names another resource than the server (RFC 9728
    /// §3.3).
    ResourceMismatch {
        /// The MCP endpoint.
        endpoint: String,
        /// The metadata's `resource`.
        resource: String,
    },
    /// The authorization server metadata names another issuer than the one it was fetched
    /// for (RFC 8414 §3.3), or the authorization response's `iss` is not the issuer (RFC
    /// 9207).
    IssuerMismatch {
        /// The issuer expected.
        expected: String,
        /// What the metadata or the response said (empty: nothing).
        found: String,
    },
    /// The authorization server does not list `S256` in `code_challenge_methods_supported`.
    NoPkceS256(String),
    /// The redirect's `state` is not the one sent.
    State,
    /// The authorization server refused the authorization (its `error` and description).
    Denied(String),
    /// The client could not register, or has no way to.
    Registration(String),
    /// The token endpoint refused or answered something unusable.
    Token(String),
    /// An exchange with a metadata endpoint or the authorization server failed.
    Http(String),
    /// The user's part of the flow failed (the [`UserAgent`](super::UserAgent)'s text).
    User(String),
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Discovery(text) => write!(f, "discovery: {text}"),
            Self::ResourceMismatch { endpoint, resource } => write!(
                f,
                "the protected resource metadata names the resource {resource:?}, not the server {endpoint:?} (RFC 9728 §3.3)"
            ),
            Self::IssuerMismatch { expected, found } => write!(
                f,
                "the issuer is {found:?}, not the authorization server {expected:?} (RFC 8414 §3.3, RFC 9207)"
            ),
            Self::NoPkceS256(issuer) => write!(
                f,
                "the authorization server {issuer} does not list S256 in code_challenge_methods_supported; PKCE S256 is required"
            ),
            Self::State => f.write_str(
                "the authorization response's state is not the one sent; the response is refused",
            ),
            Self::Denied(text) => write!(f, "the authorization server refused: {text}"),
            Self::Registration(text) => write!(f, "client registration: {text}"),
            Self::Token(text) => write!(f, "token request: {text}"),
            Self::Http(text) => write!(f, "{text}"),
            Self::User(text) => write!(f, "the user's part of the flow: {text}"),
        }
    }
}

impl std::error::Error for AuthError {}
