//! # Authorization: the endpoint as an OAuth 2.1 protected resource (feature `auth`)
//!
//! [`ResourceServer`] is a [`Guard`](mcpwire::http::Guard) for the Streamable HTTP endpoint
//! (set it with [`HttpConfig::guard`](mcpwire::http::HttpConfig::guard)); stdio is untouched
//! (its credentials come from the environment). It follows the MCP authorization
//! specification (2025-06-18, 2025-11-25, 2026-07-28):
//!
//! - the Protected Resource Metadata (RFC 9728) at the path-suffixed well-known URI
//!   (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`) and at the root one,
//!   without a token: `resource`, `authorization_servers`, `scopes_supported`,
//!   `bearer_methods_supported: ["header"]`, never `offline_access`;
//! - every other request (POST, GET, DELETE, any path but the metadata, `/healthz` and a
//!   CORS preflight) needs `Authorization: Bearer <token>`, checked after the Host and
//!   Origin allow-lists: without one, 401 with `WWW-Authenticate: Bearer
//!   resource_metadata="…", scope="…"`; with one that is not valid, the same plus
//!   `error="invalid_token"`; with a valid one lacking a required scope, 403
//!   `error="insufficient_scope"` naming every scope needed; a token in the query string is
//!   never read;
//! - the token is checked by a [`TokenValidator`]: [`JwtValidator`] against the issuer's
//!   JWKS, [`IntrospectionValidator`] at the issuer's RFC 7662 endpoint (cached, bounded in
//!   size and time), or the application's own;
//! - a session is bound to the subject that opened it: another subject's token on it is
//!   404.
//!
//! docs/auth.md tells how to set it up and what a client sees on each refusal.
//!
//! ```no_run
//! use mcpwire_server::auth::{JwtValidator, ResourceServer};
//! # fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let resource = "https://mcp.example.com/mcp";
//! let validator = JwtValidator::builder("https://auth.example.com", resource).build()?;
//! let guard = ResourceServer::builder(resource)
//!     .authorization_server("https://auth.example.com")
//!     .required_scope("mcp")
//!     .build(validator)?;
//! let config = mcpwire::http::HttpConfig::default().guard(guard);
//! # let _ = config; Ok(()) }
//! ```

mod challenge;
mod fetch;
mod identity;
mod introspection;
mod jwks;
mod jwt;
mod metadata;
mod resource_server;
mod validator;

pub use identity::Identity;
pub use introspection::{IntrospectionValidator, IntrospectionValidatorBuilder};
pub use jwt::{JwtValidator, JwtValidatorBuilder};
pub use resource_server::{AuthConfigError, ResourceServer, ResourceServerBuilder};
pub use validator::{TokenError, TokenValidator, ValidateFuture};
