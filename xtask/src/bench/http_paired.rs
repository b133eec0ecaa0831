//! HTTP under load, paired (issue 48): mcpwire stateless, mcpwire in a session and rmcp's
//! best driven in interleaved slices (`benches/src/http_load.rs` `Paired`), read from each
//! run's `http-paired-<k>.tsv` beside the runs' medians, pooled over the runs, and judged
//! against the two load targets: requests/s over rmcp's best, and a stateless POST's
//! time over a POST's in a session.
//!
//! Why a second reading: criterion measures one row after the other, seconds apart, and on
//! this two-core machine a row's runs differ by 40–50% (the report's "Run to run"). A ratio
//! of two rows measured apart carries that spread whole. A round measures its three
//! contenders within 750 ms, one after the other, so what slows the machine slows all of
//! them; the median over every round of every run is the ratio a target is read from.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::format_ratio;

/// Run `k`'s paired rounds file.
pub(super) fn file(home: &Path, k: usize) -> PathBuf {
    super::runs::dir(home).join(format!("http-paired-{k}.tsv"))
}

/// One run's paired file: each round's requests/s by (concurrency, round, function), and
/// each contender's p99 (µs) over its slices by (concurrency, function).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct PairedRun {
    rates: BTreeMap<(usize, usize, String), f64>,
    p99: BTreeMap<(usize, String), u64>,
}

pub(super) fn parse(text: &str) -> PairedRun {
    let mut run = PairedRun::default();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["round", clients, round, function, rate] => {
                if let (Ok(c), Ok(r), Ok(rate)) = (clients.parse(), round.parse(), rate.parse()) {
                    run.rates.insert((c, r, (*function).to_owned()), rate);
                }
            }
            ["latency", clients, function, _, _, p99] => {
                if let (Ok(c), Ok(p)) = (clients.parse(), p99.parse()) {
                    run.p99.insert((c, (*function).to_owned()), p);
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

/// Which side of its target a ratio must stay on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Target {
    /// The ratio must reach the figure (requests/s over rmcp's).
    AtLeast(f64),
    /// The ratio must not exceed the figure (a time per request over another's).
    AtMost(f64),
}

impl Target {
    /// Whether `ratio` meets the target.
    pub fn met_by(self, ratio: f64) -> bool {
        match self {
            Target::AtLeast(figure) => ratio >= figure,
            Target::AtMost(figure) => ratio <= figure,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::AtLeast(figure) => write!(f, "≥ {figure}×"),
            Target::AtMost(figure) => write!(f, "≤ {figure}×"),
        }
    }
}

/// What the runs' rounds say of one ratio at one concurrency.
#[derive(Debug, PartialEq)]
pub(super) struct Ratio {
    /// Rounds over all runs that measured both sides.
    pub rounds: usize,
    /// The ratios' median, quartiles, lowest and highest.
    pub median: f64,
    pub quartiles: (f64, f64),
    pub range: (f64, f64),
    /// Rounds on the target's side of it.
    pub at_target: usize,
    /// The target the ratio is read against.
    pub target: Target,
}

impl Ratio {
    /// Whether the median meets the target.
    pub fn median_meets_target(&self) -> bool {
        self.target.met_by(self.median)
    }
}

/// `rate(over) ÷ rate(under)` in every round of every run at `clients`, with the rounds on
/// `target`'s side. `None` without any round. A time ratio is the rates' inverse: a
/// stateless POST's time over a session POST's is `rate(session) ÷ rate(stateless)`.
pub(super) fn ratio(
    runs: &[PairedRun],
    clients: usize,
    (over, under): (&str, &str),
    target: Target,
) -> Option<Ratio> {
    let mut ratios: Vec<f64> = runs
        .iter()
        .flat_map(|run| {
            run.rates
                .iter()
                .filter(|((c, _, function), _)| *c == clients && function == over)
                .filter_map(|((c, round, _), a)| {
                    let b = run.rates.get(&(*c, *round, under.to_owned()))?;
                    // A slice that answered nothing is no reading (as a time, 0 would pass).
                    (*a > 0.0 && *b > 0.0).then(|| a / b)
                })
        })
        .collect();
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    Some(Ratio {
        rounds: ratios.len(),
        median: quantile(&ratios, 0.5),
        quartiles: (quantile(&ratios, 0.25), quantile(&ratios, 0.75)),
        range: (ratios[0], ratios[ratios.len() - 1]),
        at_target: ratios.iter().filter(|&&r| target.met_by(r)).count(),
        target,
    })
}

/// Each run's p99 (µs) at `clients` of `ours` and `theirs`, for the runs that have both.
pub(super) fn p99_runs(
    runs: &[PairedRun],
    clients: usize,
    (ours, theirs): (&str, &str),
) -> Vec<(u64, u64)> {
    let p99 = |run: &PairedRun, id: &str| run.p99.get(&(clients, id.to_owned())).copied();
    runs.iter()
        .filter_map(|run| Some((p99(run, ours)?, p99(run, theirs)?)))
        .collect()
}

/// The `p` quantile of sorted, non-empty `values`, interpolated between neighbours.
fn quantile(values: &[f64], p: f64) -> f64 {
    let at = p * (values.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    values[low] + (values[high] - values[low]) * (at - low as f64)
}

/// One concurrency's line of the paired table.
pub(super) struct Line {
    pub clients: usize,
    /// mcpwire stateless ÷ rmcp's best, requests/s.
    pub over_rmcp: Option<Ratio>,
    /// A stateless POST's time ÷ a POST's in a session (runs written before the session
    /// load joined the rounds have none).
    pub over_session: Option<Ratio>,
    /// Each run's p99 (µs): (mcpwire stateless, rmcp's best).
    pub p99_runs: Vec<(u64, u64)>,
}

impl Line {
    /// The requests/s target read from the rounds: the median ratio on its target's side,
    /// and mcpwire's p99 no worse than rmcp's in every run. `None` without rounds.
    pub fn meets_rmcp(&self) -> Option<bool> {
        let ratio = self.over_rmcp.as_ref()?;
        let runs = self.p99_runs.len();
        Some(ratio.median_meets_target() && runs > 0 && self.p99_no_worse() == runs)
    }

    /// The stateless ÷ session target read from the rounds: the median on its side. `None`
    /// without rounds of the session load.
    pub fn meets_session(&self) -> Option<bool> {
        Some(self.over_session.as_ref()?.median_meets_target())
    }

    /// The runs whose mcpwire p99 is no worse than rmcp's.
    pub fn p99_no_worse(&self) -> usize {
        self.p99_runs
            .iter()
            .filter(|(ours, theirs)| ours <= theirs)
            .count()
    }
}

/// The paired table: one line per concurrency with rounds; nothing without any.
pub(super) fn table(lines: &[Line]) -> String {
    if lines.iter().all(|l| l.over_rmcp.is_none()) {
        return String::new();
    }
    let mut out = String::from(
        "\nPaired rounds: after the rows, each run drives mcpwire stateless, mcpwire in a \
         session and rmcp's best again, a 250 ms slice of each per round, in every order in \
         turn, after one unmeasured slice of each. Each server process holds only its own \
         contender's connections: the session load has a second example process, the same \
         binary and arguments (beside the stateless load, its idle connections would take the \
         example off its path for a lone connection, `http/repoll.rs`; how the two processes \
         were checked to serve alike: `benches/benches/http_load.rs`). A round's ratio divides two \
         of its slices' requests/s; the rounds of every run are pooled. p99: of every request \
         a contender sent in a run's rounds, each run's. The rows above measure each \
         contender seconds apart, and their runs differ by up to half (\"Run to run\"); a \
         round's slices share the machine's state, so the targets are read from the rounds' \
         medians.\n\n",
    );
    let header = [
        "clients",
        "rounds",
        "stateless ÷ rmcp best (requests/s): median",
        "quartiles",
        "lowest – highest",
        "rounds at the target",
        "p99 stateless / rmcp best (runs)",
        "stateless ÷ session (time per request): median",
        "quartiles",
        "lowest – highest",
        "rounds at the target",
    ];
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for line in lines {
        let Some(r) = &line.over_rmcp else { continue };
        let p99: Vec<String> = line
            .p99_runs
            .iter()
            .map(|(a, b)| format!("{a} / {b} µs"))
            .collect();
        let p99 = if p99.is_empty() {
            "—".to_owned()
        } else {
            p99.join("; ")
        };
        let session = line
            .over_session
            .as_ref()
            .map_or_else(|| std::array::from_fn(|_| "—".to_owned()), cells);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {p99} | {} |",
            line.clients,
            r.rounds,
            cells(r).join(" | "),
            session.join(" | "),
        );
    }
    out
}

/// One ratio's cells: median, quartiles, range, and the rounds on the target's side.
fn cells(r: &Ratio) -> [String; 4] {
    let f = |x: f64| format_ratio(Some(x));
    [
        f(r.median),
        format!("{} – {}", f(r.quartiles.0), f(r.quartiles.1)),
        format!("{} – {}", f(r.range.0), f(r.range.1)),
        format!("{} of {} ({})", r.at_target, r.rounds, r.target),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATELESS: &str = "mcpwire_stateless";
    const SESSION: &str = "mcpwire_session";
    const RMCP: &str = "rmcp_json_response";

    /// A run's file at one client: rounds of (mcpwire stateless, rmcp) requests/s, and of
    /// the session load when `session` has a rate for the round.
    fn run(rounds: &[(f64, f64)], session: &[f64], p99: (u64, u64)) -> PairedRun {
        let mut text = String::new();
        for (k, (a, b)) in rounds.iter().enumerate() {
            let _ = writeln!(text, "round\t1\t{k}\t{STATELESS}\t{a}");
            let _ = writeln!(text, "round\t1\t{k}\t{RMCP}\t{b}");
            if let Some(c) = session.get(k) {
                let _ = writeln!(text, "round\t1\t{k}\t{SESSION}\t{c}");
            }
        }
        let _ = writeln!(text, "latency\t1\t{STATELESS}\t100\t50\t{}", p99.0);
        let _ = writeln!(text, "latency\t1\t{RMCP}\t100\t60\t{}", p99.1);
        // Another concurrency's round is not this one's.
        let _ = writeln!(
            text,
            "round\t16\t0\t{STATELESS}\t1.0\nround\t16\t0\t{RMCP}\t100.0"
        );
        parse(&text)
    }

    fn line(runs: &[PairedRun], clients: usize) -> Line {
        Line {
            clients,
            over_rmcp: ratio(runs, clients, (STATELESS, RMCP), Target::AtLeast(1.5)),
            over_session: ratio(runs, clients, (SESSION, STATELESS), Target::AtMost(1.2)),
            p99_runs: p99_runs(runs, clients, (STATELESS, RMCP)),
        }
    }

    #[test]
    fn the_rounds_of_every_run_are_pooled_and_each_ratio_divides_one_round() {
        let runs = [
            run(&[(160.0, 100.0), (120.0, 100.0)], &[], (150, 250)),
            run(
                &[(170.0, 100.0), (200.0, 100.0), (150.0, 100.0)],
                &[],
                (160, 240),
            ),
        ];
        let line = line(&runs, 1);
        let r = line.over_rmcp.as_ref().expect("rounds");
        // Ratios 1.2, 1.5, 1.6, 1.7, 2.0.
        assert_eq!(r.rounds, 5);
        assert!((r.median - 1.6).abs() < 1e-9, "{r:?}");
        let (low, high) = r.quartiles;
        assert!((low - 1.5).abs() < 1e-9 && (high - 1.7).abs() < 1e-9);
        assert_eq!(r.range, (1.2, 2.0));
        assert_eq!(r.at_target, 4);
        assert_eq!(line.p99_runs, vec![(150, 250), (160, 240)]);
        assert_eq!(line.meets_rmcp(), Some(true));
        // Files written before the session load joined the rounds: its cells are blank and
        // its target is left to the rows.
        assert_eq!(line.meets_session(), None);
        let text = table(std::slice::from_ref(&line));
        assert!(
            text.ends_with(
                "| 1 | 5 | 1.60× | 1.50× – 1.70× | 1.20× – 2.00× | 4 of 5 (≥ 1.5×) \
                 | 150 / 250 µs; 160 / 240 µs | — | — | — | — |\n"
            ),
            "{text}"
        );
        let higher = Line {
            over_rmcp: ratio(&runs, 1, (STATELESS, RMCP), Target::AtLeast(1.65)),
            ..line
        };
        assert_eq!(higher.meets_rmcp(), Some(false));
    }

    #[test]
    fn a_stateless_post_is_judged_by_its_time_over_a_session_posts_in_the_same_round() {
        // Session requests/s over stateless, round by round: 1.1, 1.3, 1.15, 1.25, 1.0 (the
        // time ratio is the rates' inverse, and each divides the slices of one round).
        let runs = [
            run(
                &[(100.0, 60.0), (130.0, 80.0), (100.0, 60.0)],
                &[110.0, 169.0, 115.0],
                (150, 250),
            ),
            run(&[(100.0, 60.0), (120.0, 70.0)], &[125.0, 120.0], (150, 250)),
        ];
        let paired = line(&runs, 1);
        let r = paired.over_session.as_ref().expect("session rounds");
        assert_eq!(r.rounds, 5);
        assert!((r.median - 1.15).abs() < 1e-9, "{r:?}");
        // At most 1.2×: 1.1, 1.15 and 1.0 are on the target's side.
        assert_eq!(r.at_target, 3);
        assert_eq!(paired.meets_session(), Some(true));
        let text = table(std::slice::from_ref(&paired));
        assert!(
            text.ends_with("| 1.15× | 1.10× – 1.25× | 1.00× – 1.30× | 3 of 5 (≤ 1.2×) |\n"),
            "{text}"
        );
        // Two more slow rounds move the median over 1.2×.
        let slower = [
            runs[0].clone(),
            run(
                &[(100.0, 60.0), (120.0, 70.0), (100.0, 60.0), (100.0, 60.0)],
                &[125.0, 120.0, 140.0, 150.0],
                (150, 250),
            ),
        ];
        assert_eq!(line(&slower, 1).meets_session(), Some(false));
    }

    #[test]
    fn a_worse_p99_in_any_run_misses_and_no_rounds_say_nothing() {
        let runs = [
            run(&[(200.0, 100.0)], &[], (150, 250)),
            run(&[(200.0, 100.0)], &[], (260, 250)),
        ];
        assert_eq!(line(&runs, 1).meets_rmcp(), Some(false));
        let none = line(&runs, 64);
        assert_eq!(none.meets_rmcp(), None);
        assert_eq!(table(&[none]), "");
        // A round missing one side's figure is no round.
        let half = parse(&format!("round\t1\t0\t{STATELESS}\t100.0\n"));
        assert_eq!(
            ratio(&[half], 1, (STATELESS, RMCP), Target::AtLeast(1.5)),
            None
        );
        // Nor is a slice that answered nothing: as a time ratio, its 0 would pass.
        let silent = run(&[(100.0, 60.0)], &[0.0], (150, 250));
        assert_eq!(
            ratio(&[silent], 1, (SESSION, STATELESS), Target::AtMost(1.2)),
            None
        );
    }
}
