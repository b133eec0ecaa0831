//! The benchmark message set, built deterministically in code: every contender decodes the
//! same bytes. The well-formed frames are valid under both MCP 2025-11-25 and 2026-07-28
//! (results carry 2026-07-28's `resultType`, `cacheScope` and `ttlMs`, which 2025-11-25
//! admits as extra members), so both generated type sets decode them.
//!
//! ```
//! let set = mcpwire_benches::messages::all();
//! assert_eq!(set[0].name, "ping");
//! assert!(set.iter().all(|m| serde_json::from_slice::<serde_json::Value>(&m.bytes).is_ok() || m.malformed));
//! ```

use std::fmt::Write as _;

/// Which side of an MCP session receives a message, and so which peer message type decodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Sent by a client, decoded by a server (requests, notifications, malformed input).
    ClientToServer,
    /// Sent by a server, decoded by a client (results).
    ServerToClient,
}

/// One benchmark frame.
#[derive(Debug, Clone)]
pub struct BenchMessage {
    /// Short name, used as the criterion group name (`decode_<name>`).
    pub name: &'static str,
    /// What the frame is, for the report.
    pub description: &'static str,
    /// The frame bytes (one line, no newline).
    pub bytes: Vec<u8>,
    /// Who decodes it.
    pub direction: Direction,
    /// Whether the frame breaks the wire rules on purpose.
    pub malformed: bool,
}

/// Nesting depth of the `deep_params` frame: the envelope must still recover its id.
pub const DEEP_PARAMS_DEPTH: usize = 100_000;

/// The whole set, in report order: six well-formed frames, then three malformed ones.
pub fn all() -> Vec<BenchMessage> {
    vec![
        message("ping", "ping request", ping(), Direction::ClientToServer),
        message(
            "tools_call",
            "tools/call request",
            tools_call(),
            Direction::ClientToServer,
        ),
        message(
            "tools_list_result",
            "tools/list result",
            tools_list_result(),
            Direction::ServerToClient,
        ),
        message(
            "tools_list_500",
            "tools/list result, 500 tools",
            tools_list_500(),
            Direction::ServerToClient,
        ),
        message(
            "resources_read_100k",
            "resources/read result, 100 KB text",
            resources_read_result(100 * 1024),
            Direction::ServerToClient,
        ),
        message(
            "result_1m",
            "tools/call result, 1 MB structured",
            large_call_result(1024 * 1024),
            Direction::ServerToClient,
        ),
        malformed("bad_version", "jsonrpc \"1.0\" with id 7", wrong_version()),
        malformed("bad_id_type", "id `true`", invalid_id_type()),
        malformed(
            "deep_params",
            "params nested 100,000 deep",
            deep_params(DEEP_PARAMS_DEPTH),
        ),
    ]
}

fn message(
    name: &'static str,
    description: &'static str,
    bytes: String,
    direction: Direction,
) -> BenchMessage {
    BenchMessage {
        name,
        description,
        bytes: bytes.into_bytes(),
        direction,
        malformed: false,
    }
}

fn malformed(name: &'static str, description: &'static str, bytes: String) -> BenchMessage {
    BenchMessage {
        name,
        description,
        bytes: bytes.into_bytes(),
        direction: Direction::ClientToServer,
        malformed: true,
    }
}

/// The method of the request each result frame answers, by the result's id: the pending-request
/// table of a client that sent `tools/list` as 2 and 5, `resources/read` as 3 and `tools/call`
/// as 4.
pub fn pending_method(id: &str) -> Option<&'static str> {
    match id {
        "2" | "5" => Some("tools/list"),
        "3" => Some("resources/read"),
        "4" => Some("tools/call"),
        _ => None,
    }
}

/// `ping` with a string id (~50 bytes).
pub fn ping() -> String {
    r#"{"jsonrpc":"2.0","id":"req-000001","method":"ping"}"#.to_owned()
}

/// `tools/call` of the reference server's `echo` tool (~300 bytes). Its `_meta` carries what
/// 2026-07-28 requires (protocol version, client capabilities), so it is valid under both
/// benchmarked versions.
pub fn tools_call() -> String {
    let text = "The quick brown fox jumps over the lazy dog; mcpwire keeps every id as sent.";
    format!(
        r#"{{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{text}"}},"_meta":{{"progressToken":"p-42","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    )
}

/// A `tools/list` result of fourteen tools with input schemas (~5 KB).
pub fn tools_list_result() -> String {
    let mut tools = Vec::new();
    for i in 0..14 {
        tools.push(format!(
            r#"{{"name":"tool_{i:02}","title":"Tool number {i}","description":"Looks up record {i} in the catalogue and returns it as text; fails when the record does not exist.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for"}},"limit":{{"type":"integer","minimum":1,"maximum":100}},"exact":{{"type":"boolean"}}}},"required":["query"]}}}}"#
        ));
    }
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"result":{{"tools":[{}],"nextCursor":"page-2","resultType":"complete","cacheScope":"public","ttlMs":60000}}}}"#,
        tools.join(",")
    )
}

/// Number of tools in the `tools_list_500` frame.
pub const MANY_TOOLS: usize = 500;

/// A `tools/list` result of [`MANY_TOOLS`] tools (about 1 MB), each as a real server would list
/// it: title, a few sentences of description, an input schema of six to eight properties
/// (strings with formats, patterns and enums, bounded integers, arrays, a nested object,
/// `required`, `additionalProperties`), an output schema and annotations.
pub fn tools_list_500() -> String {
    let tools: Vec<String> = (0..MANY_TOOLS).map(catalogue_tool).collect();
    format!(
        r#"{{"jsonrpc":"2.0","id":5,"result":{{"tools":[{}],"resultType":"complete","cacheScope":"public","ttlMs":60000}}}}"#,
        tools.join(",")
    )
}

/// Tool `i` of [`tools_list_500`]: its shape varies with `i` so no two are identical.
fn catalogue_tool(i: usize) -> String {
    let areas = [
        "invoices",
        "customers",
        "shipments",
        "tickets",
        "repositories",
        "calendars",
        "documents",
    ];
    let verbs = ["search", "fetch", "update", "archive", "export"];
    let area = areas[i % areas.len()];
    let verb = verbs[i % verbs.len()];
    let mut properties = vec![
        format!(
            r#""query":{{"type":"string","minLength":1,"maxLength":512,"description":"Free-text filter applied to the {area}; quoted phrases match exactly, a leading minus excludes a term."}}"#
        ),
        format!(
            r#""fields":{{"type":"array","items":{{"type":"string","enum":["id","name","owner","status","created","updated","tags","notes"]}},"uniqueItems":true,"description":"Fields of each {area} record to return; all of them when omitted."}}"#
        ),
        r#""limit":{"type":"integer","minimum":1,"maximum":500,"default":50,"description":"Most records to return in one page."}"#.to_owned(),
        r#""cursor":{"type":"string","description":"Opaque cursor from the previous page's nextCursor; omit it for the first page."}"#.to_owned(),
        r#""since":{"type":"string","format":"date-time","description":"Only records changed at or after this instant (RFC 3339)."}"#.to_owned(),
        r#""owner":{"type":"object","properties":{"id":{"type":"string","pattern":"^[a-z0-9-]{3,64}$"},"team":{"type":"string"},"includeDelegates":{"type":"boolean","default":false}},"required":["id"],"additionalProperties":false,"description":"Restrict to records owned by this person or team."}"#.to_owned(),
    ];
    for extra in 0..(i % 3) {
        properties.push(format!(
            r#""label_{extra}":{{"type":["string","null"],"maxLength":64,"description":"Custom label {extra} of the {area} schema, as configured by the workspace administrator."}}"#
        ));
    }
    let read_only = verb == "search" || verb == "fetch" || verb == "export";
    format!(
        r#"{{"name":"{area}_{verb}_{i:03}","title":"{Verb} {area} ({i})","description":"{Verb} the {area} of the connected workspace. Results are paginated: pass the returned cursor back to read the next page. Requires the {area}:read scope{scope}; rate limited to 60 calls a minute per user.","inputSchema":{{"type":"object","properties":{{{properties}}},"required":["query"],"additionalProperties":false}},"outputSchema":{{"type":"object","properties":{{"items":{{"type":"array","items":{{"type":"object","properties":{{"id":{{"type":"string"}},"name":{{"type":"string"}},"status":{{"type":"string","enum":["open","closed","pending"]}},"updated":{{"type":"string","format":"date-time"}}}},"required":["id"]}}}},"nextCursor":{{"type":"string"}},"total":{{"type":"integer","minimum":0}}}},"required":["items"]}},"annotations":{{"title":"{Verb} {area}","readOnlyHint":{read_only},"destructiveHint":{destructive},"idempotentHint":{read_only},"openWorldHint":false}}}}"#,
        Verb = capitalized(verb),
        scope = if read_only {
            ""
        } else {
            " and the write scope"
        },
        properties = properties.join(","),
        destructive = verb == "archive",
    )
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// Deterministic prose with JSON escapes (`\n`, `\"`) every line, about `len` bytes of JSON text.
fn escaped_text(len: usize) -> String {
    let words = [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "adipiscing",
        "elit",
        "sed",
        "do",
    ];
    let mut out = String::with_capacity(len + 64);
    let mut state: u32 = 0x9e37_79b9;
    let mut line = 0;
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        out.push_str(words[(state % words.len() as u32) as usize]);
        line += 1;
        if line % 12 == 0 {
            out.push_str(r#". \"Quoted.\"\n"#);
        } else {
            out.push(' ');
        }
    }
    out
}

/// A `resources/read` result holding one text resource of about `text_len` bytes.
pub fn resources_read_result(text_len: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":3,"result":{{"contents":[{{"uri":"file:///bench/big.txt","mimeType":"text/plain","text":"{}"}}],"resultType":"complete","cacheScope":"private","ttlMs":0}}}}"#,
        escaped_text(text_len)
    )
}

/// A `tools/call` result of about `len` bytes: a text summary plus `structuredContent` holding
/// an array of records (numbers, strings, booleans, nested objects): structure-heavy JSON.
pub fn large_call_result(len: usize) -> String {
    let mut rows = String::with_capacity(len + 256);
    let mut i: u64 = 0;
    while rows.len() < len {
        if i > 0 {
            rows.push(',');
        }
        let _ = write!(
            rows,
            r#"{{"id":{i},"name":"item-{i}","price":{}.{:02},"tags":["a","b{}"],"active":{},"dims":{{"w":{},"h":{}}}}}"#,
            i * 7 % 1000,
            i % 100,
            i % 10,
            i.is_multiple_of(3),
            i % 17,
            i % 23
        );
        i += 1;
    }
    format!(
        r#"{{"jsonrpc":"2.0","id":4,"result":{{"content":[{{"type":"text","text":"{i} rows"}}],"structuredContent":{{"rows":[{rows}]}},"isError":false,"resultType":"complete"}}}}"#
    )
}

/// A request with `"jsonrpc":"1.0"` and a readable id: answered -32600 with id 7.
pub fn wrong_version() -> String {
    r#"{"jsonrpc":"1.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#.to_owned()
}

/// A request whose id is `true`: -32600 without an id.
pub fn invalid_id_type() -> String {
    r#"{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#.to_owned()
}

/// A request whose params nest `depth` arrays deep; the id comes after the params.
pub fn deep_params(depth: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"deep":{}{}}},"id":9}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_issue() {
        let size = |name: &str| {
            all()
                .into_iter()
                .find(|m| m.name == name)
                .unwrap()
                .bytes
                .len()
        };
        assert!((40..=64).contains(&size("ping")), "{}", size("ping"));
        assert!(
            (250..=350).contains(&size("tools_call")),
            "{}",
            size("tools_call")
        );
        assert!(
            (4_500..=6_000).contains(&size("tools_list_result")),
            "{}",
            size("tools_list_result")
        );
        assert!(
            (950 * 1024..1100 * 1024).contains(&size("tools_list_500")),
            "{}",
            size("tools_list_500")
        );
        assert!((100 * 1024..110 * 1024).contains(&size("resources_read_100k")));
        assert!((1024 * 1024..1100 * 1024).contains(&size("result_1m")));
    }

    #[test]
    fn well_formed_frames_are_json_and_deterministic() {
        for (a, b) in all().iter().zip(all().iter()) {
            assert_eq!(a.bytes, b.bytes);
            if !a.malformed {
                let v: serde_json::Value = serde_json::from_slice(&a.bytes).unwrap();
                assert_eq!(v["jsonrpc"], "2.0");
            }
        }
    }
}
