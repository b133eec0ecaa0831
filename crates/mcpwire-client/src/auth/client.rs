//! The authorizer of one transport: the access token in use, and what a `401` or a
//! `403 insufficient_scope` sets going (refresh, discovery, registration, the authorization
//! code flow), one flow at a time.

use std::sync::{Arc, Mutex, PoisonError};

use super::challenge::Challenge;
use super::discovery::{self, Discovered, ServerMetadata};
use super::fetch::AuthHttp;
use super::registration::{self, ClientRegistration};
use super::token::{self, Grant};
use super::{AuthError, OAuth, StoreKey, StoredCredentials, Tokens, pkce, urls};
use crate::http::proxy::ProxySetting;
use crate::http::tls::TrustRoots;

/// What the last authorization settled.
struct Current {
    /// The access token sent.
    bearer: Option<Arc<str>>,
    /// Where it came from, for a refresh.
    context: Option<Context>,
}

#[derive(Clone)]
struct Context {
    discovered: Discovered,
    client: ClientRegistration,
    tokens: Tokens,
}

/// Obtains and renews the access token of one MCP endpoint.
pub(crate) struct Authorizer {
    config: OAuth,
    endpoint: String,
    http: AuthHttp,
    current: Mutex<Current>,
    /// Held while a flow runs: concurrent `401`s run one flow.
    flow: tokio::sync::Mutex<()>,
}

impl Authorizer {
    /// The authorizer of the MCP endpoint `endpoint`, reaching metadata and authorization
    /// servers with `roots`, through the proxy `proxy` names for `https://` URLs.
    pub(crate) fn new(
        config: OAuth,
        endpoint: &str,
        roots: TrustRoots,
        proxy: ProxySetting,
    ) -> Self {
        let http = AuthHttp::new(roots, proxy, config.timeout);
        Self {
            config,
            endpoint: endpoint.to_owned(),
            http,
            current: Mutex::new(Current {
                bearer: None,
                context: None,
            }),
            flow: tokio::sync::Mutex::new(()),
        }
    }

    /// How many step-ups one request may take.
    pub(crate) fn max_step_ups(&self) -> u32 {
        self.config.max_step_ups
    }

    /// The access token to send, if there is one.
    pub(crate) fn bearer(&self) -> Option<Arc<str>> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .bearer
            .clone()
    }

    fn set(&self, context: Context) {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        current.bearer = Some(Arc::from(context.tokens.access_token.as_str()));
        current.context = Some(context);
    }

    fn context(&self) -> Option<Context> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .context
            .clone()
    }

    /// After a `401` to a request sent with `sent`: a new access token (refreshed, found in
    /// the store, or from a new authorization), unless another request already got one.
    pub(crate) async fn unauthorized(
        &self,
        challenge: &Challenge,
        sent: Option<&str>,
    ) -> Result<(), AuthError> {
        let _flow = self.flow.lock().await;
        if self.bearer().as_deref() != sent {
            return Ok(());
        }
        if let Some(context) = self.context()
            && self.refreshed(context).await
        {
            return Ok(());
        }
        let discovered = discovery::discover(&self.http, &self.endpoint, challenge).await?;
        let key = key(&discovered);
        // Stored tokens are tried first; if they no longer work, the next 401 refreshes them.
        if let Some(stored) = self.config.store.load(&key)
            && let (Some(client), Some(tokens)) = (stored.client, stored.tokens)
            && Some(tokens.access_token.as_str()) != sent
        {
            self.set(Context {
                discovered,
                client,
                tokens,
            });
            return Ok(());
        }
        let scope = challenge.scope.clone().or_else(|| {
            discovered
                .scopes_supported
                .as_ref()
                .filter(|scopes| !scopes.is_empty())
                .map(|scopes| scopes.join(" "))
        });
        self.authorize(discovered, scope).await
    }

    /// After a `403 insufficient_scope` to a request sent with `sent`: a new authorization
    /// asking for the scopes granted and those the challenge names.
    pub(crate) async fn insufficient_scope(
        &self,
        challenge: &Challenge,
        sent: Option<&str>,
    ) -> Result<(), AuthError> {
        let _flow = self.flow.lock().await;
        if self.bearer().as_deref() != sent {
            return Ok(());
        }
        let discovered = discovery::discover(&self.http, &self.endpoint, challenge).await?;
        let granted = self
            .context()
            .and_then(|context| context.tokens.scope)
            .unwrap_or_default();
        let mut scopes: Vec<&str> = granted.split_ascii_whitespace().collect();
        for scope in challenge
            .scope
            .as_deref()
            .unwrap_or_default()
            .split_ascii_whitespace()
        {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        let scope = (!scopes.is_empty()).then(|| scopes.join(" "));
        self.authorize(discovered, scope).await
    }

    /// Whether the refresh token of `context` (if it has one) got new tokens, now in use.
    async fn refreshed(&self, context: Context) -> bool {
        let Some(refresh_token) = &context.tokens.refresh_token else {
            return false;
        };
        let refreshed = token::request(
            &self.http,
            &context.discovered.server,
            &context.client,
            self.config.signer.as_deref(),
            Grant::Refresh { refresh_token },
            &context.discovered.resource,
            context.tokens.scope.as_deref(),
        )
        .await;
        match refreshed {
            Ok(tokens) => {
                self.keep(context.discovered, context.client, tokens);
                true
            }
            Err(_) => false,
        }
    }

    /// Keeps new tokens: in use, and in the store.
    fn keep(&self, discovered: Discovered, client: ClientRegistration, tokens: Tokens) {
        self.config.store.save(
            &key(&discovered),
            StoredCredentials {
                client: Some(client.clone()),
                tokens: Some(tokens.clone()),
            },
        );
        self.set(Context {
            discovered,
            client,
            tokens,
        });
    }

    /// The client's registration at the discovered server: pre-registered, a metadata
    /// document, one kept from before, or a new dynamic registration.
    async fn client(&self, discovered: &Discovered) -> Result<ClientRegistration, AuthError> {
        let server = &discovered.server;
        if let Some(client) = registration::configured(&self.config, server) {
            return Ok(client);
        }
        let key = key(discovered);
        let stored = self.config.store.load(&key).unwrap_or_default();
        if let Some(client) = stored.client {
            return Ok(client);
        }
        let redirect_uri = self.config.user.redirect_uri();
        let client =
            registration::register(&self.http, &self.config, server, &redirect_uri).await?;
        self.config.store.save(
            &key,
            StoredCredentials {
                client: Some(client.clone()),
                tokens: None,
            },
        );
        Ok(client)
    }

    /// The authorization code flow with PKCE S256 against the discovered server (or, for a
    /// client without a user, the client credentials grant).
    async fn authorize(
        &self,
        discovered: Discovered,
        scope: Option<String>,
    ) -> Result<(), AuthError> {
        let client = self.client(&discovered).await?;
        let server = &discovered.server;
        if self.config.machine {
            let tokens = token::request(
                &self.http,
                server,
                &client,
                self.config.signer.as_deref(),
                Grant::ClientCredentials,
                &discovered.resource,
                scope.as_deref(),
            )
            .await?;
            self.keep(discovered, client, tokens);
            return Ok(());
        }
        let scope = with_offline_access(scope, server);
        let redirect_uri = self.config.user.redirect_uri();
        let verifier = pkce::random()?;
        let state = pkce::random()?;
        let challenge = pkce::challenge(&verifier);
        let mut params = vec![
            ("response_type", "code"),
            ("client_id", client.client_id.as_str()),
            ("redirect_uri", redirect_uri.as_str()),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
            ("resource", discovered.resource.as_str()),
        ];
        if let Some(scope) = &scope {
            params.push(("scope", scope));
        }
        let url = urls::with_query(server.authorization_endpoint()?, &params);
        let response = self.config.user.authorize(url).await?;
        // RFC 9207: an `iss` must be the issuer; a server that announces it must send it.
        match response.get("iss") {
            Some(iss) if iss != server.issuer => {
                return Err(AuthError::IssuerMismatch {
                    expected: server.issuer.clone(),
                    found: iss.to_owned(),
                });
            }
            None if server.authorization_response_iss_parameter_supported => {
                return Err(AuthError::IssuerMismatch {
                    expected: server.issuer.clone(),
                    found: String::new(),
                });
            }
            _ => {}
        }
        if response.get("state") != Some(state.as_str()) {
            return Err(AuthError::State);
        }
        if let Some(error) = response.get("error") {
            let description = response.get("error_description").unwrap_or_default();
            return Err(AuthError::Denied(
                format!("{error} {description}").trim().to_owned(),
            ));
        }
        let code = response
            .get("code")
            .ok_or_else(|| AuthError::Denied("the redirect carries no code".to_owned()))?;
        let tokens = token::request(
            &self.http,
            server,
            &client,
            self.config.signer.as_deref(),
            Grant::Code {
                code,
                verifier: &verifier,
                redirect_uri: &redirect_uri,
            },
            &discovered.resource,
            scope.as_deref(),
        )
        .await?;
        self.keep(discovered, client, tokens);
        Ok(())
    }
}

/// `scope` with `offline_access` added where the authorization server lists it in its
/// `scopes_supported` (SEP-2207, MCP 2026-07-28: the way to ask an OpenID-flavoured server
/// for a refresh token).
fn with_offline_access(scope: Option<String>, server: &ServerMetadata) -> Option<String> {
    let offered = server
        .scopes_supported
        .as_ref()
        .is_some_and(|scopes| scopes.iter().any(|s| s == OFFLINE_ACCESS));
    match scope {
        _ if !offered => scope,
        Some(scope) if scope.split_ascii_whitespace().any(|s| s == OFFLINE_ACCESS) => Some(scope),
        Some(scope) => Some(format!("{scope} {OFFLINE_ACCESS}")),
        // No scope at all leaves the choice to the server.
        None => None,
    }
}

/// The scope that asks for a refresh token (OpenID Connect Core §11).
const OFFLINE_ACCESS: &str = "offline_access";

/// The store key of a discovered server: its issuer and resource.
fn key(discovered: &Discovered) -> StoreKey {
    StoreKey {
        issuer: discovered.server.issuer.clone(),
        resource: discovered.resource.clone(),
    }
}
