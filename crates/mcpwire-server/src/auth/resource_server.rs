//! [`ResourceServer`]: the guard that makes an MCP endpoint an OAuth 2.1 protected resource.

use std::sync::Arc;

use hyper::header::{self, HeaderValue};
use hyper::{HeaderMap, Method, Response, StatusCode, Uri};
use mcpwire::http::{Bytes, Caller, Gate, Guard, GuardFuture, MessageTarget};

use super::challenge::{Refusal, refuse};
use super::metadata::{self, OFFLINE_ACCESS};
use super::{Identity, TokenError, TokenValidator};

/// Why a [`ResourceServer`] cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthConfigError {
    /// The resource is not an absolute `https://` (or `http://`) URI without a fragment.
    BadResource(String),
    /// No authorization server was named (RFC 9728 lets the list be absent; MCP needs one).
    NoAuthorizationServer,
    /// `offline_access` was given as a scope of the resource.
    OfflineAccess,
    /// A URL (an issuer, a JWKS) that is not `https://`, or `http://` on loopback when that
    /// was not allowed.
    BadUrl(String),
    /// A root certificate given as PEM that cannot be read.
    BadCertificate(String),
}

impl std::fmt::Display for AuthConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuthConfigError::BadResource(uri) => write!(
                f,
                "{uri:?} is not an absolute http(s) URI without a fragment: give the endpoint's canonical URI"
            ),
            AuthConfigError::NoAuthorizationServer => {
                f.write_str("name at least one authorization server")
            }
            AuthConfigError::OfflineAccess => f.write_str(
                "offline_access is the authorization server's scope, never a resource's",
            ),
            AuthConfigError::BadUrl(why) => f.write_str(why),
            AuthConfigError::BadCertificate(why) => write!(f, "root certificate: {why}"),
        }
    }
}

impl std::error::Error for AuthConfigError {}

/// Builds a [`ResourceServer`].
#[derive(Debug, Clone)]
pub struct ResourceServerBuilder {
    resource: String,
    authorization_servers: Vec<String>,
    required: Vec<String>,
    supported: Vec<String>,
    features: Vec<FeatureScope>,
    implied: Vec<(String, String)>,
}

/// A scope one tool, prompt or resource needs: the method that reaches it and its name (or
/// URI).
#[derive(Debug, Clone)]
struct FeatureScope {
    method: &'static str,
    target: String,
    scope: String,
}

impl ResourceServerBuilder {
    /// A scope calling the tool `name` needs (beyond the required ones); advertised in
    /// `scopes_supported`. A `tools/call` of it with a token lacking the scope is 403
    /// `insufficient_scope`, the challenge naming every scope the call needs.
    pub fn tool_scope(self, name: impl Into<String>, scope: impl Into<String>) -> Self {
        self.feature_scope("tools/call", name.into(), scope.into())
    }

    /// A scope getting the prompt `name` (`prompts/get`) needs, as for [`tool_scope`](Self::tool_scope).
    pub fn prompt_scope(self, name: impl Into<String>, scope: impl Into<String>) -> Self {
        self.feature_scope("prompts/get", name.into(), scope.into())
    }

    /// A scope reading the resource `uri` (`resources/read`) needs, as for [`tool_scope`](Self::tool_scope).
    pub fn resource_scope(self, uri: impl Into<String>, scope: impl Into<String>) -> Self {
        self.feature_scope("resources/read", uri.into(), scope.into())
    }

    /// Declares that a token granting `broader` also grants `narrower` (such as
    /// `files:write` implying `files:read`); implications chain. A request needing
    /// `narrower` passes with either, and its challenge still names `narrower`.
    pub fn scope_implies(
        mut self,
        broader: impl Into<String>,
        narrower: impl Into<String>,
    ) -> Self {
        self.implied.push((broader.into(), narrower.into()));
        self
    }

    fn feature_scope(mut self, method: &'static str, target: String, scope: String) -> Self {
        if !self.supported.contains(&scope) {
            self.supported.push(scope.clone());
        }
        self.features.push(FeatureScope {
            method,
            target,
            scope,
        });
        self
    }

    /// Names an authorization server (its issuer URL) in the metadata; at least one is needed.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// A scope every request needs (without it: 403 `insufficient_scope`); also advertised
    /// in `scopes_supported` and in the 401 challenge's `scope`.
    pub fn required_scope(mut self, scope: impl Into<String>) -> Self {
        let scope = scope.into();
        if !self.supported.contains(&scope) {
            self.supported.push(scope.clone());
        }
        self.required.push(scope);
        self
    }

    /// A scope advertised in `scopes_supported` that not every request needs.
    pub fn supported_scope(mut self, scope: impl Into<String>) -> Self {
        let scope = scope.into();
        if !self.supported.contains(&scope) {
            self.supported.push(scope);
        }
        self
    }

    /// The resource server checking tokens with `validator`.
    pub fn build(self, validator: impl TokenValidator) -> Result<ResourceServer, AuthConfigError> {
        let uri: Uri = self
            .resource
            .parse()
            .map_err(|_| AuthConfigError::BadResource(self.resource.clone()))?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err(AuthConfigError::BadResource(self.resource));
        };
        if !matches!(scheme, "https" | "http")
            || self.resource.contains('#')
            || uri.query().is_some()
        {
            return Err(AuthConfigError::BadResource(self.resource));
        }
        if self.authorization_servers.is_empty() {
            return Err(AuthConfigError::NoAuthorizationServer);
        }
        if self.supported.iter().any(|scope| scope == OFFLINE_ACCESS) {
            return Err(AuthConfigError::OfflineAccess);
        }
        let (suffixed, root) = metadata::paths(uri.path());
        let document =
            metadata::document(&self.resource, &self.authorization_servers, &self.supported);
        Ok(ResourceServer {
            inner: Arc::new(Inner {
                metadata_url: format!("{scheme}://{authority}{suffixed}"),
                metadata_paths: [suffixed, root],
                metadata: Bytes::from(document.to_string()),
                resource: self.resource,
                required: self.required,
                features: self.features,
                implied: self.implied,
                validator: Box::new(validator),
            }),
        })
    }
}

/// An MCP endpoint as an OAuth 2.1 protected resource: a [`Guard`] for
/// [`HttpConfig::guard`](mcpwire::http::HttpConfig::guard) (see the [module docs](super)).
#[derive(Clone)]
pub struct ResourceServer {
    inner: Arc<Inner>,
}

struct Inner {
    resource: String,
    metadata_url: String,
    metadata_paths: [String; 2],
    metadata: Bytes,
    required: Vec<String>,
    features: Vec<FeatureScope>,
    /// `(broader, narrower)`: a token with the first has the second.
    implied: Vec<(String, String)>,
    validator: Box<dyn TokenValidator>,
}

impl std::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServer")
            .field("resource", &self.inner.resource)
            .finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// Starts building the resource server of the endpoint whose canonical URI is `resource`
    /// (such as `https://mcp.example.com/mcp`): the `resource` of its metadata, and the
    /// audience its tokens must name.
    pub fn builder(resource: impl Into<String>) -> ResourceServerBuilder {
        ResourceServerBuilder {
            resource: resource.into(),
            authorization_servers: Vec::new(),
            required: Vec::new(),
            supported: Vec::new(),
            features: Vec::new(),
            implied: Vec::new(),
        }
    }

    /// The canonical URI of the resource.
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// The URL of the metadata document the challenges point to (the path-suffixed one).
    pub fn metadata_url(&self) -> &str {
        &self.inner.metadata_url
    }

    async fn decide(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Gate {
        let inner = &*self.inner;
        let path = uri.path();
        if inner.metadata_paths.iter().any(|p| p == path) {
            return Gate::Answer(self.metadata_answer(method));
        }
        if path == mcpwire::http::HEALTH_PATH || *method == Method::OPTIONS {
            // The operator's probe (never readable by a page), a preflight (which carries no
            // credentials). Every other path needs a token, the endpoint's and any other
            // (whose answer is then the endpoint's 404), so that no path mapping in front of
            // the server leaves the endpoint open.
            return Gate::Pass(None);
        }
        let refused = |refusal| Gate::Answer(refuse(refusal, &inner.metadata_url, &inner.required));
        let in_query = uri.query().is_some_and(has_access_token);
        let mut values = headers.get_all(header::AUTHORIZATION).iter();
        let (Some(value), None) = (values.next(), values.next()) else {
            // None at all (a token in the query string counts for nothing), or two.
            return if headers.contains_key(header::AUTHORIZATION) {
                refused(Refusal::InvalidRequest)
            } else {
                refused(Refusal::NoToken)
            };
        };
        if in_query {
            // RFC 6750 §2: one method per request.
            return refused(Refusal::InvalidRequest);
        }
        let token = match bearer_token(value) {
            Bearer::Token(token) => token,
            Bearer::OtherScheme => return refused(Refusal::NoToken),
            Bearer::Malformed => return refused(Refusal::InvalidToken),
        };
        let identity = match inner.validator.validate(token).await {
            Ok(identity) => identity,
            Err(TokenError::Invalid(why)) => {
                tracing::debug!(%why, "access token refused");
                return refused(Refusal::InvalidToken);
            }
            Err(TokenError::Unavailable(why)) => {
                tracing::warn!(%why, "access token not checked");
                let mut response = Response::new(Bytes::new());
                *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                response
                    .headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                return Gate::Answer(response);
            }
        };
        if !inner
            .required
            .iter()
            .all(|scope| self.grants(&identity, scope))
        {
            return refused(Refusal::InsufficientScope);
        }
        Gate::Pass(Some(caller(identity)))
    }

    /// The metadata document for GET (and HEAD); 405 for any other method.
    fn metadata_answer(&self, method: &Method) -> Response<Bytes> {
        let mut response = Response::new(Bytes::new());
        if *method == Method::GET || *method == Method::HEAD {
            if *method == Method::GET {
                *response.body_mut() = self.inner.metadata.clone();
            }
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            headers.insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("max-age=300"),
            );
        } else {
            *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        response
    }
}

impl ResourceServer {
    /// Every scope `message` needs: the required ones, then those of the tool, prompt or
    /// resource it reaches (of every one, for a batch, whose messages are not looked at).
    /// Whether `identity` has `scope`, itself or through a broader scope (the implications
    /// followed transitively, at most as many steps as there are implications).
    fn grants(&self, identity: &Identity, scope: &str) -> bool {
        let mut wanted = vec![scope];
        let mut seen = 0;
        while let Some(scope) = wanted.pop() {
            if identity.has_scope(scope) {
                return true;
            }
            seen += 1;
            if seen > self.inner.implied.len() {
                break;
            }
            wanted.extend(
                self.inner
                    .implied
                    .iter()
                    .filter(|(_, narrower)| narrower == scope)
                    .map(|(broader, _)| broader.as_str()),
            );
        }
        false
    }

    fn scopes_for(&self, message: MessageTarget<'_>) -> Vec<String> {
        let mut needed = self.inner.required.clone();
        let reached = self.inner.features.iter().filter(|feature| {
            message.batch
                || (message.method == Some(feature.method)
                    && message.target == Some(feature.target.as_str()))
        });
        for feature in reached {
            if !needed.contains(&feature.scope) {
                needed.push(feature.scope.clone());
            }
        }
        needed
    }
}

impl Guard for ResourceServer {
    fn authorize(
        &self,
        caller: Option<&Caller>,
        message: MessageTarget<'_>,
    ) -> Option<Response<Bytes>> {
        let identity = caller?.details.downcast_ref::<Identity>()?;
        let needed = self.scopes_for(message);
        if needed.iter().all(|scope| self.grants(identity, scope)) {
            return None;
        }
        Some(refuse(
            Refusal::InsufficientScope,
            &self.inner.metadata_url,
            &needed,
        ))
    }

    fn check<'a>(
        &'a self,
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
    ) -> GuardFuture<'a> {
        Box::pin(self.decide(method, uri, headers))
    }
}

/// The transport's caller for `identity`: sessions are bound to its issuer and subject.
fn caller(identity: Identity) -> Caller {
    Caller {
        subject: identity.owner_key(),
        details: Arc::new(identity),
    }
}

/// Whether a query string carries an `access_token` parameter (RFC 6750 §2.3).
fn has_access_token(query: &str) -> bool {
    query
        .split('&')
        .any(|pair| pair.split('=').next() == Some("access_token"))
}

/// What an `Authorization` header holds.
enum Bearer<'a> {
    /// `Bearer <b64token>` (the scheme in any case).
    Token(&'a str),
    /// Another scheme (or none): no bearer token was given.
    OtherScheme,
    /// `Bearer` with nothing, or something that is not a b64token (RFC 6750 §2.1).
    Malformed,
}

fn bearer_token(value: &HeaderValue) -> Bearer<'_> {
    match value.to_str() {
        Ok(text) => bearer_in(text),
        Err(_) => Bearer::Malformed,
    }
}

/// What the text of an `Authorization` header holds.
fn bearer_in(text: &str) -> Bearer<'_> {
    let (scheme, rest) = text.split_once(' ').unwrap_or((text, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Bearer::OtherScheme;
    }
    let token = rest.trim_matches(' ');
    let body = token.trim_end_matches('=');
    let b64token = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if b64token {
        Bearer::Token(token)
    } else {
        Bearer::Malformed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_well_formed_bearer_token_is_read() {
        let read = bearer_in;
        assert!(matches!(
            read("Bearer abc.def-ghi_~+/=="),
            Bearer::Token("abc.def-ghi_~+/==")
        ));
        assert!(matches!(read("bearer abc"), Bearer::Token("abc")));
        assert!(matches!(read("foo"), Bearer::OtherScheme));
        assert!(matches!(read("Basic dXNlcjpwYXNz"), Bearer::OtherScheme));
        assert!(matches!(read("Bearer"), Bearer::Malformed));
        assert!(matches!(read("Bearer a b"), Bearer::Malformed));
        assert!(matches!(read("Bearer ==="), Bearer::Malformed));
    }

    #[test]
    fn a_query_token_is_recognised() {
        assert!(has_access_token("access_token=abc"));
        assert!(has_access_token("x=1&access_token="));
        assert!(!has_access_token("my_access_token=1"));
    }
}
