//! Request `_meta`: the progress token every version has, and what MCP 2026-07-28 requires
//! in every request (the version, the client's capabilities and info).

use serde_json::{Map, Value};

/// `_meta` key of the protocol version of a 2026-07-28 request.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client's capabilities of a 2026-07-28 request.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the client's name and version of a 2026-07-28 request.
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of the log level a 2026-07-28 request asks for.
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key of the subscription a 2026-07-28 notification belongs to.
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// Serializes params into a JSON object (`null` is the empty object).
pub(crate) fn params_object<P: serde::Serialize + ?Sized>(
    params: &P,
) -> Result<Map<String, Value>, String> {
    match serde_json::to_value(params).map_err(|e| e.to_string())? {
        Value::Object(object) => Ok(object),
        Value::Null => Ok(Map::new()),
        other => Err(format!("params must be a JSON object, not {other}")),
    }
}

/// Sets `_meta[key] = value` in `params`, making `_meta` an object if it is not one.
pub(crate) fn set(params: &mut Map<String, Value>, key: &str, value: Value) {
    let meta = params
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if !meta.is_object() {
        *meta = Value::Object(Map::new());
    }
    if let Value::Object(meta) = meta {
        meta.insert(key.to_owned(), value);
    }
}

/// What a stateless (2026-07-28) request states in its `_meta`.
#[derive(Debug, Clone)]
pub(crate) struct StatelessMeta {
    /// The version.
    pub version: mcpwire_model::Version,
    /// The client's capabilities under that version.
    pub capabilities: Value,
    /// `{"name":…,"version":…}`.
    pub client_info: Value,
    /// The log level asked for, if any.
    pub log_level: Option<String>,
}

impl StatelessMeta {
    /// Adds this to `params`' `_meta` (keys the caller set stay as they are).
    pub(crate) fn inject(&self, params: &mut Map<String, Value>) {
        let present = |params: &Map<String, Value>, key: &str| {
            params
                .get("_meta")
                .and_then(Value::as_object)
                .is_some_and(|m| m.contains_key(key))
        };
        let entries = [
            (
                PROTOCOL_VERSION_KEY,
                Some(Value::from(self.version.as_str())),
            ),
            (CLIENT_CAPABILITIES_KEY, Some(self.capabilities.clone())),
            (CLIENT_INFO_KEY, Some(self.client_info.clone())),
            (LOG_LEVEL_KEY, self.log_level.clone().map(Value::from)),
        ];
        for (key, value) in entries {
            if let Some(value) = value
                && !present(params, key)
            {
                set(params, key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stateless_meta_joins_what_the_caller_put_in_meta() {
        let mut params =
            params_object(&json!({"name": "t", "_meta": {"progressToken": 1}})).expect("an object");
        let meta = StatelessMeta {
            version: mcpwire_model::Version::V2026_07_28,
            capabilities: json!({"sampling": {}}),
            client_info: json!({"name": "c", "version": "1"}),
            log_level: None,
        };
        meta.inject(&mut params);
        assert_eq!(
            Value::Object(params),
            json!({"name": "t", "_meta": {
                "progressToken": 1,
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
                "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
            }})
        );
        assert!(params_object(&5).is_err());
        assert!(params_object(&()).expect("null is empty").is_empty());
    }
}
