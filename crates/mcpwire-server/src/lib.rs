//! # mcpwire-server: an MCP server in 40 lines, for every MCP version
//!
//! Declare tools from Rust types; the layer derives their JSON Schemas with schemars (kept
//! whole: `$defs`, `additionalProperties`, titles), decodes arguments (an error names the
//! JSON pointer), negotiates the version (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25,
//! and 2026-07-28 statelessly through `server/discover`), and shapes every result for the
//! version in force. The wire rules are mcpwire's: ids kept as sent, invalid input answered
//! with its id.
//!
//! ```
//! use mcpwire_server::{Context, McpServer, Structured, ToolResult};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Add {
//!     /// The first addend.
//!     a: i64,
//!     /// The second addend.
//!     b: i64,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Sum {
//!     sum: i64,
//! }
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Countdown {
//!     n: u32,
//! }
//!
//! let server = McpServer::builder("demo", "1.0.0")
//!     .tool("add", "Add two integers", |args: Add, _ctx: Context| async move {
//!         match args.a.checked_add(args.b) {
//!             Some(sum) => Ok(Structured(Sum { sum })),
//!             None => Err("the sum overflows a 64-bit integer"),
//!         }
//!     })
//!     .tool("countdown", "Count down from n", |args: Countdown, ctx: Context| async move {
//!         for step in 0..args.n {
//!             if ctx.is_cancelled() {
//!                 return ToolResult::error("cancelled");
//!             }
//!             ctx.progress(f64::from(step + 1), Some(f64::from(args.n))).await;
//!         }
//!         ToolResult::text("liftoff")
//!     })
//!     .build()
//!     .expect("the schemas fit MCP");
//! # let _ = server;
//! // In `main`: server.serve_stdio().await
//! ```
//!
//! ## What the layer does for each version
//!
//! | | 2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | 2026-07-28 |
//! |---|---|---|---|---|---|
//! | handshake | `initialize` | `initialize` | `initialize` | `initialize` | `server/discover`, version in every `_meta` (-32022 otherwise) |
//! | `ping`, `logging/setLevel` | yes | yes | yes | yes | -32601 (not in the version) |
//! | tool `title`, `outputSchema`, `structuredContent` | left out | left out | sent | sent | sent |
//! | arguments that do not decode | -32602, `data.pointer` | -32602 | -32602 | tool result `isError`, text names the pointer | `isError` |
//! | `elicit`, `sample` | sampling | sampling | both | both | both, through input-required results (`tools/call`, `prompts/get`, `resources/read`) |
//! | `completion/complete` (a completer registered) | served, no capability to declare | `completions` declared | `completions` | `completions`, `context.arguments` | `completions` |
//! | `resources/subscribe`, `notifications/resources/updated` | yes | yes | yes | yes | -32601; `subscriptions/listen` instead |
//! | results | | | | | `resultType`, `ttlMs: 0`, `cacheScope: "public"` |
//!
//! Tool results and prompt messages carry [`Content`] blocks (text, image, audio, embedded
//! resource, resource link, each with optional [`Annotations`]): one version-neutral model,
//! converted into the generated types of the version in force, which are what gets
//! serialized. A block the version lacks (audio before 2025-03-26, a resource link or
//! `annotations.lastModified` before 2025-06-18) is a [`ContentError`]: the tool result
//! becomes an `isError` result saying so, `prompts/get` a -32603 error saying so.
//!
//! What a handler asks the client is modelled the same way: [`Context::elicit`] derives a
//! [`Form`] from a Rust type (`$ref`s inlined, an `Option` field not required, unit enums
//! as single choices, titled by `#[schemars(title)]` or doc comments, sequences of them as
//! multiple choices, `#[serde(default)]` values as defaults) and converts it into the
//! version's `PrimitiveSchemaDefinition`s; [`Context::elicit_url`] asks in URL mode;
//! [`Context::sample_with`] sends a [`SamplingRequest`] (messages, system prompt, model
//! preferences, temperature, stop sequences, context). What the version cannot carry is
//! [`ClientError::Unsendable`], and nothing is sent.
//!
//! Lists (`tools/list`, `resources/list`, `prompts/list`, `resources/templates/list`) come
//! in the order the items were registered.
//!
//! Resources come as plain [`Resource`]s and as [`ResourceTemplate`]s: RFC 6570 level-1
//! templates (`users://{id}/profile`) listed by `resources/templates/list`, whose reader gets
//! the variables of any URI they match in `resources/read` (a plain resource at the same URI
//! comes first).
//!
//! With resources, `resources/subscribe` is declared (`subscribe: true`) where the version
//! has it, and [`McpServer::notify_resource_updated`] sends `notifications/resources/updated`
//! to the sessions subscribed to a URI (a resource's, or one a template matches). MCP
//! 2026-07-28 replaces subscribing with a long-lived `subscriptions/listen` request: its
//! stream opens with `notifications/subscriptions/acknowledged` (the filter agreed: what the
//! client asked for, of what the server offers), then carries the list_changed and
//! `resources/updated` notifications the filter admits, each tagged with
//! `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen request's id). The client
//! ends the subscription by closing the stream. Changes reach the streams through an
//! [`EventSource`] ([`McpServerBuilder::event_source`]; by default a bounded in-process
//! broadcast, [`InProcessEvents`], whose slow listeners are disconnected, never buffered
//! without bound; with feature `redis`, `redis::RedisCluster` shares them between the
//! processes behind one endpoint).
//!
//! [`Prompt::complete`] and [`ResourceTemplate::complete`] register a completer for one
//! argument or template variable (`completion/complete`, at most [`MAX_COMPLETIONS`] values
//! per result with `total` and `hasMore`); a completer for an argument that does not exist
//! is a [`BuildError::Completion`].
//!
//! A method the version lacks, or that the server does not offer (no tools registered: no
//! `tools/*`), is -32601 before its params are read. Params are first decoded as the
//! version's generated params type (`mcpwire-types`), so a request its schema refuses is
//! -32602 naming the member. Capabilities name only the kinds of items the server was built
//! with, each with `listChanged: true` (resources also `subscribe: true` where the version
//! has `resources/subscribe`): [`McpServer::add_tool`] and its siblings change them while
//! serving and notify every initialized session.
//!
//! ## Asking the client under 2026-07-28
//!
//! MCP 2026-07-28 has no requests from server to client. [`Context::elicit`] and
//! [`Context::sample`] keep their signatures and work there when the request's `_meta`
//! declares the client's `elicitation` / `sampling` capability ([`Context::can_elicit`],
//! [`Context::can_sample`] say so); otherwise they fail with [`ClientError::NotDeclared`] as
//! under every version. The first time, the ask ends the handler and the reply is an
//! `InputRequiredResult`:
//!
//! ```json
//! {"resultType":"input_required",
//!  "inputRequests":{"elicitation-0-5d41402a":{"method":"elicitation/create","params":{..}}},
//!  "requestState":"rs1.…"}
//! ```
//!
//! The client retries the same request with `inputResponses` (`{"elicitation-0-5d41402a":
//! <its ElicitResult>}`) and the `requestState`; **the handler runs again from the start**
//! and this time the ask returns the answer. Each ask's key comes from its position among
//! the handler's asks and what it asks, so a handler that asks twice takes two retries, and
//! the `requestState` carries the answers of earlier rounds (the client only sends the new
//! one). Work before an ask runs once per round: keep it free of effects that must not
//! repeat, and let the asks depend only on the arguments and earlier answers so that their
//! keys stay the same. A handler that races an ask against something else (`select!`) and
//! finishes without the answer still gets the input-required result: its result would not
//! be the one it means.
//!
//! The `requestState` is sealed with HMAC-SHA256 under a per-server random key (or
//! [`McpServerBuilder::request_state_secret`], for several processes behind one endpoint),
//! bound to the method, name or URI and arguments of its request, valid for an hour and at
//! most [`MAX_REQUEST_STATE`] bytes; one that is malformed, oversized, altered, foreign or
//! expired is -32602 naming `/requestState`. It is not encrypted: the client can read the
//! answers it gave.
//!
//! ## Transports
//!
//! [`McpServer::serve_stdio`] and [`McpServer::serve`] (any `AsyncRead`/`AsyncWrite`) serve
//! one client. For another transport (Streamable HTTP), make one [`McpServer::session`] per
//! client session: a [`mcpwire::service::Session`] into which the transport feeds each
//! incoming frame with the sink its output goes to.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod arguments;
#[cfg(feature = "auth")]
pub mod auth;
mod catalog;
mod client;
mod completion;
mod context;
mod dispatch;
mod events;
mod hex;
mod input_round;
mod listen;
mod listing;
mod method;
mod param_headers;
mod prompt;
#[cfg(feature = "redis")]
pub mod redis;
mod request;
mod request_state;
mod resource;
mod resource_info;
mod resource_template;
mod roots;
mod server;
mod session;
mod shared;
mod tasks;
mod tool;
mod uri_template;
mod validate;

pub use arguments::{ArgumentError, NoArguments};
pub use client::{ClientError, Elicitation, Elicited, UrlElicitation};
pub use completion::{CompletionRequest, MAX_COMPLETIONS};
pub use context::Context;
pub use events::{EventReceiver, EventSource, InProcessEvents, ReceiveError};
pub use mcpwire_model::ask::wire::AskError;
pub use mcpwire_model::ask::{
    ElicitRequest, IncludeContext, ModelPreferences, SamplingMessage, SamplingRequest,
};
pub use mcpwire_model::content::{
    Annotations, Content, ContentError, ContentKind, EmbeddedResource, ResourceContents,
    ResourceLink, Role,
};
pub use mcpwire_model::form::{Choice, FieldKind, Form, FormError, FormField, TextFormat};
pub use mcpwire_model::logging::LogLevel;
pub use mcpwire_model::prompt::PromptMessage;
pub use mcpwire_model::result::{IntoToolResult, Structured, ToolResult};
pub use mcpwire_model::schema::{SchemaError, object_schema};
pub use mcpwire_model::version::Version;
pub use mcpwire_model::{
    Change, ElicitAnswer, ListKind, SampledBlock, SampledContent, SampledToolResult,
    SampledToolUse, SamplingReply, SchemaText, ToolChoice, ToolChoiceMode, ToolInfo,
};
pub use prompt::Prompt;
pub use request_state::{MAX_REQUEST_STATE, MIN_STATE_SECRET};
pub use resource::Resource;
pub use resource_template::ResourceTemplate;
pub use roots::Root;
#[cfg(feature = "http")]
pub use server::McpHttpService;
pub use server::{BuildError, DEFAULT_PAGE_SIZE, McpServer, McpServerBuilder};
pub use session::SessionState;
pub use tasks::{TASKS_EXTENSION, TaskLimits, TaskSupport};
pub use tool::Tool;

/// The Streamable HTTP transport's configuration (bind address, path, Origin and Host checks,
/// stateless mode), for [`McpServer::http_server`].
#[cfg(feature = "http")]
pub use mcpwire::http::HttpConfig;
