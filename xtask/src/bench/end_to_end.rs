//! The end-to-end rows of the report: the mcpwire-server example's `add` tool call against the
//! same tool on rmcp (issue 13), and a stream of 10,000 client notifications through both
//! servers (issue 15), each in process and over stdio; plus the section that states the
//! measured ratios for issues 13 and 15.

use std::fmt::Write as _;

use super::{Report, format_ratio, format_time};

/// Client notifications in one stream, plus the closing `ping`: the messages one stream
/// iteration carries (the bench crate's `conversation::NOTIFICATIONS_PER_STREAM` + 1).
const STREAM_MESSAGES: f64 = 10_001.0;

/// The end-to-end rows: (criterion group, row title, messages per iteration).
const ROWS: [(&str, &str, f64); 6] = [
    (
        "tool_call_in_process",
        "`tools/call` `add`, in process",
        1.0,
    ),
    (
        "tool_call_stdio",
        "`tools/call` `add`, stdio (child processes)",
        1.0,
    ),
    (
        "tool_call_stdio_sockets",
        "`tools/call` `add`, stdio on UNIX socket pairs (as Node spawns a child)",
        1.0,
    ),
    (
        "notification_stream_in_process",
        "10,000 notifications + `ping`, in process (per stream)",
        STREAM_MESSAGES,
    ),
    (
        "notification_stream_stdio",
        "10,000 notifications + `ping`, stdio (per stream)",
        STREAM_MESSAGES,
    ),
    (
        "notification_stream_stdio_sockets",
        "10,000 notifications + `ping`, stdio on UNIX socket pairs (per stream)",
        STREAM_MESSAGES,
    ),
];

/// The two servers' criterion function ids in every end-to-end group.
const MCPWIRE: &str = "mcpwire";
const RMCP: &str = "rmcp";

/// Messages per second, from the median time of an iteration carrying `messages` of them.
fn per_second(messages: f64, ns: Option<f64>) -> String {
    ns.map_or("—".to_owned(), |ns| format!("{:.0}", messages * 1e9 / ns))
}

impl Report<'_> {
    /// Whether any end-to-end group has results.
    fn has_end_to_end(&self) -> bool {
        ROWS.iter()
            .any(|(group, ..)| self.get(group, MCPWIRE).or(self.get(group, RMCP)).is_some())
    }

    /// mcpwire's and rmcp's medians in one end-to-end group.
    fn pair(&self, group: &str) -> (Option<f64>, Option<f64>) {
        (self.get(group, MCPWIRE), self.get(group, RMCP))
    }

    /// The end-to-end table.
    pub(super) fn render_end_to_end(&self, out: &mut String) {
        if !self.has_end_to_end() {
            return;
        }
        out.push_str("## End to end: the example's tool call and a notification stream, mcpwire-server against rmcp\n\n");
        out.push_str(
            "The `add` tool of `crates/mcpwire-server/examples/mcp_server.rs` against the same tool on rmcp \
             (`benches/rmcp-server`, `Json<Sum>`): both answer `structuredContent` `{\"sum\":42}` plus that JSON \
             as a text block (rmcp also sends `\"isError\":false`). In process: each server on a current-thread \
             tokio runtime over a `tokio::io::duplex` pipe in the bench process (mcpwire `McpServer::serve`, \
             rmcp `ServiceExt::serve`); stdio: the release binaries as child processes over pipes (the example \
             runs a current-thread runtime and polls its stdin and stdout pipes on it, \
             `service/stdio_streams.rs`; `rmcp-server` runs tokio's multi-thread one with rmcp's `stdio()`, \
             whose `Stdin` and `Stdout` read and write on the blocking pool; rmcp's `stdio_pipes()`, which \
             polls them as pipes, is the issue 48 table's other stdio row), and over a UNIX socket pair each \
             for stdin and stdout, as Node's `child_process` connects a child (the example polls them with \
             `MSG_DONTWAIT`; rmcp's `stdio()` reads and writes them on the blocking pool, and its \
             `stdio_pipes()` takes pipes only). Each session is \
             initialized once (2025-11-25); a tool call is one request and its reply, awaited before the \
             next; a stream is 10,000 `notifications/roots/list_changed` lines and a closing `ping`, timed \
             until the `ping`'s reply (the servers answer nothing else, checked before timing).\n\n",
        );
        out.push_str(
            "| row | mcpwire | rmcp | mcpwire ÷ rmcp | mcpwire messages/s | rmcp messages/s |\n\
             | --- | --- | --- | --- | --- | --- |\n",
        );
        for (group, title, messages) in ROWS {
            let (mine, theirs) = self.pair(group);
            let _ = writeln!(
                out,
                "| {title} | {} | {} | {} | {} | {} |",
                mine.map_or("—".to_owned(), format_time),
                theirs.map_or("—".to_owned(), format_time),
                format_ratio(Self::ratio(mine, theirs)),
                per_second(messages, mine),
                per_second(messages, theirs),
            );
        }
        out.push('\n');
    }

    /// The measured ratios for issue 13's benchmark row and issue 15's new sizes.
    pub(super) fn render_new_targets(&self, out: &mut String) {
        let frame = "tools_list_500";
        let decode = |contender: &str| self.decode(frame, contender);
        if !self.has_end_to_end() && decode("mcpwire_envelope").is_none() {
            return;
        }
        out.push_str("## Targets (issues 13 and 15)\n\n");
        let compare = |group: &str| -> String {
            match self.pair(group) {
                (Some(mine), Some(theirs)) => format!(
                    "mcpwire {} against rmcp {}: mcpwire ÷ rmcp {}",
                    format_time(mine),
                    format_time(theirs),
                    format_ratio(Some(mine / theirs))
                ),
                _ => "not measured".to_owned(),
            }
        };
        let _ = writeln!(
            out,
            "- issue 13, the example's tool call end to end against rmcp (no fixed target; below 1× mcpwire is faster): in process {}; stdio {}",
            compare("tool_call_in_process"),
            compare("tool_call_stdio")
        );
        let envelope = decode("mcpwire_envelope");
        let typed = decode("mcpwire_typed_2025_11_25");
        let rmcp = decode("rmcp");
        let floor = decode("floor_ignored_any");
        if envelope.is_some() {
            let _ = writeln!(
                out,
                "- issue 15, `tools/list` result with 500 tools: envelope {} the floor, {} faster than rmcp and {} than rust-mcp-schema; typed 2025-11-25 {} the floor, {} rmcp's time",
                format_ratio(Self::ratio(envelope, floor)),
                format_ratio(Self::ratio(rmcp, envelope)),
                format_ratio(Self::ratio(decode("rust_mcp_schema"), envelope)),
                format_ratio(Self::ratio(typed, floor)),
                format_ratio(Self::ratio(typed, rmcp)),
            );
        } else {
            out.push_str("- issue 15, `tools/list` result with 500 tools: not measured\n");
        }
        let stream = |group: &str| -> String {
            let (mine, theirs) = self.pair(group);
            match (mine, theirs) {
                (Some(_), Some(_)) => format!(
                    "mcpwire {} messages/s against rmcp {} (mcpwire ÷ rmcp {})",
                    per_second(STREAM_MESSAGES, mine),
                    per_second(STREAM_MESSAGES, theirs),
                    format_ratio(Self::ratio(mine, theirs))
                ),
                _ => "not measured".to_owned(),
            }
        };
        let _ = writeln!(
            out,
            "- issue 15, 10,000 client notifications and a `ping` through the server (mcpwire-server's `serve`, the example's server): in process {}; stdio {}",
            stream("notification_stream_in_process"),
            stream("notification_stream_stdio")
        );
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{ScratchDir, report_from, write_estimate};

    #[test]
    fn end_to_end_rows_come_from_criterion_results_with_ratios_and_rates() {
        let home = ScratchDir::new("e2e");
        write_estimate(&home, "tool_call_in_process", "mcpwire", 20_000.0);
        write_estimate(&home, "tool_call_in_process", "rmcp", 40_000.0);
        write_estimate(&home, "notification_stream_stdio", "mcpwire", 10_001_000.0);
        write_estimate(&home, "notification_stream_stdio", "rmcp", 5_000_500.0);
        write_estimate(
            &home,
            "decode_tools_list_500",
            "floor_ignored_any",
            1_000_000.0,
        );
        write_estimate(
            &home,
            "decode_tools_list_500",
            "mcpwire_envelope",
            900_000.0,
        );
        write_estimate(&home, "decode_tools_list_500", "rmcp", 27_000_000.0);
        let table = report_from(&home, |r, out| r.render_end_to_end(out));
        let targets = report_from(&home, |r, out| r.render_new_targets(out));

        assert!(
            table.contains(
                "| `tools/call` `add`, in process | 20.00 µs | 40.00 µs | 0.50× | 50000 | 25000 |"
            ),
            "{table}"
        );
        assert!(
            table.contains(
                "| 10,000 notifications + `ping`, stdio (per stream) | 10.00 ms | 5.00 ms | 2.00× | 1000000 | 2000000 |"
            ),
            "{table}"
        );
        assert!(
            table.contains("| `tools/call` `add`, stdio (child processes) | — | — | — | — | — |"),
            "{table}"
        );
        assert!(
            targets.contains("in process mcpwire 20.00 µs against rmcp 40.00 µs: mcpwire ÷ rmcp 0.50×; stdio not measured"),
            "{targets}"
        );
        assert!(
            targets.contains("envelope 0.90× the floor, 30.0× faster than rmcp"),
            "{targets}"
        );
        assert!(
            targets.contains(
                "stdio mcpwire 1000000 messages/s against rmcp 2000000 (mcpwire ÷ rmcp 2.00×)"
            ),
            "{targets}"
        );
    }

    #[test]
    fn no_end_to_end_results_no_section() {
        let home = ScratchDir::new("e2e-none");
        let table = report_from(&home, |r, out| r.render_end_to_end(out));
        let targets = report_from(&home, |r, out| r.render_new_targets(out));
        assert_eq!(table, "");
        assert_eq!(targets, "");
    }
}
