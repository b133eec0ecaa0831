//! The negotiated version's schema held on results: a result is also decoded as that
//! version's generated result type (`mcpwire-types`), so a member the version does not
//! have in that shape, or a missing required one, is a [`Rule::ResultShape`] violation
//! naming the JSON pointer. On by default
//! ([`ClientBuilder::check_results`](crate::ClientBuilder::check_results)).

use mcpwire_model::Version;
use mcpwire_types::mcp;
use mcpwire_types::support::DefinitionVisitor;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::violation::{Rule, Violation};

/// Decodes a text as the visited definition; the error names the pointer.
struct Decodes<'a>(&'a str);

impl DefinitionVisitor for Decodes<'_> {
    type Output = Result<(), String>;

    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
        let mut decoder = serde_json::Deserializer::from_str(self.0);
        serde_path_to_error::deserialize::<_, T>(&mut decoder)
            .map(drop)
            .map_err(|e| format!("at \"{}\": {}", crate::calls::pointer(e.path()), e.inner()))
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

/// Checks the result `text` of `method` against `version`'s schema.
pub(crate) fn check_result(version: Version, method: &str, text: &str) -> Result<(), Violation> {
    let Some(name) = result_definition(method) else {
        return Ok(());
    };
    // "when a client receives a result … which does not include `resultType`, the client
    // MUST treat the absent field as `complete`" (2026-07-28).
    let completed;
    let text = match complete_by_default(version, text) {
        Some(with) => {
            completed = with;
            completed.as_str()
        }
        None => text,
    };
    let visitor = Decodes(text);
    let outcome = match version {
        Version::V2024_11_05 => mcp::v2024_11_05::visit_definition(name, visitor),
        Version::V2025_03_26 => mcp::v2025_03_26::visit_definition(name, visitor),
        Version::V2025_06_18 => mcp::v2025_06_18::visit_definition(name, visitor),
        Version::V2025_11_25 => mcp::v2025_11_25::visit_definition(name, visitor),
        Version::V2026_07_28 => mcp::v2026_07_28::visit_definition(name, visitor),
    };
    match outcome {
        Some(Err(reason)) => Err(Violation::new(
            Rule::ResultShape,
            format!("{method} result is not a {version} {name} {reason}"),
        )),
        // Checked, or a definition the version does not have.
        Some(Ok(())) | None => Ok(()),
    }
}

/// `text` with `"resultType":"complete"` added, when `version` has the member and `text` is
/// an object without it.
fn complete_by_default(version: Version, text: &str) -> Option<String> {
    if !version.is_stateless() {
        return None;
    }
    let mut object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).ok()?;
    if object.contains_key("resultType") {
        return None;
    }
    object.insert("resultType".into(), "complete".into());
    serde_json::to_string(&object).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
