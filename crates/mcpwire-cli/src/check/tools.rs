//! `mcpwire check --tools`: every page of `tools/list` ([`super::pages`]), then each tool
//! property-tested from its own `inputSchema`. Arguments the schema accepts must get a result whose `structuredContent`
//! matches the tool's `outputSchema` (where declared); arguments it refuses must be refused,
//! never answered with a success. Failing valid arguments are shrunk; the arguments of a tool
//! are drawn from `--seed` and the tool's name, so `--tool NAME --seed S` replays them.
//!
//! Every call is also a case like any other: its reply is judged by the envelope rules and
//! validated against the version's `CallToolResult` (a content block invalid for the version
//! is `reply-schema-invalid`).

use std::collections::BTreeMap;
use std::time::Duration;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value};

use super::caller::{Caller, reply_to, request_id};
use super::capabilities::Lists;
use super::cases::CheckCase;
use super::exchange::Exchange;
use super::finding::{Finding, RuleId};
use super::handshake::short;
use super::pages::{TOOLS, Walk};
use super::tool_args::{Defect, InputSchema, InvalidArguments};
use mcpwire_types::ProfileFacts;
/// Candidates drawn per valid call before the tool is reported as ungeneratable.
const DRAWS: usize = 64;
/// The most calls spent shrinking one failing valid call.
const SHRINK_CALLS: usize = 16;

/// What `--tools` was asked to do.
#[derive(Debug, Clone)]
pub struct ToolOptions {
    /// Only these tools (`--tool`); empty: every tool.
    pub only: Vec<String>,
    /// Not these tools (`--skip-tool`).
    pub skip: Vec<String>,
    /// The most `tools/call` requests in the whole run, shrinking included (`--tool-calls`).
    pub budget: usize,
    /// How long one call's reply is awaited (`--tool-timeout`).
    pub timeout: Duration,
    /// How long the envelope cases' replies are awaited (restored after the tools).
    pub case_timeout: Duration,
    /// The seed the arguments are drawn from (`--seed`).
    pub seed: u64,
}

/// What `--tools` did, for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolSummary {
    /// Tools the server listed (every page).
    pub listed: usize,
    /// `tools/list` pages read.
    pub pages: usize,
    /// `tools/call` requests sent (shrinking included).
    pub calls: usize,
    /// The call budget.
    pub budget: usize,
    /// `prompts/get` requests sent.
    pub prompt_calls: usize,
    /// `resources/read` requests sent (one per resource template tested).
    pub resource_reads: usize,
    /// One line per tool (and per note): what was called, what was skipped and why.
    pub lines: Vec<String>,
}

/// The findings of the tool calls, by their index in the run's results.
pub type ToolFindings = BTreeMap<usize, Vec<Finding>>;

/// One listed tool.
struct Tool {
    name: String,
    input: Value,
    output: Option<Value>,
}

/// Whether arguments were meant to satisfy the schema, or to break it.
enum Intent<'a> {
    Valid,
    Invalid(&'a InvalidArguments),
}

/// Runs the tool tests on the tools the walk of `tools/list` found: the calls are appended
/// to the caller's results (so the envelope rules and the schema judge them like any case),
/// their findings kept by index.
pub fn run_tools(caller: &mut Caller<'_>, lists: &Lists, options: &ToolOptions) -> ToolSummary {
    let mut run = ToolRun {
        caller,
        summary: ToolSummary {
            budget: options.budget,
            ..ToolSummary::default()
        },
        shrink_index: usize::MAX / 2,
    };
    run.caller.target.set_timeout(options.timeout);
    match lists.get(TOOLS) {
        None => run.summary.lines.push(
            "the server declares no tools capability in its handshake: no tool was listed or called"
                .into(),
        ),
        Some(walk) => run.test_tools(walk, options),
    }
    run.caller.target.set_timeout(options.case_timeout);
    run.summary
}

struct ToolRun<'c, 'a> {
    caller: &'c mut Caller<'a>,
    summary: ToolSummary,
    shrink_index: usize,
}

impl ToolRun<'_, '_> {
    fn test_tools(&mut self, walk: &Walk, options: &ToolOptions) {
        let tools: Vec<Tool> = walk
            .items
            .iter()
            .filter_map(|tool| {
                Some(Tool {
                    name: tool.get("name")?.as_str()?.to_owned(),
                    input: tool.get("inputSchema").cloned().unwrap_or(Value::Null),
                    output: tool.get("outputSchema").cloned(),
                })
            })
            .collect();
        self.summary.listed = tools.len();
        self.summary.pages = walk.pages;
        self.summary.lines.extend(walk.notes.iter().cloned());
        for name in &options.only {
            if !tools.iter().any(|t| &t.name == name) {
                self.summary
                    .lines
                    .push(format!("--tool {name}: the server lists no such tool"));
            }
        }
        let chosen: Vec<&Tool> = tools
            .iter()
            .filter(|t| options.only.is_empty() || options.only.contains(&t.name))
            .filter(|t| !options.skip.contains(&t.name))
            .collect();
        for (position, tool) in chosen.iter().enumerate() {
            let left = options.budget.saturating_sub(self.summary.calls);
            let quota = left / (chosen.len() - position);
            if quota == 0 {
                self.summary.lines.push(format!(
                    "{}: not called, the call budget (--tool-calls {}) is spent",
                    tool.name, options.budget
                ));
                continue;
            }
            self.test_tool(tool, quota, options.seed);
        }
    }

    /// A `tools/call` of `tool` with `arguments`.
    fn call_case(&mut self, tool: &Tool, label: String, arguments: &Value) -> CheckCase {
        let mut params = Map::new();
        params.insert("name".into(), Value::String(tool.name.clone()));
        params.insert("arguments".into(), arguments.clone());
        self.caller.request("tools", label, "tools/call", params)
    }

    fn test_tool(&mut self, tool: &Tool, quota: usize, seed: u64) {
        let input = match InputSchema::new(&tool.input) {
            Ok(input) => input,
            Err(why) => {
                self.summary
                    .lines
                    .push(format!("{}: not called, {why}", tool.name));
                return;
            }
        };
        let output = match &tool.output {
            Some(schema) => match mcpwire_proptest::untrusted_schema::untrusted_validator(schema) {
                Ok(validator) => Some(validator),
                Err(error) => {
                    self.summary.lines.push(format!(
                        "{}: its outputSchema does not compile ({error}); structuredContent not checked",
                        tool.name
                    ));
                    None
                }
            },
            None => None,
        };
        let mut runner = runner(seed, &tool.name);
        let strategy = input.candidates();
        // The smallest valid arguments: the base every invalid case breaks in one place.
        let Some(base) = draw(&strategy, &mut runner, &input).map(|mut tree| {
            minimise(tree.as_mut(), 256, |v| input.accepts(v)).unwrap_or_else(|| tree.current())
        }) else {
            self.summary.lines.push(format!(
                "{}: not called, no arguments satisfying its inputSchema could be drawn in {DRAWS} tries",
                tool.name
            ));
            return;
        };
        let invalid = one_of_each_first(input.invalid_from(&base));
        let invalid_quota = if invalid.is_empty() {
            0
        } else {
            (quota / 2).max(1).min(invalid.len())
        };
        let valid_quota = quota - invalid_quota;
        let before = self.summary.calls;
        let mut valid_sent = 0;
        for n in 1..=valid_quota {
            if self.summary.calls - before >= quota {
                break;
            }
            let Some(mut tree) = draw(&strategy, &mut runner, &input) else {
                break;
            };
            let arguments = tree.current();
            let label = format!("tool {}: valid arguments #{n} (seed {seed})", tool.name);
            let (index, findings) = self.call(
                tool,
                label.clone(),
                &arguments,
                &Intent::Valid,
                output.as_ref(),
            );
            valid_sent += 1;
            if let Some(kind) = findings.first().map(|f| f.kind.clone()) {
                self.shrink(
                    tool,
                    &label,
                    index,
                    &kind,
                    tree.as_mut(),
                    &input,
                    output.as_ref(),
                );
            }
        }
        let mut invalid_sent = 0;
        for case in invalid.iter().take(invalid_quota) {
            let label = format!(
                "tool {}: {} {} (schema {})",
                tool.name,
                case.defect.name(),
                case.member,
                case.schema_path
            );
            self.call(
                tool,
                label,
                &case.arguments,
                &Intent::Invalid(case),
                output.as_ref(),
            );
            invalid_sent += 1;
        }
        self.summary.lines.push(format!(
            "{}: {valid_sent} call(s) with valid arguments, {invalid_sent} with invalid ones ({} derivable){}",
            tool.name,
            invalid.len(),
            if output.is_some() {
                ", structuredContent checked against its outputSchema"
            } else {
                ""
            }
        ));
    }

    /// Calls `tool` with `arguments` as the next case and judges the reply.
    fn call(
        &mut self,
        tool: &Tool,
        label: String,
        arguments: &Value,
        intent: &Intent<'_>,
        output: Option<&jsonschema::Validator>,
    ) -> (usize, Vec<Finding>) {
        let case = self.call_case(tool, label, arguments);
        let id = request_id(&case);
        let index = self.caller.send(case);
        self.summary.calls += 1;
        let findings = judge_call(
            self.caller.facts,
            &tool.name,
            &self.caller.results[index].1,
            &id,
            intent,
            output,
        );
        if !findings.is_empty() {
            self.caller.findings.insert(index, findings.clone());
        }
        (index, findings)
    }

    /// Shrinks the valid arguments of the call at `index` while the same kind of finding
    /// remains (at most [`SHRINK_CALLS`] calls, within the budget); the smallest replaces it.
    #[allow(clippy::too_many_arguments)]
    fn shrink(
        &mut self,
        tool: &Tool,
        label: &str,
        index: usize,
        kind: &str,
        tree: &mut dyn ValueTree<Value = Value>,
        input: &InputSchema,
        output: Option<&jsonschema::Validator>,
    ) {
        let original = self.caller.results[index].0.frame.len();
        let mut smallest: Option<(CheckCase, Exchange, Vec<Finding>)> = None;
        let calls = SHRINK_CALLS.min(self.summary.budget.saturating_sub(self.summary.calls));
        let mut spent = 0;
        minimise(tree, calls * 4, |arguments| {
            if !input.accepts(arguments) || spent >= calls {
                return false;
            }
            spent += 1;
            let case = self.call_case(tool, label.to_owned(), arguments);
            let id = request_id(&case);
            self.shrink_index += 1;
            let exchange = self.caller.target.exchange(self.shrink_index, &case);
            let findings = judge_call(
                self.caller.facts,
                &tool.name,
                &exchange,
                &id,
                &Intent::Valid,
                output,
            );
            let same = findings.iter().any(|f| f.kind == kind);
            if same {
                smallest = Some((case, exchange, findings));
            }
            same
        });
        self.summary.calls += spent;
        if let Some((mut case, exchange, findings)) = smallest
            && case.frame.len() < original
        {
            case.label = format!("{label}, shrunk from {original} bytes");
            self.caller.results[index] = (case, exchange);
            self.caller.findings.insert(index, findings);
        }
    }
}

/// The invalid cases with the first of each defect in front (so a small quota still tries
/// every defect).
fn one_of_each_first(cases: Vec<InvalidArguments>) -> Vec<InvalidArguments> {
    let mut seen = Vec::new();
    let (mut first, rest): (Vec<_>, Vec<_>) = cases.into_iter().partition(|case| {
        let new = !seen.contains(&case.defect);
        if new {
            seen.push(case.defect);
        }
        new
    });
    first.extend(rest);
    first
}

/// A runner whose values depend only on `seed` and the tool's name.
pub(super) fn runner(seed: u64, name: &str) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    // FNV-1a of the name: stable across runs and platforms.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    bytes[8..16].copy_from_slice(&hash.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    )
}

/// Arguments `input` accepts, drawn from `seed` and the tool's name (`None` when no draw of
/// [`DRAWS`] is accepted).
pub(super) fn draw_valid(input: &InputSchema, seed: u64, name: &str) -> Option<Value> {
    let mut runner = runner(seed, name);
    draw(&input.candidates(), &mut runner, input).map(|tree| tree.current())
}

/// The first tree (of up to [`DRAWS`]) whose value the schema accepts.
fn draw(
    strategy: &proptest::strategy::BoxedStrategy<Value>,
    runner: &mut TestRunner,
    input: &InputSchema,
) -> Option<Box<dyn ValueTree<Value = Value>>> {
    (0..DRAWS).find_map(|_| {
        let tree = strategy.new_tree(runner).ok()?;
        input
            .accepts(&tree.current())
            .then(|| Box::new(tree) as Box<dyn ValueTree<Value = Value>>)
    })
}

/// proptest's shrinking loop over `tree` while `keep` holds (at most `steps` steps); the last
/// value kept, if any simpler one was.
fn minimise(
    tree: &mut dyn ValueTree<Value = Value>,
    steps: usize,
    mut keep: impl FnMut(&Value) -> bool,
) -> Option<Value> {
    let mut kept = None;
    if !tree.simplify() {
        return kept;
    }
    for _ in 0..steps {
        let value = tree.current();
        if keep(&value) {
            kept = Some(value);
            if !tree.simplify() {
                break;
            }
        } else if !tree.complicate() {
            break;
        }
    }
    kept
}

/// Whether the version names invalid arguments a tool execution error (from 2025-11-25) rather
/// than a protocol error.
fn refuses_in_result(facts: &ProfileFacts) -> bool {
    facts.protocol_version.is_some_and(|v| v >= "2025-11-25")
}

/// The tool findings of one call's reply (the envelope and the schema judge the rest).
fn judge_call(
    facts: &ProfileFacts,
    tool: &str,
    exchange: &Exchange,
    id: &str,
    intent: &Intent<'_>,
    output: Option<&jsonschema::Validator>,
) -> Vec<Finding> {
    let Some(reply) = reply_to(exchange, id) else {
        return Vec::new();
    };
    let finding = |kind: &str, message: String| vec![Finding::new(kind, RuleId::Tools, message)];
    let in_result = refuses_in_result(facts);
    let version = facts.protocol_version.unwrap_or("?");
    match (reply.get("result"), reply.get("error"), intent) {
        (Some(result), _, Intent::Valid) => {
            let failed = result.get("isError") == Some(&Value::Bool(true));
            match output {
                Some(validator) if !failed => structured_findings(tool, result, validator),
                _ => Vec::new(),
            }
        }
        // MCP 2026-07-28: a request that needs a client capability the checker did not declare
        // (it declares none) MUST get MissingRequiredClientCapabilityError; that is the
        // protocol's answer, not the tool's error (its shape is judged by `--protocol`).
        (None, Some(error), Intent::Valid)
            if error.get("code").and_then(Value::as_i64)
                == Some(super::stateless::MISSING_CAPABILITY_CODE)
                && version == super::route_headers::ROUTED_VERSION =>
        {
            Vec::new()
        }
        (None, Some(error), Intent::Valid) => finding(
            "tool-error-on-valid-arguments",
            format!(
                "tool {tool}: arguments its inputSchema accepts got the protocol error {}; an error of the tool itself belongs in a result with isError true",
                short(error)
            ),
        ),
        (Some(result), _, Intent::Invalid(case)) => {
            if result.get("isError") == Some(&Value::Bool(true)) {
                if in_result {
                    return Vec::new();
                }
                return finding(
                    "tool-refusal-form",
                    format!(
                        "tool {tool}: arguments its inputSchema refuses ({} {}, schema path {}) got a result with isError; MCP {version} lists invalid arguments as a protocol error (-32602)",
                        case.defect.name(),
                        case.member,
                        case.schema_path
                    ),
                );
            }
            let kind = if case.defect == Defect::Undeclared {
                "tool-accepted-undeclared-argument"
            } else {
                "tool-accepted-invalid-arguments"
            };
            finding(
                kind,
                format!(
                    "tool {tool}: arguments its inputSchema refuses ({} {}: schema path {}, {}) got a successful result; {}",
                    case.defect.name(),
                    case.member,
                    case.schema_path,
                    case.why,
                    if in_result {
                        "refuse them with a result whose isError is true"
                    } else {
                        "refuse them with the error -32602"
                    }
                ),
            )
        }
        (None, Some(error), Intent::Invalid(case)) => {
            let code = error.get("code").and_then(Value::as_i64);
            if code == Some(-32602) && !in_result {
                return Vec::new();
            }
            finding(
                "tool-refusal-form",
                format!(
                    "tool {tool}: arguments its inputSchema refuses ({} {}, schema path {}) got the protocol error {}; MCP {version} lists {}",
                    case.defect.name(),
                    case.member,
                    case.schema_path,
                    short(error),
                    if in_result {
                        "input validation errors as tool execution errors (a result with isError true)"
                    } else {
                        "invalid arguments as the protocol error -32602"
                    }
                ),
            )
        }
        (None, None, _) => Vec::new(),
    }
}

/// A successful result against the tool's `outputSchema`: `structuredContent` must be there
/// and conform.
pub(super) fn structured_findings(
    tool: &str,
    result: &Value,
    output: &jsonschema::Validator,
) -> Vec<Finding> {
    let message = match result.get("structuredContent") {
        None => format!(
            "tool {tool} declares an outputSchema but its successful result has no structuredContent (at /result)"
        ),
        Some(structured) => {
            let errors: Vec<String> = output
                .iter_errors(structured)
                .take(3)
                .map(|error| {
                    format!(
                        "at /result/structuredContent{} (outputSchema {}): {error}",
                        error.instance_path(),
                        error.schema_path()
                    )
                })
                .collect();
            if errors.is_empty() {
                return Vec::new();
            }
            format!(
                "tool {tool}: structuredContent breaks its outputSchema: {}",
                errors.join("; ")
            )
        }
    };
    vec![Finding::new(
        "tool-structured-content-invalid",
        RuleId::Tools,
        format!(
            "{message}; MCP tools, Output Schema (2025-06-18 on): \"Servers MUST provide structured results that conform to this schema\""
        ),
    )]
}
