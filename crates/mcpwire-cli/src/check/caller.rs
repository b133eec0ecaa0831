//! Requests the checker makes after the envelope cases (`--capabilities`, `--tools`): each one
//! a check case with a fresh id, sent in the same session, appended to the run's results (so the
//! envelope rules and the schema judge its reply like any case), and its findings kept by the
//! case's index.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::cases::CheckCase;
use super::exchange::{Exchange, Target, attribute_late};
use super::finding::Finding;
use super::handshake::request_case;
use mcpwire_types::ProfileFacts;

/// Findings of the requests, by their case's index in the run's results.
pub type CallFindings = BTreeMap<usize, Vec<Finding>>;

/// Sends requests as cases of the run and keeps their findings.
pub struct Caller<'a> {
    /// The server.
    pub target: &'a mut dyn Target,
    /// The profile the session runs under.
    pub facts: &'static ProfileFacts,
    /// The run's cases so far, with what came back; every request is appended.
    pub results: &'a mut Vec<(CheckCase, Exchange)>,
    /// The findings of the requests, by index in `results`.
    pub findings: CallFindings,
    next_id: usize,
}

impl<'a> Caller<'a> {
    /// A caller appending to `results`.
    pub fn new(
        target: &'a mut dyn Target,
        facts: &'static ProfileFacts,
        results: &'a mut Vec<(CheckCase, Exchange)>,
    ) -> Caller<'a> {
        Caller {
            target,
            facts,
            results,
            findings: CallFindings::new(),
            next_id: 0,
        }
    }

    /// A request of `method` with `params` (and the `_meta` a version without `initialize`
    /// requires) as a check case, with the id `mcpwire-PREFIX-N`.
    pub fn request(
        &mut self,
        prefix: &str,
        label: String,
        method: &str,
        params: Map<String, Value>,
    ) -> CheckCase {
        self.next_id += 1;
        let id = format!("mcpwire-{prefix}-{}", self.next_id);
        request_case(self.facts, &label, &id, method, params)
    }

    /// Sends `case` as the next case of the run; its index in the results.
    pub fn send(&mut self, case: CheckCase) -> usize {
        let index = self.results.len();
        let exchange = self.target.exchange(index, &case);
        attribute_late(self.results, &exchange.late);
        self.results.push((case, exchange));
        index
    }

    /// Builds and sends a request; its index and id.
    pub fn call(
        &mut self,
        prefix: &str,
        label: String,
        method: &str,
        params: Map<String, Value>,
    ) -> (usize, String) {
        let case = self.request(prefix, label, method, params);
        let id = request_id(&case);
        (self.send(case), id)
    }

    /// The reply to request `id` of the case at `index`, as JSON.
    pub fn reply(&self, index: usize, id: &str) -> Option<Value> {
        reply_to(&self.results.get(index)?.1, id)
    }

    /// Records `finding` for the case at `index`.
    pub fn find(&mut self, index: usize, finding: Finding) {
        self.findings.entry(index).or_default().push(finding);
    }
}

/// The id (a string) of a check case's request.
pub fn request_id(case: &CheckCase) -> String {
    serde_json::from_slice::<Value>(&case.frame)
        .ok()
        .and_then(|v| v.get("id").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default()
}

/// The reply to request `id` among the exchange's replies, as JSON.
pub fn reply_to(exchange: &Exchange, id: &str) -> Option<Value> {
    exchange.replies.iter().find_map(|frame| {
        let value: Value = serde_json::from_slice(frame).ok()?;
        (value.get("id").and_then(Value::as_str) == Some(id)).then_some(value)
    })
}
