//! mcpwire's typed decode: the envelope (`mcpwire::decode`), then the generated type the
//! method calls for, as `mcpwire::Router` does it.
//!
//! - Requests: params decoded with [`mcpwire::params::decode_params`] (JSON-pointer errors,
//!   depth limit) into the method's generated params type (`CallToolRequestParams`, or
//!   `Option<RequestParams>` for `ping`).
//! - Results: the raw `result` text decoded into the generated result type of the method the
//!   client asked for (`ListToolsResult`, `ReadResourceResult`, `CallToolResult`), looked up
//!   by id in a pending-request table ([`crate::messages::pending_method`]), as a client
//!   does: no trial over the `ServerResult` union. The decode is the runtime's own
//!   ([`mcpwire::params::decode_text`], which `mcpwire`'s peer types a result with): the
//!   fast deserializer, and serde_json with JSON-pointer errors where it gives up.
//! - Invalid frames: the envelope's classification is the whole work (nothing to type).

use mcpwire::params::{ParamsFailure, decode_params};
use mcpwire::{Decoded, Message, ResponseBody};

/// What the typed decode produced.
#[derive(Debug)]
pub enum Typed<P, R> {
    /// Params (or the error a -32602 reply would carry).
    Params(Result<P, mcpwire::RpcError>),
    /// A result (or where and why it failed).
    Result(Result<R, ParamsFailure>),
    /// Nothing to type: the envelope answered (invalid, rejected, notification, …).
    Envelope,
}

macro_rules! typed_version {
    ($fn_name:ident, $describe:ident, $module:ident) => {
        /// Envelope plus the generated types of this MCP version.
        pub fn $fn_name(bytes: &[u8]) -> (Decoded<'_>, Typed<$module::Params, $module::Results>) {
            let decoded = crate::contenders::mcpwire_envelope(bytes);
            let depth = crate::contenders::profile().limits().max_params_depth;
            let typed = match &decoded {
                Decoded::Single(Message::Request { method, params, .. }) => match &**method {
                    "ping" => {
                        Typed::Params(decode_params(*params, depth).map($module::Params::Ping))
                    }
                    "tools/call" => {
                        Typed::Params(decode_params(*params, depth).map($module::Params::CallTool))
                    }
                    _ => Typed::Envelope,
                },
                Decoded::Single(Message::Response(mcpwire::Response {
                    id: Some(id),
                    body: ResponseBody::Result(raw),
                })) => match crate::messages::pending_method(id.raw())
                    .and_then(|m| $module::result(m, raw))
                {
                    Some(result) => Typed::Result(result),
                    None => Typed::Envelope,
                },
                _ => Typed::Envelope,
            };
            (decoded, typed)
        }

        /// Describes the outcome of the typed decode.
        pub fn $describe(bytes: &[u8]) -> String {
            let (decoded, typed) = $fn_name(bytes);
            let envelope = crate::contenders::describe_mcpwire(&decoded);
            match typed {
                Typed::Params(Ok(p)) => format!("{envelope}, {}", p.name()),
                Typed::Params(Err(e)) => {
                    format!("{envelope}, params error {} {}", e.code(), e.message())
                }
                Typed::Result(Ok(r)) => format!("{envelope}, {}", r.name()),
                Typed::Result(Err(e)) => {
                    format!("{envelope}, result error at `{}`: {}", e.pointer, e.reason)
                }
                Typed::Envelope => envelope,
            }
        }
    };
}

macro_rules! version_types {
    ($module:ident, $generated:ident, $version:literal) => {
        #[doc = concat!("The generated MCP ", $version, " types the typed decode targets.")]
        pub mod $module {
            use mcpwire_types::mcp::$generated as generated;

            /// Params of the benchmarked requests.
            #[derive(Debug)]
            pub enum Params {
                /// `ping`.
                Ping(Option<generated::RequestParams>),
                /// `tools/call`.
                CallTool(generated::CallToolRequestParams),
            }

            impl Params {
                /// The generated type's name.
                pub fn name(&self) -> &'static str {
                    match self {
                        Params::Ping(_) => "ping params",
                        Params::CallTool(_) => "CallToolRequestParams",
                    }
                }
            }

            /// The benchmarked results.
            #[derive(Debug)]
            pub enum Results {
                /// `tools/list`.
                ListTools(generated::ListToolsResult),
                /// `resources/read`.
                ReadResource(generated::ReadResourceResult),
                /// `tools/call`.
                CallTool(generated::CallToolResult),
            }

            impl Results {
                /// The generated type's name.
                pub fn name(&self) -> &'static str {
                    match self {
                        Results::ListTools(_) => "ListToolsResult",
                        Results::ReadResource(_) => "ReadResourceResult",
                        Results::CallTool(_) => "CallToolResult",
                    }
                }
            }

            /// Decodes a raw result as the result type of `method`, the method of the
            /// request it answers (`None` for a method the benchmark does not type), with
            /// the decode `mcpwire`'s peer types a result with.
            pub fn result(
                method: &str,
                raw: &str,
            ) -> Option<Result<Results, mcpwire::params::ParamsFailure>> {
                use mcpwire::params::decode_text;
                match method {
                    "tools/list" => Some(decode_text(raw).map(Results::ListTools)),
                    "resources/read" => Some(decode_text(raw).map(Results::ReadResource)),
                    "tools/call" => Some(decode_text(raw).map(Results::CallTool)),
                    _ => None,
                }
            }
        }
    };
}

version_types!(v2025_11_25_types, v2025_11_25, "2025-11-25");
version_types!(v2026_07_28_types, v2026_07_28, "2026-07-28");

use v2025_11_25_types as types_2025;
use v2026_07_28_types as types_2026;

typed_version!(v2025_11_25, describe_v2025_11_25, types_2025);
typed_version!(v2026_07_28, describe_v2026_07_28, types_2026);
