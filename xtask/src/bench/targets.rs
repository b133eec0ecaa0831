//! The report's "Targets (issue 6)" section: each target of the decode table, met or missed.

use std::fmt::Write as _;
use std::time::Duration;

use super::FRAMES;
use super::report::{Report, format_ratio};

impl Report<'_> {
    pub(super) fn render_targets(&self, out: &mut String) {
        out.push_str("## Targets (issue 6)\n\n");
        let check = |ok: bool| if ok { "met" } else { "**missed**" };
        let frames = FRAMES.map(|(f, _)| f);
        // A peer that rejects a frame mcpwire reads as a valid message (e.g. at serde_json's
        // recursion limit) did less work than a classification and lost the message: that
        // frame is no speed comparison. Rejecting a malformed frame is a classification.
        let outcome = |frame: &str, decoder: &str| -> Option<&str> {
            self.outcomes.lines().find_map(|l| {
                let mut parts = l.splitn(3, '\t');
                (parts.next() == Some(frame) && parts.next() == Some(decoder))
                    .then(|| parts.next())
                    .flatten()
            })
        };
        let failed = |frame: &str, decoder: &str| -> bool {
            let valid = outcome(frame, "mcpwire_envelope")
                .is_some_and(|o| !o.starts_with("invalid") && !o.starts_with("rejected"));
            valid && outcome(frame, decoder).is_some_and(|o| o.starts_with("error"))
        };
        let worst = |num: &str, den: &str, max: bool| -> Option<(f64, &str)> {
            let mut worst: Option<(f64, &str)> = None;
            for frame in frames.into_iter().filter(|f| !failed(f, num)) {
                let Some(r) = Self::ratio(self.decode(frame, num), self.decode(frame, den)) else {
                    continue;
                };
                let replace = match worst {
                    None => true,
                    Some((w, _)) => (max && r > w) || (!max && r < w),
                };
                if replace {
                    worst = Some((r, frame));
                }
            }
            worst
        };
        let misses = |num: &str, den: &str, ok: &dyn Fn(f64) -> bool| -> Vec<String> {
            frames
                .iter()
                .filter(|f| !failed(f, num))
                .filter_map(|f| {
                    let r = Self::ratio(self.decode(f, num), self.decode(f, den))?;
                    (!ok(r)).then(|| format!("{f} {}", format_ratio(Some(r))))
                })
                .collect()
        };
        let line =
            |out: &mut String, what: &str, worst: Option<(f64, &str)>, missed: Vec<String>| {
                match worst {
                    None => {
                        let _ = writeln!(out, "- {what}: not measured");
                    }
                    Some((r, frame)) => {
                        let _ = write!(
                            out,
                            "- {what}: {} (worst {} on {frame})",
                            check(missed.is_empty()),
                            format_ratio(Some(r))
                        );
                        if !missed.is_empty() {
                            let _ = write!(out, "; missed on {}", missed.join(", "));
                        }
                        out.push('\n');
                    }
                }
            };
        let excluded = |peer: &str| -> String {
            let list: Vec<&str> = frames.into_iter().filter(|f| failed(f, peer)).collect();
            if list.is_empty() {
                String::new()
            } else {
                format!(
                    " [not compared where {peer} rejects a valid frame: {}]",
                    list.join(", ")
                )
            }
        };
        line(
            out,
            "envelope decode ≤ 1.3× the floor on every frame",
            worst("mcpwire_envelope", "floor_ignored_any", true),
            misses("mcpwire_envelope", "floor_ignored_any", &|r| r <= 1.3),
        );
        line(
            out,
            &format!("classification ≥ 5× faster than rmcp{}", excluded("rmcp")),
            worst("rmcp", "mcpwire_envelope", false),
            misses("rmcp", "mcpwire_envelope", &|r| r >= 5.0),
        );
        line(
            out,
            &format!(
                "classification ≥ 10× faster than rust-mcp-schema{}",
                excluded("rust_mcp_schema")
            ),
            worst("rust_mcp_schema", "mcpwire_envelope", false),
            misses("rust_mcp_schema", "mcpwire_envelope", &|r| r >= 10.0),
        );
        // Requests, decoded as the router does; a client decodes responses by its single
        // pass, whose targets the client-path section reads.
        let typed_frames = ["ping", "tools_call"];
        let typed_missed: Vec<String> = typed_frames
            .iter()
            .filter_map(|f| {
                let r = Self::ratio(
                    self.decode(f, "mcpwire_typed_2025_11_25"),
                    self.decode(f, "rmcp"),
                )?;
                (r > 1.0).then(|| format!("{f} {}", format_ratio(Some(r))))
            })
            .collect();
        let _ = writeln!(
            out,
            "- typed decode of a request (2025-11-25, envelope then params as the router does it) no slower than rmcp: {}{}; responses: see the client path below",
            check(typed_missed.is_empty()),
            if typed_missed.is_empty() {
                String::new()
            } else {
                format!(" (typed ÷ rmcp: {})", typed_missed.join(", "))
            }
        );
        out.push_str(
            "- zero heap allocations for id and method in the envelope decode: proved by \
             `cargo test -p mcpwire-tests --test alloc_envelope` (counting global allocator)\n",
        );
        match (&self.gen_timing, &self.previous_gen) {
            (Some(timing), _) => {
                let runs: Vec<String> = timing
                    .runs
                    .iter()
                    .map(|d| format!("{:.2} s", d.as_secs_f64()))
                    .collect();
                let _ = writeln!(
                    out,
                    "- `cargo xtask gen` for all five versions < 2 s (release, `xtask gen --check`, best of 3): {} ({:.2} s; runs {}){}",
                    check(timing.best < Duration::from_secs(2)),
                    timing.best.as_secs_f64(),
                    runs.join(", "),
                    if timing.fresh {
                        ""
                    } else {
                        "; the check reported stale files"
                    }
                );
            }
            (None, Some(previous)) => {
                out.push_str(previous);
                out.push('\n');
            }
            (None, None) => out.push_str("- `cargo xtask gen` < 2 s: not measured in this run\n"),
        }
        out.push('\n');
    }
}
