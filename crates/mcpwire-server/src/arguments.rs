//! Decoding a call's arguments into the handler's type, naming where it failed.

use mcpwire::params::decode_text;
use mcpwire_types::JsonObject;
use mcpwire_types::support::{json_pointer, missing_member, push_pointer_token};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The arguments type of a tool or prompt that takes none: `{}` (other members are
/// ignored).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[schemars(description = "No arguments.")]
pub struct NoArguments {}

/// Arguments that do not decode as the handler's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// JSON pointer into `params` (e.g. `/arguments/a`).
    pub pointer: String,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid arguments at {}: {}", self.pointer, self.reason)
    }
}

/// Decodes `arguments` (the member of `params`) as `T`, from the text the client sent
/// (`mcpwire::params::decode_text`): a number reaches `T` with every digit it was written with
/// (a `u128` member gets them all), and no recursion limit applies (the runtime bounded the
/// params' depth before this decode).
pub(crate) fn decode_arguments<T: DeserializeOwned>(
    arguments: &JsonObject,
) -> Result<T, ArgumentError> {
    decode_text(arguments.text()).map_err(|failure| {
        let mut pointer = String::new();
        push_pointer_token(&mut pointer, "arguments");
        pointer.push_str(&failure.pointer);
        ArgumentError {
            pointer,
            reason: failure.reason,
        }
    })
}

/// Decodes `value`, the member `member` of `params`, as `T`.
pub(crate) fn decode_member<T: DeserializeOwned>(
    member: &str,
    value: Value,
) -> Result<T, ArgumentError> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let reason = error.inner().to_string();
        let mut pointer = String::new();
        push_pointer_token(&mut pointer, member);
        pointer.push_str(&json_pointer(error.path()));
        if let Some(missing) = missing_member(&reason) {
            push_pointer_token(&mut pointer, missing);
        }
        ArgumentError { pointer, reason }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Add {
        a: i64,
        b: i64,
    }

    fn args(value: Value) -> JsonObject {
        JsonObject::try_from(value).unwrap()
    }

    #[test]
    fn the_pointer_names_the_member_inside_arguments() {
        let wrong = decode_arguments::<Add>(&args(json!({ "a": "x", "b": 1 }))).unwrap_err();
        assert_eq!(wrong.pointer, "/arguments/a");
        assert!(wrong.reason.contains("expected i64"), "{}", wrong.reason);
        let missing = decode_arguments::<Add>(&args(json!({ "a": 1 }))).unwrap_err();
        assert_eq!(missing.pointer, "/arguments/b");
        assert_eq!(missing.reason, "missing field `b`");
    }

    #[test]
    fn arguments_decode_from_their_text_at_any_depth_and_precision() {
        #[derive(Debug, Deserialize)]
        struct Wide {
            n: u128,
            nested: Value,
        }
        let nested = format!("{}{}", "[".repeat(300), "]".repeat(300));
        let text =
            format!(r#"{{"n": 340282366920938463463374607431768211455, "nested": {nested}}}"#);
        let wide: Wide = decode_arguments(&JsonObject::from_text(text).unwrap()).unwrap();
        assert_eq!(wide.n, u128::MAX);
        assert!(wide.nested.is_array());
        let wrong =
            decode_arguments::<Add>(&JsonObject::from_text(r#"{"a": 1, "b": true}"#).unwrap())
                .unwrap_err();
        assert_eq!(wrong.pointer, "/arguments/b");
        assert_eq!(wrong.reason, "invalid type: boolean `true`, expected i64");
    }
}
