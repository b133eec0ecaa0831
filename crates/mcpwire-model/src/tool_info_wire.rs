//! Tools on the wire, both ways: a [`ToolInfo`] converted into each version's generated
//! `Tool` (and a [`ToolPage`] into its `ListToolsResult`), and those generated types read
//! back. A member a version lacks is a [`ContentError`], never dropped; schemas, icons,
//! `execution` and `_meta` pass through the generated types whole.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::content::ContentError;
use crate::content_read::complete;
use crate::content_wire::{as_generated, to_value};
use crate::read_error::{ReadError, decode};
use crate::tool_info::{ToolHints, ToolInfo, ToolPage};
use crate::version::Version;

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

/// Refuses every member of `t` named in `members` (all of which `version` lacks).
fn lacks(t: &ToolInfo, members: &[&str], version: Version) -> Result<(), ContentError> {
    for member in members {
        match *member {
            "annotations" => absent(&t.hints, "tool `annotations`", version)?,
            "title" => absent(&t.title, "a tool `title`", version)?,
            "outputSchema" => absent(&t.output_schema, "a tool `outputSchema`", version)?,
            "_meta" => absent(&t.meta, "a tool `_meta`", version)?,
            "icons" => absent(&t.icons, "tool `icons`", version)?,
            _ => absent(&t.execution, "a tool `execution`", version)?,
        }
    }
    Ok(())
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

/// `value`, which must be absent under `version`: present, it is a [`ContentError`].
fn absent<T>(value: &Option<T>, what: &str, version: Version) -> Result<(), ContentError> {
    match value {
        Some(_) => Err(ContentError::lacking(what, version)),
        None => Ok(()),
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

/// The generated `Tool` of module `$m`, with the members named after it where the
/// version has them: `hints` (2025-03-26 on), `titled` (title, output schema and `_meta`,
/// 2025-06-18 on), `icons` (2025-11-25 on), `execution` (2025-11-25).
macro_rules! tool_to {
    ($m:ident, $t:expr, $v:expr $(, $member:ident)*) => {{
        let t: &ToolInfo = $t;
        let mut out = $m::Tool::new(
            schema_as::<$m::ToolInputSchema>("inputSchema", &t.input_schema, $v)?,
            t.name.clone(),
        );
        out.description = t.description.clone();
        $(tool_to!(@$member $m, out, t, $v);)*
        out
    }};
    (@hints $m:ident, $out:ident, $t:ident, $v:expr) => {
        $out.annotations = $t.hints.as_ref().map(|h| hints_to!($m, h));
    };
    (@titled $m:ident, $out:ident, $t:ident, $v:expr) => {
        $out.title = $t.title.clone();
        $out.output_schema = match &$t.output_schema {
            Some(schema) => Some(schema_as("outputSchema", schema, $v)?),
            None => None,
        };
        $out.meta = match &$t.meta {
            Some(meta) => Some(schema_as("_meta", meta, $v)?),
            None => None,
        };
    };
    (@icons $m:ident, $out:ident, $t:ident, $v:expr) => {
        $out.icons = match &$t.icons {
            Some(icons) => Some(objects_as("icons", icons, $v)?),
            None => None,
        };
    };
    (@execution $m:ident, $out:ident, $t:ident, $v:expr) => {
        $out.execution = match &$t.execution {
            Some(execution) => Some(schema_as("execution", execution, $v)?),
            None => None,
        };
    };
}

/// The generated `Tool` of 2024-11-05 (no title, output schema, hints, icons or `_meta`).
fn tool_2024_11_05(t: &ToolInfo) -> Result<v2024_11_05::Tool, ContentError> {
    let v = Version::V2024_11_05;
    lacks(
        t,
        &[
            "annotations",
            "title",
            "outputSchema",
            "_meta",
            "icons",
            "execution",
        ],
        v,
    )?;
    Ok(tool_to!(v2024_11_05, t, v))
}

/// The generated `Tool` of 2025-03-26 (no title, output schema, icons or `_meta`).
fn tool_2025_03_26(t: &ToolInfo) -> Result<v2025_03_26::Tool, ContentError> {
    let v = Version::V2025_03_26;
    lacks(
        t,
        &["title", "outputSchema", "_meta", "icons", "execution"],
        v,
    )?;
    Ok(tool_to!(v2025_03_26, t, v, hints))
}

/// The generated `Tool` of 2025-06-18 (no icons or `execution`).
fn tool_2025_06_18(t: &ToolInfo) -> Result<v2025_06_18::Tool, ContentError> {
    let v = Version::V2025_06_18;
    lacks(t, &["icons", "execution"], v)?;
    Ok(tool_to!(v2025_06_18, t, v, hints, titled))
}

/// The generated `Tool` of 2025-11-25 (every member this model holds).
fn tool_2025_11_25(t: &ToolInfo) -> Result<v2025_11_25::Tool, ContentError> {
    let v = Version::V2025_11_25;
    Ok(tool_to!(v2025_11_25, t, v, hints, titled, icons, execution))
}

/// The generated `Tool` of 2026-07-28 (no `execution`).
fn tool_2026_07_28(t: &ToolInfo) -> Result<v2026_07_28::Tool, ContentError> {
    let v = Version::V2026_07_28;
    lacks(t, &["execution"], v)?;
    Ok(tool_to!(v2026_07_28, t, v, hints, titled, icons))
}

/// The `Tool` of `version`, serialized from its generated type.
pub(crate) fn tool_json(t: &ToolInfo, version: Version) -> Result<Value, ContentError> {
    Ok(match version {
        Version::V2024_11_05 => to_value(tool_2024_11_05(t)?),
        Version::V2025_03_26 => to_value(tool_2025_03_26(t)?),
        Version::V2025_06_18 => to_value(tool_2025_06_18(t)?),
        Version::V2025_11_25 => to_value(tool_2025_11_25(t)?),
        Version::V2026_07_28 => to_value(tool_2026_07_28(t)?),
    })
}

/// The `ListToolsResult` of `version`, serialized from its generated type.
pub(crate) fn list_tools_result(page: &ToolPage, version: Version) -> Result<Value, ContentError> {
    macro_rules! result {
        ($m:ident, $tool:ident) => {{
            let tools = page
                .tools
                .iter()
                .map($tool)
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = $m::ListToolsResult::new(tools);
            out.next_cursor = page.next_cursor.clone();
            to_value(out)
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => result!(v2024_11_05, tool_2024_11_05),
        Version::V2025_03_26 => result!(v2025_03_26, tool_2025_03_26),
        Version::V2025_06_18 => result!(v2025_06_18, tool_2025_06_18),
        Version::V2025_11_25 => result!(v2025_11_25, tool_2025_11_25),
        Version::V2026_07_28 => {
            let tools = page
                .tools
                .iter()
                .map(tool_2026_07_28)
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = v2026_07_28::ListToolsResult::new(
                v2026_07_28::ListToolsResultCacheScope::Public,
                "complete",
                tools,
                0u64,
            );
            out.next_cursor = page.next_cursor.clone();
            to_value(out)
        }
    })
}

/// A [`ToolInfo`] from the generated `Tool` of module `$m`, with the members named after it
/// (`hints`, `titled`) where the version has them.
macro_rules! tool_of {
    ($m:ident, $t:expr, $v:expr $(, $member:ident)*) => {{
        let t: $m::Tool = $t;
        #[allow(unused_mut)]
        let mut out = ToolInfo {
            description: t.description,
            input_schema: schema_of("inputSchema", t.input_schema, $v)?,
            ..ToolInfo::new(t.name, Map::new())
        };
        $(tool_of!(@$member out, t, $v);)*
        out
    }};
    (@hints $out:ident, $t:ident, $v:expr) => {
        $out.hints = $t.annotations.map(|a| hints_of!(a));
    };
    (@titled $out:ident, $t:ident, $v:expr) => {
        $out.title = $t.title;
        $out.output_schema = $t
            .output_schema
            .map(|s| schema_of("outputSchema", s, $v))
            .transpose()?;
        $out.meta = $t.meta.map(|m| schema_of("_meta", m, $v)).transpose()?;
    };
    (@icons $out:ident, $t:ident, $v:expr) => {
        $out.icons = $t.icons.map(|i| objects_of("icons", i, $v)).transpose()?;
    };
    (@execution $out:ident, $t:ident, $v:expr) => {
        $out.execution = $t
            .execution
            .map(|e| schema_of("execution", e, $v))
            .transpose()?;
    };
}

/// The [`ToolInfo`] of one `Tool` of `version` (its JSON text).
pub(crate) fn read_tool(text: &str, version: Version) -> Result<ToolInfo, ReadError> {
    macro_rules! read {
        ($m:ident $(, $member:ident)*) => {{
            let t: $m::Tool = decode(text, "Tool", version)?;
            tool_of!($m, t, version $(, $member)*)
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => read!(v2024_11_05),
        Version::V2025_03_26 => read!(v2025_03_26, hints),
        Version::V2025_06_18 => read!(v2025_06_18, hints, titled),
        Version::V2025_11_25 => read!(v2025_11_25, hints, titled, icons, execution),
        Version::V2026_07_28 => read!(v2026_07_28, hints, titled, icons),
    })
}

/// The [`ToolPage`] of a `ListToolsResult` of `version` (its JSON text).
pub(crate) fn read_list_tools_result(text: &str, version: Version) -> Result<ToolPage, ReadError> {
    const WHAT: &str = "ListToolsResult";
    macro_rules! page {
        ($m:ident $(, $member:ident)*) => {{
            let r: $m::ListToolsResult = decode(text, WHAT, version)?;
            page!(@read $m, r $(, $member)*)
        }};
        (@read $m:ident, $r:ident $(, $member:ident)*) => {{
            let tools = $r
                .tools
                .into_iter()
                .map(|t| Ok(tool_of!($m, t, version $(, $member)*)))
                .collect::<Result<Vec<_>, ReadError>>()?;
            ToolPage {
                tools,
                next_cursor: $r.next_cursor,
            }
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => page!(v2024_11_05),
        Version::V2025_03_26 => page!(v2025_03_26, hints),
        Version::V2025_06_18 => page!(v2025_06_18, hints, titled),
        Version::V2025_11_25 => page!(v2025_11_25, hints, titled, icons, execution),
        Version::V2026_07_28 => {
            let r: v2026_07_28::ListToolsResult = decode(text, WHAT, version)?;
            complete(&r.result_type, WHAT, version)?;
            page!(@read v2026_07_28, r, hints, titled, icons)
        }
    })
}
