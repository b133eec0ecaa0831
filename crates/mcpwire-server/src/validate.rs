//! Every request's params are decoded once, as the negotiated version's generated params
//! type, so a request the version's schema refuses is -32602 naming the JSON pointer that
//! failed, exactly as that version defines the request. That decode is kept: what the
//! generated value holds becomes the version-neutral [`Request`] dispatch matches on.

use mcpwire::params::decode_params;
use mcpwire::{RawParams, RpcError};
use mcpwire_types::Json;
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::method::Method;
use crate::request::{Input, Meta, Request, Untyped, Validated};
use mcpwire_model::version::Version;

/// A member of a generated value as this layer's own type (the same JSON: a prompt
/// reference, a log level, capabilities); the generated type already accepted it.
fn convert<T: Serialize, U: DeserializeOwned>(value: T) -> Result<U, RpcError> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|e| RpcError::internal_error().with_data(&format!("params: {e}")))
}

/// A generated object as the members it serializes to: [`convert`] without the second pass
/// (capabilities, the answers of `inputResponses`).
fn members<T: Serialize>(value: T) -> Result<Map<String, Value>, RpcError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(other) => Err(RpcError::internal_error()
            .with_data(&format!("params: an object was written as {other}"))),
        Err(e) => Err(RpcError::internal_error().with_data(&format!("params: {e}"))),
    }
}

/// The members of a method this layer does not type-check, decoded once.
fn untyped(
    method: Method,
    params: Option<RawParams<'_>>,
    max_depth: usize,
) -> Result<Validated, RpcError> {
    let mut fields: Untyped = decode_params(params, max_depth)?;
    let request = match method {
        Method::Ping => Request::Ping,
        Method::Discover => Request::Discover,
        Method::Listen => Request::Listen(fields.notifications.unwrap_or_default()),
        Method::List(of) => Request::List {
            of,
            cursor: fields.cursor,
        },
        // Typed by every version that has them, or (the Tasks extension's) decoded by
        // dispatch itself.
        Method::Initialize
        | Method::CallTool
        | Method::ReadResource
        | Method::GetPrompt
        | Method::SetLevel
        | Method::Complete
        | Method::Subscribe
        | Method::Unsubscribe
        | Method::Task(_) => return Err(RpcError::method_not_found()),
    };
    // Moved out: `Validated` carries the token, as for the typed methods.
    let progress_token = fields
        .meta
        .as_mut()
        .and_then(|meta| meta.progress_token.take());
    Ok(Validated {
        meta: fields.meta,
        progress_token,
        request,
    })
}

/// A request of a version with the `initialize` handshake: no `_meta` member but its
/// progress token is read.
fn handshake(
    progress_token: Option<Box<RawValue>>,
    request: Request,
) -> Result<Validated, RpcError> {
    Ok(Validated {
        meta: None,
        progress_token,
        request,
    })
}

/// A progress token the generated types decoded, as its JSON text (an integer keeps its
/// spelling: `mcpwire_types::Integer`).
fn token_text<T: Serialize>(token: Option<&T>) -> Option<Box<RawValue>> {
    token.and_then(|token| serde_json::value::to_raw_value(token).ok())
}

/// `progressToken` of a `_meta` that a version's params type keeps among the members it does
/// not declare (before 2025-11-25 most params types declare no `_meta`): read from that
/// member's text alone, not from the rest of the params.
fn token_in_meta(meta: Option<&Json>) -> Option<Box<RawValue>> {
    #[derive(Deserialize)]
    struct Carrier {
        #[serde(rename = "progressToken", default)]
        progress_token: Option<Box<RawValue>>,
    }
    let carrier: Carrier = serde_json::from_str(meta?.text()).ok()?;
    carrier.progress_token
}

/// The progress token of `$p`, a value of `$m::$ty`: its `_meta` member where the type
/// declares one, else the `_meta` among its undeclared members (the generated
/// `mcp_if_member!` table says which).
macro_rules! progress_token {
    ($m:ident, $ty:ident, $p:expr) => {
        mcpwire_types::mcp_if_member!(
            $m,
            $ty,
            meta,
            {
                token_text(
                    $p.meta
                        .as_ref()
                        .and_then(|meta| meta.progress_token.as_ref()),
                )
            },
            { token_in_meta($p.extra.get("_meta")) }
        )
    };
}

/// The `context` of a `completion/complete`: a member of the version's params type
/// (`field`, from 2025-06-18), or before it one the schema does not declare, read as sent.
macro_rules! completion_context {
    (field, $p:ident) => {
        $p.context.map(convert).transpose()?
    };
    (extra, $p:ident) => {
        $p.extra
            .get("context")
            .map(|context| context.parse())
            .transpose()
            .map_err(|e| crate::dispatch::invalid_params("/context", &e.to_string()))?
    };
}

/// Decodes with the params types of a version with the `initialize` handshake (`$ping`: that
/// version's type of `ping`'s params, whose name differs between versions).
macro_rules! handshake_version {
    ($module:ident, $params:ident, $depth:ident, $method:ident, $context:ident, $ping:ident) => {{
        use $module as m;
        match $method {
            Method::Ping => {
                let p: Option<m::$ping> = decode_params($params, $depth)?;
                let token = p.and_then(|p| progress_token!($module, $ping, p));
                handshake(token, Request::Ping)
            }
            Method::List(of) => {
                let p: Option<m::PaginatedRequestParams> = decode_params($params, $depth)?;
                let token = p
                    .as_ref()
                    .and_then(|p| progress_token!($module, PaginatedRequestParams, p));
                handshake(
                    token,
                    Request::List {
                        of,
                        cursor: p.and_then(|p| p.cursor),
                    },
                )
            }
            Method::Initialize => {
                let p: m::InitializeRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, InitializeRequestParams, p);
                handshake(
                    token,
                    Request::Initialize {
                        capabilities: members(p.capabilities)?,
                    },
                )
            }
            Method::CallTool => {
                let p: m::CallToolRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, CallToolRequestParams, p);
                handshake(
                    token,
                    Request::CallTool {
                        name: p.name,
                        arguments: p.arguments,
                        input: Input::default(),
                    },
                )
            }
            Method::ReadResource => {
                let p: m::ReadResourceRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, ReadResourceRequestParams, p);
                handshake(
                    token,
                    Request::ReadResource {
                        uri: p.uri,
                        input: Input::default(),
                    },
                )
            }
            Method::GetPrompt => {
                let p: m::GetPromptRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, GetPromptRequestParams, p);
                handshake(
                    token,
                    Request::GetPrompt {
                        name: p.name,
                        arguments: p.arguments,
                        input: Input::default(),
                    },
                )
            }
            Method::SetLevel => {
                let p: m::SetLevelRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, SetLevelRequestParams, p);
                handshake(token, Request::SetLevel(convert(p.level)?))
            }
            Method::Complete => {
                let p: m::CompleteRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, CompleteRequestParams, p);
                handshake(
                    token,
                    Request::Complete {
                        reference: convert(p.r#ref)?,
                        argument: convert(p.argument)?,
                        context: completion_context!($context, p),
                    },
                )
            }
            Method::Subscribe => {
                let p: m::SubscribeRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, SubscribeRequestParams, p);
                handshake(
                    token,
                    Request::Subscribe {
                        uri: p.uri,
                        subscribe: true,
                    },
                )
            }
            Method::Unsubscribe => {
                let p: m::UnsubscribeRequestParams = decode_params($params, $depth)?;
                let token = progress_token!($module, UnsubscribeRequestParams, p);
                handshake(
                    token,
                    Request::Subscribe {
                        uri: p.uri,
                        subscribe: false,
                    },
                )
            }
            method => untyped(method, $params, $depth).map(|v| Validated { meta: None, ..v }),
        }
    }};
}

/// The `_meta` members this layer reads, from a 2026-07-28 request's decoded `_meta`.
fn meta(meta: v2026_07_28::RequestMetaObject) -> Result<Option<Meta>, RpcError> {
    Ok(Some(Meta {
        protocol_version: Some(meta.io_modelcontextprotocol_protocol_version),
        client_capabilities: Some(members(meta.io_modelcontextprotocol_client_capabilities)?),
        log_level: meta
            .io_modelcontextprotocol_log_level
            .map(convert)
            .transpose()?,
        // Carried by `Validated` (from this same `_meta`).
        progress_token: None,
    }))
}

/// The answers a 2026-07-28 request carries to an earlier input-required result.
fn input(
    responses: Option<v2026_07_28::InputResponses>,
    request_state: Option<String>,
) -> Result<Input, RpcError> {
    Ok(Input {
        responses: responses.map(members).transpose()?,
        request_state,
    })
}

/// Decodes with the params types of 2026-07-28 (stateless: `_meta` in every request).
fn stateless(
    method: Method,
    params: Option<RawParams<'_>>,
    depth: usize,
) -> Result<Validated, RpcError> {
    use v2026_07_28 as m;
    let (stated, request) = match method {
        Method::List(of) => {
            let p: m::PaginatedRequestParams = decode_params(params, depth)?;
            let cursor = p.cursor;
            (p.meta, Request::List { of, cursor })
        }
        Method::Listen => {
            let p: m::SubscriptionsListenRequestParams = decode_params(params, depth)?;
            (p.meta, Request::Listen(p.notifications))
        }
        Method::Discover => {
            let p: m::RequestParams = decode_params(params, depth)?;
            (p.meta, Request::Discover)
        }
        Method::CallTool => {
            let p: m::CallToolRequestParams = decode_params(params, depth)?;
            let input = input(p.input_responses, p.request_state)?;
            let (name, arguments) = (p.name, p.arguments);
            (
                p.meta,
                Request::CallTool {
                    name,
                    arguments,
                    input,
                },
            )
        }
        Method::ReadResource => {
            let p: m::ReadResourceRequestParams = decode_params(params, depth)?;
            let input = input(p.input_responses, p.request_state)?;
            (p.meta, Request::ReadResource { uri: p.uri, input })
        }
        Method::GetPrompt => {
            let p: m::GetPromptRequestParams = decode_params(params, depth)?;
            let input = input(p.input_responses, p.request_state)?;
            let (name, arguments) = (p.name, p.arguments);
            (
                p.meta,
                Request::GetPrompt {
                    name,
                    arguments,
                    input,
                },
            )
        }
        Method::Complete => {
            let p: m::CompleteRequestParams = decode_params(params, depth)?;
            let reference = convert(p.r#ref)?;
            let argument = convert(p.argument)?;
            let context = p.context.map(convert).transpose()?;
            (
                p.meta,
                Request::Complete {
                    reference,
                    argument,
                    context,
                },
            )
        }
        method => return untyped(method, params, depth),
    };
    Ok(Validated {
        progress_token: token_text(stated.progress_token.as_ref()),
        meta: meta(stated)?,
        request,
    })
}

/// Decodes the params of `method` with `version`'s generated types into the request
/// dispatch serves (methods this layer does not type-check are read for the members it
/// uses).
pub(crate) fn validate(
    version: Version,
    method: Method,
    params: Option<RawParams<'_>>,
    depth: usize,
) -> Result<Validated, RpcError> {
    match version {
        Version::V2024_11_05 => {
            handshake_version!(v2024_11_05, params, depth, method, extra, PingRequestParams)
        }
        Version::V2025_03_26 => {
            handshake_version!(v2025_03_26, params, depth, method, extra, PingRequestParams)
        }
        Version::V2025_06_18 => {
            handshake_version!(v2025_06_18, params, depth, method, field, PingRequestParams)
        }
        Version::V2025_11_25 => {
            handshake_version!(v2025_11_25, params, depth, method, field, RequestParams)
        }
        Version::V2026_07_28 => stateless(method, params, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Listed;

    const TOOLS: Method = Method::List(Listed::Tools);
    const TEMPLATES: Method = Method::List(Listed::ResourceTemplates);

    fn pointer(error: &RpcError) -> String {
        let data: serde_json::Value = serde_json::from_str(error.data().unwrap().get()).unwrap();
        data["pointer"].as_str().unwrap().to_owned()
    }

    #[test]
    fn each_version_refuses_by_its_own_schema() {
        let call = RawParams::parse(r#"{"arguments":{}}"#);
        for version in Version::ALL.into_iter().filter(|v| v.has_handshake()) {
            let error = validate(version, Method::CallTool, call, 64).unwrap_err();
            assert_eq!(error.code(), -32602);
            assert_eq!(pointer(&error), "/name", "{version}");
        }
        // 2026-07-28 requires `_meta` with the protocol version; earlier versions do not.
        let plain = RawParams::parse(r#"{"name":"add"}"#);
        assert!(validate(Version::V2025_11_25, Method::CallTool, plain, 64).is_ok());
        let error = validate(Version::V2026_07_28, Method::CallTool, plain, 64).unwrap_err();
        assert_eq!(pointer(&error), "/_meta");
        // Absent list params are fine before 2026-07-28.
        assert!(validate(Version::V2024_11_05, TOOLS, None, 64).is_ok());
        assert!(validate(Version::V2026_07_28, TOOLS, None, 64).is_err());
    }

    #[test]
    fn templates_ping_and_listen_are_read_with_the_versions_own_types() {
        // `resources/templates/list` takes the paginated params, `_meta` included in
        // 2026-07-28, as `tools/list` does.
        let no_meta = RawParams::parse(r#"{"cursor":"c"}"#);
        let error = validate(Version::V2026_07_28, TEMPLATES, no_meta, 64).unwrap_err();
        assert_eq!((error.code(), pointer(&error).as_str()), (-32602, "/_meta"));
        assert!(validate(Version::V2026_07_28, TEMPLATES, None, 64).is_err());
        let numeric = RawParams::parse(r#"{"cursor":5}"#);
        for version in Version::ALL {
            let error = validate(version, TEMPLATES, numeric, 64).unwrap_err();
            assert_eq!(error.code(), -32602, "{version}");
        }
        assert!(validate(Version::V2025_11_25, TEMPLATES, no_meta, 64).is_ok());
        // `subscriptions/listen` (2026-07-28) requires `_meta` and the filter.
        let filter = RawParams::parse(r#"{"notifications":{}}"#);
        let error = validate(Version::V2026_07_28, Method::Listen, filter, 64).unwrap_err();
        assert_eq!(pointer(&error), "/_meta");
        // `ping`'s progress token is a string or an integer under every version with `ping`.
        let bad_token = RawParams::parse(r#"{"_meta":{"progressToken":[1]}}"#);
        let good_token = RawParams::parse(r#"{"_meta":{"progressToken":1}}"#);
        for version in Version::ALL.into_iter().filter(|v| v.has_handshake()) {
            let error = validate(version, Method::Ping, bad_token, 64).unwrap_err();
            assert_eq!(error.code(), -32602, "{version}");
            assert!(
                validate(version, Method::Ping, good_token, 64).is_ok(),
                "{version}"
            );
            assert!(
                validate(version, Method::Ping, None, 64).is_ok(),
                "{version}"
            );
        }
    }
}
