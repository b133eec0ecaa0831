//! Discovery: from a server's challenge to its Protected Resource Metadata (RFC 9728) and
//! from there to its authorization server's metadata (RFC 8414, OpenID Connect discovery),
//! each held to its identifier check.

use serde::Deserialize;

use super::challenge::Challenge;
use super::fetch::AuthHttp;
use super::{AuthError, urls};

/// The members of Protected Resource Metadata the client uses (RFC 9728 §2).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ResourceMetadata {
    pub(crate) resource: String,
    #[serde(default)]
    pub(crate) authorization_servers: Vec<String>,
    #[serde(default)]
    pub(crate) scopes_supported: Option<Vec<String>>,
}

/// The members of authorization server metadata the client uses (RFC 8414 §2, RFC 9207,
/// the Client ID Metadata Document draft).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct ServerMetadata {
    pub(crate) issuer: String,
    #[serde(default)]
    pub(crate) authorization_endpoint: Option<String>,
    #[serde(default)]
    pub(crate) token_endpoint: Option<String>,
    #[serde(default)]
    pub(crate) registration_endpoint: Option<String>,
    #[serde(default)]
    pub(crate) scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) authorization_response_iss_parameter_supported: bool,
    #[serde(default)]
    pub(crate) client_id_metadata_document_supported: bool,
}

impl ServerMetadata {
    /// The endpoints MCP 2025-03-26 assumes for a server that publishes no metadata: `/authorize`,
    /// `/token` and `/register` at the MCP server's origin (PKCE being mandatory there, S256 is
    /// assumed).
    fn defaults(origin: &str) -> Self {
        Self {
            issuer: origin.to_owned(),
            authorization_endpoint: Some(format!("{origin}/authorize")),
            token_endpoint: Some(format!("{origin}/token")),
            registration_endpoint: Some(format!("{origin}/register")),
            code_challenge_methods_supported: Some(vec!["S256".to_owned()]),
            ..Self::default()
        }
    }

    /// The authorization endpoint (required for the code grant).
    pub(crate) fn authorization_endpoint(&self) -> Result<&str, AuthError> {
        self.authorization_endpoint.as_deref().ok_or_else(|| {
            AuthError::Discovery(format!(
                "the metadata of {} has no authorization_endpoint",
                self.issuer
            ))
        })
    }

    /// The token endpoint.
    pub(crate) fn token_endpoint(&self) -> Result<&str, AuthError> {
        self.token_endpoint.as_deref().ok_or_else(|| {
            AuthError::Discovery(format!(
                "the metadata of {} has no token_endpoint",
                self.issuer
            ))
        })
    }
}

/// What discovery found for one server.
#[derive(Debug, Clone)]
pub(crate) struct Discovered {
    /// The resource identifier sent as `resource` (RFC 8707): the metadata's `resource`.
    pub(crate) resource: String,
    pub(crate) scopes_supported: Option<Vec<String>>,
    pub(crate) server: ServerMetadata,
}

/// Finds the Protected Resource Metadata of `endpoint` (the challenge's URL, then the
/// path-suffixed and root well-known URIs), refuses it unless its `resource` identifies
/// `endpoint`, then finds its first authorization server's metadata and refuses it unless
/// its `issuer` is that server and it offers PKCE S256.
pub(crate) async fn discover(
    http: &AuthHttp,
    endpoint: &str,
    challenge: &Challenge,
) -> Result<Discovered, AuthError> {
    let mut candidates = Vec::new();
    if let Some(url) = &challenge.resource_metadata {
        candidates.push(url.clone());
    }
    candidates.extend(urls::resource_metadata_urls(endpoint)?);
    let Ok((url, metadata)) = first_found::<ResourceMetadata>(http, &candidates).await? else {
        return without_resource_metadata(http, endpoint).await;
    };
    if !urls::resource_matches(endpoint, &metadata.resource) {
        return Err(AuthError::ResourceMismatch {
            endpoint: endpoint.to_owned(),
            resource: metadata.resource,
        });
    }
    let issuer = metadata.authorization_servers.first().ok_or_else(|| {
        AuthError::Discovery(format!(
            "the metadata at {url} names no authorization server"
        ))
    })?;
    let server = server_metadata(http, issuer).await?;
    Ok(Discovered {
        resource: metadata.resource,
        scopes_supported: metadata.scopes_supported,
        server,
    })
}

/// MCP 2025-03-26, for a server that publishes no Protected Resource Metadata: the MCP
/// server's origin is the authorization server, its metadata at the RFC 8414 well-known URI
/// (held to the same checks) or, without any, the default endpoints. The resource is the
/// endpoint.
async fn without_resource_metadata(
    http: &AuthHttp,
    endpoint: &str,
) -> Result<Discovered, AuthError> {
    let origin = urls::parts(endpoint)?.origin;
    let server = match server_metadata(http, &origin).await {
        Ok(server) => server,
        Err(AuthError::Discovery(_)) => ServerMetadata::defaults(&origin),
        Err(refused) => return Err(refused),
    };
    Ok(Discovered {
        resource: endpoint.to_owned(),
        scopes_supported: None,
        server,
    })
}

/// The metadata of the authorization server `issuer`, at the first of its well-known URLs
/// that has it, refused unless its `issuer` is `issuer` and it lists S256.
pub(crate) async fn server_metadata(
    http: &AuthHttp,
    issuer: &str,
) -> Result<ServerMetadata, AuthError> {
    let candidates = urls::server_metadata_urls(issuer)?;
    let (_, metadata) = first_found::<ServerMetadata>(http, &candidates)
        .await?
        .map_err(|misses| {
            AuthError::Discovery(format!(
                "no authorization server metadata at {}",
                misses.join(", ")
            ))
        })?;
    if metadata.issuer != issuer {
        return Err(AuthError::IssuerMismatch {
            expected: issuer.to_owned(),
            found: metadata.issuer,
        });
    }
    let s256 = metadata
        .code_challenge_methods_supported
        .as_ref()
        .is_some_and(|methods| methods.iter().any(|m| m == "S256"));
    if !s256 {
        return Err(AuthError::NoPkceS256(issuer.to_owned()));
    }
    Ok(metadata)
}

/// The first of `urls` answered 200 with a JSON document, read as `T`, or, when none was,
/// each URL with what it answered (`URL (HTTP 404)`, `URL (why it could not be reached)`).
/// A URL answered otherwise is passed over; a document that is not a `T` is an error.
async fn first_found<T: serde::de::DeserializeOwned>(
    http: &AuthHttp,
    urls: &[String],
) -> Result<Result<(String, T), Vec<String>>, AuthError> {
    let mut misses = Vec::new();
    for url in urls {
        // An unreachable URL or an error status: the next one is tried.
        let answer = match http.get(url).await {
            Ok(answer) if answer.status.is_success() => answer,
            Ok(answer) => {
                misses.push(format!("{url} (HTTP {})", answer.status.as_u16()));
                continue;
            }
            Err(error) => {
                misses.push(format!("{url} ({error})"));
                continue;
            }
        };
        return Ok(Ok((url.clone(), answer.json(url)?)));
    }
    Ok(Err(misses))
}
