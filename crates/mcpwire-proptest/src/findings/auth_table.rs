//! The finding kinds of `mcpwire check --auth`: a Streamable HTTP endpoint's side of the MCP
//! authorization specification (the endpoint as an OAuth 2.1 resource server), each with its
//! level and the sentence, and revision, it rests on. Joined to the other kinds in
//! [`KINDS`](super::KINDS). docs/auth.md ("Checking a server") tells each probe.

use super::table::KindInfo;
use super::table::{s, v};

/// The authorization kinds, violations first.
pub const AUTH_KINDS: &[KindInfo] = &[
    v(
        "auth-prm-undiscoverable",
        "--auth. MCP authorization (2025-06-18, 2025-11-25): \"MCP servers MUST implement the OAuth 2.0 Protected Resource Metadata (RFC9728) specification to indicate the locations of authorization servers\"; 2025-11-25: \"MCP servers MUST implement one of the following discovery mechanisms\" (the resource_metadata of a 401's WWW-Authenticate, or the well-known URI at the endpoint's path or at the root). Neither gave a metadata document",
    ),
    v(
        "auth-prm-invalid",
        "--auth. RFC 9728 §3.2: \"A successful response MUST use the 200 OK HTTP status code and return a JSON object using the application/json content type\"; the document the challenge's resource_metadata names was not one",
    ),
    v(
        "auth-prm-resource-mismatch",
        "--auth. RFC 9728 §3.3: \"The resource value returned MUST be identical to the protected resource's resource identifier value into which the well-known URI path suffix was inserted to create the URL used to retrieve the metadata\", and for a document found through WWW-Authenticate \"the resource value returned MUST be identical to the URL that the client used to make the request to the resource server\" (at the root well-known URI a same-origin prefix of the endpoint is accepted)",
    ),
    v(
        "auth-prm-no-authorization-servers",
        "--auth. MCP authorization (2025-06-18, 2025-11-25), Authorization Server Location: \"The Protected Resource Metadata document returned by the MCP server MUST include the authorization_servers field containing at least one authorization server\"",
    ),
    v(
        "auth-authorization-server-plain-http",
        "--auth. MCP authorization (2025-06-18, 2025-11-25), Communication Security: \"All authorization server endpoints MUST be served over HTTPS\"; an authorization server the metadata lists is http:// on a host that is not loopback",
    ),
    v(
        "auth-unauthenticated-accepted",
        "--auth. MCP authorization (2025-06-18, 2025-11-25): \"authorization MUST be included in every HTTP request from client to server\", and Error Handling: \"Servers MUST return appropriate HTTP status codes for authorization errors\", 401 Unauthorized for \"Authorization required or token invalid\"; a request without a token (or with `Authorization: foo`, no bearer token) got 2xx",
    ),
    v(
        "auth-unauthenticated-not-401",
        "--auth. MCP authorization (2025-06-18, 2025-11-25), Error Handling: \"Servers MUST return appropriate HTTP status codes for authorization errors\": 401 Unauthorized, \"Authorization required or token invalid\"; a request without a token got another status (405 for a GET or DELETE the endpoint does not offer is accepted)",
    ),
    v(
        "auth-challenge-missing",
        "--auth. RFC 6750 §3: \"If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP WWW-Authenticate response header field\"; a 401 came without a Bearer challenge",
    ),
    v(
        "auth-resource-metadata-missing",
        "--auth. MCP authorization 2025-06-18: \"MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401 Unauthorized to indicate the location of the resource server metadata URL as described in RFC9728 Section 5.1\"; the challenge has no resource_metadata (judged under 2025-06-18; from 2025-11-25 see auth-resource-metadata-not-in-challenge)",
    ),
    v(
        "auth-resource-metadata-not-absolute",
        "--auth. RFC 9728 §5.1: resource_metadata is \"The URL of the protected resource metadata\", which a client dereferences as given; the value is not an absolute http(s) URL",
    ),
    v(
        "auth-garbage-token-accepted",
        "--auth. MCP authorization (2025-06-18, 2025-11-25), Token Handling: \"Invalid or expired tokens MUST receive a HTTP 401 response\"; `Authorization: Bearer` with a value that is no token got 2xx",
    ),
    v(
        "auth-unsigned-token-accepted",
        "--auth. MCP authorization, Token Handling: \"MCP servers, acting in their role as an OAuth 2.1 resource server, MUST validate access tokens as described in OAuth 2.1 Section 5.2\" and \"Invalid or expired tokens MUST receive a HTTP 401 response\"; a JWT without a signature got 2xx",
    ),
    v(
        "auth-alg-none-accepted",
        "--auth. MCP authorization, Token Handling: \"MUST validate access tokens\", \"Invalid or expired tokens MUST receive a HTTP 401 response\"; RFC 8725 §3.1: libraries MUST let callers say which algorithms are acceptable and MUST NOT use others. The given token's claims under alg none got 2xx",
    ),
    v(
        "auth-altered-token-accepted",
        "--auth. MCP authorization, Token Handling: \"MUST validate access tokens\", \"Invalid or expired tokens MUST receive a HTTP 401 response\"; the given token with its payload altered (its signature no longer matches) got 2xx",
    ),
    v(
        "auth-hs256-token-accepted",
        "--auth. MCP authorization, Token Handling: \"MUST validate access tokens\", \"Invalid or expired tokens MUST receive a HTTP 401 response\"; RFC 8725 §2.1/§3.1 (algorithm confusion): the given token's claims re-signed with HS256 under a guessed key got 2xx",
    ),
    v(
        "auth-expired-token-accepted",
        "--auth. MCP authorization, Token Handling: \"Invalid or expired tokens MUST receive a HTTP 401 response\"; the --bearer-for expired token got 2xx",
    ),
    v(
        "auth-wrong-audience-accepted",
        "--auth. MCP authorization, Token Handling: \"MCP servers MUST validate that access tokens were issued specifically for them as the intended audience, according to RFC 8707 Section 2\", \"Invalid or expired tokens MUST receive a HTTP 401 response\"; the --bearer-for wrong-audience token got 2xx",
    ),
    v(
        "auth-bad-token-status",
        "--auth. MCP authorization, Token Handling: \"If validation fails, servers MUST respond according to OAuth 2.1 Section 5.3 error handling requirements. Invalid or expired tokens MUST receive a HTTP 401 response\"; a token that is not valid got neither 401 nor 2xx (a 5xx, a 403, a 400 for a well-formed bearer token)",
    ),
    v(
        "auth-insufficient-scope-accepted",
        "--auth. MCP authorization (2025-06-18, 2025-11-25), Error Handling: \"Servers MUST return appropriate HTTP status codes for authorization errors\", 403 Forbidden for \"Invalid scopes or insufficient permissions\"; the --bearer-for insufficient-scope token got 2xx",
    ),
    v(
        "auth-foreign-origin-accepted",
        "--auth. MCP transports, Streamable HTTP (2025-06-18, 2025-11-25): \"Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks\"; a request with a valid token and a foreign Origin got 2xx",
    ),
    v(
        "auth-foreign-origin-status",
        "--auth. MCP transports, Streamable HTTP 2025-11-25: \"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden\"; a request with a valid token and a foreign Origin was refused with another status (judged from 2025-11-25)",
    ),
    s(
        "auth-resource-metadata-not-in-challenge",
        "--auth. MCP authorization 2025-11-25 lets a server give the metadata's location through WWW-Authenticate or the well-known URI (\"MCP servers MUST implement one of the following discovery mechanisms\"), and it served the well-known one; 2025-06-18 required the header (\"MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401\"), and RFC 9728 §5.1 defines resource_metadata for it. The challenge has none",
    ),
    s(
        "auth-challenge-no-scope",
        "--auth. MCP authorization 2025-11-25: \"MCP servers SHOULD include a scope parameter in the WWW-Authenticate header as defined in RFC 6750 Section 3 to indicate the scopes required for accessing the resource\"; the challenge has none",
    ),
    s(
        "auth-invalid-token-no-error",
        "--auth. RFC 6750 §3: \"If the protected resource request included an access token and failed authentication, the resource server SHOULD include the error attribute\" (§3.1: invalid_token); a refused token's challenge has no error",
    ),
    s(
        "auth-insufficient-scope-status",
        "--auth. MCP authorization 2025-11-25, Runtime Insufficient Scope Errors: the server \"SHOULD respond with: HTTP 403 Forbidden status code (per RFC 6750 Section 3.1)\"; the --bearer-for insufficient-scope token was refused with another status (a 401 tells the client its token is invalid, not that it needs more scope)",
    ),
    s(
        "auth-insufficient-scope-challenge",
        "--auth. MCP authorization 2025-11-25, Runtime Insufficient Scope Errors: a WWW-Authenticate header \"with the Bearer scheme and additional parameters: error=\\\"insufficient_scope\\\"\" and scope naming the scopes needed (2026-07-28, SEP-2350: every scope the operation needs in one challenge); the 403 lacked one of them",
    ),
    s(
        "auth-query-token-accepted",
        "--auth. MCP authorization (2025-06-18, 2025-11-25): \"Access tokens MUST NOT be included in the URI query string\", a rule for clients; OAuth 2.1 drops RFC 6750's URI query parameter. A server that accepts a token from ?access_token= makes the forbidden transport work (tokens end in logs and Referer headers), but no sentence binds the server, so strict",
    ),
    s(
        "auth-foreign-host-accepted",
        "--auth. MCP transports, Streamable HTTP, Security Warning: DNS rebinding (\"Without these protections, attackers could use DNS rebinding to interact with local MCP servers from remote websites\"); the MUST names the Origin header, so a request with a valid token and a foreign Host that got 2xx is strict",
    ),
    s(
        "auth-endpoint-plain-http",
        "--auth. MCP authorization: \"Implementations MUST follow OAuth 2.1 Section 1.5 Communication Security\"; RFC 6750 §5.3: bearer tokens travel only over TLS (the MUSTs bind clients). The endpoint is http:// on a host that is not loopback, so every token it takes crosses the network in the clear",
    ),
    s(
        "auth-prm-offline-access",
        "--auth. policy: scopes_supported does not advertise offline_access, a scope between a client and its authorization server (refresh tokens), never one a resource needs; RFC 9728 §2 lists scopes_supported as the scopes \"used in authorization requests to request access to this protected resource\"",
    ),
    s(
        "auth-prm-bearer-methods",
        "--auth. MCP authorization: clients \"MUST use the Authorization request header field\" and \"Access tokens MUST NOT be included in the URI query string\"; RFC 9728 §2 bearer_methods_supported: the methods the resource accepts. The document advertises a method other than header",
    ),
];
