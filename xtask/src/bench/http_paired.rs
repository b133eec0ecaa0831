//! HTTP under load, paired (issue 48): mcpwire stateless against rmcp's best in alternating
//! slices (`benches/src/http_load.rs` `Paired`), read from each run's
//! `http-paired-<k>.tsv` beside the runs' medians, pooled over the runs, and judged against
//! the requests/s target.
//!
//! Why a second reading: criterion measures one row after the other, seconds apart, and on
//! this two-core machine a row's runs differ by 40–50% (the report's "Run to run"). A ratio
//! of two rows measured apart carries that spread whole. A round measures both contenders
//! within half a second, in alternating order, so what slows the machine slows both; the
//! median over every round of every run is the ratio the target is read from.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::format_ratio;

/// Run `k`'s paired rounds file.
pub(super) fn file(home: &Path, k: usize) -> PathBuf {
    home.join("mcpwire-runs")
        .join(format!("http-paired-{k}.tsv"))
}

/// One run's paired file: each round's requests/s (mcpwire, rmcp) and each contender's p99
/// (µs) over its slices, by concurrency.
#[derive(Debug, Default, PartialEq)]
pub(super) struct PairedRun {
    rounds: Vec<(usize, f64, f64)>,
    p99: Vec<(usize, String, u64)>,
}

pub(super) fn parse(text: &str) -> PairedRun {
    let mut run = PairedRun::default();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["round", clients, _, ours, theirs] => {
                if let (Ok(c), Ok(a), Ok(b)) = (clients.parse(), ours.parse(), theirs.parse()) {
                    run.rounds.push((c, a, b));
                }
            }
            ["latency", clients, function, _, _, p99] => {
                if let (Ok(c), Ok(p)) = (clients.parse(), p99.parse()) {
                    run.p99.push((c, (*function).to_owned(), p));
                }
            }
            _ => {}
        }
    }
    run
}

/// The paired files of runs 1, 2, … as far as they go.
pub(super) fn load(home: &Path) -> Vec<PairedRun> {
    (1..)
        .map_while(|k| std::fs::read_to_string(file(home, k)).ok())
        .map(|text| parse(&text))
        .collect()
}

/// What the runs' rounds say at one concurrency.
#[derive(Debug, PartialEq)]
pub(super) struct Summary {
    /// Rounds over all runs.
    pub rounds: usize,
    /// The ratios' median, quartiles, lowest and highest.
    pub median: f64,
    pub quartiles: (f64, f64),
    pub range: (f64, f64),
    /// Rounds at or above the target.
    pub at_target: usize,
    /// Each run's p99 (µs): (mcpwire stateless, rmcp's best).
    pub p99_runs: Vec<(u64, u64)>,
}

impl Summary {
    /// The target read from the rounds: the median ratio at least `target`, and mcpwire's
    /// p99 no worse than rmcp's in any run.
    pub fn meets(&self, target: f64) -> bool {
        self.median >= target && self.p99_runs.iter().all(|(ours, theirs)| ours <= theirs)
    }
}

/// The rounds of every run at `clients`, ratios mcpwire ÷ rmcp; `None` without any.
pub(super) fn summarize(
    runs: &[PairedRun],
    clients: usize,
    (ours, theirs): (&str, &str),
    target: f64,
) -> Option<Summary> {
    let mut ratios: Vec<f64> = runs
        .iter()
        .flat_map(|run| &run.rounds)
        .filter(|(c, _, b)| *c == clients && *b > 0.0)
        .map(|(_, a, b)| a / b)
        .collect();
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    let p99_of = |run: &PairedRun, id: &str| {
        run.p99
            .iter()
            .find(|(c, function, _)| *c == clients && function == id)
            .map(|(_, _, p99)| *p99)
    };
    Some(Summary {
        rounds: ratios.len(),
        median: quantile(&ratios, 0.5),
        quartiles: (quantile(&ratios, 0.25), quantile(&ratios, 0.75)),
        range: (ratios[0], ratios[ratios.len() - 1]),
        at_target: ratios.iter().filter(|&&r| r >= target).count(),
        p99_runs: runs
            .iter()
            .filter_map(|run| Some((p99_of(run, ours)?, p99_of(run, theirs)?)))
            .collect(),
    })
}

/// The `p` quantile of sorted, non-empty `values`, interpolated between neighbours.
fn quantile(values: &[f64], p: f64) -> f64 {
    let at = p * (values.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    values[low] + (values[high] - values[low]) * (at - low as f64)
}

/// The paired table: one line per concurrency that has rounds; nothing without any.
pub(super) fn table(summaries: &[(usize, Option<Summary>)], target: f64) -> String {
    if summaries.iter().all(|(_, s)| s.is_none()) {
        return String::new();
    }
    let mut out = String::from(
        "\nPaired rounds: after the rows, each run drives mcpwire stateless and rmcp's best \
         again in alternating 250 ms slices, one of each per round, the order swapped every \
         other round, after one unmeasured slice of each. A round's ratio is mcpwire's \
         requests/s over rmcp's in the same half second; the rounds of every run are pooled. \
         p99: of every request a contender sent in a run's rounds, each run's. The rows above \
         measure each contender seconds apart, and their runs differ by up to half (\"Run to \
         run\"); a round's two slices share the machine's state, so the target is read from \
         the rounds' median.\n\n",
    );
    out.push_str(
        "| clients | rounds | stateless ÷ rmcp best, median | quartiles | lowest – highest \
         | rounds at the target | p99 stateless / rmcp best (runs) |\n",
    );
    out.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    for (clients, summary) in summaries {
        let Some(s) = summary else { continue };
        let p99: Vec<String> = s
            .p99_runs
            .iter()
            .map(|(a, b)| format!("{a} / {b} µs"))
            .collect();
        let _ = writeln!(
            out,
            "| {clients} | {} | {} | {} – {} | {} – {} | {} of {} (≥ {target}×) | {} |",
            s.rounds,
            format_ratio(Some(s.median)),
            format_ratio(Some(s.quartiles.0)),
            format_ratio(Some(s.quartiles.1)),
            format_ratio(Some(s.range.0)),
            format_ratio(Some(s.range.1)),
            s.at_target,
            s.rounds,
            p99.join("; "),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDS: (&str, &str) = ("mcpwire_stateless", "rmcp_json_response");

    fn run(rounds: &[(f64, f64)], p99: (u64, u64)) -> PairedRun {
        let mut text = String::new();
        for (k, (a, b)) in rounds.iter().enumerate() {
            let _ = writeln!(text, "round\t1\t{k}\t{a}\t{b}");
        }
        let _ = writeln!(text, "latency\t1\t{}\t100\t50\t{}", IDS.0, p99.0);
        let _ = writeln!(text, "latency\t1\t{}\t100\t60\t{}", IDS.1, p99.1);
        // Another concurrency's round is not this one's.
        text.push_str("round\t16\t0\t1.0\t100.0\n");
        parse(&text)
    }

    #[test]
    fn the_rounds_of_every_run_are_pooled_and_their_median_is_the_reading() {
        let runs = [
            run(&[(160.0, 100.0), (120.0, 100.0)], (150, 250)),
            run(
                &[(170.0, 100.0), (200.0, 100.0), (150.0, 100.0)],
                (160, 240),
            ),
        ];
        let s = summarize(&runs, 1, IDS, 1.5).expect("rounds");
        // Ratios 1.2, 1.5, 1.6, 1.7, 2.0.
        assert_eq!(s.rounds, 5);
        assert!((s.median - 1.6).abs() < 1e-9, "{s:?}");
        assert!((s.quartiles.0 - 1.5).abs() < 1e-9 && (s.quartiles.1 - 1.7).abs() < 1e-9);
        assert_eq!(s.range, (1.2, 2.0));
        assert_eq!(s.at_target, 4);
        assert_eq!(s.p99_runs, vec![(150, 250), (160, 240)]);
        assert!(s.meets(1.5));
        assert!(!s.meets(1.65));
        let line = table(&[(1, Some(s))], 1.5);
        assert!(
            line.ends_with(
                "| 1 | 5 | 1.60× | 1.50× – 1.70× | 1.20× – 2.00× | 4 of 5 (≥ 1.5×) \
                 | 150 / 250 µs; 160 / 240 µs |\n"
            ),
            "{line}"
        );
    }

    #[test]
    fn a_worse_p99_in_any_run_misses_the_target_and_no_rounds_say_nothing() {
        let runs = [
            run(&[(200.0, 100.0)], (150, 250)),
            run(&[(200.0, 100.0)], (260, 250)),
        ];
        let s = summarize(&runs, 1, IDS, 1.5).expect("rounds");
        assert!(!s.meets(1.5));
        assert_eq!(summarize(&runs, 64, IDS, 1.5), None);
        assert_eq!(table(&[(64, None)], 1.5), "");
    }
}
