//! `mcpwire serve --http … --auth-issuer URL --auth-audience URL`: the endpoint as an OAuth
//! 2.1 protected resource (`mcpwire_server::auth`, docs/auth.md).

use std::io;

use mcpwire::http::HttpConfig;
use mcpwire_server::auth::{IntrospectionValidator, JwtValidator, ResourceServer};

/// The authorization settings of `mcpwire serve --http`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AuthArgs {
    /// Protect the endpoint with access tokens of this issuer (listed in the endpoint's
    /// metadata): JWTs checked against the JWKS its metadata names, or opaque tokens at
    /// --auth-introspection-url. Needs --auth-audience.
    #[arg(long, value_name = "URL", requires = "auth_audience")]
    pub auth_issuer: Option<String>,
    /// The canonical URI of this endpoint (e.g. `https://mcp.example.com/mcp`): the `resource`
    /// of its metadata and the `aud` every token must name. Needs --auth-issuer.
    #[arg(long, value_name = "URL", requires = "auth_issuer")]
    pub auth_audience: Option<String>,
    /// A scope every request needs (403 insufficient_scope without it); repeatable.
    #[arg(long = "auth-scope", value_name = "SCOPE")]
    pub auth_scopes: Vec<String>,
    /// Fetch the issuer's keys from this URL instead of its metadata's jwks_uri.
    #[arg(long, value_name = "URL")]
    pub auth_jwks_url: Option<String>,
    /// Allow http:// for an issuer, JWKS or introspection endpoint on a loopback host
    /// (development only).
    #[arg(long)]
    pub auth_allow_loopback_http: bool,
    /// Check opaque tokens at this RFC 7662 introspection endpoint instead of JWTs against
    /// the JWKS: the server authenticates as --auth-client-id, with the secret read from the
    /// environment variable MCPWIRE_AUTH_CLIENT_SECRET (never a flag: flags show in process
    /// lists).
    #[arg(
        long,
        value_name = "URL",
        requires = "auth_client_id",
        conflicts_with = "auth_jwks_url"
    )]
    pub auth_introspection_url: Option<String>,
    /// The server's client id at the authorization server, for --auth-introspection-url.
    #[arg(long, value_name = "ID", requires = "auth_introspection_url")]
    pub auth_client_id: Option<String>,
}

/// The environment variable holding the introspection client's secret.
pub const CLIENT_SECRET_VAR: &str = "MCPWIRE_AUTH_CLIENT_SECRET";

impl AuthArgs {
    /// Whether the endpoint is protected.
    pub fn enabled(&self) -> bool {
        self.auth_issuer.is_some()
    }

    /// `config` guarded as these settings say (unchanged without --auth-issuer).
    pub fn apply(&self, config: HttpConfig) -> io::Result<HttpConfig> {
        let (Some(issuer), Some(audience)) = (&self.auth_issuer, &self.auth_audience) else {
            return Ok(config);
        };
        let invalid = |e: mcpwire_server::auth::AuthConfigError| {
            io::Error::new(io::ErrorKind::InvalidInput, e.to_string())
        };
        let mut guard =
            ResourceServer::builder(audience.clone()).authorization_server(issuer.clone());
        for scope in &self.auth_scopes {
            guard = guard.required_scope(scope.clone());
        }
        let guard = if let (Some(url), Some(client)) =
            (&self.auth_introspection_url, &self.auth_client_id)
        {
            let secret = std::env::var(CLIENT_SECRET_VAR).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "--auth-introspection-url needs the client's secret in {CLIENT_SECRET_VAR}"
                    ),
                )
            })?;
            let validator = IntrospectionValidator::builder(
                url.clone(),
                client.clone(),
                secret,
                audience.clone(),
            )
            .allow_loopback_http(self.auth_allow_loopback_http)
            .build()
            .map_err(invalid)?;
            guard.build(validator)
        } else {
            let mut validator = JwtValidator::builder(issuer.clone(), audience.clone())
                .allow_loopback_http(self.auth_allow_loopback_http);
            if let Some(url) = &self.auth_jwks_url {
                validator = validator.jwks_url(url.clone());
            }
            guard.build(validator.build().map_err(invalid)?)
        };
        Ok(config.guard(guard.map_err(invalid)?))
    }
}
