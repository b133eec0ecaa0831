//! Shrinking a failing generated case to the smallest input that still shows the defect: first
//! within its generators (proptest's simplify/complicate search), then by removing bytes
//! (`mcpwire_proptest::shrink::shrink_bytes`, as `check_server` does), each candidate judged on
//! the oracle derived from its own bytes.

use std::time::{Duration, Instant};

use mcpwire_proptest::derive_expected;
use mcpwire_proptest::shrink::shrink_bytes;

use super::cases::{CheckCase, Generated, Oracle};
use super::exchange::Exchange;
use super::judge::{Finding, RuleId};
use super::lenient::readings;

/// Limits of one shrink: steps (each one exchange with the server) and wall time.
#[derive(Debug, Clone, Copy)]
pub struct ShrinkBudget {
    /// The most exchanges spent.
    pub steps: usize,
    /// The most time spent.
    pub time: Duration,
}

impl Default for ShrinkBudget {
    fn default() -> ShrinkBudget {
        ShrinkBudget {
            steps: 400,
            time: Duration::from_secs(20),
        }
    }
}

/// The smallest case found, its findings, and the steps spent.
pub struct Shrunk {
    /// The smallest case that still shows the finding kind.
    pub case: CheckCase,
    /// Its findings.
    pub findings: Vec<Finding>,
    /// What the server sent for it.
    pub exchange: Exchange,
    /// Exchanges spent.
    pub steps: usize,
}

/// Shrinks generated case `index` (which showed a finding of `kind` under `rule`) with proptest's
/// simplify/complicate search, keeping only candidates that show `kind` again. `run` sends a
/// case to the server and judges it.
#[allow(clippy::too_many_arguments)]
pub fn shrink(
    generated: &mut Generated,
    oracle: &Oracle,
    index: usize,
    rule: RuleId,
    kind: &str,
    budget: ShrinkBudget,
    mut run: impl FnMut(&CheckCase) -> (Vec<Finding>, Exchange),
) -> Option<Shrunk> {
    let started = Instant::now();
    let mut best: Option<Shrunk> = None;
    let mut steps = 0;
    let mut failing = true;
    while steps < budget.steps && started.elapsed() < budget.time {
        let tree = &mut generated.trees[index];
        let moved = if failing {
            tree.simplify()
        } else {
            tree.complicate()
        };
        if !moved {
            break;
        }
        let case = generated.case(oracle, index);
        let (findings, exchange) = run(&case);
        steps += 1;
        failing = findings.iter().any(|f| f.rule == rule && f.kind == kind);
        let smaller = best
            .as_ref()
            .is_none_or(|b| case.frame.len() <= b.case.frame.len());
        if failing && smaller {
            best = Some(Shrunk {
                case,
                findings,
                exchange,
                steps,
            });
        }
    }
    let mut best = best?;
    // Past the generators: remove bytes while the same kind shows, within the budget left.
    let left = budget.steps.saturating_sub(steps);
    let start = best.case.frame.clone();
    let (_, spent) = shrink_bytes(&start, left, |frame| {
        if started.elapsed() >= budget.time {
            return false;
        }
        let case = CheckCase {
            label: best.case.label.clone(),
            expected: derive_expected(oracle.facts, frame, oracle.methods()),
            batch_reading: oracle.batch_reading(frame),
            readings: readings(oracle.facts, frame, oracle.methods()),
            frame: frame.to_vec(),
            generated: best.case.generated,
        };
        let (findings, exchange) = run(&case);
        let shows = findings.iter().any(|f| f.rule == rule && f.kind == kind);
        if shows {
            best = Shrunk {
                case,
                findings,
                exchange,
                steps: 0,
            };
        }
        shows
    });
    Some(Shrunk {
        steps: steps + spent,
        ..best
    })
}
