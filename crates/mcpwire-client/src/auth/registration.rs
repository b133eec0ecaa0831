//! How the client identifies itself to an authorization server: pre-registered credentials,
//! a Client ID Metadata Document URL, or dynamic client registration (RFC 7591).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::discovery::ServerMetadata;
use super::fetch::AuthHttp;
use super::{AuthError, OAuth};

/// A client's identity at one authorization server.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientRegistration {
    /// The `client_id`.
    pub client_id: String,
    /// The `client_secret` of a confidential client.
    #[serde(default)]
    pub client_secret: Option<String>,
    /// The token endpoint authentication method the registration settled, if it named one.
    #[serde(default)]
    pub token_endpoint_auth_method: Option<String>,
}

impl fmt::Debug for ClientRegistration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientRegistration")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "token_endpoint_auth_method",
                &self.token_endpoint_auth_method,
            )
            .finish()
    }
}

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenAuth {
    /// `client_secret_basic`: HTTP Basic with the form-encoded id and secret.
    Basic,
    /// `client_secret_post`: the id and secret in the form.
    Post,
    /// `none`: the `client_id` in the form.
    None,
}

impl ClientRegistration {
    /// The method this client authenticates with at `server`'s token endpoint: the one its
    /// registration settled, else (with a secret) `client_secret_basic` unless the server
    /// lists only `client_secret_post` (RFC 8414 §2: the default is `client_secret_basic`),
    /// else `none`.
    pub(crate) fn token_auth(&self, server: &ServerMetadata) -> TokenAuth {
        match self.token_endpoint_auth_method.as_deref() {
            Some("client_secret_basic") if self.client_secret.is_some() => TokenAuth::Basic,
            Some("client_secret_post") if self.client_secret.is_some() => TokenAuth::Post,
            Some("none") => TokenAuth::None,
            _ if self.client_secret.is_none() => TokenAuth::None,
            _ => match &server.token_endpoint_auth_methods_supported {
                Some(methods)
                    if !methods.iter().any(|m| m == "client_secret_basic")
                        && methods.iter().any(|m| m == "client_secret_post") =>
                {
                    TokenAuth::Post
                }
                _ => TokenAuth::Basic,
            },
        }
    }
}

/// The client's identity at `server` without a registration kept for it: the pre-registered
/// credentials, else the metadata document URL where the server accepts one, else `None`
/// (dynamic registration is then the way).
pub(crate) fn configured(config: &OAuth, server: &ServerMetadata) -> Option<ClientRegistration> {
    if let Some(credentials) = &config.credentials {
        return Some(credentials.clone());
    }
    match &config.metadata_url {
        Some(url) if server.client_id_metadata_document_supported => Some(ClientRegistration {
            client_id: url.clone(),
            client_secret: None,
            token_endpoint_auth_method: Some("none".to_owned()),
        }),
        _ => None,
    }
}

/// Registers the client at `server`'s registration endpoint (RFC 7591) as a native public
/// client redirected to `redirect_uri`.
pub(crate) async fn register(
    http: &AuthHttp,
    config: &OAuth,
    server: &ServerMetadata,
    redirect_uri: &str,
) -> Result<ClientRegistration, AuthError> {
    let Some(endpoint) = &server.registration_endpoint else {
        return Err(AuthError::Registration(format!(
            "{} supports no dynamic registration, no Client ID Metadata Document was accepted, and no credentials were given",
            server.issuer
        )));
    };
    let request = json!({
        "client_name": config.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        "application_type": "native",
    });
    let answer = http.post_json(endpoint, &request).await?;
    if !answer.status.is_success() {
        return Err(AuthError::Registration(format!(
            "{endpoint} answered HTTP {}: {}",
            answer.status,
            String::from_utf8_lossy(&answer.body)
                .chars()
                .take(200)
                .collect::<String>()
        )));
    }
    let registration: ClientRegistration = serde_json::from_slice(&answer.body).map_err(|e| {
        AuthError::Registration(format!(
            "the answer of {endpoint} is not a registration: {e}"
        ))
    })?;
    Ok(registration)
}
