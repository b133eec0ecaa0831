//! Requests to the endpoint with OAuth (feature `oauth`): each carries the access token in
//! its `Authorization` header; a `401` gets a token (the store's, a refreshed one, or a new
//! authorization; at most twice per request) and the request is sent again; a
//! `403 insufficient_scope` asks for more scopes, at most
//! [`OAuth::max_step_ups`](crate::auth::OAuth::max_step_ups) times. The token goes only to
//! the endpoint (the pool reaches nothing else and follows no redirect) and never in a URL.

use hyper::body::Incoming as Body;
use hyper::header::{AUTHORIZATION, HeaderValue};
use hyper::{Request, Response, StatusCode};

use super::connection::Shared;
use super::pool;
use crate::auth::Challenge;
use crate::transport::TransportError;

impl Shared {
    /// Sends a request to the endpoint, authorized as the transport's OAuth says.
    pub(crate) async fn send(
        &self,
        request: Request<pool::Body>,
    ) -> Result<Response<Body>, TransportError> {
        let Some(auth) = &self.auth else {
            return self.pool.send(request).await;
        };
        let (parts, body) = request.into_parts();
        // Two rounds: a token from the store may be stale, and then the second 401 refreshes
        // it or authorizes anew.
        let mut unauthorized = 0;
        let mut step_ups = 0;
        loop {
            let mut request = Request::builder()
                .method(parts.method.clone())
                .uri(parts.uri.clone())
                .version(parts.version)
                .body(body.clone())
                .map_err(|error| {
                    TransportError::Http(format!("cannot build the request: {error}"))
                })?;
            *request.headers_mut() = parts.headers.clone();
            let sent = auth.bearer();
            if let Some(token) = &sent {
                request.headers_mut().insert(AUTHORIZATION, bearer(token)?);
            }
            let response = self.pool.send(request).await?;
            let status = response.status();
            let challenge = Challenge::of(response.headers());
            let outcome = if status == StatusCode::UNAUTHORIZED && unauthorized < 2 {
                unauthorized += 1;
                auth.unauthorized(&challenge, sent.as_deref()).await
            } else if status == StatusCode::FORBIDDEN
                && challenge.insufficient_scope()
                && step_ups < auth.max_step_ups()
            {
                step_ups += 1;
                auth.insufficient_scope(&challenge, sent.as_deref()).await
            } else {
                return Ok(response);
            };
            drop(response);
            outcome.map_err(|error| TransportError::Http(format!("OAuth: {error}")))?;
        }
    }
}

/// `Bearer TOKEN`, marked sensitive (kept out of hyper's debug output and HPACK's table).
fn bearer(token: &str) -> Result<HeaderValue, TransportError> {
    let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
        TransportError::Http("OAuth: the access token is not a valid header value".to_owned())
    })?;
    value.set_sensitive(true);
    Ok(value)
}
