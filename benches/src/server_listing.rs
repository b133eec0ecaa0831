//! The server listing rows (issue 48): every page of a 500-tool `tools/list`, served by
//! mcpwire-server and by rmcp's server with the same 500 tools, both in this process over a
//! `tokio::io::duplex` pipe ([`InProcess`]), spoken to as raw lines so that only the servers
//! differ.
//!
//! mcpwire serves [`crate::catalogue_server`] (500 tools, 100 to a page). rmcp serves the very
//! tools mcpwire lists: each entry of mcpwire's pages decoded as an `rmcp::model::Tool`, held
//! in a `Vec` in registration order, and listed 100 to a page by a [`ServerHandler`] whose
//! `list_tools` clones the page's tools (as rmcp's own `ToolRouter::list_all` clones every
//! tool) with an offset for a cursor. Both sessions are initialized at 2025-11-25.
//!
//! Before timing, [`ListingContender::connect`] walks the pages once, checks that every page
//! is a result with the tools it should have (the same names, in the same order, for both
//! servers) and keeps the request lines with the cursors each server issued; one timed
//! iteration sends those five requests one after the other, each awaited.

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::model::{
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as RmcpTool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

use crate::catalogue_server::{PAGE_SIZE, TOOLS};
use crate::in_process::InProcess;
use crate::line_peer::{self, LinePeer};

/// The contenders, by criterion function id.
pub const SERVERS: [&str; 2] = ["mcpwire", "rmcp"];

/// rmcp's server listing the given tools, [`PAGE_SIZE`] to a page; the cursor of a page is the
/// offset of its first tool.
#[derive(Clone)]
pub struct RmcpCatalogue {
    tools: Arc<Vec<RmcpTool>>,
}

impl ServerHandler for RmcpCatalogue {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, rmcp::ErrorData> {
        let cursor = request.and_then(|r| r.cursor);
        let start = match cursor {
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| rmcp::ErrorData::invalid_params("not a cursor", None))?,
            None => 0,
        };
        let end = (start + PAGE_SIZE).min(self.tools.len());
        let mut page =
            ListToolsResult::with_all_items(self.tools.get(start..end).unwrap_or(&[]).to_vec());
        page.next_cursor = (end < self.tools.len()).then(|| end.to_string());
        Ok(page)
    }
}

/// One server, initialized, with the request line of each of its pages.
pub struct ListingContender {
    peer: InProcess,
    pages: Vec<Vec<u8>>,
}

/// `tools/list` with id `id` and `cursor`, as a line.
fn list_request(id: usize, cursor: Option<&str>) -> Vec<u8> {
    let params = match cursor {
        Some(cursor) => json!({ "cursor": cursor }),
        None => json!({}),
    };
    serde_json::to_vec(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params
    }))
    .expect("a JSON value serializes")
}

/// Walks every page of `peer`'s `tools/list`: the request lines and the tools listed, checked
/// to be results with ids echoed.
fn walk(peer: &mut InProcess) -> Result<(Vec<Vec<u8>>, Vec<Value>), String> {
    let mut lines = Vec::new();
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let id = lines.len() + 10;
        let line = list_request(id, cursor.as_deref());
        let reply = peer
            .round_trip(&line)
            .map_err(|e| format!("tools/list: {e}"))?;
        let reply: Value =
            serde_json::from_slice(reply).map_err(|e| format!("tools/list reply: {e}"))?;
        if reply["id"] != json!(id) {
            return Err(format!(
                "tools/list: expected a result for id {id}, got {reply}"
            ));
        }
        let page = reply["result"]["tools"]
            .as_array()
            .ok_or_else(|| format!("tools/list: no tools in {reply}"))?;
        tools.extend(page.iter().cloned());
        lines.push(line);
        cursor = reply["result"]["nextCursor"].as_str().map(str::to_owned);
        if cursor.is_none() || lines.len() > TOOLS {
            return Ok((lines, tools));
        }
    }
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().filter_map(|t| t["name"].as_str()).collect()
}

impl ListingContender {
    /// Both servers, connected, initialized and walked once; rmcp's serves the tools
    /// mcpwire's listed.
    pub fn both() -> Result<[(&'static str, ListingContender); 2], String> {
        let mut mcpwire = InProcess::serving(crate::catalogue_server::server());
        line_peer::initialize(&mut mcpwire).map_err(|e| format!("mcpwire: {e}"))?;
        let (pages, listed) = walk(&mut mcpwire).map_err(|e| format!("mcpwire: {e}"))?;
        if listed.len() != TOOLS || pages.len() != TOOLS.div_ceil(PAGE_SIZE) {
            return Err(format!(
                "mcpwire listed {} tools in {} pages",
                listed.len(),
                pages.len()
            ));
        }
        let tools: Vec<RmcpTool> = listed
            .iter()
            .map(|t| serde_json::from_value(t.clone()))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("a listed tool is not an rmcp Tool: {e}"))?;
        let catalogue = RmcpCatalogue {
            tools: Arc::new(tools),
        };
        let mut rmcp = InProcess::start(|end| async move {
            use rmcp::ServiceExt as _;
            if let Ok(running) = catalogue.serve(end).await {
                let _ = running.waiting().await;
            }
        });
        line_peer::initialize(&mut rmcp).map_err(|e| format!("rmcp: {e}"))?;
        let (rmcp_pages, rmcp_listed) = walk(&mut rmcp).map_err(|e| format!("rmcp: {e}"))?;
        if names(&rmcp_listed) != names(&listed) || rmcp_pages.len() != pages.len() {
            return Err("rmcp lists other tools than mcpwire".to_owned());
        }
        Ok([
            (
                "mcpwire",
                ListingContender {
                    peer: mcpwire,
                    pages,
                },
            ),
            (
                "rmcp",
                ListingContender {
                    peer: rmcp,
                    pages: rmcp_pages,
                },
            ),
        ])
    }

    /// One listing of every page: the bytes of the replies.
    pub fn list_all(&mut self) -> usize {
        let mut bytes = 0;
        for page in &self.pages {
            bytes += self
                .peer
                .round_trip(page)
                .expect("a reply to tools/list")
                .len();
        }
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_servers_list_the_same_500_tools_in_five_pages() {
        let [(_, mut mcpwire), (_, mut rmcp)] = ListingContender::both().unwrap();
        assert_eq!(mcpwire.pages.len(), 5);
        // About 2.5 KB a tool, both ways.
        assert!(mcpwire.list_all() > 500 * 1000);
        assert!(rmcp.list_all() > 500 * 1000);
    }
}
