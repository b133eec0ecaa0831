//! Repeated runs of the suite (`cargo xtask bench --runs N`): each run's medians are kept, and
//! the report reads, for every benchmark, the fastest of its runs' medians.
//!
//! The machine is shared and has slow spells of seconds to minutes: one run of the whole suite
//! (about ten minutes) catches several, and whichever benchmarks were running then read slow,
//! so a ratio across two benchmarks can cross a target's line in one run and not in the next.
//! Such noise only ever adds time (nothing makes code run faster than it can), so of a
//! benchmark's runs the fastest is the least disturbed: criterion's median already sets aside
//! the disturbed samples within a run, the minimum over runs sets aside the disturbed runs. A
//! median over runs would not: in a noisy hour two runs of three can be hit. The "Run to run"
//! section says how far apart the runs were, benchmark by benchmark, so a reader can tell a
//! verdict that holds from one that sits within the noise.
//!
//! Each run's medians are written to `<criterion home>/mcpwire-runs/run-<k>.tsv` (group,
//! function, median in ns), so `--report-only` renders the same report again.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{Results, format_time};

/// The directory of the runs' medians under criterion's home (and of the HTTP load's files).
pub(super) fn dir(home: &Path) -> PathBuf {
    home.join("mcpwire-runs")
}

/// Forgets the runs of an earlier `cargo xtask bench`.
pub(super) fn clear(home: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(dir(home)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot clear {}: {e}", dir(home).display()))
        }
        _ => Ok(()),
    }
}

/// Keeps the medians of run `k` (counted from 1).
pub(super) fn save(home: &Path, k: usize, results: &Results) -> Result<(), String> {
    let dir = dir(home);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut text = String::new();
    for ((group, function), median) in results {
        let _ = writeln!(text, "{group}\t{function}\t{median}");
    }
    let file = dir.join(format!("run-{k}.tsv"));
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The kept runs, in the order they ran; empty when none were kept. A line that does not read
/// as `group`, `function`, median is skipped.
pub(super) fn load(home: &Path) -> Vec<Results> {
    let Ok(entries) = std::fs::read_dir(dir(home)) else {
        return Vec::new();
    };
    let mut numbered: Vec<(usize, Results)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let k = name
                .strip_prefix("run-")?
                .strip_suffix(".tsv")?
                .parse()
                .ok()?;
            let text = std::fs::read_to_string(entry.path()).ok()?;
            Some((k, parse(&text)))
        })
        .collect();
    numbered.sort_by_key(|(k, _)| *k);
    numbered.into_iter().map(|(_, results)| results).collect()
}

fn parse(text: &str) -> Results {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split('\t');
            let (group, function, median) = (parts.next()?, parts.next()?, parts.next()?);
            let median: f64 = median.parse().ok()?;
            Some(((group.to_owned(), function.to_owned()), median))
        })
        .collect()
}

/// Every benchmark's fastest median over the runs that measured it.
pub(super) fn combine(runs: &[Results]) -> Results {
    let mut combined = Results::new();
    for (key, &time) in runs.iter().flatten() {
        combined
            .entry(key.clone())
            .and_modify(|fastest: &mut f64| *fastest = fastest.min(time))
            .or_insert(time);
    }
    combined
}

/// The medians of one benchmark, run by run, skipping the runs that did not measure it.
fn times_of(runs: &[Results], key: &(String, String)) -> Vec<f64> {
    runs.iter()
        .filter_map(|run| run.get(key).copied())
        .collect()
}

/// A spread (slowest run ÷ fastest) above which a benchmark is listed by name.
const LISTED_SPREAD: f64 = 1.10;

/// The "Run to run" section: how many runs the report combines and how far apart they were;
/// nothing for a single run.
pub(super) fn render(runs: &[Results], out: &mut String) {
    if runs.len() < 2 {
        return;
    }
    // Every benchmark some run measured, once.
    let benchmarks: BTreeSet<&(String, String)> = runs.iter().flat_map(|run| run.keys()).collect();
    // (spread, group, function, the runs' times)
    let mut spreads: Vec<(f64, &str, &str, Vec<f64>)> = benchmarks
        .into_iter()
        .filter_map(|key| {
            let times = times_of(runs, key);
            let fastest = times.iter().copied().fold(f64::INFINITY, f64::min);
            let slowest = times.iter().copied().fold(0.0, f64::max);
            (times.len() >= 2 && fastest > 0.0)
                .then(|| (slowest / fastest, key.0.as_str(), key.1.as_str(), times))
        })
        .collect();
    if spreads.is_empty() {
        return;
    }
    spreads.sort_by(|a, b| a.0.total_cmp(&b.0));
    let percentile = |p: usize| spreads[(spreads.len() - 1) * p / 100].0;
    let percent = |spread: f64| format!("{:.1}%", (spread - 1.0) * 100.0);
    out.push_str("## Run to run\n\n");
    let _ = writeln!(
        out,
        "The benchmarks ran {} times in a row; every time above is, for its benchmark, the fastest \
         of the runs' medians, and every ratio divides two such times. The machine is shared: \
         other work and the host's slow spells only ever add time, to whichever benchmarks run \
         during them, so the fastest run of a benchmark is its least disturbed one. Spread of a \
         benchmark: its slowest run's median over its fastest run's, less one. Over the {} \
         benchmarks: median spread {}, 90th percentile {}, largest {}.\n",
        runs.len(),
        spreads.len(),
        percent(percentile(50)),
        percent(percentile(90)),
        percent(percentile(100)),
    );
    let listed: Vec<_> = spreads
        .iter()
        .rev()
        .filter(|(spread, ..)| *spread > LISTED_SPREAD)
        .collect();
    if listed.is_empty() {
        let _ = writeln!(
            out,
            "No benchmark spread more than {}.\n",
            percent(LISTED_SPREAD)
        );
        return;
    }
    let _ = writeln!(
        out,
        "The benchmarks that spread more than {}, widest first (criterion group / function: \
         each run's median, in the order they ran):\n",
        percent(LISTED_SPREAD)
    );
    out.push_str("| benchmark | spread | runs |\n| --- | --- | --- |\n");
    for (spread, group, function, times) in listed {
        let times: Vec<String> = times.iter().map(|&t| format_time(t)).collect();
        let _ = writeln!(
            out,
            "| {group} / {function} | {} | {} |",
            percent(*spread),
            times.join(", ")
        );
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fixture::ScratchDir;

    fn results(entries: &[(&str, &str, f64)]) -> Results {
        entries
            .iter()
            .map(|&(g, f, t)| ((g.to_owned(), f.to_owned()), t))
            .collect()
    }

    fn key(group: &str, function: &str) -> (String, String) {
        (group.to_owned(), function.to_owned())
    }

    #[test]
    fn the_fastest_run_wins_and_a_benchmark_one_run_missed_counts_the_others() {
        let runs = [
            // Slow spells: the floor reads 50% slow in the first run, 10% in the last.
            results(&[
                ("decode_ping", "floor", 90.0),
                ("decode_ping", "rmcp", 700.0),
            ]),
            results(&[("decode_ping", "floor", 60.0)]),
            results(&[
                ("decode_ping", "floor", 66.0),
                ("decode_ping", "rmcp", 680.0),
            ]),
        ];
        let combined = combine(&runs);
        assert_eq!(combined[&key("decode_ping", "floor")], 60.0);
        assert_eq!(combined[&key("decode_ping", "rmcp")], 680.0);
        assert_eq!(combined.len(), 2);
    }

    #[test]
    fn runs_are_kept_on_disk_in_the_order_they_ran_and_cleared_before_the_next() {
        let home = ScratchDir::new("bench-runs");
        for k in 1..=11 {
            save(&home, k, &results(&[("g", "f", k as f64 * 1.5)])).unwrap();
        }
        let loaded = load(&home);
        let times: Vec<f64> = loaded.iter().map(|run| run[&key("g", "f")]).collect();
        // run-10 and run-11 after run-9, not after run-1.
        assert_eq!(times, (1..=11).map(|k| k as f64 * 1.5).collect::<Vec<_>>());
        std::fs::write(dir(&home).join("notes.txt"), "not a run").unwrap();
        std::fs::write(dir(&home).join("run-12.tsv"), "g\tf\tslow\ng\th\t3e2\n").unwrap();
        let loaded = load(&home);
        assert_eq!(loaded.len(), 12, "the stray file is no run");
        assert_eq!(
            loaded[11],
            results(&[("g", "h", 300.0)]),
            "the bad line is skipped"
        );
        clear(&home).unwrap();
        assert!(load(&home).is_empty());
        clear(&home).unwrap();
    }

    #[test]
    fn the_section_gives_the_spread_and_lists_the_benchmarks_that_moved() {
        let mut out = String::new();
        render(&[results(&[("g", "f", 1.0)])], &mut out);
        assert_eq!(out, "", "one run has no spread to report");
        let runs = [
            results(&[
                ("decode_ping", "floor", 60.0),
                ("client", "single", 10_000.0),
            ]),
            results(&[
                ("decode_ping", "floor", 67.0),
                ("client", "single", 10_100.0),
            ]),
            results(&[
                ("decode_ping", "floor", 61.0),
                ("client", "single", 9_900.0),
            ]),
        ];
        render(&runs, &mut out);
        assert!(
            out.starts_with("## Run to run\n\nThe benchmarks ran 3 times in a row;"),
            "{out}"
        );
        assert!(
            out.contains(
                "Over the 2 benchmarks: median spread 2.0%, 90th percentile 2.0%, largest 11.7%."
            ),
            "{out}"
        );
        assert!(
            out.contains("| decode_ping / floor | 11.7% | 60 ns, 67 ns, 61 ns |"),
            "{out}"
        );
        assert!(!out.contains("| client / single |"), "{out}");

        let mut out = String::new();
        render(
            &runs.map(|run| run.into_iter().filter(|(k, _)| k.0 == "client").collect()),
            &mut out,
        );
        assert!(
            out.contains("largest 2.0%.\n\nNo benchmark spread more than 10.0%.\n"),
            "{out}"
        );
    }
}
