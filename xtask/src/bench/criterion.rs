//! Reading criterion's output: each benchmark's median from `estimates.json`, and each
//! frame's size from the throughput `benchmark.json` records.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use super::FRAMES;
use super::cargo_runs::{Dirs, workspace_root};

/// Medians in nanoseconds, by (group, function).
pub(super) type Results = BTreeMap<(String, String), f64>;

/// Criterion's medians under `home`; with `since`, only those it wrote at or after that time.
pub(super) fn read_results(home: &Path, since: Option<SystemTime>) -> Results {
    let mut results = Results::new();
    let Ok(groups) = std::fs::read_dir(home) else {
        return results;
    };
    for group in groups.flatten() {
        let Ok(functions) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for function in functions.flatten() {
            let estimates = function.path().join("new").join("estimates.json");
            let written = || {
                std::fs::metadata(&estimates)
                    .and_then(|m| m.modified())
                    .ok()
            };
            if since.is_some_and(|since| written().is_none_or(|at| at < since)) {
                continue;
            }
            if let Some(median) = std::fs::read_to_string(&estimates)
                .ok()
                .and_then(|t| median_ns(&t))
            {
                results.insert(
                    (
                        group.file_name().to_string_lossy().into_owned(),
                        function.file_name().to_string_lossy().into_owned(),
                    ),
                    median,
                );
            }
        }
    }
    results
}

/// The median's point estimate (ns) from criterion's `estimates.json`, read without a JSON
/// library: the first `"point_estimate":` after `"median":`.
fn median_ns(estimates: &str) -> Option<f64> {
    let after = &estimates[estimates.find("\"median\"")?..];
    let after = &after[after.find("\"point_estimate\"")? + "\"point_estimate\"".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let end = after
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(after.len());
    after[..end].parse().ok()
}

pub(super) fn frame_sizes() -> BTreeMap<String, usize> {
    // The bench harness knows the exact sizes; criterion records them as the throughput.
    // Read them back from `benchmark.json` of each group's floor run.
    let mut sizes = BTreeMap::new();
    let dirs = Dirs::new(&workspace_root());
    for (frame, _) in FRAMES {
        let path = dirs
            .criterion_home()
            .join(format!("decode_{frame}"))
            .join("floor_ignored_any")
            .join("new")
            .join("benchmark.json");
        if let Some(bytes) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| throughput_bytes(&t))
        {
            sizes.insert(frame.to_owned(), bytes);
        }
    }
    sizes
}

fn throughput_bytes(benchmark_json: &str) -> Option<usize> {
    let after = &benchmark_json[benchmark_json.find("\"Bytes\"")? + "\"Bytes\"".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let end = after
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(after.len());
    after[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::bench::fixture;

    #[test]
    fn a_run_reads_only_what_it_measured() {
        let home = fixture::ScratchDir::new("bench-since");
        fixture::write_estimate(&home, "decode_ping", "rmcp", 700.0);
        // File times come from the kernel's coarse clock, a tick behind `SystemTime::now`.
        let pause = Duration::from_millis(50);
        std::thread::sleep(pause);
        let started = SystemTime::now();
        std::thread::sleep(pause);
        fixture::write_estimate(&home, "decode_ping", "floor_ignored_any", 60.0);
        let key = |f: &str| ("decode_ping".to_owned(), f.to_owned());
        let measured = read_results(&home, Some(started));
        assert_eq!(
            measured.keys().collect::<Vec<_>>(),
            [&key("floor_ignored_any")]
        );
        assert_eq!(read_results(&home, None).len(), 2);
    }

    #[test]
    fn reads_the_median_not_the_mean() {
        let json = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.75e2,"standard_error":0.2}}"#;
        assert_eq!(median_ns(json), Some(175.0));
        assert_eq!(median_ns(r#"{"mean":{"point_estimate":1}}"#), None);
    }

    #[test]
    fn reads_the_throughput_bytes() {
        assert_eq!(
            throughput_bytes(r#"{"throughput":{"Bytes":5123},"x":1}"#),
            Some(5123)
        );
        assert_eq!(throughput_bytes(r#"{"throughput":null}"#), None);
    }
}
