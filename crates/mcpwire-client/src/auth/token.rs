//! The token endpoint: the authorization code exchanged (with its PKCE verifier) and a
//! refresh token used, each with the `resource` parameter (RFC 8707) and the client's
//! authentication.

use std::fmt;
use std::time::{Duration, SystemTime};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use super::AuthError;
use super::assertion::{JWT_BEARER, Signer};
use super::discovery::ServerMetadata;
use super::fetch::AuthHttp;
use super::registration::{ClientRegistration, TokenAuth};

/// The tokens an authorization server granted.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// The access token sent as `Authorization: Bearer …`.
    pub access_token: String,
    /// The refresh token, if one was granted.
    pub refresh_token: Option<String>,
    /// The scopes granted (the token response's `scope`, else those asked for).
    pub scope: Option<String>,
    /// When the access token expires, if the server said.
    pub expires_at: Option<SystemTime>,
}

impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"<redacted>")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "<redacted>"),
            )
            .field("scope", &self.scope)
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// A token response (RFC 6749 §5.1).
#[derive(Deserialize)]
struct Response {
    access_token: String,
    token_type: String,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    scope: Option<String>,
}

/// An error response (RFC 6749 §5.2).
#[derive(Deserialize)]
struct ErrorResponse {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// What one token request is for.
pub(crate) enum Grant<'a> {
    /// The authorization code grant.
    Code {
        code: &'a str,
        verifier: &'a str,
        redirect_uri: &'a str,
    },
    /// A refresh.
    Refresh { refresh_token: &'a str },
    /// The client credentials grant (the client acting on its own behalf).
    ClientCredentials,
}

/// Asks `server`'s token endpoint for tokens for `resource`. `scope` is what was asked for
/// (kept when the response does not name the scopes granted); a refresh that grants no new
/// refresh token keeps `previous_refresh`.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn request(
    http: &AuthHttp,
    server: &ServerMetadata,
    client: &ClientRegistration,
    signer: Option<&Signer>,
    grant: Grant<'_>,
    resource: &str,
    scope: Option<&str>,
) -> Result<Tokens, AuthError> {
    let endpoint = server.token_endpoint()?;
    let mut form: Vec<(&str, &str)> = Vec::new();
    let mut kept_refresh = None;
    match &grant {
        Grant::Code {
            code,
            verifier,
            redirect_uri,
        } => {
            form.push(("grant_type", "authorization_code"));
            form.push(("code", code));
            form.push(("code_verifier", verifier));
            form.push(("redirect_uri", redirect_uri));
        }
        Grant::Refresh { refresh_token } => {
            form.push(("grant_type", "refresh_token"));
            form.push(("refresh_token", refresh_token));
            kept_refresh = Some((*refresh_token).to_owned());
        }
        Grant::ClientCredentials => {
            form.push(("grant_type", "client_credentials"));
            if let Some(scope) = scope {
                form.push(("scope", scope));
            }
        }
    }
    form.push(("resource", resource));
    let mut basic = None;
    let assertion;
    if let Some(signer) = signer {
        assertion = signer.assertion(&client.client_id, &server.issuer)?;
        form.push(("client_id", &client.client_id));
        form.push(("client_assertion_type", JWT_BEARER));
        form.push(("client_assertion", &assertion));
    } else {
        match client.token_auth(server) {
            TokenAuth::Basic => {
                // RFC 6749 §2.3.1: both are form-encoded before they are joined.
                let encode = |text: &str| {
                    form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>()
                };
                let secret = client.client_secret.as_deref().unwrap_or_default();
                let pair = format!("{}:{}", encode(&client.client_id), encode(secret));
                basic = Some(format!("Basic {}", STANDARD.encode(pair)));
            }
            TokenAuth::Post => {
                form.push(("client_id", &client.client_id));
                form.push((
                    "client_secret",
                    client.client_secret.as_deref().unwrap_or_default(),
                ));
            }
            TokenAuth::None => form.push(("client_id", &client.client_id)),
        }
    }
    let answer = http.post_form(endpoint, &form, basic).await?;
    if !answer.status.is_success() {
        let why = match serde_json::from_slice::<ErrorResponse>(&answer.body) {
            Ok(error) => match error.error_description {
                Some(description) => format!("{}: {description}", error.error),
                None => error.error,
            },
            Err(_) => "no error response".to_owned(),
        };
        return Err(AuthError::Token(format!(
            "{endpoint} answered HTTP {}: {why}",
            answer.status
        )));
    }
    let response: Response = serde_json::from_slice(&answer.body).map_err(|error| {
        AuthError::Token(format!(
            "the answer of {endpoint} is not a token response: {error}"
        ))
    })?;
    if !response.token_type.eq_ignore_ascii_case("bearer") {
        return Err(AuthError::Token(format!(
            "{endpoint} granted a {:?} token; only Bearer tokens are supported",
            response.token_type
        )));
    }
    Ok(Tokens {
        access_token: response.access_token,
        refresh_token: response.refresh_token.or(kept_refresh),
        scope: response.scope.or_else(|| scope.map(str::to_owned)),
        expires_at: response
            .expires_in
            .and_then(|seconds| SystemTime::now().checked_add(Duration::from_secs(seconds))),
    })
}
