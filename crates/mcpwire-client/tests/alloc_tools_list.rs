//! Issue 48: what reading one `tools/list` page of 100 tools allocates in the client, counted
//! by the workspace's counting global allocator (thread-local).
//!
//! The server (mcpwire-server, 100 tools with realistic schemas: an argument object with
//! enums, bounds, a nested object; a structured output) runs on a thread of its own, so its
//! work is not counted; the client runs on a current-thread tokio runtime on the test's
//! thread, so its reader, writer and session tasks are. They meet over a `tokio::io::duplex`
//! pipe, one line a message, as over stdio.
//!
//! After warm-up pages, `PAGES` pages are counted and divided; every page is checked (100
//! tools, each with its input and output schema, kept as text and not parsed: the client
//! builds no `Value` for a schema nobody looked inside). The bound is about 8% above what the
//! client allocates now, so a change that adds work per tool fails here; run with
//! `--nocapture` to read the counts.

#[path = "../../../tests/support/counting_alloc.rs"]
#[allow(
    dead_code,
    reason = "the workspace's allocator, shared: `counting` is not used here"
)]
mod counting_alloc;

use counting_alloc::{CountingAllocator, so_far};
use mcpwire_client::{Client, StreamTransport, ToolInfo, Version};
use mcpwire_server::{Context, McpServer, Structured, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Tools on the page.
const TOOLS: usize = 100;

/// Pages counted (after as many warm-up pages).
const PAGES: u64 = 10;

/// Allocations per 100-tool page the client may make (count): about 8% above the 2,734 it
/// makes now (debug build; 1.64 MB). While every listed schema was built into a
/// `serde_json::Value` it made 18,727 (3.4 MB); before the listing stopped tracking the JSON
/// path of every member and copying every listed tool whole into the cache of known tools,
/// 40,829 (5.3 MB).
const MAX_ALLOCATIONS: u64 = 2_950;

/// The fields a search may return.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Field {
    Id,
    Name,
    Owner,
    Status,
}

/// Whose records to return.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "decoded by the server, never read")]
struct Owner {
    /// The person's or team's id.
    id: String,
    /// The team, when the id is a person's.
    team: Option<String>,
}

/// The arguments of every tool.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code, reason = "decoded by the server, never read")]
struct Search {
    /// Free-text filter.
    query: String,
    /// Fields of each record to return.
    fields: Option<Vec<Field>>,
    /// Most records to return.
    #[schemars(range(min = 1, max = 500))]
    limit: Option<u32>,
    /// Opaque cursor from the previous page.
    cursor: Option<String>,
    /// Restrict to records owned by this person or team.
    owner: Option<Owner>,
}

/// One record.
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
    /// The cursor of the next page.
    next_cursor: Option<String>,
}

async fn search(_: Search, _: Context) -> Structured<RecordPage> {
    Structured(RecordPage {
        items: Vec::new(),
        next_cursor: None,
    })
}

fn server() -> McpServer {
    let mut builder = McpServer::builder("alloc-tools-list", "0.0.0").page_size(TOOLS);
    for i in 0..TOOLS {
        let tool = Tool::new(
            format!("records_search_{i:03}"),
            format!("Search the records of workspace {i}; pass the cursor back for more."),
            search,
        )
        .title(format!("Search records ({i})"));
        builder = builder.add_tool(tool);
    }
    builder.build().expect("the tools' schemas fit MCP")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

/// Reads the first page and checks it: 100 tools, each with both schemas, neither parsed.
/// Returns the page's tools.
async fn page(client: &Client) -> Vec<ToolInfo> {
    let page = client.list_tools(None).await.expect("a tools/list page");
    assert_eq!(page.items.len(), TOOLS);
    assert!(page.next_cursor.is_none());
    for tool in &page.items {
        assert!(
            tool.input_schema.as_str().contains("\"owner\""),
            "{}",
            tool.name
        );
        assert!(!tool.input_schema.is_parsed(), "{}", tool.name);
        let output = tool.output_schema.as_ref().expect("an output schema");
        assert!(!output.is_parsed(), "{}", tool.name);
    }
    page.items
}

#[test]
fn a_page_of_100_tools_stays_within_its_allocation_bound() {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let serving = std::thread::spawn(move || {
        runtime().block_on(async move {
            let (input, output) = tokio::io::split(server_end);
            server().serve(input, output).await
        })
    });
    let runtime = runtime();
    let (count, bytes) = runtime.block_on(async {
        let (read, write) = tokio::io::split(client_end);
        let client = Client::builder("alloc-tools-list", "0.0.0")
            .protocol_version(Version::V2025_11_25)
            .connect(StreamTransport::new(read, write))
            .await
            .expect("connected");
        for _ in 0..PAGES {
            page(&client).await;
        }
        let (count0, bytes0) = so_far();
        for _ in 0..PAGES {
            page(&client).await;
        }
        let (count1, bytes1) = so_far();
        // The schemas are the server's, whole: looked inside (after counting).
        let tools = page(&client).await;
        assert!(tools[0].input_schema["properties"]["owner"].is_object());
        assert!(
            tools[0].output_schema.as_ref().expect("listed")["properties"]["items"].is_object()
        );
        client.close().await;
        ((count1 - count0) / PAGES, (bytes1 - bytes0) / PAGES)
    });
    drop(runtime);
    serving.join().expect("the server thread").expect("served");
    println!("one page of {TOOLS} tools: {count} allocations, {bytes} bytes");
    assert!(
        count <= MAX_ALLOCATIONS,
        "{count} allocations per page of {TOOLS} tools (bound {MAX_ALLOCATIONS})"
    );
}
