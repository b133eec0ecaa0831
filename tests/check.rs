//! `mcpwire check` against servers whose defects are known: the fixture servers, the reference
//! server, the `mcp_server` example and hostile servers. One test binary, a module per file
//! beside this one, with the helpers they share in `check_support`. Run one file's tests with
//! `cargo test -p mcpwire-tests --test check <module>::`.

mod check_support;

mod check_reference;

mod check_fixtures;

mod check_reports;

mod check_http_serve;

mod check_attribution;

mod check_mcp_server;

// Issue 29: `mcpwire check --tools` against the tool fixture servers.
mod check_tools;

// Issue 47: `mcpwire check --protocol` against the protocol fixture server.
mod check_protocol;

// Issue 47: hostile servers (a 1 GiB line, endless notifications, a server that stops reading
// or exits) cannot hang the checker or grow its memory.
mod check_hostile;

// Issue 47: the spec map and the finding kinds in step.
mod check_spec_map;

// Issue 29: the HTTP rules of MCP 2026-07-28 (404/-32601, routing headers 400/-32020).
mod check_http_rules;

// Issue 47: --protocol on a whole session (version negotiation over HTTP, requests before
// notifications/initialized, cancellation in flight, log levels), stdio and HTTP.
mod check_protocol_session;

// Issue 47: --protocol under MCP 2026-07-28 (-32022, -32021, list order, GET/DELETE 405,
// resultType and cache hints).
mod check_protocol_2026;
