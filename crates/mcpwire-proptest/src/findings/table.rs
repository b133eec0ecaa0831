//! Every finding kind, with its level and the sentence of the spec it rests on: the one table
//! both `mcpwire check` (`--list-kinds` prints it, `--expect-failures` accepts only these names)
//! and [`check_server`](crate::check_server) judge by. docs/check.md explains each kind.

use std::fmt;
use std::fmt::Write;

use super::auth_table::AUTH_KINDS;

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Breaks a MUST of JSON-RPC 2.0, the MCP schema or transport of the version, or RFC 8259.
    /// Violations fail the run (and [`check_server`](crate::check_server)) by default.
    Violation,
    /// mcpwire's stricter policy (what the reference server does) where the specs allow more.
    /// Strict findings fail the run only under `--strict` (`ServerCheck::strict(true)`).
    Strict,
}

impl Level {
    /// `violation` or `strict`, as the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Violation => "violation",
            Level::Strict => "strict",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One finding kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    /// The kebab-case name used in reports and `--expect-failures`.
    pub name: &'static str,
    /// Its level.
    pub level: Level,
    /// The spec sentence (or, for strict kinds, the permission) it rests on.
    pub basis: &'static str,
}

pub(super) const fn v(name: &'static str, basis: &'static str) -> KindInfo {
    KindInfo {
        name,
        level: Level::Violation,
        basis,
    }
}

pub(super) const fn s(name: &'static str, basis: &'static str) -> KindInfo {
    KindInfo {
        name,
        level: Level::Strict,
        basis,
    }
}

/// Every kind: the envelope, transport, tool and protocol kinds (violations first), then the
/// authorization kinds of `--auth` ([`AUTH_KINDS`](super::AUTH_KINDS)).
pub const KINDS: &[KindInfo] = &joined::<{ BASE.len() + AUTH_KINDS.len() }>(BASE, AUTH_KINDS);

/// Both tables as one array (a `const fn`, so [`KINDS`] stays one static table).
const fn joined<const N: usize>(first: &[KindInfo], second: &[KindInfo]) -> [KindInfo; N] {
    let mut out = [first[0]; N];
    let mut i = 0;
    while i < first.len() {
        out[i] = first[i];
        i += 1;
    }
    let mut j = 0;
    while j < second.len() {
        out[first.len() + j] = second[j];
        j += 1;
    }
    out
}

/// The kinds other than the authorization ones, violations first.
const BASE: &[KindInfo] = &[
    v(
        "missing-reply",
        "JSON-RPC 2.0 §5: \"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications\". The input's id was readable: a client waiting on it waits forever",
    ),
    v(
        "unreadable-input-unanswered",
        "JSON-RPC 2.0 §5: \"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications\", and §5 id: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null\"; §7 shows such replies to invalid JSON and invalid Request objects. The input had no readable id, so no client is waiting on it; the official MCP SDKs stay silent on such stdio input by choice (rmcp PR #940 reverted after issue #938), which one `rule-4 unreadable-input-unanswered` baseline line accepts",
    ),
    v(
        "unexpected-code",
        "JSON-RPC 2.0 §5.1: -32700 \"Invalid JSON was received by the server\", -32600 \"The JSON sent is not a valid Request object\", -32601 \"The method does not exist / is not available\"",
    ),
    v(
        "id-not-echoed",
        "JSON-RPC 2.0 §5 id: \"It MUST be the same as the value of the id member in the Request Object\"",
    ),
    v(
        "id-value-changed",
        "JSON-RPC 2.0 §5 id: \"It MUST be the same as the value of the id member in the Request Object\" (the number's value or the JSON type differs)",
    ),
    v(
        "id-lost-although-recoverable",
        "JSON-RPC 2.0 §5 id: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null\"; the id was detectable, so it MUST be echoed",
    ),
    v(
        "fabricated-id",
        "JSON-RPC 2.0 §5 id: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null\"; the reply carries an id the input does not have (invented, such as \"server-error\" or 0)",
    ),
    v(
        "forbidden-id-echoed",
        "JSON-RPC 2.0 §5 id: \"If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null\"; MCP schema (every version): RequestId is a string or an integer, so an error response whose id is 1.5, an array or an object breaks JSONRPCError/JSONRPCErrorResponse. The server echoed the input's own id, which it could not have read as an id",
    ),
    v(
        "no-id-spelled-wrong",
        "JSON-RPC 2.0 §5 (id \"is REQUIRED\", Null when undetectable) and MCP schema JSONRPCError (id required, to 2025-06-18); MCP schema JSONRPCErrorResponse (id optional, RequestId is string or integer, so not null, from 2025-11-25)",
    ),
    v(
        "reply-to-notification",
        "JSON-RPC 2.0 §4.1: \"The Server MUST NOT reply to a Notification\"",
    ),
    v(
        "reply-to-response",
        "MCP base protocol: responses are sent in reply to requests and \"MUST include the same ID as the request they correspond to\"; a reply to a response corresponds to no request",
    ),
    v(
        "jsonrpc-missing-or-wrong",
        "JSON-RPC 2.0 §5 jsonrpc: \"MUST be exactly \\\"2.0\\\"\"",
    ),
    v(
        "result-and-error-not-exclusive",
        "JSON-RPC 2.0 §5: \"Either the result member or error member MUST be included, but both members MUST NOT be included\" (\"error\":null is an included member)",
    ),
    v(
        "error-object-malformed",
        "JSON-RPC 2.0 §5.1: the error object has code (\"MUST be an integer\") and message (\"A String\")",
    ),
    v(
        "reply-not-json",
        "JSON-RPC 2.0 §5: \"The Response is expressed as a single JSON Object\"; RFC 8259 §2",
    ),
    v(
        "reply-not-an-object",
        "JSON-RPC 2.0 §5: \"The Response is expressed as a single JSON Object\"",
    ),
    v(
        "reply-not-one-line",
        "MCP transports, stdio: \"Messages are delimited by newlines, and MUST NOT contain embedded newlines\"",
    ),
    v(
        "more-than-one-reply",
        "MCP base protocol: a response \"MUST include the same ID as the request they correspond to\"; the extra message corresponds to no request",
    ),
    v(
        "array-reply-to-single-message",
        "JSON-RPC 2.0 §5: \"The Response is expressed as a single JSON Object\"",
    ),
    v(
        "batch-count-mismatch",
        "JSON-RPC 2.0 §5 (every request of the batch MUST get its Response) and §4.1 (notifications get none)",
    ),
    v(
        "reply-to-batch-without-requests",
        "JSON-RPC 2.0 §6: \"the server MUST NOT return an empty Array\"; §4.1: \"The Server MUST NOT reply to a Notification\"",
    ),
    v(
        "reply-id-unknown",
        "MCP base protocol: responses \"MUST include the same ID as the request they correspond to\"; this id was never sent",
    ),
    v(
        "stdout-not-protocol",
        "MCP transports, stdio: \"The server MUST NOT write anything to its stdout that is not a valid MCP message\" (logging goes to stderr)",
    ),
    v(
        "reply-schema-invalid",
        "MCP schema of the negotiated version: a response is a JSONRPCResultResponse or JSONRPCErrorResponse (JSONRPCResponse or JSONRPCError to 2025-06-18), and a result is its method's result type (InitializeResult, EmptyResult, DiscoverResult, ListToolsResult, CallToolResult, …)",
    ),
    v(
        "server-exited",
        "JSON-RPC 2.0 §5: the Server MUST reply to every call; a server that exits leaves it unanswered",
    ),
    v(
        "no-reply-within-timeout",
        "JSON-RPC 2.0 §5: the Server MUST reply to every call; no reply came within --timeout",
    ),
    v(
        "transport-error",
        "the connection failed while a reply was owed (JSON-RPC 2.0 §5)",
    ),
    v(
        "http-status",
        "MCP Streamable HTTP: an accepted notification or response \"MUST return HTTP status code 202 Accepted\", one not accepted \"MUST return an HTTP error status code\"; a request MUST be answered with an application/json or text/event-stream body",
    ),
    v(
        "http-body-on-202",
        "MCP Streamable HTTP: \"the server MUST return HTTP status code 202 Accepted with no body\"",
    ),
    v(
        "http-content-type",
        "MCP Streamable HTTP: \"the server MUST either return Content-Type: text/event-stream ... or Content-Type: application/json\"",
    ),
    v(
        "http-header-mismatch-accepted",
        "MCP 2026-07-28 Streamable HTTP: servers that process the request body MUST reject requests whose standard headers (Mcp-Method, Mcp-Name, MCP-Protocol-Version) are missing or do not match the body; a request with a missing or contradicting header got a result",
    ),
    v(
        "http-header-mismatch-status",
        "MCP 2026-07-28 schema, HeaderMismatchError: \"For HTTP, the response status code MUST be `400 Bad Request`\"; a -32020 reply came with another status",
    ),
    v(
        "tool-accepted-invalid-arguments",
        "MCP tools, Security Considerations: \"Servers MUST: Validate all tool inputs\"; arguments the tool's own inputSchema refuses (a wrong type, a missing required member, a value out of range) got a successful result",
    ),
    v(
        "tool-structured-content-invalid",
        "MCP tools, Output Schema (2025-06-18 on): \"If an output schema is provided: Servers MUST provide structured results that conform to this schema\"; a successful result's structuredContent is missing or breaks the tool's outputSchema",
    ),
    v(
        "unsupported-version-echoed",
        "--protocol. MCP lifecycle, version negotiation (2024-11-05 to 2025-11-25): \"If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.\"; initialize asking for 1999-01-01, which no MCP revision is, got 1999-01-01 back",
    ),
    v(
        "supported-version-not-echoed",
        "--protocol. MCP lifecycle, version negotiation (2024-11-05 to 2025-11-25): \"If the server supports the requested protocol version, it MUST respond with the same version.\"; initialize asking for the version the server itself offered got another",
    ),
    v(
        "ping-result-not-empty",
        "--protocol. MCP ping (2024-11-05 to 2025-11-25, the versions with ping): \"The receiver MUST respond promptly with an empty response\"; the ping got an error, or a result with members other than _meta",
    ),
    v(
        "progress-not-increasing",
        "--protocol. MCP progress (2024-11-05 to 2026-07-28): \"The progress value MUST increase with each notification, even if the total is unknown.\" (the schema's description of progress says lower-case \"should\"; the page's capital MUST decides); a notification's progress was not above the one before",
    ),
    v(
        "progress-token-unknown",
        "--protocol. MCP progress, Behavior Requirements (2024-11-05 to 2026-07-28): \"Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation\"; a notification named a token the request did not carry",
    ),
    v(
        "progress-after-response",
        "--protocol. MCP progress, Behavior Requirements (2024-11-05 to 2026-07-28): \"Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation\"; a notification came after the request's response, when its operation was no longer in progress",
    ),
    v(
        "log-message-schema-invalid",
        "--protocol. MCP schema, LoggingMessageNotification (2024-11-05 to 2026-07-28): a notifications/message the server sent breaks its definition (a level of LoggingLevel, data present)",
    ),
    v(
        "log-not-requested",
        "--protocol. MCP 2026-07-28 logging, Per-request log level: \"The server MUST NOT emit notifications/message for a request that does not include this field.\" (io.modelcontextprotocol/logLevel, which the checker never sets); a notifications/message came",
    ),
    v(
        "http-method-not-found-status",
        "MCP 2026-07-28 Streamable HTTP, Server Validation: \"If the server does not implement the requested RPC method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601` (`Method not found`).\"; -32601 came with another status (the schema names no status for it; the transport page does)",
    ),
    v(
        "retired-code-emitted",
        "--protocol. MCP 2026-07-28 base protocol, Error Codes: \"Implementations of this protocol version MUST NOT emit these codes: `-32002` — resource not found (2025-11-25 and earlier; replaced by `-32602`). … `-32042` — URL elicitation required (2025-11-25 only).\"; a reply of a 2026-07-28 run carried one",
    ),
    v(
        "declared-list-refused",
        "--capabilities. MCP 2026-07-28 tools, resources and prompts: \"Servers that declare the `tools` capability MUST respond to `tools/list` requests with the set of tools currently available to the requesting client.\" (the same for resources and prompts); the declared capability's list method, called without a cursor, got an error (to 2025-11-25 no MUST binds it: declared-capability-method-missing, declared-capability-list-error)",
    ),
    v(
        "unsupported-version-accepted",
        "--protocol. MCP 2026-07-28 schema, RequestMetaObject protocolVersion: \"If the server does not support the requested version, it MUST return an UnsupportedProtocolVersionError.\"; a request stating the version 1999-01-01 got a result or another error",
    ),
    v(
        "unsupported-version-error-invalid",
        "--protocol. MCP 2026-07-28 schema, UnsupportedProtocolVersionError: code -32022 with data.requested and data.supported (required), and \"For HTTP, the response status code MUST be `400 Bad Request`.\"; the -32022 reply lacked them or came with another status",
    ),
    v(
        "missing-capability-error-invalid",
        "--protocol. MCP 2026-07-28 schema, MissingRequiredClientCapabilityError: code -32021 with data.requiredCapabilities (required), and \"For HTTP, the response status code MUST be `400 Bad Request`.\"; a -32021 reply lacked it or came with another status",
    ),
    s(
        "id-spelling-changed",
        "policy: ids come back byte for byte. The value is equal (-0 and 0, 1e3 and 1000, 2.0 and 2), which JSON-RPC 2.0 §5 (\"the same as the value\") allows",
    ),
    s(
        "duplicate-member-accepted",
        "policy: a duplicated envelope member gets -32600 without an id. RFC 8259 §4: names \"SHOULD be unique\"; with duplicates \"the behavior of software that receives such an object is unpredictable\"",
    ),
    s(
        "duplicate-id-in-reply",
        "policy: one id member per reply. RFC 8259 §4: names within an object \"SHOULD be unique\"",
    ),
    s(
        "rpc-method-code",
        "policy: an rpc.-prefixed method gets -32600. JSON-RPC 2.0 §4 reserves the names (\"MUST NOT be used for anything else\") but prescribes no code",
    ),
    s(
        "params-null-accepted",
        "policy: \"params\":null gets -32600. JSON-RPC 2.0 §4.2 (\"MUST be provided as a Structured value\") binds the client; answering it as absent is lenient",
    ),
    s(
        "big-id-refused",
        "policy: integer ids of any size are echoed. RFC 8259 §6: \"This specification allows implementations to set limits on the range and precision of numbers accepted\"",
    ),
    s(
        "nesting-limit",
        "policy: the id is recovered at any depth. RFC 8259 §9: \"An implementation may set limits on the maximum depth of nesting\"",
    ),
    s(
        "size-limit",
        "policy: inputs of any size are answered. RFC 8259 §9: \"An implementation may set limits on the size of texts that it accepts\"; an input over 100 KiB refused with an error",
    ),
    s(
        "non-json-accepted",
        "policy: anything that is not JSON gets -32700 without an id. RFC 8259 §9: \"A JSON parser MAY accept non-JSON forms or extensions\"",
    ),
    s(
        "leading-bom-refused",
        "policy: a leading byte order mark is skipped. RFC 8259 §8.1: parsers \"MAY ignore the presence of a byte order mark rather than treating it as an error\"",
    ),
    s(
        "reply-to-blank-line",
        "policy: a blank line is no message and gets no reply; a blank line is not JSON either, so a -32700 reply is not forbidden",
    ),
    s(
        "batch-replies-as-lines",
        "policy: one array per batch. JSON-RPC 2.0 §6: \"The Server should respond with an Array\" (lower-case should)",
    ),
    s(
        "batch-in-version-without-batches",
        "policy: a top-level array gets one -32600 where the MCP version has no batches. MCP schema of the version: no batch among its messages, a rule for the client's POST body; JSON-RPC 2.0 §6 lets a server run it as a batch, answering each request with its own id",
    ),
    s(
        "reply-to-malformed-response",
        "policy: a malformed response (id with result and error, no method) is dropped unanswered (wire rule 8). It is no Response, so the MCP rule for responses does not bind; JSON-RPC 2.0 §5/§7 answer an invalid Request object with -32600 and a null id",
    ),
    s(
        "params-array-accepted",
        "policy: params given as an array get -32600 where the MCP schema types params as an object. JSON-RPC 2.0 §4.2: params \"MUST be provided as a Structured value. Either by-position through an Array or by-name through an Object\"",
    ),
    s(
        "result-or-error-in-call-accepted",
        "policy: a call that also carries result or error gets -32600. JSON-RPC 2.0 §4 lists a Request object's members and forbids no others; the MCP schema's JSONRPCRequest does not forbid additional properties",
    ),
    s(
        "batch-reply-not-array",
        "policy: one array per batch. JSON-RPC 2.0 §6: \"The Server should respond with an Array\" (lower-case should)",
    ),
    s(
        "http-status-unusual",
        "policy: a request's reply comes with 200, unreadable input's with 200 or 400. MCP Streamable HTTP names no status for a request's reply",
    ),
    s(
        "server-message-flood",
        "policy: the checker keeps at most 256 server-initiated messages per case (docs/check.md, Limits) and counts the rest, so a server cannot grow its memory; more came while one case was open. No spec bounds how many notifications a server sends",
    ),
    s(
        "reply-too-long",
        "policy: the checker reads at most 4 MiB per reply (docs/check.md, Limits) so a server cannot grow its memory",
    ),
    s(
        "tool-accepted-undeclared-argument",
        "policy: a member the inputSchema does not declare (additionalProperties false) is refused. Servers \"MUST validate all tool inputs\", but a server that ignores a member it never reads acts on nothing invalid",
    ),
    s(
        "tool-refusal-form",
        "policy: invalid arguments are refused in the form the version names. Up to 2025-06-18 \"Invalid arguments\" are listed as a protocol error (-32602), from 2025-11-25 \"Input validation errors\" as a tool execution error (isError); both lists are examples, not MUSTs",
    ),
    s(
        "http-header-mismatch-code",
        "policy: a request whose routing headers are missing or contradict the body is refused as MCP 2026-07-28 defines it, 400 with -32020 (HeaderMismatch: \"required headers are missing or malformed\" or do not match the body); it was refused, so no MUST is broken, but with another status or code",
    ),
    s(
        "declared-capability-method-missing",
        "MCP schema, ServerCapabilities (2024-11-05 to 2026-07-28), a description without a MUST: tools \"Present if the server offers any tools to call.\", prompts \"Present if the server offers any prompt templates.\", resources \"Present if the server offers any resources to read.\"; the declared capability's list method answered -32601, JSON-RPC 2.0 §5.1 \"The method does not exist / is not available\". The two replies contradict each other, but no RFC 2119 keyword binds the declaration, so strict",
    ),
    s(
        "declared-capability-list-error",
        "policy: a declared capability's list method, called without a cursor, answers with a result; another error breaks no sentence of the spec mcpwire can cite",
    ),
    s(
        "undeclared-capability-answered",
        "policy: a capability that was not declared is not offered, so its list method gets -32601. MCP lifecycle, operation: both parties \"Only use capabilities that were successfully negotiated\", which binds the caller, not how the server answers a call it was not offered",
    ),
    s(
        "invalid-cursor-not-refused",
        "policy: a cursor the server never issued gets -32602. MCP pagination: \"Invalid cursors SHOULD result in an error with code -32602 (Invalid params)\"",
    ),
    s(
        "page-repeats",
        "policy: a walk of nextCursor reaches the end listing each item once. MCP pagination: the cursor is \"an opaque string token, representing a position in the result set\", and servers \"SHOULD: Provide stable cursors\"; no MUST forbids a page that lists an item again or returns a cursor it returned before (which a client following the cursors never gets past)",
    ),
    s(
        "prompt-accepted-missing-argument",
        "policy: a prompts/get without a required argument is refused. MCP prompts: \"Servers SHOULD validate prompt arguments before processing\" and name -32602 for \"Missing required arguments\" under SHOULD; the Security MUST (\"carefully validate all prompt inputs and outputs to prevent injection attacks or unauthorized access\") is not broken by rendering a prompt without an argument",
    ),
    s(
        "prompt-refusal-form",
        "policy: a missing required prompt argument gets -32602. MCP prompts, Error Handling: servers \"SHOULD return standard JSON-RPC errors\", \"Missing required arguments: -32602 (Invalid params)\"; it was refused, with another code",
    ),
    s(
        "prompt-error-on-valid-arguments",
        "policy: a prompts/get with every required argument gets the prompt, or -32602 when the server refuses a value (PromptArgument declares no type). No MUST makes a get succeed: MCP prompts lists -32603 for \"Internal errors\" under SHOULD, so another error breaks nothing the spec states",
    ),
    s(
        "resource-read-error-undocumented",
        "policy: a resources/read of a URI expanded from a listed template gets contents or a documented error. MCP resources, Error Handling: servers \"SHOULD return standard JSON-RPC errors\": -32002 \"Resource not found\" (-32602 from 2026-07-28), -32603 \"Internal errors\"",
    ),
    s(
        "tool-error-on-valid-arguments",
        "policy: arguments the inputSchema accepts get a result. CallToolResult.isError: errors that originate from the tool \"SHOULD be reported inside the result object, with isError set to true, not as an MCP protocol-level error response\"",
    ),
    s(
        "unsupported-version-refused",
        "--protocol. MCP lifecycle (2024-11-05 to 2025-11-25): \"Otherwise, the server MUST respond with another protocol version it supports.\", while its Error Handling shows an \"Unsupported protocol version\" error as an example; initialize asking for 1999-01-01 got an error. Both readings exist, so strict",
    ),
    s(
        "progress-exceeds-total",
        "--protocol. MCP schema, ProgressNotification (2024-11-05 to 2026-07-28): total is the \"Total number of items to process (or total progress required), if known.\", a description without a MUST; a notification's progress was above its total",
    ),
    s(
        "logging-set-level-refused",
        "--protocol. The server declared logging (ServerCapabilities, 2024-11-05 to 2025-11-25: \"Present if the server supports sending log messages to the client.\", a description without a MUST) but refused logging/setLevel with an error",
    ),
    s(
        "resource-subscribe-refused",
        "--protocol. The server declared resources.subscribe (ServerCapabilities, 2024-11-05 to 2025-11-25: \"Whether this server supports subscribing to resource updates.\", a description without a MUST) but answered resources/subscribe or resources/unsubscribe with -32601 (\"The method does not exist / is not available\", JSON-RPC 2.0 §5.1)",
    ),
    s(
        "listed-resource-not-readable",
        "--protocol. MCP resources (2024-11-05 to 2026-07-28): resources/list lists the server's resources and resources/read retrieves a resource's contents; no MUST makes a listed resource readable (a resource may fail to read for reasons of its own), so a listed resource whose read got an error is strict",
    ),
    s(
        "unknown-resource-code",
        "--protocol. MCP resources, Error Handling: servers \"SHOULD return standard JSON-RPC errors\" for common failure cases, \"Resource not found\" -32002 (2024-11-05 to 2025-11-25; -32602 from 2026-07-28); resources/read of a URI the server never listed got a result or another code",
    ),
    s(
        "completion-too-many-values",
        "--protocol. MCP schema, CompleteResult.completion.values (2024-11-05 to 2025-11-25): \"An array of completion values. Must not exceed 100 items.\", a description with no maxItems and no RFC 2119 capitals; the result had more (from 2026-07-28 the schema says maxItems 100, and reply-schema-invalid judges it)",
    ),
    s(
        "completion-total-inconsistent",
        "--protocol. MCP schema, CompleteResult.completion (2024-11-05 to 2026-07-28), descriptions without a MUST: total is \"The total number of completion options available. This can exceed the number of values actually sent in the response.\", hasMore \"Indicates whether there are additional completion options beyond those provided in the current response\"; total was below the values sent, or hasMore contradicted total",
    ),
    s(
        "request-before-initialized",
        "--protocol. MCP lifecycle (2024-11-05 to 2025-11-25), Initialization: \"The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.\"; in a session opened with initialize and never completed, the server sent another request",
    ),
    s(
        "reply-after-cancel",
        "--protocol. MCP cancellation (2024-11-05 to 2026-07-28): receivers \"SHOULD: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request\"; a request cancelled while it ran got a response after the server had answered the request sent behind the cancel (receivers \"MAY ignore cancellation notifications if: ... Processing has already completed\", which a black box cannot rule out: strict)",
    ),
    s(
        "log-below-level",
        "--protocol. MCP schema, SetLevelRequest level (2024-11-05 to 2025-11-25): \"The server should send all logs at this level and higher (i.e., more severe) to the client as notifications/message.\" (a description, lower-case should: strict); after logging/setLevel a notifications/message below the level set came",
    ),
    s(
        "list-order-unstable",
        "--protocol. MCP 2026-07-28 tools: \"Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed).\"; prompts, resources and templates by the same reading (policy); a list asked for again came in another order",
    ),
    s(
        "stateless-get-delete-not-405",
        "--protocol. MCP 2026-07-28 Streamable HTTP, Earlier Streamable HTTP Revisions: a server that supports only this revision and receives such traffic from an older client \"SHOULD respond as follows: HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`.\"; a GET or DELETE got another status",
    ),
];

/// The kind named `name`, if it exists.
///
/// ```
/// use mcpwire_proptest::findings::{Level, kind};
/// assert_eq!(kind("missing-reply").map(|k| k.level), Some(Level::Violation));
/// assert_eq!(kind("id-spelling-changed").map(|k| k.level), Some(Level::Strict));
/// assert!(kind("missing-replies").is_none());
/// ```
pub fn kind(name: &str) -> Option<&'static KindInfo> {
    KINDS.iter().find(|k| k.name == name)
}

/// The level of kind `name` (an unknown name counts as a violation, so nothing is hidden).
pub fn level_of(name: &str) -> Level {
    kind(name).map_or(Level::Violation, |k| k.level)
}

/// The names of every kind, comma-separated (for error messages).
pub fn names() -> String {
    KINDS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}

/// The text of `--list-kinds`: one line per kind with its level, then its basis indented.
pub fn listing() -> String {
    let mut out = String::new();
    for kind in KINDS {
        let _ = writeln!(out, "{:<32} {}", kind.name, kind.level);
        let _ = writeln!(out, "    {}", kind.basis);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kebab_case() {
        for (i, kind) in KINDS.iter().enumerate() {
            assert!(
                kind.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                kind.name
            );
            assert!(
                KINDS[i + 1..].iter().all(|other| other.name != kind.name),
                "{} twice",
                kind.name
            );
        }
    }

    #[test]
    fn the_listing_names_every_kind_with_its_level() {
        let text = listing();
        assert!(text.contains("missing-reply                    violation"));
        assert!(text.contains("id-spelling-changed              strict"));
        assert_eq!(text.lines().count(), KINDS.len() * 2);
    }
}
