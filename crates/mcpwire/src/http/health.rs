//! `GET /healthz`: whether what the server depends on beyond itself (a message bus, a shared
//! store) is reachable, as JSON, for the operator's probes and load balancer. Answered only
//! to requests without an `Origin` header, so that no web page can read it.

use hyper::body::Bytes;
use hyper::header::ORIGIN;
use hyper::{Method, Request, StatusCode};

use super::response::{HttpResponse, empty, json};

/// The path of the health endpoint (see [`HttpConfig::health_check`](super::HttpConfig::health_check)).
pub const HEALTH_PATH: &str = "/healthz";

/// What a [`HealthCheck`] reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Health {
    /// Whether everything the check watches is reachable: 200 when it is, 503 otherwise.
    pub up: bool,
    /// Details, sent as the `checks` member of the answer (e.g. `{"redis":"down"}`).
    pub checks: serde_json::Value,
}

/// Tells whether what the server depends on is reachable; called for every `GET /healthz`,
/// so it must answer at once (from state kept up to date elsewhere), never wait.
pub trait HealthCheck: std::fmt::Debug + Send + Sync + 'static {
    /// The current state.
    fn health(&self) -> Health;
}

/// The answer to a request for [`HEALTH_PATH`]: `{"status":"up"|"down","checks":…}` with 200
/// or 503; a method other than GET is 405; a request with an `Origin` (a browser's) is 403.
pub(crate) fn answer<B>(check: &dyn HealthCheck, request: &Request<B>) -> HttpResponse {
    if request.headers().contains_key(ORIGIN) {
        return empty(StatusCode::FORBIDDEN);
    }
    if request.method() != Method::GET {
        return empty(StatusCode::METHOD_NOT_ALLOWED);
    }
    let health = check.health();
    let body = serde_json::json!({
        "status": if health.up { "up" } else { "down" },
        "checks": health.checks,
    });
    let status = if health.up {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    json(status, Bytes::from(body.to_string()))
}
