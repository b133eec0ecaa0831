//! The client-path rows (issue 15): a response decoded into the result type its pending
//! request named, by the peer's single pass and its two-pass path, against serde_json
//! decoding the result text alone into the same generated type.

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

impl Report<'_> {
    fn client(&self, frame: &str, way: &str) -> Option<f64> {
        self.get(&format!("{GROUP_PREFIX}{frame}"), way)
    }

    /// The client-path table and its target line; nothing when the group did not run.
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
             the floor of both is serde_json decoding the result text alone into the same type.\n\n",
        );
        out.push_str(
            "| frame | result alone | single pass | two passes | single ÷ alone | two ÷ alone |\n\
             | --- | --- | --- | --- | --- | --- |\n",
        );
        let mut misses = Vec::new();
        let mut worst: Option<(f64, &str)> = None;
        for (frame, title) in FRAMES {
            let alone = self.client(frame, "result_alone");
            let single = self.client(frame, "peer_single_pass");
            let two = self.client(frame, "peer_two_pass");
            let ratio = Self::ratio(single, alone);
            if let Some(r) = ratio {
                if r > TARGET {
                    misses.push(format!("{frame} {}", format_ratio(Some(r))));
                }
                if worst.is_none_or(|(w, _)| r > w) {
                    worst = Some((r, frame));
                }
            }
            let time = |t: Option<f64>| t.map_or("—".to_owned(), format_time);
            let _ = writeln!(
                out,
                "| {title} | {} | {} | {} | {} | {} |",
                time(alone),
                time(single),
                time(two),
                format_ratio(ratio),
                format_ratio(Self::ratio(two, alone)),
            );
        }
        match worst {
            Some((r, frame)) => {
                let _ = write!(
                    out,
                    "\n- single-pass typed decode of a response ≤ {TARGET}× the result decode alone: {} (worst {} on {frame})",
                    if misses.is_empty() {
                        "met"
                    } else {
                        "**missed**"
                    },
                    format_ratio(Some(r))
                );
                if !misses.is_empty() {
                    let _ = write!(out, "; missed on {}", misses.join(", "));
                }
                out.push_str(
                    "; equivalence with the two-pass path: `cargo test -p mcpwire-tests --test prop_single_pass`\n\n",
                );
            }
            None => out.push('\n'),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{report_from, write_estimate};

    #[test]
    fn client_rows_and_the_target_come_from_criterion_results() {
        let home = std::env::temp_dir().join(format!("xtask-client-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        for (frame, way, median_ns) in [
            ("tools_list_result", "result_alone", 10_000.0),
            ("tools_list_result", "peer_single_pass", 10_500.0),
            ("tools_list_result", "peer_two_pass", 13_000.0),
            ("result_1m", "result_alone", 1_000_000.0),
            ("result_1m", "peer_single_pass", 1_200_000.0),
        ] {
            write_estimate(&home, &format!("client_path_{frame}"), way, median_ns);
        }
        let out = report_from(&home, |r, out| r.render_client_path(out));
        let _ = std::fs::remove_dir_all(&home);
        assert!(
            out.contains(
                "| `tools/list` result, 5 KB | 10.00 µs | 10.50 µs | 13.00 µs | 1.05× | 1.30× |"
            ),
            "{out}"
        );
        assert!(
            out.contains("**missed** (worst 1.20× on result_1m); missed on result_1m 1.20×"),
            "{out}"
        );
    }
}
