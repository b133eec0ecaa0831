//! The one trait every token validation (JWT, introspection, a test's own) implements.

use std::future::Future;
use std::pin::Pin;

use super::Identity;

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// The token is not valid here: malformed, badly signed, expired, for another audience or
    /// issuer. Answered 401 `error="invalid_token"`; the reason is logged, never sent.
    Invalid(String),
    /// The token could not be checked (the issuer's keys or its introspection endpoint could
    /// not be reached). Answered 503: the request is refused, never let through.
    Unavailable(String),
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Invalid(why) => write!(f, "invalid token: {why}"),
            TokenError::Unavailable(why) => write!(f, "the token could not be checked: {why}"),
        }
    }
}

impl std::error::Error for TokenError {}

/// The future a [`TokenValidator`] returns.
pub type ValidateFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Identity, TokenError>> + Send + 'a>>;

/// Checks an access token and says whom it identifies: [`JwtValidator`](super::JwtValidator)
/// against the issuer's keys, or any implementation of the application's own.
pub trait TokenValidator: Send + Sync + 'static {
    /// The identity `token` (the text after `Bearer `) stands for, or why it is refused.
    /// Called for every request, so an implementation caches what it fetches.
    fn validate<'a>(&'a self, token: &'a str) -> ValidateFuture<'a>;
}
