//! The report's section for issue 48's listing and tool-call targets: a 500-tool `tools/list`
//! served by mcpwire-server against rmcp's server (`server_tools_list_500`), read by
//! mcpwire-client against rmcp's client (`client_tools_list_500`), and the example's tool
//! call (`tool_call_in_process`, `tool_call_stdio`, `tool_call_stdio_sockets`,
//! `client_tool_call`), each against rmcp in
//! the same run, with the target and whether it is met.

use std::fmt::Write as _;

use super::report::{Report, format_ratio, format_time};

/// Pages of the 500-tool listing (100 tools a page): the bench crate's
/// `catalogue_server::TOOLS / PAGE_SIZE`.
const PAGES: f64 = 5.0;

/// How a row's target reads its ratio.
#[derive(Clone, Copy)]
enum Target {
    /// rmcp's time over mcpwire's at least this (mcpwire this many times faster).
    Faster(f64),
    /// mcpwire's time over rmcp's at most this.
    AtMost(f64),
    /// No target: the ratio is reported.
    None,
}

/// The rows: (criterion group, mcpwire's function, rmcp's function, title, target).
const ROWS: [(&str, &str, &str, &str, Target); 7] = [
    (
        "server_tools_list_500",
        "mcpwire",
        "rmcp",
        "server: every page of a 500-tool `tools/list` (5 pages of 100), in process",
        Target::Faster(3.0),
    ),
    (
        "client_tools_list_500",
        "mcpwire_client",
        "rmcp_client",
        "client: every page of a 500-tool `tools/list`, both from mcpwire-server in process",
        Target::Faster(3.0),
    ),
    (
        "tool_call_in_process",
        "mcpwire",
        "rmcp",
        "server: the example's `tools/call` `add`, in process",
        Target::AtMost(0.5),
    ),
    (
        "tool_call_stdio",
        "mcpwire",
        "rmcp",
        "server: the example's `tools/call` `add`, stdio (child processes)",
        Target::AtMost(0.8),
    ),
    (
        "tool_call_stdio",
        "mcpwire",
        "rmcp_pipes",
        "server: the same, against rmcp at its best over stdio (`stdio_pipes`: its pipes polled)",
        Target::AtMost(0.8),
    ),
    (
        "tool_call_stdio_sockets",
        "mcpwire",
        "rmcp",
        "server: the same, stdio on UNIX socket pairs as Node spawns a child (rmcp's `stdio()`; \
         its `stdio_pipes()` takes pipes only)",
        Target::AtMost(0.8),
    ),
    (
        "client_tool_call",
        "mcpwire_client",
        "rmcp_client",
        "client: `tools/call` `add`, both from mcpwire-server in process",
        Target::None,
    ),
];

impl Report<'_> {
    /// The issue 48 section, when any of its rows was measured.
    pub(super) fn render_listings(&self, out: &mut String) {
        let measured = ROWS.iter().any(|(group, mine, theirs, ..)| {
            self.get(group, mine).or(self.get(group, theirs)).is_some()
        });
        if !measured {
            return;
        }
        out.push_str("## Listings and tool calls (issue 48)\n\n");
        out.push_str(
            "Each row against rmcp 3.11 in the same run. The server rows speak raw lines to \
             each server over a `tokio::io::duplex` pipe (current-thread runtime); rmcp's listing \
             server lists the very tools mcpwire lists (decoded from mcpwire's pages), 100 to a \
             page, cloning the page's tools as rmcp's `ToolRouter::list_all` does. The client \
             rows time each client's typed call against the same mcpwire-server.\n\n",
        );
        out.push_str(
            "| row | mcpwire | rmcp | mcpwire ÷ rmcp | rmcp ÷ mcpwire | target | met |\n\
             | --- | --- | --- | --- | --- | --- | --- |\n",
        );
        for (group, mine, theirs, title, target) in ROWS {
            let (m, r) = (self.get(group, mine), self.get(group, theirs));
            let ratio = Self::ratio(m, r);
            let (goal, met) = match (target, ratio) {
                (Target::Faster(x), Some(q)) => (format!("rmcp ÷ mcpwire ≥ {x}×"), 1.0 / q >= x),
                (Target::AtMost(x), Some(q)) => (format!("mcpwire ÷ rmcp ≤ {x}×"), q <= x),
                (Target::Faster(x), None) => (format!("rmcp ÷ mcpwire ≥ {x}×"), false),
                (Target::AtMost(x), None) => (format!("mcpwire ÷ rmcp ≤ {x}×"), false),
                (Target::None, _) => ("—".to_owned(), true),
            };
            let met = match (target, ratio) {
                (Target::None, _) => "—",
                (_, None) => "not measured",
                _ if met => "met",
                _ => "**missed**",
            };
            let _ = writeln!(
                out,
                "| {title} | {} | {} | {} | {} | {goal} | {met} |",
                m.map_or("—".to_owned(), format_time),
                r.map_or("—".to_owned(), format_time),
                format_ratio(ratio),
                format_ratio(Self::ratio(r, m)),
            );
        }
        out.push('\n');
        if let Some(all) = self.get("server_tools_list_500", "mcpwire") {
            let page = all / PAGES;
            let _ = writeln!(
                out,
                "- one 100-tool page served by mcpwire-server (a fifth of the row above, the \
                 reply read by the bench's client included): {} against the target of 1 ms: {}\n",
                format_time(page),
                if page <= 1e6 { "met" } else { "**missed**" }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{ScratchDir, report_from, write_estimate};

    #[test]
    fn the_rows_divide_the_same_runs_and_say_whether_each_target_is_met() {
        let home = ScratchDir::new("listings");
        write_estimate(&home, "server_tools_list_500", "mcpwire", 1_000_000.0);
        write_estimate(&home, "server_tools_list_500", "rmcp", 5_000_000.0);
        write_estimate(&home, "tool_call_in_process", "mcpwire", 6_000.0);
        write_estimate(&home, "tool_call_in_process", "rmcp", 10_000.0);
        let out = report_from(&home, |r, out| r.render_listings(out));
        assert!(
            out.contains("| 1.00 ms | 5.00 ms | 0.20× | 5.00× | rmcp ÷ mcpwire ≥ 3× | met |"),
            "{out}"
        );
        assert!(
            out.contains(
                "| 6.00 µs | 10.00 µs | 0.60× | 1.67× | mcpwire ÷ rmcp ≤ 0.5× | **missed** |"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "(child processes) | — | — | — | — | mcpwire ÷ rmcp ≤ 0.8× | not measured |"
            ),
            "{out}"
        );
        assert!(
            out.contains("200.00 µs against the target of 1 ms: met"),
            "{out}"
        );
    }

    #[test]
    fn no_rows_measured_no_section() {
        let home = ScratchDir::new("listings-none");
        assert_eq!(report_from(&home, |r, out| r.render_listings(out)), "");
    }

    #[test]
    fn stdio_is_judged_against_rmcp_as_most_run_it_at_its_best_and_on_sockets() {
        let home = ScratchDir::new("listings-stdio");
        write_estimate(&home, "tool_call_stdio", "mcpwire", 50_000.0);
        write_estimate(&home, "tool_call_stdio", "rmcp", 100_000.0);
        write_estimate(&home, "tool_call_stdio", "rmcp_pipes", 50_000.0);
        write_estimate(&home, "tool_call_stdio_sockets", "mcpwire", 60_000.0);
        write_estimate(&home, "tool_call_stdio_sockets", "rmcp", 120_000.0);
        let out = report_from(&home, |r, out| r.render_listings(out));
        assert!(
            out.contains(
                "(child processes) | 50.00 µs | 100.00 µs | 0.50× | 2.00× | mcpwire ÷ rmcp ≤ 0.8× | met |"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "its pipes polled) | 50.00 µs | 50.00 µs | 1.00× | 1.00× | mcpwire ÷ rmcp ≤ 0.8× | **missed** |"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "takes pipes only) | 60.00 µs | 120.00 µs | 0.50× | 2.00× | mcpwire ÷ rmcp ≤ 0.8× | met |"
            ),
            "{out}"
        );
    }
}
