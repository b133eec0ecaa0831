//! The result of a check: per-rule tallies, failures grouped by kind, and the verdict.

use std::collections::BTreeMap;
use std::time::Duration;

use mcpwire_types::ProfileFacts;

use super::cases::CheckCase;
use super::describe::{describe_expected, show_frame};
use super::exchange::Exchange;
use super::expect::Verdict;
use super::judge::{Finding, RuleId, rules_exercised};

/// Pass/fail counts of one rule over all cases that exercise it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleTally {
    /// The rule.
    pub rule: RuleId,
    /// Cases that exercise the rule and keep it.
    pub passed: usize,
    /// Cases that break it.
    pub failed: usize,
}

/// One input that shows a failure, with what was expected and observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The case's label (fixed case name or mutation).
    pub label: String,
    /// The input frame, as text.
    pub input: String,
    /// The input's length in bytes.
    pub input_len: usize,
    /// What a correct server sends.
    pub expected: String,
    /// The frames the server sent, as text.
    pub observed: Vec<String>,
    /// The HTTP status, over HTTP.
    pub http_status: Option<u16>,
    /// The finding's message.
    pub message: String,
    /// The length of the generated input before shrinking, when it was shrunk.
    pub shrunk_from: Option<usize>,
}

impl Example {
    /// The example of `finding` in `case`.
    pub fn new(
        facts: &ProfileFacts,
        case: &CheckCase,
        exchange: &Exchange,
        finding: &Finding,
    ) -> Example {
        Example {
            label: case.label.clone(),
            input: show_frame(&case.frame),
            input_len: case.frame.len(),
            expected: describe_expected(facts, &case.expected),
            observed: exchange.replies.iter().map(|r| show_frame(r)).collect(),
            http_status: exchange.http.as_ref().map(|h| h.status),
            message: finding.message.clone(),
            shrunk_from: None,
        }
    }
}

/// All failures of one kind under one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureGroup {
    /// The kind, e.g. `reply-to-notification`.
    pub kind: String,
    /// The rule it breaks.
    pub rule: RuleId,
    /// How many cases showed it.
    pub cases: usize,
    /// The smallest input found that shows it.
    pub example: Example,
    /// For a generated example: the index of its tree (to shrink it).
    pub generated: Option<usize>,
}

/// A whole check's result.
#[derive(Debug, Clone)]
pub struct Report {
    /// What was checked (`stdio: …` or `http: …`).
    pub target: String,
    /// The profile of the session.
    pub profile: &'static str,
    /// The seed of the generated cases.
    pub seed: u64,
    /// Fixed cases run.
    pub fixed_cases: usize,
    /// Generated cases run.
    pub generated_cases: usize,
    /// Server restarts after crashes and hangs.
    pub restarts: usize,
    /// Server-initiated messages seen (ignored by the rules).
    pub server_messages: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Per-rule tallies, in rule order.
    pub rules: Vec<RuleTally>,
    /// Failures, one group per rule and kind, in rule order.
    pub failures: Vec<FailureGroup>,
    /// Failures compared with `--expect-failures`.
    pub verdict: Verdict,
    /// Whether the run stopped early because the server became unreachable.
    pub aborted: Option<String>,
}

impl Report {
    /// Whether the run passes: no unexpected failure, no stale expectation, not aborted.
    pub fn passes(&self) -> bool {
        self.verdict.passes() && self.aborted.is_none()
    }

    /// Total cases run.
    pub fn cases(&self) -> usize {
        self.fixed_cases + self.generated_cases
    }
}

/// Accumulates case results into tallies and failure groups.
#[derive(Debug, Default)]
pub struct Tally {
    rules: BTreeMap<RuleId, (usize, usize)>,
    groups: BTreeMap<(RuleId, String), FailureGroup>,
}

impl Tally {
    /// Adds one case's result.
    pub fn add(
        &mut self,
        facts: &ProfileFacts,
        case: &CheckCase,
        exchange: &Exchange,
        findings: &[Finding],
        http: bool,
    ) {
        let mut exercised = Vec::new();
        rules_exercised(&case.expected, http, &mut exercised);
        exercised.extend(findings.iter().map(|f| f.rule));
        exercised.sort();
        exercised.dedup();
        for rule in exercised {
            let counts = self.rules.entry(rule).or_default();
            if findings.iter().any(|f| f.rule == rule) {
                counts.1 += 1;
            } else {
                counts.0 += 1;
            }
        }
        let mut seen: Vec<(RuleId, &str)> = Vec::new();
        for finding in findings {
            if seen.contains(&(finding.rule, finding.kind.as_str())) {
                continue;
            }
            seen.push((finding.rule, &finding.kind));
            let example = Example::new(facts, case, exchange, finding);
            let key = (finding.rule, finding.kind.clone());
            let group = self.groups.entry(key).or_insert_with(|| FailureGroup {
                kind: finding.kind.clone(),
                rule: finding.rule,
                cases: 0,
                example: example.clone(),
                generated: case.generated,
            });
            group.cases += 1;
            // Prefer a fixed case, then the shortest input.
            let better = match (group.generated.is_some(), case.generated.is_some()) {
                (true, false) => true,
                (false, true) => false,
                _ => example.input_len < group.example.input_len,
            };
            if better {
                group.example = example;
                group.generated = case.generated;
            }
        }
    }

    /// The failure groups found so far (for shrinking).
    pub fn groups_mut(&mut self) -> impl Iterator<Item = &mut FailureGroup> {
        self.groups.values_mut()
    }

    /// The per-rule tallies and the failure groups.
    pub fn finish(self) -> (Vec<RuleTally>, Vec<FailureGroup>) {
        let rules = self
            .rules
            .into_iter()
            .map(|(rule, (passed, failed))| RuleTally {
                rule,
                passed,
                failed,
            })
            .collect();
        (rules, self.groups.into_values().collect())
    }
}
