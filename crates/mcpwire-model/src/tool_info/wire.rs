//! Tools on the wire, both ways: a [`ToolInfo`] converted into each version's generated
//! `Tool` (and a [`ToolPage`] into its `ListToolsResult`), and those generated types read
//! back. A member a version lacks is a [`ContentError`], never dropped; schemas, icons,
//! `execution` and `_meta` pass through the generated types whole.
//!
//! Reading keeps each schema as the text it came as ([`SchemaText`]): the text is decoded as
//! the version's generated type, which checks every member (the schemas too) and names what
//! it refuses, and read a second time for the schemas' texts only ([`SchemaTexts`]: every
//! other member skipped, each schema captured as its text in one copy). No `Value` is built
//! for a schema until someone asks for one.

use mcpwire_types::JsonObject;
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::by_version::{by_version, if_member, refuse_member, set_member};
use crate::content::ContentError;
use crate::content::read::read_complete;
use crate::content::wire::{as_generated, text_as_generated, to_value};
use crate::read_error::{ReadError, decode};
use crate::tool_info::{SchemaText, ToolHints, ToolInfo, ToolPage};
use crate::version::Version;
use crate::written::Written;

/// A JSON object as the generated type `T` (`ToolInputSchema`, `ToolOutputSchema`, `Icon`,
/// `ToolExecution`, `_meta`), or why that type refuses it (e.g. a schema root that is not
/// `type: "object"` before 2026-07-28).
fn schema_as<T: DeserializeOwned>(
    member: &str,
    schema: &Map<String, Value>,
    version: Version,
) -> Result<T, ContentError> {
    as_generated(schema, &format!("an `{member}`"), version)
}

/// A schema kept as text (`inputSchema`, `outputSchema`) as the generated type `T`, decoded
/// from its text, or why that type refuses it.
fn schema_text_as<T: DeserializeOwned>(
    member: &str,
    schema: &SchemaText,
    version: Version,
) -> Result<T, ContentError> {
    text_as_generated(schema.as_str(), &format!("an `{member}`"), version)
}

/// The texts of one `Tool`'s schemas, read from the text its generated type was decoded
/// from (which checked them): the other members are skipped, each schema is copied once.
#[derive(Deserialize)]
struct SchemaTexts {
    /// `inputSchema`.
    #[serde(rename = "inputSchema")]
    input: JsonObject,
    /// `outputSchema` (kept only where the version's `Tool` declares it).
    #[serde(rename = "outputSchema", default)]
    output: Option<JsonObject>,
}

/// The [`SchemaTexts`] of every tool of a `ListToolsResult`, in order.
#[derive(Deserialize)]
struct PageSchemaTexts {
    /// One per tool.
    tools: Vec<SchemaTexts>,
}

/// Every object of `list` as the generated type `T`.
fn objects_as<T: DeserializeOwned>(
    member: &str,
    list: &[Map<String, Value>],
    version: Version,
) -> Result<Vec<T>, ContentError> {
    list.iter().map(|o| schema_as(member, o, version)).collect()
}

/// Every generated object of `list` as the JSON object it holds.
fn objects_of<T: Serialize>(
    member: &'static str,
    list: Vec<T>,
    version: Version,
) -> Result<Vec<Map<String, Value>>, ReadError> {
    list.into_iter()
        .map(|o| schema_of(member, o, version))
        .collect()
}

/// A generated type holding a JSON object (a schema, an icon, `_meta`) as that object.
fn schema_of(
    member: &'static str,
    schema: impl Serialize,
    version: Version,
) -> Result<Map<String, Value>, ReadError> {
    match to_value(schema) {
        Value::Object(members) => Ok(members),
        other => Err(ReadError::new(
            "Tool",
            version,
            format!("its {member} is {other}"),
        )),
    }
}

/// The generated `ToolAnnotations` of module `$m` from [`ToolHints`].
macro_rules! hints_to {
    ($m:ident, $h:expr) => {{
        let h: &ToolHints = $h;
        let mut out = $m::ToolAnnotations::new();
        out.title = h.title.clone();
        out.read_only_hint = h.read_only;
        out.destructive_hint = h.destructive;
        out.idempotent_hint = h.idempotent;
        out.open_world_hint = h.open_world;
        out
    }};
}

/// [`ToolHints`] from a generated `ToolAnnotations`.
macro_rules! hints_of {
    ($a:expr) => {{
        let a = $a;
        ToolHints {
            title: a.title,
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        }
    }};
}

/// Refuses each member of `t` the `Tool` of module `$m` lacks, in the order the members are
/// checked (`annotations`, `title`, `outputSchema`, `_meta`, `icons`, `execution`).
macro_rules! refuse_lacking {
    ($m:ident, $t:ident, $v:expr) => {{
        refuse_member!(
            $m,
            Tool,
            annotations,
            $t.hints.is_some(),
            ContentError::lacking("tool `annotations`", $v)
        );
        refuse_member!(
            $m,
            Tool,
            title,
            $t.title.is_some(),
            ContentError::lacking("a tool `title`", $v)
        );
        refuse_member!(
            $m,
            Tool,
            output_schema,
            $t.output_schema.is_some(),
            ContentError::lacking("a tool `outputSchema`", $v)
        );
        refuse_member!(
            $m,
            Tool,
            meta,
            $t.meta.is_some(),
            ContentError::lacking("a tool `_meta`", $v)
        );
        refuse_member!(
            $m,
            Tool,
            icons,
            $t.icons.is_some(),
            ContentError::lacking("tool `icons`", $v)
        );
        refuse_member!(
            $m,
            Tool,
            execution,
            $t.execution.is_some(),
            ContentError::lacking("a tool `execution`", $v)
        );
    }};
}

/// The generated `Tool` of module `$m`: every member of [`ToolInfo`] the version's `Tool`
/// has, and a [`ContentError`] for one it lacks.
macro_rules! tool_to {
    ($m:ident, $t:expr, $v:expr) => {{
        let t: &ToolInfo = $t;
        let v: Version = $v;
        refuse_lacking!($m, t, v);
        let mut out = $m::Tool::new(
            schema_text_as::<$m::ToolInputSchema>("inputSchema", &t.input_schema, v)?,
            t.name.clone(),
        );
        out.description = t.description.clone();
        set_member!(
            $m,
            Tool,
            out.annotations = t.hints.as_ref().map(|h| hints_to!($m, h))
        );
        set_member!($m, Tool, out.title = t.title.clone());
        set_member!(
            $m,
            Tool,
            out.output_schema = match &t.output_schema {
                Some(schema) => Some(schema_text_as("outputSchema", schema, v)?),
                None => None,
            }
        );
        set_member!(
            $m,
            Tool,
            out.meta = match &t.meta {
                Some(meta) => Some(schema_as("_meta", meta, v)?),
                None => None,
            }
        );
        set_member!(
            $m,
            Tool,
            out.icons = match &t.icons {
                Some(icons) => Some(objects_as("icons", icons, v)?),
                None => None,
            }
        );
        set_member!(
            $m,
            Tool,
            out.execution = match &t.execution {
                Some(execution) => Some(schema_as("execution", execution, v)?),
                None => None,
            }
        );
        out
    }};
}

/// The generated `Tool` of `version`, serialized.
pub(crate) fn tool_json(t: &ToolInfo, version: Version) -> Result<Value, ContentError> {
    macro_rules! tool {
        ($m:ident) => {
            to_value(tool_to!($m, t, version))
        };
    }
    Ok(by_version!(version, tool))
}

/// The `ListToolsResult` of `version`, serialized from its generated type (2026-07-28's is
/// `complete`, `public`, with a `ttlMs` of 0).
pub(crate) fn list_tools_result<W: Written>(
    page: &ToolPage,
    version: Version,
) -> Result<W, ContentError> {
    macro_rules! result {
        ($m:ident) => {{
            let tools = page
                .tools
                .iter()
                .map(|t| Ok(tool_to!($m, t, version)))
                .collect::<Result<Vec<_>, ContentError>>()?;
            let mut out = if_member!(
                $m,
                ListToolsResult,
                cache_scope,
                {
                    $m::ListToolsResult::new(
                        $m::ListToolsResultCacheScope::Public,
                        "complete",
                        tools,
                        0u64,
                    )
                },
                { $m::ListToolsResult::new(tools) }
            );
            out.next_cursor = page.next_cursor.clone();
            W::written(out)
        }};
    }
    Ok(by_version!(version, result))
}

/// A [`ToolInfo`] from the generated `Tool` of module `$m` and the texts of its schemas
/// (read from the same text): every member the version's `Tool` has.
macro_rules! tool_of {
    ($m:ident, $t:expr, $texts:expr, $v:expr) => {{
        let t: $m::Tool = $t;
        let texts: SchemaTexts = $texts;
        // Only the members 2024-11-05 lacks (`_meta`, icons, `execution`) read it.
        #[allow(unused_variables)]
        let v: Version = $v;
        #[allow(unused_mut)]
        let mut out = ToolInfo::new(t.name, texts.input);
        out.description = t.description;
        if_member!(
            $m,
            Tool,
            annotations,
            {
                out.hints = t.annotations.map(|a| hints_of!(a));
            },
            {}
        );
        if_member!(
            $m,
            Tool,
            title,
            {
                out.title = t.title;
            },
            {}
        );
        if_member!(
            $m,
            Tool,
            output_schema,
            {
                out.output_schema = texts.output.map(SchemaText::from);
            },
            {}
        );
        if_member!(
            $m,
            Tool,
            meta,
            {
                out.meta = t.meta.map(|m| schema_of("_meta", m, v)).transpose()?;
            },
            {}
        );
        if_member!(
            $m,
            Tool,
            icons,
            {
                out.icons = t.icons.map(|i| objects_of("icons", i, v)).transpose()?;
            },
            {}
        );
        if_member!(
            $m,
            Tool,
            execution,
            {
                out.execution = t
                    .execution
                    .map(|e| schema_of("execution", e, v))
                    .transpose()?;
            },
            {}
        );
        out
    }};
}

/// The [`ToolInfo`] of one `Tool` of `version` (its JSON text).
pub(crate) fn read_tool(text: &str, version: Version) -> Result<ToolInfo, ReadError> {
    macro_rules! read {
        ($m:ident) => {{
            let t: $m::Tool = decode(text, "Tool", version)?;
            let texts: SchemaTexts = decode(text, "Tool", version)?;
            tool_of!($m, t, texts, version)
        }};
    }
    Ok(by_version!(version, read))
}

/// The [`ToolPage`] of a `ListToolsResult` of `version` (its JSON text); under 2026-07-28
/// it must be `complete`.
pub(crate) fn read_list_tools_result(text: &str, version: Version) -> Result<ToolPage, ReadError> {
    const WHAT: &str = "ListToolsResult";
    macro_rules! page {
        ($m:ident) => {{
            let r: $m::ListToolsResult = decode(text, WHAT, version)?;
            read_complete!($m, ListToolsResult, r, WHAT, version);
            // The same text, so the same tools in the same order.
            let texts: PageSchemaTexts = decode(text, WHAT, version)?;
            debug_assert_eq!(texts.tools.len(), r.tools.len());
            let tools = r
                .tools
                .into_iter()
                .zip(texts.tools)
                .map(|(t, texts)| Ok(tool_of!($m, t, texts, version)))
                .collect::<Result<Vec<_>, ReadError>>()?;
            ToolPage {
                tools,
                next_cursor: r.next_cursor,
            }
        }};
    }
    Ok(by_version!(version, page))
}
