//! What a tool returns: a version-neutral [`ToolResult`], encoded for the negotiated version
//! when it is sent.

pub mod read;
pub mod wire;

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::OnceLock;

use mcpwire_types::Json;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::content::wire::{ToolResultParts, call_tool_result};
use crate::content::{Content, ContentError};
use crate::read_error::ReadError;
use crate::result::read::read_call_tool_result;
use crate::schema::{SchemaError, object_schema};
use crate::version::Version;
use crate::written::Written;

/// The outcome of a tool call, independent of the MCP version.
///
/// ```
/// use mcpwire_model::ToolResult;
///
/// let ok = ToolResult::text(42);
/// assert!(!ok.is_error());
/// let failed = ToolResult::error("the disk is full");
/// assert!(failed.is_error());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    content: Vec<Content>,
    /// `structuredContent`: a JSON object, or under 2026-07-28 any JSON value.
    structured: Option<StructuredContent>,
    is_error: bool,
    /// Set by [`ToolResult::missing_capability`]: the client capability the call needed.
    required_capability: Option<String>,
}

/// `structuredContent`: its JSON text, written once (by the tool's output type, or as a
/// server sent it), and its value, made the first time it is asked for.
#[derive(Debug, Clone)]
struct StructuredContent {
    text: Json,
    value: OnceLock<Value>,
}

impl StructuredContent {
    /// The value of `text` (read at any depth: the text is one JSON value, which serde_json
    /// wrote or a client read already).
    fn value(&self) -> &Value {
        self.value
            .get_or_init(|| self.text.to_value_unbounded().unwrap_or_default())
    }
}

impl PartialEq for StructuredContent {
    /// The same JSON value, however written.
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl ToolResult {
    /// A successful result of one text block (anything `Display`).
    pub fn text(text: impl Display) -> Self {
        Self::content(vec![Content::text(text.to_string())])
    }

    /// A successful result of these content blocks.
    pub fn content(content: Vec<Content>) -> Self {
        Self {
            content,
            structured: None,
            is_error: false,
            required_capability: None,
        }
    }

    /// The call cannot be served because the client did not declare `capability`
    /// (`sampling`, `elicitation`, `roots`). Under 2026-07-28, where every request states the
    /// client's capabilities, the call is answered with the protocol error -32021
    /// (MissingRequiredClientCapabilityError, `data.requiredCapabilities` naming it; over
    /// HTTP, status 400); earlier versions have no such error and get a tool execution error
    /// saying which capability is missing.
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Version};
    ///
    /// let refused = ToolResult::missing_capability("sampling");
    /// assert_eq!(refused.required_capability(), Some("sampling"));
    /// assert_eq!(refused.to_json(Version::V2025_11_25)["isError"], true);
    /// ```
    pub fn missing_capability(capability: impl Into<String>) -> Self {
        let capability = capability.into();
        Self {
            required_capability: Some(capability.clone()),
            ..Self::error(format!(
                "this tool needs the client's `{capability}` capability, which the client did not declare"
            ))
        }
    }

    /// The client capability the call needed and the client did not declare (see
    /// [`missing_capability`](Self::missing_capability)).
    pub fn required_capability(&self) -> Option<&str> {
        self.required_capability.as_deref()
    }

    /// A tool execution error (`isError: true`) the model can read and act on.
    pub fn error(message: impl Display) -> Self {
        Self {
            is_error: true,
            ..Self::text(message)
        }
    }

    /// A successful structured result: `structuredContent` (from 2025-06-18) plus the same
    /// JSON as a text block, as MCP asks for clients of every version. A value that does not
    /// serialize to a JSON object becomes a tool error saying so.
    ///
    /// The value is written once, by its own type (its members in the order it serializes
    /// them): the text block is that text, and `structuredContent` is sent as it.
    ///
    /// ```
    /// use mcpwire_model::{Content, ToolResult};
    ///
    /// #[derive(serde::Serialize)]
    /// struct Sum { sum: i64, of: [i64; 2] }
    ///
    /// let result = ToolResult::structured(&Sum { sum: 3, of: [1, 2] });
    /// assert_eq!(result.blocks(), [Content::text(r#"{"sum":3,"of":[1,2]}"#)]);
    /// assert_eq!(result.structured_content().unwrap()["sum"], 3);
    /// ```
    pub fn structured<T: Serialize + ?Sized>(value: &T) -> Self {
        match Json::written(value) {
            Ok(text) if text.is_object() => Self {
                content: vec![Content::text(text.text())],
                structured: Some(StructuredContent {
                    text,
                    value: OnceLock::new(),
                }),
                ..Self::content(Vec::new())
            },
            Ok(other) => Self::error(format!(
                "the tool's output is not a JSON object but {other}"
            )),
            Err(e) => Self::error(format!("the tool's output does not serialize: {e}")),
        }
    }

    /// A result of these parts, as read from a server's `CallToolResult`: `structured` is
    /// `structuredContent` as sent, with its value.
    pub(crate) fn from_parts(
        content: Vec<Content>,
        structured: Option<(Json, Value)>,
        is_error: bool,
    ) -> Self {
        Self {
            content,
            structured: structured.map(|(text, value)| StructuredContent {
                text,
                value: OnceLock::from(value),
            }),
            is_error,
            required_capability: None,
        }
    }

    /// The result a server sent: `text` (a `CallToolResult` of `version`) decoded as that
    /// version's generated type, then read into the model. Under 2026-07-28 the result must
    /// be `complete` (an `input_required` result is another reply).
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Version};
    ///
    /// let text = r#"{"content":[{"type":"text","text":"hi"}],"isError":true}"#;
    /// let read = ToolResult::from_json(text, Version::V2025_03_26).unwrap();
    /// assert_eq!(read, ToolResult::error("hi"));
    /// assert!(ToolResult::from_json(r#"{"content":3}"#, Version::V2025_03_26).is_err());
    /// ```
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_call_tool_result(text, version)
    }

    /// Whether this is a tool execution error.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The content blocks.
    pub fn blocks(&self) -> &[Content] {
        &self.content
    }

    /// The structured content, if any: a JSON object (any JSON value when read from a
    /// 2026-07-28 result).
    pub fn structured_content(&self) -> Option<&Value> {
        self.structured.as_ref().map(StructuredContent::value)
    }

    /// The `CallToolResult` of `version`, serialized from that version's generated type, or
    /// why it cannot be sent: a block the version lacks (audio before 2025-03-26, resource
    /// links before 2025-06-18). `structuredContent` is sent from 2025-06-18.
    ///
    /// ```
    /// use mcpwire_model::{Content, ToolResult, Version};
    ///
    /// let sent = ToolResult::text("hi").try_to_json(Version::V2026_07_28).unwrap();
    /// assert_eq!(sent["resultType"], "complete");
    /// let audio = ToolResult::content(vec![Content::audio("UklGRg==", "audio/wav")]);
    /// assert!(audio.try_to_json(Version::V2024_11_05).is_err());
    /// ```
    pub fn try_to_json(&self, version: Version) -> Result<Value, ContentError> {
        let parts = ToolResultParts {
            content: Cow::Borrowed(&self.content),
            structured: self.structured.as_ref().map(|s| Cow::Borrowed(&s.text)),
            is_error: self.is_error,
        };
        call_tool_result(parts, version)
    }

    /// The `CallToolResult` of `version`, as sent: [`try_to_json`](Self::try_to_json), or
    /// when the version cannot carry a block, a tool execution error saying which.
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Version};
    ///
    /// let sent = ToolResult::text("hi").to_json(Version::V2026_07_28);
    /// assert_eq!(sent["resultType"], "complete");
    /// ```
    pub fn to_json(&self, version: Version) -> Value {
        self.try_to_json(version)
            .unwrap_or_else(|error| Self::unsendable(&error, version))
    }

    /// [`to_json`](Self::to_json), consuming the result: each content block is dropped as
    /// soon as it is converted to the version's type, so a large text is held at most twice
    /// on its way to JSON rather than three times (the block, its wire form, the JSON).
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Version};
    ///
    /// let result = ToolResult::text("hi");
    /// assert_eq!(result.to_json(Version::V2025_11_25), result.into_json(Version::V2025_11_25));
    /// ```
    pub fn into_json(self, version: Version) -> Value {
        let parts = ToolResultParts {
            content: Cow::Owned(self.content),
            structured: self.structured.as_ref().map(|s| Cow::Borrowed(&s.text)),
            is_error: self.is_error,
        };
        call_tool_result(parts, version).unwrap_or_else(|error| Self::unsendable(&error, version))
    }

    /// [`into_json`](Self::into_json) as the JSON text of the reply's result, written once
    /// from the version's generated type (no [`Value`] in between): the same members, in the
    /// generated type's order.
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Version};
    ///
    /// let text = ToolResult::text("hi").into_text(Version::V2026_07_28);
    /// let value: serde_json::Value = serde_json::from_str(text.get()).unwrap();
    /// assert_eq!(value, ToolResult::text("hi").into_json(Version::V2026_07_28));
    /// ```
    pub fn into_text(self, version: Version) -> Box<serde_json::value::RawValue> {
        self.into_written(version)
    }

    /// [`into_json`](Self::into_json) in the form `W` ([`Written`]): a server answering
    /// `tools/call` asks for an [`Unwritten`](crate::Unwritten), the generated result it
    /// then serializes straight into its reply.
    ///
    /// ```
    /// use mcpwire_model::{ToolResult, Unwritten, Version};
    ///
    /// let kept: Unwritten = ToolResult::text("hi").into_written(Version::V2026_07_28);
    /// let text = ToolResult::text("hi").into_text(Version::V2026_07_28);
    /// assert_eq!(serde_json::to_string(&kept).unwrap(), text.get());
    /// ```
    pub fn into_written<W: Written>(self, version: Version) -> W {
        let parts = ToolResultParts {
            content: Cow::Owned(self.content),
            structured: self.structured.as_ref().map(|s| Cow::Borrowed(&s.text)),
            is_error: self.is_error,
        };
        call_tool_result(parts, version)
            .unwrap_or_else(|error| W::written(Self::unsendable(&error, version)))
    }

    /// The tool execution error sent instead of a result `version` cannot carry.
    fn unsendable(error: &ContentError, version: Version) -> Value {
        Self::error(format!("the tool's result cannot be sent: {error}"))
            .try_to_json(version)
            .unwrap_or_default()
    }
}

/// A tool's output type, declared as its `outputSchema` and sent as `structuredContent`.
///
/// ```
/// use mcpwire_model::Structured;
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Sum { sum: i64 }
///
/// let _out = Structured(Sum { sum: 3 });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Structured<T>(pub T);

/// What a tool handler may return: a [`ToolResult`], a [`Structured`] output, text, or a
/// `Result` of these whose `Err` becomes a tool execution error (`isError`).
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> ToolResult;

    /// The `outputSchema` this type declares, if any.
    fn output_schema() -> Result<Option<Map<String, Value>>, SchemaError> {
        Ok(None)
    }
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for String {
    /// The text moved into the block (`ToolResult::text` would copy it through `Display`).
    fn into_tool_result(self) -> ToolResult {
        ToolResult::content(vec![Content::text(self)])
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::text(self)
    }
}

impl<T: Serialize + JsonSchema> IntoToolResult for Structured<T> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::structured(&self.0)
    }

    fn output_schema() -> Result<Option<Map<String, Value>>, SchemaError> {
        object_schema::<T>().map(Some)
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => ToolResult::error(error),
        }
    }

    fn output_schema() -> Result<Option<Map<String, Value>>, SchemaError> {
        T::output_schema()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize, JsonSchema)]
    struct Sum {
        sum: i64,
    }

    #[test]
    fn structured_content_appears_from_2025_06_18_and_text_always() {
        let result = Structured(Sum { sum: 5 }).into_tool_result();
        let old = result.to_json(Version::V2025_03_26);
        assert_eq!(
            old,
            json!({ "content": [{ "type": "text", "text": "{\"sum\":5}" }] })
        );
        let new = result.to_json(Version::V2025_06_18);
        assert_eq!(new["structuredContent"], json!({ "sum": 5 }));
        assert_eq!(new["content"], old["content"]);
    }

    #[test]
    fn an_err_is_a_tool_error_and_a_scalar_output_is_refused() {
        let failed: Result<ToolResult, String> = Err("no such file".into());
        let encoded = failed.into_tool_result().to_json(Version::V2024_11_05);
        assert_eq!(encoded["isError"], true);
        assert_eq!(encoded["content"][0]["text"], "no such file");
        let scalar = ToolResult::structured(&3);
        assert!(scalar.is_error());
        assert_eq!(
            scalar.blocks(),
            [Content::text(
                "the tool's output is not a JSON object but 3"
            )]
        );
        assert!(
            <Structured<Sum> as IntoToolResult>::output_schema()
                .unwrap()
                .is_some()
        );
        assert!(
            <Result<String, String> as IntoToolResult>::output_schema()
                .unwrap()
                .is_none()
        );
    }
}
