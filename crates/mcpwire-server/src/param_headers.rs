//! Tool parameters mirrored in HTTP headers (MCP 2026-07-28, SEP-2243): a property of a
//! tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent by the client both in the
//! arguments and in an `Mcp-Param-Name` header, so that HTTP intermediaries can route on it
//! without reading the body. The server checks that the two agree before the tool runs: a
//! header that is missing while the argument is present, present while the argument is
//! absent or `null`, that does not decode (see
//! [`decode_header_value`](mcpwire::http::decode_header_value)), or whose value differs from
//! the argument's (a string as is, a number or boolean as its JSON text) is refused with
//! -32020 (HeaderMismatch; over HTTP, status 400).
//!
//! Mark a parameter with schemars: `#[schemars(extend("x-mcp-header" = "Region"))]`.

use std::collections::BTreeMap;

use mcpwire::RpcError;
use mcpwire_types::JsonObject;
use mcpwire_types::mcp::v2026_07_28::ErrorCode;
use serde_json::{Map, Value};

/// The prefix of mirrored-parameter headers (header names are case-insensitive).
const PREFIX: &str = "mcp-param-";

/// The `Mcp-Param-*` headers of one HTTP request: the name after the prefix, lowercased, and
/// the decoded value (`None` when it does not decode).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ParamHeaders {
    values: BTreeMap<String, Option<String>>,
}

impl ParamHeaders {
    /// The `Mcp-Param-*` headers of `headers` (a name sent twice counts as undecodable).
    #[cfg(feature = "http")]
    pub(crate) fn of(headers: &mcpwire::http::HeaderMap) -> Self {
        let mut values = BTreeMap::new();
        for (name, value) in headers {
            let Some(suffix) = name.as_str().strip_prefix(PREFIX) else {
                continue;
            };
            let decoded = mcpwire::http::decode_header_value(value);
            values
                .entry(suffix.to_owned())
                .and_modify(|seen| *seen = None)
                .or_insert(decoded);
        }
        Self { values }
    }

    /// Checks the mirrored parameters of a tool whose input schema is `schema` against its
    /// `arguments`.
    pub(crate) fn check(
        &self,
        schema: &Map<String, Value>,
        arguments: &JsonObject,
    ) -> Result<(), RpcError> {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return Ok(());
        };
        let arguments = arguments.to_map().unwrap_or_default();
        for (property, definition) in properties {
            let Some(header) = definition.get("x-mcp-header").and_then(Value::as_str) else {
                continue;
            };
            let argument = arguments.get(property).filter(|v| !v.is_null());
            let sent = self.values.get(&header.to_ascii_lowercase());
            let expected = argument.map(|v| match v {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            let problem = match (expected, sent) {
                (None, None) => continue,
                (Some(expected), Some(Some(sent))) if *sent == expected => continue,
                (Some(_), None) => "is missing".to_owned(),
                (None, Some(_)) => format!("is sent but argument `{property}` is absent"),
                (_, Some(None)) => "is not a valid header value".to_owned(),
                (Some(expected), Some(Some(sent))) => {
                    format!("value {sent:?} does not match body value {expected:?}")
                }
            };
            return Err(RpcError::new(
                ErrorCode::HeaderMismatch.code(),
                format!("Header mismatch: Mcp-Param-{header} header {problem}"),
            ));
        }
        Ok(())
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;
    use mcpwire::http::HeaderMap;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &'static str)]) -> ParamHeaders {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        ParamHeaders::of(&map)
    }

    fn arguments(value: Value) -> JsonObject {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn mirrored_parameters_must_agree_with_their_headers() {
        let schema = json!({ "properties": {
            "region": { "type": "string", "x-mcp-header": "Region" },
            "priority": { "type": "integer", "x-mcp-header": "Priority" },
            "query": { "type": "string" }
        }});
        let schema = schema.as_object().unwrap();
        let args = arguments(json!({ "region": "Hello", "priority": 42, "query": "q" }));
        let ok = headers(&[
            ("mcp-param-region", "=?base64?SGVsbG8=?="),
            ("Mcp-Param-Priority", "42"),
        ]);
        assert!(ok.check(schema, &args).is_ok());
        for (pairs, needle) in [
            (
                &[("mcp-param-priority", "42")][..],
                "Region header is missing",
            ),
            (
                &[
                    ("mcp-param-region", "=?base64?SGVsbG8?="),
                    ("mcp-param-priority", "42"),
                ],
                "not a valid",
            ),
            (
                &[("mcp-param-region", "Hello"), ("mcp-param-priority", "41")],
                "\"41\" does not match",
            ),
        ] {
            let error = headers(pairs).check(schema, &args).unwrap_err();
            assert_eq!(error.code(), -32020);
            assert!(error.message().contains(needle), "{}", error.message());
        }
        let without = arguments(json!({ "region": "Hello", "priority": null }));
        assert!(
            headers(&[("mcp-param-region", "Hello")])
                .check(schema, &without)
                .is_ok()
        );
        let error = headers(&[("mcp-param-region", "Hello"), ("mcp-param-priority", "1")])
            .check(schema, &without)
            .unwrap_err();
        assert!(error.message().contains("absent"), "{}", error.message());
    }
}
