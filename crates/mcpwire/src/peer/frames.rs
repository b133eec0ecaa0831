//! The bytes of outgoing requests and notifications: one line, members in a fixed order
//! (`"jsonrpc":"2.0"`, then `"id"` for a request, `"method"`, then `"params"` when present).

use serde::Serialize;

use super::SendError;

/// Serializes params; `null` (from `()` or `None`) means "no params member". Anything that
/// is not an object or array is refused: JSON-RPC params are structured.
pub(crate) fn params_json<T: Serialize + ?Sized>(params: &T) -> Result<Option<String>, SendError> {
    let json = serde_json::to_string(params).map_err(|e| SendError::Params(e.to_string()))?;
    match json.as_bytes().first() {
        Some(b'{' | b'[') => Ok(Some(json)),
        _ if json == "null" => Ok(None),
        _ => Err(SendError::Params(format!(
            "params must serialize to an object or an array, not {json}"
        ))),
    }
}

/// A request line: `{"jsonrpc":"2.0","id":<id>,"method":<method>[,"params":<params>]}`.
pub(crate) fn request(id: u64, method: &str, params: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(48 + method.len() + params.map_or(0, str::len));
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    out.extend_from_slice(id.to_string().as_bytes());
    finish(out, method, params)
}

/// A notification line: `{"jsonrpc":"2.0","method":<method>[,"params":<params>]}`.
pub(crate) fn notification(method: &str, params: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(40 + method.len() + params.map_or(0, str::len));
    out.extend_from_slice(br#"{"jsonrpc":"2.0""#);
    finish(out, method, params)
}

fn finish(mut out: Vec<u8>, method: &str, params: Option<&str>) -> Vec<u8> {
    out.extend_from_slice(br#","method":"#);
    serde_json::to_writer(&mut out, method).expect("writing a string to a Vec cannot fail");
    if let Some(params) = params {
        // serde_json's compact output holds no line breaks.
        out.extend_from_slice(br#","params":"#);
        out.extend_from_slice(params.as_bytes());
    }
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_notifications_are_exact_lines() {
        assert_eq!(
            request(7, "a\"b", Some(r#"{"x":[1]}"#)),
            br#"{"jsonrpc":"2.0","id":7,"method":"a\"b","params":{"x":[1]}}"#
        );
        assert_eq!(
            notification("n", None),
            br#"{"jsonrpc":"2.0","method":"n"}"#
        );
    }

    #[test]
    fn params_must_be_structured() {
        assert_eq!(params_json(&()).unwrap(), None);
        assert_eq!(params_json(&[1, 2]).unwrap().as_deref(), Some("[1,2]"));
        assert!(matches!(params_json(&5), Err(SendError::Params(m)) if m.contains("not 5")));
    }
}
