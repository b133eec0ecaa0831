//! The breakdown of the typed decode of the 5 KB `tools/list` result (issue 15): serde_json's
//! parse of the text, the `properties` maps, the owned result's heap work, measured one by one
//! by the bench crate's `typed_breakdown_tools_list` group, and what they say about the distance
//! to 3× the frame's floor.

use std::fmt::Write as _;

use super::{Report, format_ratio, format_time};

/// Steps of the `typed_breakdown_tools_list` group: (criterion function id, row title). The
/// bench crate's `breakdown::TOOLS_LIST_STEPS` names the same ids.
const TOOLS_LIST_BREAKDOWN_STEPS: [(&str, &str); 6] = [
    (
        "result_floor",
        "serde_json: `result` text → `IgnoredAny` (the parse alone)",
    ),
    (
        "result_typed",
        "serde_json: `result` text → generated `ListToolsResult`, dropped",
    ),
    (
        "result_fast",
        "fast_json (the runtime's typed decode): `result` text → generated `ListToolsResult`, dropped",
    ),
    (
        "properties_map",
        "the fourteen `properties` texts → `JsonObjectMap` (captured, every member checked to be an object), dropped",
    ),
    (
        "properties_object",
        "the same texts → `JsonObject` (captured only), dropped",
    ),
    (
        "result_clone",
        "the decoded `ListToolsResult` cloned and dropped (its owned strings and vectors allocated, copied and freed; no parsing)",
    ),
];

impl Report<'_> {
    /// The pieces of the typed decode of the 5 KB `tools/list` result, and what they say about
    /// its distance to 3× the frame's floor.
    pub(super) fn render_tools_list_breakdown(&self, out: &mut String) {
        let step = |id: &str| self.get("typed_breakdown_tools_list", id);
        if !self.render_steps(
            out,
            "`tools/list` result, 5 KB",
            "typed_breakdown_tools_list",
            &TOOLS_LIST_BREAKDOWN_STEPS,
        ) {
            return;
        }
        let (Some(parse), Some(typed)) = (step("result_floor"), step("result_typed")) else {
            return;
        };
        let added = typed - parse;
        let _ = writeln!(
            out,
            "- The typed decode costs {} the parse of the same text; it adds {} to it.",
            format_ratio(Self::ratio(Some(typed), Some(parse))),
            format_time(added)
        );
        if let Some(fast) = step("result_fast") {
            let _ = writeln!(
                out,
                "- Through `fast_json`, the runtime's typed decode, the same result takes {}: {} serde_json's typed decode.",
                format_time(fast),
                format_ratio(Self::ratio(Some(fast), Some(typed)))
            );
        }
        if let Some(floor) = self.decode("tools_list_result", "floor_ignored_any") {
            let _ = writeln!(
                out,
                "- 3× the frame's floor is {}: the typed decode of the result alone is {} the floor.",
                format_time(3.0 * floor),
                format_ratio(Self::ratio(Some(typed), Some(floor)))
            );
        }
        let check = match (step("properties_map"), step("properties_object")) {
            (Some(map), Some(object)) => {
                let _ = writeln!(
                    out,
                    "- The `properties` maps: {} captured and checked, of which the check that every member is an object is {} ({:.0}% of what the typed decode adds to the parse).",
                    format_time(map),
                    format_time(map - object),
                    100.0 * (map - object) / added
                );
                map - object
            }
            _ => 0.0,
        };
        if let Some(clone) = step("result_clone") {
            let _ = writeln!(
                out,
                "- Owning the result: allocating, filling and freeing its strings and vectors (a clone and drop) costs {}, {:.0}% of what the typed decode adds to the parse; every `String` member is its own heap block.",
                format_time(clone),
                100.0 * clone / added
            );
            let _ = writeln!(
                out,
                "- The rest of the addition, {}, is the decode's own work beyond the parse and the heap: matching member names and handing each value to its struct member.",
                format_time((added - check - clone).max(0.0))
            );
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{ScratchDir, report_from, write_estimate};

    #[test]
    fn the_tools_list_breakdown_says_where_the_added_time_goes() {
        let home = ScratchDir::new("tools-list");
        for (function, median_ns) in [
            ("result_floor", 3_000.0),
            ("result_typed", 10_000.0),
            ("properties_map", 3_500.0),
            ("properties_object", 2_100.0),
            ("result_clone", 3_500.0),
        ] {
            write_estimate(&home, "typed_breakdown_tools_list", function, median_ns);
        }
        write_estimate(
            &home,
            "decode_tools_list_result",
            "floor_ignored_any",
            3_200.0,
        );
        let out = report_from(&home, |r, out| r.render_tools_list_breakdown(out));
        let empty = report_from(&home.join("nothing"), |r, out| {
            r.render_tools_list_breakdown(out)
        });
        assert!(out.starts_with("## Where the typed time goes (`tools/list` result, 5 KB)"));
        for line in [
            "| serde_json: `result` text → generated `ListToolsResult`, dropped | 10.00 µs |",
            "- The typed decode costs 3.33× the parse of the same text; it adds 7.00 µs to it.",
            "- 3× the frame's floor is 9.60 µs: the typed decode of the result alone is 3.12× the floor.",
            "of which the check that every member is an object is 1.40 µs (20% of what the typed decode adds to the parse).",
            "a clone and drop) costs 3.50 µs, 50% of what the typed decode adds to the parse;",
            "- The rest of the addition, 2.10 µs, is the decode's own work beyond the parse and the heap",
        ] {
            assert!(out.contains(line), "{line} not in\n{out}");
        }
        assert_eq!(empty, "");
    }
}
