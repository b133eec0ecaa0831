//! The result of a check: per-rule tallies, every case's findings, failures grouped by level,
//! rule and kind, and the verdict.

use std::collections::BTreeMap;
use std::time::Duration;

use mcpwire_proptest::Expected;
use mcpwire_types::ProfileFacts;

use super::cases::CheckCase;
use super::describe::{describe_expected, show_frame};
use super::exchange::Exchange;
use super::expect::Verdict;
use super::judge::{Finding, RuleId, rules_exercised};
use super::kinds::Level;

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

/// One case that shows a finding, with what was expected and observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The case's label (fixed case name or mutation).
    pub label: String,
    /// The input frame, as text (bytes that are not UTF-8 as `\xNN`; long frames cut).
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
    /// How the replies were attributed, when not simply by their id.
    pub note: Option<String>,
    /// The length of the generated input before shrinking, when it was shrunk.
    pub shrunk_from: Option<usize>,
    /// For a generated case, the index of its tree (to shrink it).
    pub generated: Option<usize>,
    /// The finding's severity within its kind (higher first).
    pub severity: u8,
}

/// Which of an exchange's replies were attributed by arrival order, for the report: `None`
/// when every reply was matched by an id (in the case's window or later, which is no matter
/// of timing); otherwise the case's verdict rests on arrival order and the note says why.
pub fn attribution(exchange: &Exchange) -> Option<String> {
    let mut notes = Vec::new();
    let without_id = exchange.by_order - exchange.by_order_input_id_unreadable;
    if without_id > 0 {
        notes.push(format!(
            "{} repl{} without a usable id attributed by arrival order",
            without_id,
            if without_id == 1 { "y" } else { "ies" }
        ));
    }
    if exchange.by_order_input_id_unreadable > 0 {
        notes.push(format!(
            "{} repl{} attributed by arrival order because the input's id is unreadable (the reply's id matches no id sent)",
            exchange.by_order_input_id_unreadable,
            if exchange.by_order_input_id_unreadable == 1 { "y" } else { "ies" }
        ));
    }
    (!notes.is_empty()).then(|| notes.join("; "))
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
            expected: describe_expected(facts, &case.expected, exchange.http.is_some()),
            observed: exchange.replies.iter().map(|r| show_frame(r)).collect(),
            http_status: exchange.http.as_ref().map(|h| h.status),
            message: finding.message.clone(),
            note: attribution(exchange),
            shrunk_from: None,
            generated: case.generated,
            severity: finding.severity,
        }
    }

    /// Most severe first, then fixed cases, then the shortest input.
    fn rank(&self) -> (std::cmp::Reverse<u8>, bool, usize) {
        (
            std::cmp::Reverse(self.severity),
            self.generated.is_some(),
            self.input_len,
        )
    }
}

/// All failures of one kind under one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureGroup {
    /// The kind, e.g. `reply-to-notification`.
    pub kind: String,
    /// Its level.
    pub level: Level,
    /// The rule it breaks.
    pub rule: RuleId,
    /// Every case that showed it, the most severe (then smallest) first. Never empty.
    pub examples: Vec<Example>,
}

impl FailureGroup {
    /// How many cases showed the kind.
    pub fn cases(&self) -> usize {
        self.examples.len()
    }

    /// The example shown first.
    pub fn example(&self) -> Option<&Example> {
        self.examples.first()
    }
}

/// One case's outcome (for JUnit: one test case per case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    /// The case's label.
    pub label: String,
    /// The input, as text.
    pub input: String,
    /// What a correct server sends.
    pub expected: String,
    /// What the server sent.
    pub observed: Vec<String>,
    /// The HTTP status, over HTTP.
    pub http_status: Option<u16>,
    /// Its findings.
    pub findings: Vec<Finding>,
    /// Whether the case leaves a client waiting: it owed a reply carrying a readable id, and
    /// no reply carrying that id came (see [`WAITING_KINDS`]).
    pub leaves_client_waiting: bool,
    /// How the replies were attributed when not by their own id in the case's window (a
    /// verdict that rests on arrival order says so here).
    pub note: Option<String>,
}

/// A whole check's result.
#[derive(Debug, Clone)]
pub struct Report {
    /// What was checked (`stdio: …` or `http: …`).
    pub target: String,
    /// The profile of the session (selected by the version the server negotiated).
    pub profile: &'static str,
    /// The MCP version asked for, if any.
    pub requested_version: Option<String>,
    /// The seed of the generated cases.
    pub seed: u64,
    /// Fixed cases run (the handshake calls included).
    pub fixed_cases: usize,
    /// Generated cases run.
    pub generated_cases: usize,
    /// Generated cases not sent (a leading byte order mark over HTTP).
    pub skipped_cases: usize,
    /// Server restarts after crashes and hangs.
    pub restarts: usize,
    /// Server-initiated messages seen (ignored by the rules).
    pub server_messages: usize,
    /// Replies without a usable id, attributed by arrival order.
    pub attributed_by_order: usize,
    /// Replies that arrived after their case's window and were attributed by id.
    pub attributed_late: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Per-rule tallies, in rule order.
    pub rules: Vec<RuleTally>,
    /// Failures, one group per level, rule and kind: violations first.
    pub failures: Vec<FailureGroup>,
    /// Every case, in the order sent.
    pub results: Vec<CaseResult>,
    /// Failures compared with `--expect-failures`.
    pub verdict: Verdict,
    /// Whether strict findings fail the run (`--strict`).
    pub strict: bool,
    /// Why the run stopped early (server unreachable, handshake broken), if it did.
    pub aborted: Option<String>,
    /// Whether replies were validated against the version's MCP schema.
    pub schema_check: super::schema::SchemaCheck,
    /// What `--tools` did (`None` without `--tools`).
    pub tools: Option<super::tools::ToolSummary>,
    /// Every `--auth` probe with what it saw (`None` without `--auth`).
    pub auth: Option<super::auth_summary::AuthSummary>,
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

    /// Whether a finding at its level fails the run (violations; strict ones under `--strict`).
    pub fn fails(&self, finding: &Finding) -> bool {
        finding.level == Level::Violation || self.strict
    }

    /// Results (cases and findings that belong to no case) with a finding that fails the run.
    pub fn failing_cases(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.findings.iter().any(|f| self.fails(f)))
            .count()
    }

    /// Cases that leave a client waiting: a request whose readable id got no reply carrying
    /// it (the first number of the table and of the JSON report).
    pub fn waiting_cases(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.leaves_client_waiting)
            .count()
    }

    /// Results (cases and findings that belong to no case) with any finding, of either level.
    pub fn cases_with_findings(&self) -> usize {
        self.results
            .iter()
            .filter(|r| !r.findings.is_empty())
            .count()
    }

    /// Results with at least one finding at `level`.
    pub fn cases_at(&self, level: Level) -> usize {
        self.results
            .iter()
            .filter(|r| r.findings.iter().any(|f| f.level == level))
            .count()
    }

    /// Findings (one per case and kind) at `level`.
    pub fn count(&self, level: Level) -> usize {
        self.failures
            .iter()
            .filter(|g| g.level == level)
            .map(FailureGroup::cases)
            .sum()
    }
}

/// The kinds that mean no reply carrying the case's readable id came: none at all
/// (`missing-reply`, the server exited or hung, the connection failed) or one without that id
/// (`id-lost-although-recoverable`, `id-not-echoed`). A client matches replies by id, so its
/// request stays pending until its own timeout.
pub const WAITING_KINDS: &[&str] = &[
    "missing-reply",
    "id-lost-although-recoverable",
    "id-not-echoed",
    "no-reply-within-timeout",
    "server-exited",
    "transport-error",
];

/// Whether a case that owed `expected` and got `findings` leaves a client waiting: it owed a
/// reply with a readable id, and a [`WAITING_KINDS`] finding says none carrying it came.
///
/// ```
/// use mcpwire_cli::check::judge::{Finding, RuleId};
/// use mcpwire_cli::check::report::leaves_client_waiting;
/// use mcpwire_proptest::{Methods, derive_expected, facts::MCP_2025_11_25};
/// let request = derive_expected(&MCP_2025_11_25, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, Methods::Known(&["ping"]));
/// let missing = [Finding::new("missing-reply", RuleId::Liveness, "")];
/// assert!(leaves_client_waiting(&request, &missing));
/// let garbage = derive_expected(&MCP_2025_11_25, b"NaN", Methods::Known(&["ping"]));
/// let unanswered = [Finding::new("unreadable-input-unanswered", RuleId::Liveness, "")];
/// assert!(!leaves_client_waiting(&garbage, &unanswered));
/// ```
pub fn leaves_client_waiting(expected: &Expected, findings: &[Finding]) -> bool {
    !super::stdio::expected_ids(expected).is_empty()
        && findings
            .iter()
            .any(|f| WAITING_KINDS.contains(&f.kind.as_str()))
}

/// Accumulates case results into tallies and failure groups.
#[derive(Debug, Default)]
pub struct Tally {
    rules: BTreeMap<RuleId, (usize, usize)>,
    groups: BTreeMap<(Level, RuleId, String), FailureGroup>,
    results: Vec<CaseResult>,
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
            self.add_example(finding, Example::new(facts, case, exchange, finding));
        }
        self.results.push(CaseResult {
            label: case.label.clone(),
            input: show_frame(&case.frame),
            expected: describe_expected(facts, &case.expected, exchange.http.is_some()),
            observed: exchange.replies.iter().map(|r| show_frame(r)).collect(),
            http_status: exchange.http.as_ref().map(|h| h.status),
            findings: findings.to_vec(),
            leaves_client_waiting: leaves_client_waiting(&case.expected, findings),
            note: attribution(exchange),
        });
    }

    /// Adds a finding that belongs to no case (stdout noise, replies to nothing sent).
    pub fn add_example(&mut self, finding: &Finding, example: Example) {
        let key = (finding.level, finding.rule, finding.kind.clone());
        let group = self.groups.entry(key).or_insert_with(|| FailureGroup {
            kind: finding.kind.clone(),
            level: finding.level,
            rule: finding.rule,
            examples: Vec::new(),
        });
        group.examples.push(example);
    }

    /// Adds a finding that belongs to no case as a group example and a case result.
    pub fn add_orphan(&mut self, finding: &Finding, example: Example) {
        self.results.push(CaseResult {
            label: example.label.clone(),
            input: String::new(),
            expected: example.expected.clone(),
            observed: example.observed.clone(),
            http_status: None,
            findings: vec![finding.clone()],
            leaves_client_waiting: false,
            note: None,
        });
        self.rules.entry(finding.rule).or_default().1 += 1;
        self.add_example(finding, example);
    }

    /// Adds a result that is no JSON-RPC case (an `--auth` probe) under `rule`: a pass, or a
    /// failure with an example per finding.
    pub fn add_result(&mut self, rule: RuleId, result: CaseResult) {
        let counts = self.rules.entry(rule).or_default();
        if result.findings.is_empty() {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
        for finding in &result.findings {
            let example = Example {
                label: result.label.clone(),
                input: result.input.clone(),
                input_len: result.input.len(),
                expected: result.expected.clone(),
                observed: result.observed.clone(),
                http_status: result.http_status,
                message: finding.message.clone(),
                note: None,
                shrunk_from: None,
                generated: None,
                severity: 0,
            };
            self.add_example(finding, example);
        }
        self.results.push(result);
    }

    /// The failure groups found so far (for shrinking), their examples ranked.
    pub fn groups_mut(&mut self) -> impl Iterator<Item = &mut FailureGroup> {
        for group in self.groups.values_mut() {
            group.examples.sort_by_key(Example::rank);
        }
        self.groups.values_mut()
    }

    /// The per-rule tallies, the failure groups (examples ranked) and every case's result.
    pub fn finish(self) -> (Vec<RuleTally>, Vec<FailureGroup>, Vec<CaseResult>) {
        let rules = self
            .rules
            .into_iter()
            .map(|(rule, (passed, failed))| RuleTally {
                rule,
                passed,
                failed,
            })
            .collect();
        let groups = self
            .groups
            .into_values()
            .map(|mut group| {
                // A shrunk example keeps its place at the front.
                let shrunk = group
                    .examples
                    .first()
                    .filter(|e| e.shrunk_from.is_some())
                    .cloned();
                group.examples.sort_by_key(Example::rank);
                if let Some(shrunk) = shrunk {
                    group.examples.retain(|e| e != &shrunk);
                    group.examples.insert(0, shrunk);
                }
                group
            })
            .collect();
        (rules, groups, self.results)
    }
}
