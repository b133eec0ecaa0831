//! Every request's params are first decoded as the negotiated version's generated params
//! type, so a request the version's schema refuses is -32602 naming the JSON pointer that
//! failed, exactly as that version defines the request.

use mcpwire::params::decode_params;
use mcpwire::{RawParams, RpcError};
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

use crate::version::Version;

/// Decodes `params` as `T`, keeping only the verdict.
fn check<T: serde::de::DeserializeOwned>(
    params: Option<RawParams<'_>>,
    max_depth: usize,
) -> Result<(), RpcError> {
    decode_params::<T>(params, max_depth).map(drop)
}

/// Validates with the params types of a version with the `initialize` handshake.
macro_rules! handshake_version {
    ($module:ident, $params:ident, $depth:ident, $method:ident) => {{
        use $module as m;
        match $method {
            "tools/list" | "resources/list" | "prompts/list" => {
                check::<Option<m::PaginatedRequestParams>>($params, $depth)
            }
            "initialize" => check::<m::InitializeRequestParams>($params, $depth),
            "tools/call" => check::<m::CallToolRequestParams>($params, $depth),
            "resources/read" => check::<m::ReadResourceRequestParams>($params, $depth),
            "prompts/get" => check::<m::GetPromptRequestParams>($params, $depth),
            "logging/setLevel" => check::<m::SetLevelRequestParams>($params, $depth),
            "completion/complete" => check::<m::CompleteRequestParams>($params, $depth),
            "resources/subscribe" => check::<m::SubscribeRequestParams>($params, $depth),
            "resources/unsubscribe" => check::<m::UnsubscribeRequestParams>($params, $depth),
            _ => Ok(()),
        }
    }};
}

/// Validates the params of `method` against `version`'s generated types (methods this
/// layer does not type-check pass).
pub(crate) fn validate(
    version: Version,
    method: &str,
    params: Option<RawParams<'_>>,
    depth: usize,
) -> Result<(), RpcError> {
    match version {
        Version::V2024_11_05 => handshake_version!(v2024_11_05, params, depth, method),
        Version::V2025_03_26 => handshake_version!(v2025_03_26, params, depth, method),
        Version::V2025_06_18 => handshake_version!(v2025_06_18, params, depth, method),
        Version::V2025_11_25 => handshake_version!(v2025_11_25, params, depth, method),
        Version::V2026_07_28 => {
            use v2026_07_28 as m;
            match method {
                "tools/list" | "resources/list" | "prompts/list" => {
                    check::<m::PaginatedRequestParams>(params, depth)
                }
                "server/discover" => check::<m::RequestParams>(params, depth),
                "tools/call" => check::<m::CallToolRequestParams>(params, depth),
                "resources/read" => check::<m::ReadResourceRequestParams>(params, depth),
                "prompts/get" => check::<m::GetPromptRequestParams>(params, depth),
                "completion/complete" => check::<m::CompleteRequestParams>(params, depth),
                _ => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pointer(error: &RpcError) -> String {
        let data: serde_json::Value = serde_json::from_str(error.data().unwrap().get()).unwrap();
        data["pointer"].as_str().unwrap().to_owned()
    }

    #[test]
    fn each_version_refuses_by_its_own_schema() {
        let call = RawParams::parse(r#"{"arguments":{}}"#);
        for version in Version::ALL.into_iter().filter(|v| v.has_handshake()) {
            let error = validate(version, "tools/call", call, 64).unwrap_err();
            assert_eq!(error.code(), -32602);
            assert_eq!(pointer(&error), "/name", "{version}");
        }
        // 2026-07-28 requires `_meta` with the protocol version; earlier versions do not.
        let plain = RawParams::parse(r#"{"name":"add"}"#);
        assert!(validate(Version::V2025_11_25, "tools/call", plain, 64).is_ok());
        let error = validate(Version::V2026_07_28, "tools/call", plain, 64).unwrap_err();
        assert_eq!(pointer(&error), "/_meta");
        // Absent list params are fine before 2026-07-28.
        assert!(validate(Version::V2024_11_05, "tools/list", None, 64).is_ok());
        assert!(validate(Version::V2026_07_28, "tools/list", None, 64).is_err());
    }
}
