//! Asking the client under MCP 2026-07-28, where a server sends no requests of its own:
//! `tools/call`, `prompts/get` and `resources/read` may answer with an input-required result
//! (`resultType: "input_required"`, the questions in `inputRequests`, a `requestState`), and
//! the client retries the same request with the answers in `inputResponses` and the state
//! echoed back.
//!
//! # The replay model
//!
//! A stateless server cannot keep a handler suspended between the two requests, so the
//! handler runs again, from the start, on every retry:
//!
//! 1. Each ask ([`Context::elicit`](crate::Context::elicit),
//!    [`Context::sample`](crate::Context::sample)) gets a key from its position among the
//!    handler's asks, its method and a digest of what it asks (`elicitation-0-1a2b3c4d`),
//!    so the same handler asking the same things gets the same keys on every run.
//! 2. An ask whose key has an answer, carried in `requestState` from an earlier round or
//!    sent in this round's `inputResponses`, returns it at once.
//! 3. The first ask without an answer ends the run: the handler's future is dropped there
//!    (it never sees the ask return), and the reply is the input-required result asking it,
//!    with a `requestState` sealing every answer this run used, so the next retry only has
//!    to send the new one.
//!
//! Everything a handler does before an ask therefore runs once per round: keep it free of
//! side effects that must not repeat (or make them idempotent), and make the asks depend
//! only on the arguments and earlier answers, so that their keys stay the same.

use std::future::Future;
use std::sync::{Mutex, OnceLock, PoisonError};

use mcpwire::RpcError;
use mcpwire_model::Written;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;

use crate::request_state::{self, Binding, StateKey};
use crate::tasks::TaskInputs;
use mcpwire_types::JsonObject;

/// One run of a handler under 2026-07-28: the answers it can use, and the asks it made.
#[derive(Debug)]
pub(crate) struct InputRound {
    /// Answers by key: from the request state, then this round's `inputResponses`.
    known: Map<String, Value>,
    /// What the run asked.
    asks: Mutex<Asks>,
    /// Woken when an ask finds no answer.
    unanswered: Notify,
    /// Seals the next state.
    key: StateKey,
    /// The request the state is for.
    binding: Mutex<Binding>,
    /// Once the call became a task (Tasks extension): where its unanswered asks go
    /// instead of ending the run.
    task: OnceLock<TaskInputs>,
}

#[derive(Debug, Default)]
struct Asks {
    /// How many asks the run made.
    count: usize,
    /// The answers the run used, carried into the next state.
    used: Map<String, Value>,
    /// The asks without an answer: key → `{method, params}`.
    missing: Map<String, Value>,
    /// An answer that is not a result of its ask's method: the run ends with this -32602.
    invalid: Option<RpcError>,
}

impl InputRound {
    /// A round whose earlier answers are `carried` (from a verified `requestState`) and whose
    /// new ones are `responses` (`inputResponses`; a key already carried keeps its carried
    /// answer).
    pub(crate) fn new(
        carried: Map<String, Value>,
        responses: Map<String, Value>,
        key: StateKey,
        binding: Binding,
    ) -> Self {
        let mut known = responses;
        known.extend(carried);
        Self {
            known,
            asks: Mutex::new(Asks::default()),
            unanswered: Notify::new(),
            key,
            binding: Mutex::new(binding),
            task: OnceLock::new(),
        }
    }

    /// From now on an ask without an answer becomes an input request of the task `inputs`
    /// serves, and waits for it (the call became a task).
    pub(crate) fn escalate(&self, inputs: TaskInputs) {
        let _ = self.task.set(inputs);
    }

    /// Hands over a tool's arguments once the tool has decoded them: the state of an
    /// input-required result is bound to them (see [`Binding`]).
    pub(crate) fn bind_arguments(&self, arguments: JsonObject) {
        self.binding
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .arguments(arguments);
    }

    /// Whether the run is over although its handler is not: an ask found no answer, or an
    /// answer was refused (the run's result is then ready).
    pub(crate) fn is_waiting(&self) -> bool {
        let asks = self.asks.lock().unwrap_or_else(PoisonError::into_inner);
        !asks.missing.is_empty() || asks.invalid.is_some()
    }

    /// The answer to `method` with `params`, when the client gave it; otherwise records the
    /// ask and never completes (the run ends here, see the module docs). The ask is named
    /// `key` when the handler chose one, else a key derived from it; the key comes back with
    /// the answer (for [`reject`](Self::reject)).
    pub(crate) async fn ask(
        &self,
        key: Option<&str>,
        method: &str,
        params: Value,
    ) -> (String, Value) {
        let (key, answer) = {
            let mut asks = self.asks.lock().unwrap_or_else(PoisonError::into_inner);
            let key = match key {
                Some(key) => key.to_owned(),
                None => input_key(asks.count, method, &params),
            };
            asks.count += 1;
            let answer = self.known.get(&key).cloned();
            if let Some(answer) = &answer {
                asks.used.insert(key.clone(), answer.clone());
            }
            (key, answer)
        };
        if let Some(answer) = answer {
            return (key, answer);
        }
        if let Some(task) = self.task.get() {
            return task.ask(key, method, params).await;
        }
        self.asks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .missing
            .insert(key, json!({ "method": method, "params": params }));
        self.unanswered.notify_one();
        std::future::pending().await
    }

    /// Ends the run: the client's answer under `key` is not a result of the method asked
    /// (`reason` says why), so the request is answered -32602 naming
    /// `/inputResponses/<key>`. Never completes.
    pub(crate) async fn reject(&self, key: &str, reason: &str) -> std::convert::Infallible {
        let pointer = format!(
            "/inputResponses/{}",
            key.replace('~', "~0").replace('/', "~1")
        );
        let error =
            RpcError::invalid_params().with_data(&json!({ "pointer": pointer, "reason": reason }));
        self.asks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .invalid = Some(error);
        self.unanswered.notify_one();
        std::future::pending().await
    }

    /// Runs `work` (a handler producing its result JSON) until it completes, or until an ask
    /// finds no answer: then the result is the input-required one, written as `T`.
    pub(crate) async fn run<T: Written>(
        &self,
        work: impl Future<Output = Result<T, RpcError>>,
    ) -> Result<T, RpcError> {
        let done = tokio::select! {
            biased;
            () = self.unanswered.notified() => None,
            done = work => Some(done),
        };
        let mut asks = self.asks.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(invalid) = asks.invalid.take() {
            return Err(invalid);
        }
        match done {
            // A handler that went on without its answer (it raced the ask against something
            // else) still gets the question asked: its result would not be the one it means.
            Some(result) if asks.missing.is_empty() => result,
            _ => {
                let mut binding = self.binding.lock().unwrap_or_else(PoisonError::into_inner);
                let used = std::mem::take(&mut asks.used);
                let state = request_state::seal(&self.key, binding.digest(), used)?;
                input_required(std::mem::take(&mut asks.missing), state)
            }
        }
    }
}

/// The `InputRequiredResult` asking `missing` (each an `InputRequest` of 2026-07-28, which
/// its generated type decodes: an ask it refuses is -32603 naming it), serialized from the
/// generated type as `W`.
fn input_required<W: Written>(missing: Map<String, Value>, state: String) -> Result<W, RpcError> {
    use mcpwire_types::mcp::v2026_07_28 as m;
    let unsendable = |why: String| {
        RpcError::internal_error().with_data(&format!("the input request cannot be sent: {why}"))
    };
    let mut requests = m::InputRequests::new();
    for (key, ask) in missing {
        // Through text: the generated types keep free-form members as raw JSON text.
        let request: m::InputRequest = serde_json::from_str(&ask.to_string())
            .map_err(|e| unsendable(format!("{key}: {e}")))?;
        requests.insert(key, request);
    }
    let mut result = m::InputRequiredResult::new("input_required");
    result.input_requests = Some(requests);
    result.request_state = Some(state);
    Ok(W::written(result))
}

/// The key of the `index`-th ask of a run: its method's family, its position, and a digest
/// of what it asks.
fn input_key(index: usize, method: &str, params: &Value) -> String {
    let family = method.split('/').next().unwrap_or(method);
    let digest = Sha256::new()
        .chain_update(method)
        .chain_update([0])
        .chain_update(params.to_string())
        .finalize();
    format!("{family}-{index}-{}", crate::hex::encode(&digest[..4]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(responses: Value) -> InputRound {
        InputRound::new(
            Map::new(),
            responses.as_object().unwrap().clone(),
            StateKey::random().unwrap(),
            Binding::new("tools/call", "b".into(), request_state::Arguments::Absent),
        )
    }

    #[tokio::test]
    async fn an_ask_its_generated_type_refuses_is_an_internal_error() {
        let round = round(json!({}));
        let error = round
            .run(async {
                round.ask(None, "sampling/createMessage", json!({})).await;
                Ok(json!({ "never": "sent" }))
            })
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32603);
        let data = error.data().unwrap().get();
        assert!(data.contains("missing field `maxTokens`"), "{data}");
    }

    #[test]
    fn keys_follow_the_order_and_the_content_of_asks() {
        let ask = json!({ "message": "Name?" });
        let first = input_key(0, "elicitation/create", &ask);
        assert!(first.starts_with("elicitation-0-"), "{first}");
        assert_eq!(first, input_key(0, "elicitation/create", &ask));
        assert_ne!(first, input_key(1, "elicitation/create", &ask));
        assert_ne!(
            first,
            input_key(0, "elicitation/create", &json!({ "message": "Age?" }))
        );
    }

    #[tokio::test]
    async fn the_first_unanswered_ask_ends_the_run() {
        let ask = json!({ "message": "Name?" });
        let answered = input_key(0, "elicitation/create", &ask);
        let round = round(json!({ answered.clone(): { "action": "decline" } }));
        // What `round` binds its states to: a `tools/call` of `b` without arguments.
        let bound = request_state::binding("tools/call", "b", &Value::Null);
        let reached = Mutex::new(Vec::new());
        let result = round
            .run(async {
                let (key, first) = round.ask(None, "elicitation/create", ask.clone()).await;
                reached.lock().unwrap().push(json!([key, first]));
                let sample = json!({ "maxTokens": 10, "messages": [] });
                round.ask(None, "sampling/createMessage", sample).await;
                reached.lock().unwrap().push(json!("after the second ask"));
                Ok(json!({ "never": "sent" }))
            })
            .await
            .unwrap();
        assert_eq!(
            *reached.lock().unwrap(),
            [json!([answered.clone(), { "action": "decline" }])]
        );
        assert_eq!(result["resultType"], "input_required");
        let asked: Vec<&String> = result["inputRequests"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(asked.len(), 1);
        assert!(asked[0].starts_with("sampling-1-"), "{asked:?}");
        assert_eq!(
            result["inputRequests"][asked[0]],
            json!({
                "method": "sampling/createMessage",
                "params": { "maxTokens": 10, "messages": [] }
            })
        );
        let carried =
            request_state::open(&round.key, result["requestState"].as_str().unwrap(), &bound)
                .unwrap();
        assert_eq!(
            carried,
            *json!({ answered: { "action": "decline" } })
                .as_object()
                .unwrap()
        );
    }

    #[tokio::test]
    async fn a_chosen_key_names_the_ask() {
        let round = round(json!({ "other": { "action": "decline" } }));
        let result = round
            .run(async {
                round.ask(Some("user_name"), "roots/list", json!({})).await;
                Ok(json!({ "never": "sent" }))
            })
            .await
            .unwrap();
        assert_eq!(
            result["inputRequests"],
            json!({ "user_name": { "method": "roots/list", "params": {} } })
        );
        let answered = super::InputRound::new(
            Map::new(),
            json!({ "user_name": { "roots": [] } })
                .as_object()
                .unwrap()
                .clone(),
            StateKey::random().unwrap(),
            Binding::new("tools/call", "b".into(), request_state::Arguments::Absent),
        );
        let done = answered
            .run(async {
                Ok(answered
                    .ask(Some("user_name"), "roots/list", json!({}))
                    .await
                    .1)
            })
            .await
            .unwrap();
        assert_eq!(done, json!({ "roots": [] }));
        let rejected = answered
            .run(async {
                answered.reject("a/b", "not a ListRootsResult").await;
                Ok(json!({ "never": "sent" }))
            })
            .await
            .unwrap_err();
        assert_eq!(rejected.code(), -32602);
    }

    #[tokio::test]
    async fn a_run_that_asks_nothing_or_is_answered_completes() {
        let round = round(json!({}));
        let result = round
            .run(async { Ok(json!({ "done": true })) })
            .await
            .unwrap();
        assert_eq!(result, json!({ "done": true }));
    }
}
