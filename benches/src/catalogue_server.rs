//! The server both clients of the client rows talk to: mcpwire-server with the example's `add`
//! tool and 499 catalogue tools (500 in all), listed 100 to a page (five `tools/list` pages).
//!
//! Each catalogue tool takes the same realistic arguments (a query, fields from an enum, a
//! bounded page size, a cursor, an instant, a nested owner object) and declares a structured
//! output (a page of records); names and descriptions differ. The `tools/list` pages are what
//! a client decodes: about 2.5 KB of JSON a tool.

use mcpwire_server::{Context, McpServer, Structured, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How many tools the server lists (the `add` tool included).
pub const TOOLS: usize = 500;

/// Tools per `tools/list` page.
pub const PAGE_SIZE: usize = 100;

/// The fields a catalogue search may return.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Field {
    Id,
    Name,
    Owner,
    Status,
    Created,
    Updated,
    Tags,
    Notes,
}

/// Whose records to return.
#[derive(Deserialize, JsonSchema)]
#[allow(
    dead_code,
    reason = "decoded from the arguments (the server's work), never read"
)]
#[serde(deny_unknown_fields)]
struct Owner {
    /// The person's or team's id (lowercase letters, digits and dashes).
    id: String,
    /// The team, when the id is a person's.
    team: Option<String>,
    /// Whether records delegated to the owner count as theirs.
    #[serde(default)]
    include_delegates: bool,
}

/// The arguments of every catalogue tool.
#[derive(Deserialize, JsonSchema)]
#[allow(
    dead_code,
    reason = "decoded from the arguments (the server's work), never read"
)]
#[serde(deny_unknown_fields)]
struct Search {
    /// Free-text filter; quoted phrases match exactly, a leading minus excludes a term.
    query: String,
    /// Fields of each record to return; all of them when omitted.
    fields: Option<Vec<Field>>,
    /// Most records to return in one page.
    #[schemars(range(min = 1, max = 500))]
    limit: Option<u32>,
    /// Opaque cursor from the previous page's nextCursor; omit it for the first page.
    cursor: Option<String>,
    /// Only records changed at or after this instant (RFC 3339).
    since: Option<String>,
    /// Restrict to records owned by this person or team.
    owner: Option<Owner>,
}

/// One record of a catalogue page.
#[derive(Serialize, JsonSchema)]
struct Record {
    /// Its id.
    id: String,
    /// Its display name.
    name: Option<String>,
}

/// A page of records.
#[derive(Serialize, JsonSchema)]
struct RecordPage {
    /// The records.
    items: Vec<Record>,
    /// The cursor of the next page, if any.
    next_cursor: Option<String>,
}

async fn search(_: Search, _: Context) -> Structured<RecordPage> {
    Structured(RecordPage {
        items: Vec::new(),
        next_cursor: None,
    })
}

/// The server: `add` and the catalogue, built with the public builder.
pub fn server() -> McpServer {
    let areas = ["invoices", "customers", "shipments", "tickets", "documents"];
    let verbs = ["search", "fetch", "export", "audit"];
    let mut builder = crate::mcpwire_adder::builder().page_size(PAGE_SIZE);
    for i in 1..TOOLS {
        let area = areas[i % areas.len()];
        let verb = verbs[i % verbs.len()];
        let description = format!(
            "{verb} the {area} of the connected workspace. Results are paginated: pass the \
             returned cursor back to read the next page. Requires the {area}:read scope; rate \
             limited to 60 calls a minute per user."
        );
        let tool = Tool::new(format!("{area}_{verb}_{i:03}"), description, search)
            .title(format!("{verb} {area} ({i})"));
        builder = builder.add_tool(tool);
    }
    builder.build().expect("the catalogue's schemas fit MCP")
}
