//! The client-path rows (issue 15): a response decoded into the result type its pending
//! request named, by the peer's single pass and its two-pass path, against serde_json
//! decoding the result text alone into the same generated type, and against the frame's
//! floor and rmcp timed in the same group.

use std::fmt::Write as _;

use super::{Report, format_ratio, format_time};

/// The criterion groups: `client_path_<frame>` (the bench crate's `client_path` groups).
const GROUP_PREFIX: &str = "client_path_";

/// The response frames of the suite, by name (the bench crate's `ClientFrame::all`).
const FRAMES: [(&str, &str); 4] = [
    ("tools_list_result", "`tools/list` result, 5 KB"),
    ("tools_list_500", "`tools/list` result, 500 tools"),
    (
        "resources_read_100k",
        "`resources/read` result, 100 KB text",
    ),
    ("result_1m", "`tools/call` result, 1 MB structured"),
];

/// The single pass may cost at most this many times the result decode alone.
const TARGET: f64 = 1.1;

/// The typed decode of a response (the single pass) may cost at most this many floors on
/// these frames.
const FLOOR_TARGET: (f64, [&str; 3]) = (3.0, ["tools_list_result", "tools_list_500", "result_1m"]);

/// Issue 52: the typed decode of a response (the single pass) may cost at most this share of
/// rmcp's decode of the same frame, on every response frame.
const RMCP_SHARE_TARGET: f64 = 0.8;

/// One target line: what is asked, and the frames that miss it with their ratio.
struct Target {
    worst: Option<(f64, &'static str)>,
    misses: Vec<String>,
}

impl Target {
    fn new() -> Self {
        Target {
            worst: None,
            misses: Vec::new(),
        }
    }

    /// Records `ratio` on `frame`; `met` says whether it meets the target.
    fn record(&mut self, frame: &'static str, ratio: Option<f64>, met: bool) {
        let Some(r) = ratio else { return };
        if !met {
            self.misses
                .push(format!("{frame} {}", format_ratio(Some(r))));
        }
        if self.worst.is_none_or(|(w, _)| r > w) {
            self.worst = Some((r, frame));
        }
    }

    /// `- <what>: met|**missed** (worst …)[; missed on …]<tail>`, nothing when unmeasured.
    fn line(&self, out: &mut String, what: &str, tail: &str) {
        let Some((r, frame)) = self.worst else { return };
        let verdict = if self.misses.is_empty() {
            "met"
        } else {
            "**missed**"
        };
        let _ = write!(
            out,
            "- {what}: {verdict} (worst {} on {frame})",
            format_ratio(Some(r))
        );
        if !self.misses.is_empty() {
            let _ = write!(out, "; missed on {}", self.misses.join(", "));
        }
        let _ = writeln!(out, "{tail}");
    }
}

impl Report<'_> {
    fn client(&self, frame: &str, way: &str) -> Option<f64> {
        self.get(&format!("{GROUP_PREFIX}{frame}"), way)
    }

    /// The client-path table and its target lines; nothing when the group did not run.
    pub(super) fn render_client_path(&self, out: &mut String) {
        let measured = |frame: &&(&str, &str)| self.client(frame.0, "result_alone").is_some();
        if !FRAMES.iter().any(|f| measured(&f)) {
            return;
        }
        out.push_str("## Client path: a response typed by its pending request (issue 15)\n\n");
        out.push_str(
            "A client's `mcpwire::peer::Peer` with request 1 pending receives the response frame \
             (`{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":…}`) and reports its result decoded as the \
             generated 2025-11-25 type that request named. `receive` decodes the common spelling in \
             one pass; `receive_two_pass` validates the envelope first, then decodes the result text; \
             the floor of both is serde_json decoding the result text alone into the same type. \
             This is how a client decodes a response, so the typed-decode targets on the response \
             frames are read here: the single pass against the frame's `IgnoredAny` floor and \
             against rmcp decoding the same frame, both timed in this group right after the peer's \
             ways (the decode table above times them in a run of its own, minutes apart, and the \
             machine's speed drifts between groups).\n\n",
        );
        out.push_str(
            "| frame | result alone | single pass | two passes | single ÷ alone | two ÷ alone | single × floor | single ÷ rmcp |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        );
        let (mut alone_target, mut floor_target, mut rmcp_target, mut share_target) =
            (Target::new(), Target::new(), Target::new(), Target::new());
        for (frame, title) in FRAMES {
            let alone = self.client(frame, "result_alone");
            let single = self.client(frame, "peer_single_pass");
            let two = self.client(frame, "peer_two_pass");
            let ratio = Self::ratio(single, alone);
            alone_target.record(frame, ratio, ratio.is_some_and(|r| r <= TARGET));
            let floors = Self::ratio(single, self.client(frame, "floor_frame"));
            if FLOOR_TARGET.1.contains(&frame) {
                floor_target.record(frame, floors, floors.is_some_and(|r| r <= FLOOR_TARGET.0));
            }
            let rmcp = Self::ratio(single, self.client(frame, "rmcp_frame"));
            rmcp_target.record(frame, rmcp, rmcp.is_some_and(|r| r <= 1.0));
            share_target.record(frame, rmcp, rmcp.is_some_and(|r| r <= RMCP_SHARE_TARGET));
            let time = |t: Option<f64>| t.map_or("—".to_owned(), format_time);
            let _ = writeln!(
                out,
                "| {title} | {} | {} | {} | {} | {} | {} | {} |",
                time(alone),
                time(single),
                time(two),
                format_ratio(ratio),
                format_ratio(Self::ratio(two, alone)),
                format_ratio(floors),
                format_ratio(rmcp),
            );
        }
        out.push('\n');
        alone_target.line(
            out,
            &format!("single-pass typed decode of a response ≤ {TARGET}× the result decode alone"),
            "; equivalence with the two-pass path: `cargo test -p mcpwire-tests --test prop_single_pass`",
        );
        floor_target.line(
            out,
            &format!(
                "typed decode of a response (single pass) ≤ {}× the floor on both `tools/list` results and the 1 MB result",
                FLOOR_TARGET.0
            ),
            "",
        );
        rmcp_target.line(
            out,
            "typed decode of a response (single pass) no slower than rmcp on every response frame",
            "",
        );
        share_target.line(
            out,
            &format!(
                "issue 52, typed decode of a response (single pass) ≤ {RMCP_SHARE_TARGET}× rmcp's time on every response frame"
            ),
            "",
        );
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{ScratchDir, report_from, write_estimate};

    #[test]
    fn client_rows_and_the_targets_come_from_criterion_results() {
        let home = ScratchDir::new("client");
        for (frame, way, median_ns) in [
            ("tools_list_result", "result_alone", 10_000.0),
            ("tools_list_result", "peer_single_pass", 10_500.0),
            ("tools_list_result", "peer_two_pass", 13_000.0),
            ("result_1m", "result_alone", 1_000_000.0),
            ("result_1m", "peer_single_pass", 1_200_000.0),
            ("tools_list_result", "floor_frame", 5_000.0),
            ("tools_list_result", "rmcp_frame", 21_000.0),
            ("result_1m", "floor_frame", 300_000.0),
            ("result_1m", "rmcp_frame", 1_000_000.0),
            ("resources_read_100k", "result_alone", 8_500.0),
            ("resources_read_100k", "peer_single_pass", 9_000.0),
            ("resources_read_100k", "rmcp_frame", 10_000.0),
        ] {
            write_estimate(&home, &format!("client_path_{frame}"), way, median_ns);
        }
        // The decode table's floor and rmcp, from another run, are not what the ratios read.
        for (frame, contender) in [
            ("tools_list_result", "floor_ignored_any"),
            ("tools_list_result", "rmcp"),
            ("result_1m", "floor_ignored_any"),
            ("result_1m", "rmcp"),
        ] {
            write_estimate(&home, &format!("decode_{frame}"), contender, 1.0);
        }
        let out = report_from(&home, |r, out| r.render_client_path(out));
        assert!(
            out.contains(
                "| `tools/list` result, 5 KB | 10.00 µs | 10.50 µs | 13.00 µs | 1.05× | 1.30× | 2.10× | 0.50× |"
            ),
            "{out}"
        );
        assert!(
            out.contains("| `tools/call` result, 1 MB structured | 1.00 ms | 1.20 ms | — | 1.20× | — | 4.00× | 1.20× |"),
            "{out}"
        );
        assert!(
            out.contains("≤ 1.1× the result decode alone: **missed** (worst 1.20× on result_1m); missed on result_1m 1.20×"),
            "{out}"
        );
        assert!(
            out.contains("≤ 3× the floor on both `tools/list` results and the 1 MB result: **missed** (worst 4.00× on result_1m); missed on result_1m 4.00×"),
            "{out}"
        );
        assert!(
            out.contains("no slower than rmcp on every response frame: **missed** (worst 1.20× on result_1m); missed on result_1m 1.20×"),
            "{out}"
        );
        assert!(
            out.contains("≤ 0.8× rmcp's time on every response frame: **missed** (worst 1.20× on result_1m); missed on resources_read_100k 0.90×, result_1m 1.20×"),
            "{out}"
        );
    }
}
