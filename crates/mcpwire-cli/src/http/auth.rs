//! `mcpwire serve --http … --auth-issuer URL --auth-audience URL`: the endpoint as an OAuth
//! 2.1 protected resource (`mcpwire_server::auth`, docs/auth.md).

use std::io;

use mcpwire::http::HttpConfig;
use mcpwire_server::auth::{JwtValidator, ResourceServer};

/// The authorization settings of `mcpwire serve --http`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AuthArgs {
    /// Protect the endpoint with access tokens (JWTs) of this issuer: its metadata names
    /// the JWKS the tokens' signatures are checked against. Needs --auth-audience.
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
    /// Allow http:// for an issuer and JWKS on a loopback host (development only).
    #[arg(long)]
    pub auth_allow_loopback_http: bool,
}

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
        let mut validator = JwtValidator::builder(issuer.clone(), audience.clone())
            .allow_loopback_http(self.auth_allow_loopback_http);
        if let Some(url) = &self.auth_jwks_url {
            validator = validator.jwks_url(url.clone());
        }
        let validator = validator.build().map_err(invalid)?;
        let mut guard =
            ResourceServer::builder(audience.clone()).authorization_server(issuer.clone());
        for scope in &self.auth_scopes {
            guard = guard.required_scope(scope.clone());
        }
        Ok(config.guard(guard.build(validator).map_err(invalid)?))
    }
}
