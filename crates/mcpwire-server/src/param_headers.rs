//! Tool parameters mirrored in HTTP headers (MCP 2026-07-28, SEP-2243): a property of a
//! tool's `inputSchema` marked `"x-mcp-header": "Name"` is sent by the client both in the
//! arguments and in an `Mcp-Param-Name` header, so that HTTP intermediaries can route on it
//! without reading the body. The server checks that the two agree before the tool runs: a
//! header that is missing while the argument is present, present while the argument is
//! absent or `null`, that does not decode (see
//! [`decode_header_value`](mcpwire::http::decode_header_value)), or whose value differs from
//! the argument's text by the rule the client shares (`mcpwire::http::param_header_text`: a
//! string as is, an integer or boolean as its JSON text), or whose argument that rule cannot
//! mirror, is refused with -32020 (HeaderMismatch; over HTTP, status 400).
//!
//! Mark a parameter with schemars: `#[schemars(extend("x-mcp-header" = "Region"))]`.

use std::collections::BTreeMap;

#[cfg(feature = "http")]
use mcpwire::RpcError;
#[cfg(feature = "http")]
use mcpwire_types::JsonObject;
#[cfg(feature = "http")]
use mcpwire_types::mcp::v2026_07_28::ErrorCode;
#[cfg(feature = "http")]
use serde_json::{Map, Value};

#[cfg(feature = "http")]
use mcpwire::http::{PARAM_HEADER_PREFIX as PREFIX, ParamHeader as ParamHeaderDecl};

/// JSON-RPC internal error: the server's own tool breaks the rule.
#[cfg(feature = "http")]
const INTERNAL_ERROR: i64 = -32603;

/// The `Mcp-Param-*` headers of one HTTP request: the name after the prefix, lowercased, and
/// the decoded value (`None` when it does not decode).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ParamHeaders {
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
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
    /// `arguments`, by the rule both sides share ([`mcpwire::http::param_headers`],
    /// [`mcpwire::http::param_header_text`]): an argument the rule cannot mirror (a fraction,
    /// an array, an object) is refused like a header that does not match, since no client
    /// holding the rule sends it.
    #[cfg(feature = "http")]
    pub(crate) fn check(
        &self,
        schema: &Map<String, Value>,
        arguments: &JsonObject,
    ) -> Result<(), RpcError> {
        use mcpwire::http::{param_header_text, param_headers};
        let declared = param_headers(schema).map_err(|e| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("the tool's x-mcp-header declarations are invalid: {e}"),
            )
        })?;
        if declared.is_empty() {
            // Nothing to compare: the arguments are not read here.
            return Ok(());
        }
        let arguments = arguments.to_map().unwrap_or_default();
        for ParamHeaderDecl { property, header } in declared {
            let mismatch = |problem: String| {
                RpcError::new(
                    ErrorCode::HeaderMismatch.code(),
                    format!("Header mismatch: Mcp-Param-{header} header {problem}"),
                )
            };
            let expected = match arguments.get(&property).map(param_header_text) {
                None => None,
                Some(Ok(text)) => text,
                Some(Err(reason)) => {
                    return Err(mismatch(format!(
                        "cannot carry argument `{property}`: {reason}"
                    )));
                }
            };
            let sent = self.values.get(&header.to_ascii_lowercase());
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
            return Err(mismatch(problem));
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
        // A value the shared rule cannot mirror is refused, whatever the header says.
        let listed = arguments(json!({ "region": "Hello", "priority": [42] }));
        let error = headers(&[
            ("mcp-param-region", "Hello"),
            ("mcp-param-priority", "[42]"),
        ])
        .check(schema, &listed)
        .unwrap_err();
        assert_eq!(error.code(), -32020);
        assert!(
            error.message().contains("cannot carry"),
            "{}",
            error.message()
        );
        // A tool whose own declaration breaks the rule is the server's fault.
        let broken =
            json!({ "properties": { "score": { "type": "number", "x-mcp-header": "Score" } } });
        let error = headers(&[])
            .check(
                broken.as_object().unwrap(),
                &arguments(json!({ "score": 1.5 })),
            )
            .unwrap_err();
        assert_eq!(error.code(), -32603);
    }
}
