//! The negotiated version's schema held on what the server sends: a result is decoded as
//! that version's generated result type (`mcpwire-types`) and read from that one parse, a
//! notification or request is checked as its `ServerNotification` / `ServerRequest`, so a
//! member of the wrong shape, or a missing required one, is named by its JSON pointer. On by
//! default ([`ClientBuilder::check_results`](crate::ClientBuilder::check_results)).

use mcpwire_model::Version;
use mcpwire_types::mcp;
use mcpwire_types::support::{DefinitionVisitor, fast_json};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::violation::{Rule, Violation};
use mcpwire_model::read_error::json_pointer;

/// Decodes a text as the visited definition, keeping what it decoded as a JSON value (for
/// reading the caller's own type from without parsing the text again) when asked; the
/// error names the pointer.
struct Decodes<'a> {
    text: &'a str,
    keep: bool,
}

impl DefinitionVisitor for Decodes<'_> {
    type Output = Result<Option<Value>, String>;

    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
        // The fast path decodes what serde_json decodes, to the same value; where it gives
        // up, serde_json decodes again and names the pointer of a failure.
        let decoded = match fast_json::try_from_str::<T>(self.text) {
            Some(decoded) => decoded,
            None => {
                let mut decoder = serde_json::Deserializer::from_str(self.text);
                let decoded = serde_path_to_error::deserialize::<_, T>(&mut decoder)
                    .map_err(|e| format!("at \"{}\": {}", json_pointer(e.path()), e.inner()))?;
                decoder.end().map_err(|e| e.to_string())?;
                decoded
            }
        };
        if !self.keep {
            return Ok(None);
        }
        serde_json::to_value(decoded)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

/// The schema definition of `method`'s result, where the client checks one.
fn result_definition(method: &str) -> Option<&'static str> {
    Some(match method {
        "initialize" => "InitializeResult",
        "server/discover" => "DiscoverResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        _ => return None,
    })
}

/// The result `text` of `method` decoded as `T`, after (and from) its decoding as
/// `version`'s result type: the text is parsed once, whether `method` has a result type
/// the client checks or not.
pub(crate) fn decode_checked<T: DeserializeOwned>(
    version: Version,
    method: &str,
    text: &str,
) -> Result<T, Violation> {
    let shape = |at: String, error: &dyn std::fmt::Display| {
        Violation::new(
            Rule::ResultShape,
            format!("{method} result at \"{at}\": {error}"),
        )
    };
    match decode_definition(version, method, text, true)? {
        Some(value) => serde_path_to_error::deserialize(value)
            .map_err(|e| shape(json_pointer(e.path()), e.inner())),
        None => {
            if let Some(decoded) = fast_json::try_from_str(text) {
                return Ok(decoded);
            }
            let mut decoder = serde_json::Deserializer::from_str(text);
            serde_path_to_error::deserialize(&mut decoder)
                .map_err(|e| shape(json_pointer(e.path()), e.inner()))
        }
    }
}

/// Decodes the result `text` of `method` as `version`'s definition of it, returning what it
/// decoded as a JSON value when `keep` (`None` when the client checks no definition for
/// `method`, or the version has none).
fn decode_definition(
    version: Version,
    method: &str,
    text: &str,
    keep: bool,
) -> Result<Option<Value>, Violation> {
    let Some(name) = result_definition(method) else {
        return Ok(None);
    };
    let completed = complete_by_default(version, text);
    let text = completed.as_deref().unwrap_or(text);
    match decodes_as(version, name, text, keep) {
        Some(Err(reason)) => Err(Violation::new(
            Rule::ResultShape,
            format!("{method} result is not a {version} {name} {reason}"),
        )),
        Some(Ok(value)) => Ok(value),
        // A definition the version does not have.
        None => Ok(None),
    }
}

/// Checks a notification (`ServerNotification`) or request (`ServerRequest`) of the server
/// against `version`'s schema: its params must have the shape its method gives them (a
/// method the version does not define is left to the caller). The error names the pointer.
pub(crate) fn check_message(
    version: Version,
    union: &'static str,
    id: Option<&str>,
    method: &str,
    params: Option<&str>,
) -> Result<(), String> {
    // Newer schemas give these unions the whole JSON-RPC envelope.
    let mut text = String::from("{\"jsonrpc\":\"2.0\",");
    if let Some(id) = id {
        text.push_str("\"id\":");
        text.push_str(id);
        text.push(',');
    }
    text.push_str("\"method\":");
    text.push_str(&Value::from(method).to_string());
    if let Some(params) = params {
        text.push_str(",\"params\":");
        text.push_str(params);
    }
    text.push('}');
    match decodes_as(version, union, &text, false) {
        Some(Err(reason)) => Err(format!("{method} is not a {version} {union} {reason}")),
        Some(Ok(_)) | None => Ok(()),
    }
}

/// Decodes `text` as the definition `name` of `version` (`None`: the version has none).
fn decodes_as(
    version: Version,
    name: &str,
    text: &str,
    keep: bool,
) -> Option<Result<Option<Value>, String>> {
    let visitor = Decodes { text, keep };
    match version {
        Version::V2024_11_05 => mcp::v2024_11_05::visit_definition(name, visitor),
        Version::V2025_03_26 => mcp::v2025_03_26::visit_definition(name, visitor),
        Version::V2025_06_18 => mcp::v2025_06_18::visit_definition(name, visitor),
        Version::V2025_11_25 => mcp::v2025_11_25::visit_definition(name, visitor),
        Version::V2026_07_28 => mcp::v2026_07_28::visit_definition(name, visitor),
    }
}

/// `text` with `"resultType":"complete"` added, when `version` has the member and `text` is
/// an object without it: "when a client receives a result … which does not include
/// `resultType`, the client MUST treat the absent field as `complete`" (2026-07-28).
///
/// The member is written into the text, which is not parsed for it (the reader that follows
/// refuses a text that is not an object).
pub(crate) fn complete_by_default(version: Version, text: &str) -> Option<String> {
    if !version.is_stateless() || text.contains("\"resultType\"") {
        return None;
    }
    let members = text.trim_start().strip_prefix('{')?;
    let separator = if members.trim_start().starts_with('}') {
        ""
    } else {
        ","
    };
    Some(format!("{{\"resultType\":\"complete\"{separator}{members}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the result `text` of `method` against `version`'s schema.
    fn check_result(version: Version, method: &str, text: &str) -> Result<(), Violation> {
        decode_definition(version, method, text, false).map(drop)
    }

    #[test]
    fn a_result_is_held_to_its_version_schema() {
        let ok = r#"{"content":[{"type":"text","text":"hi"}]}"#;
        for version in Version::ALL {
            // Without `resultType` a 2026-07-28 result is `complete`.
            assert_eq!(check_result(version, "tools/call", ok), Ok(()), "{version}");
        }
        let wrong = r#"{"resultType":5,"content":[]}"#;
        assert!(check_result(Version::V2026_07_28, "tools/call", wrong).is_err());
        let typed = r#"{"resultType":"complete","content":[]}"#;
        assert_eq!(
            check_result(Version::V2026_07_28, "tools/call", typed),
            Ok(())
        );
        let no_content = r#"{"isError":false}"#;
        let error = check_result(Version::V2025_06_18, "tools/call", no_content).unwrap_err();
        assert_eq!(error.rule, Rule::ResultShape);
        assert!(error.detail.contains("content"), "{error}");
        let bad_block = r#"{"content":[{"type":"text"}]}"#;
        let error = check_result(Version::V2024_11_05, "tools/call", bad_block).unwrap_err();
        assert!(error.detail.contains("/content/0"), "{error}");
        assert_eq!(check_result(Version::V2025_06_18, "ping", "{}"), Ok(()));
    }

    #[test]
    fn resulttype_is_written_in_without_a_parse_and_results_decode_from_one() {
        let v = Version::V2026_07_28;
        assert_eq!(
            complete_by_default(v, " {}").as_deref(),
            Some(r#"{"resultType":"complete"}"#)
        );
        assert_eq!(
            complete_by_default(v, r#"{"a":1}"#).as_deref(),
            Some(r#"{"resultType":"complete","a":1}"#)
        );
        assert_eq!(complete_by_default(v, "[1]"), None);
        assert_eq!(complete_by_default(Version::V2025_11_25, "{}"), None);
        // Checked and read from one decoding; what the schema refuses names its pointer.
        #[derive(serde::Deserialize)]
        struct Page {
            resources: Vec<Value>,
        }
        let ok = r#"{"resources":[{"uri":"a://b","name":"b"}],"ttlMs":0,"cacheScope":"public"}"#;
        let page: Page = decode_checked(v, "resources/list", ok).expect("a page");
        assert_eq!(page.resources[0]["uri"], "a://b");
        let bad = r#"{"resources":[{"uri":5,"name":"b"}],"ttlMs":0,"cacheScope":"public"}"#;
        let error = decode_checked::<Page>(v, "resources/list", bad)
            .err()
            .expect("refused");
        assert!(error.detail.contains("\"/resources/0/uri\""), "{error}");
        let trailing = decode_checked::<Page>(Version::V2025_06_18, "resources/list", "{} x");
        assert!(trailing.is_err());
    }

    #[test]
    fn server_messages_are_held_to_their_method_shape() {
        let union = "ServerNotification";
        let log = Some(r#"{"level":"info","data":"x"}"#);
        assert_eq!(
            check_message(
                Version::V2025_06_18,
                union,
                None,
                "notifications/message",
                log
            ),
            Ok(())
        );
        let bad = Some(r#"{"level":"loud","data":"x"}"#);
        let error = check_message(
            Version::V2025_06_18,
            union,
            None,
            "notifications/message",
            bad,
        );
        assert!(error.unwrap_err().contains("/params/level"));
        let progress = Some(r#"{"progressToken":1}"#);
        let missing = check_message(
            Version::V2024_11_05,
            union,
            None,
            "notifications/progress",
            progress,
        );
        assert!(missing.unwrap_err().contains("progress"));
        let sampling = Some(r#"{"messages":[],"maxTokens":5}"#);
        for version in [Version::V2024_11_05, Version::V2025_11_25] {
            let request = check_message(
                version,
                "ServerRequest",
                Some("7"),
                "sampling/createMessage",
                sampling,
            );
            assert_eq!(request, Ok(()), "{version}");
        }
        // A method the schema does not know is the caller's to judge.
        assert_eq!(
            check_message(Version::V2025_06_18, union, None, "x/y", None),
            Ok(())
        );
    }
}
