//! The report's "Where the typed time goes" sections: a criterion group's steps as a table,
//! and what the 100 KB `resources/read` breakdown says.

use std::fmt::Write as _;

use super::BREAKDOWN_STEPS;
use super::criterion::frame_sizes;
use super::report::{Report, format_ratio, format_time};

impl Report<'_> {
    /// The heading "Where the typed time goes (`what`)" and the table of the criterion
    /// `group`'s `steps` (function id, row title), their medians; nothing, and `false`, when
    /// the run measured none of them.
    pub(super) fn render_steps(
        &self,
        out: &mut String,
        what: &str,
        group: &str,
        steps: &[(&str, &str)],
    ) -> bool {
        let step = |id: &str| self.get(group, id);
        if steps.iter().all(|(id, _)| step(id).is_none()) {
            return false;
        }
        let _ = write!(
            out,
            "## Where the typed time goes ({what})\n\n| step | median |\n| --- | --- |\n"
        );
        for (id, title) in steps {
            let _ = writeln!(
                out,
                "| {title} | {} |",
                step(id).map_or("—".to_owned(), format_time)
            );
        }
        out.push('\n');
        true
    }

    /// The pieces of the typed decode of the 100 KB `resources/read` frame, and what they say
    /// about the typed-decode target there.
    pub(super) fn render_breakdown(&self, out: &mut String) {
        let step = |id: &str| self.get("typed_breakdown", id);
        if !self.render_steps(
            out,
            "`resources/read` result, 100 KB text",
            "typed_breakdown",
            &BREAKDOWN_STEPS,
        ) {
            return;
        }
        let frame = "resources_read_100k";
        let typed = self.decode(frame, "mcpwire_typed_2025_11_25");
        let rmcp = self.decode(frame, "rmcp");
        let (envelope, result, fast, text, text_fast) = (
            step("envelope"),
            step("result_typed"),
            step("result_fast"),
            step("text_string"),
            step("text_fast"),
        );
        if let (Some(typed), Some(envelope), Some(fast)) = (typed, envelope, fast) {
            let _ = writeln!(
                out,
                "- mcpwire typed ({}) is the envelope pass ({}) plus the runtime's decode of the `result` text through `fast_json` ({}; serde_json alone would take {}).",
                format_time(typed),
                format_time(envelope),
                format_time(fast),
                result.map_or_else(|| "?".to_owned(), format_time)
            );
        }
        if let (Some(text), Some(result), Some(rmcp)) = (text, result, rmcp) {
            let _ = writeln!(
                out,
                "- The one 100 KB string is {:.0}% of serde_json's result decode ({} alone, {:.1} GB/s); rmcp's whole decode ({}) is the same string plus {} for everything else.",
                100.0 * text / result,
                format_time(text),
                self.text_bytes() as f64 / text,
                format_time(rmcp),
                format_time((rmcp - text).max(0.0))
            );
        }
        if let (Some(text), Some(text_fast)) = (text, text_fast) {
            let _ = writeln!(
                out,
                "- `fast_json` decodes that string in {} ({:.1} GB/s), {} serde_json's time: it finds quotes, backslashes and control bytes 64 bytes at a time and copies the runs between escapes whole.",
                format_time(text_fast),
                self.text_bytes() as f64 / text_fast,
                format_ratio(Self::ratio(Some(text_fast), Some(text)))
            );
        }
        if let (Some(union), Some(direct)) = (step("item_union"), step("item_direct")) {
            let _ = writeln!(
                out,
                "- The generated union reads the item's object one level deep (its string members decoded on the way, the others kept as raw text so integers keep their spelling), then decodes the chosen variant from those members: {} against {} decoding `TextResourceContents` directly ({}).",
                format_time(union),
                format_time(direct),
                if union <= direct * 1.05 {
                    "the union is not what limits"
                } else {
                    "reading the members before the variant costs the difference"
                }
            );
        }
        if let (Some(typed), Some(rmcp), Some(envelope)) = (typed, rmcp, envelope) {
            if typed > rmcp {
                let _ = writeln!(
                    out,
                    "- typed − rmcp = {}; the envelope pass is {}: mcpwire validates the whole frame before the typed decode (envelope first, so a bad frame is answered with its id), and the typed decode reads the string again.",
                    format_time(typed - rmcp),
                    format_time(envelope)
                );
            } else {
                let _ = writeln!(
                    out,
                    "- typed ÷ rmcp = {}: the envelope pass fits within rmcp's own overhead.",
                    format_ratio(Self::ratio(Some(typed), Some(rmcp)))
                );
            }
        }
        out.push('\n');
    }

    /// Bytes of the 100 KB frame (the breakdown's throughput figure uses the frame size; the
    /// string is all but a few hundred bytes of it).
    pub(super) fn text_bytes(&self) -> usize {
        frame_sizes()
            .get("resources_read_100k")
            .copied()
            .unwrap_or(0)
    }
}
