//! Argument completion (`completion/complete`): a prompt's arguments and a resource
//! template's variables may each have a completer, which suggests values for what the user
//! has typed so far.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use mcpwire_model::result::wire::{CompletionPage, complete_result};
use mcpwire_model::version::Version;

use crate::tool::BoxFuture;

/// The most values one `completion/complete` result may carry.
pub const MAX_COMPLETIONS: usize = 100;

/// What a completer is asked: which argument (or template variable), what the user typed so
/// far, and the values of the other arguments already chosen (sent by clients from
/// 2025-06-18).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionRequest {
    /// The argument or variable being completed.
    pub argument: String,
    /// Its partial value.
    pub value: String,
    /// The other arguments or variables already resolved.
    pub context: BTreeMap<String, String>,
}

pub(crate) type CompleteFn = dyn Fn(CompletionRequest) -> BoxFuture<Vec<String>> + Send + Sync;

/// The completers of one prompt or template, by argument name.
#[derive(Clone, Default)]
pub(crate) struct Completers {
    by_argument: BTreeMap<String, Arc<CompleteFn>>,
}

impl std::fmt::Debug for Completers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.by_argument.keys()).finish()
    }
}

impl Completers {
    /// Adds (or replaces) the completer of `argument`.
    pub(crate) fn insert<F, Fut>(&mut self, argument: String, completer: F)
    where
        F: Fn(CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<String>> + Send + 'static,
    {
        let boxed: Arc<CompleteFn> = Arc::new(move |request| Box::pin(completer(request)));
        self.by_argument.insert(argument, boxed);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.by_argument.is_empty()
    }

    /// The first argument with a completer that `known` does not name.
    pub(crate) fn unknown(&self, mut known: impl FnMut(&str) -> bool) -> Option<&str> {
        self.by_argument
            .keys()
            .map(String::as_str)
            .find(|argument| !known(argument))
    }

    /// Runs the completer of `request.argument`: the `CompleteResult` of `version`. An
    /// argument without a completer gets no values.
    pub(crate) async fn complete(
        &self,
        request: CompletionRequest,
        version: Version,
    ) -> Box<RawValue> {
        let values = match self.by_argument.get(&request.argument) {
            Some(completer) => completer(request).await,
            None => Vec::new(),
        };
        complete_result(completion_page(values), version)
    }
}

/// At most [`MAX_COMPLETIONS`] values, the total of all of them, and whether some were left
/// out.
fn completion_page(mut values: Vec<String>) -> CompletionPage {
    let total = values.len();
    values.truncate(MAX_COMPLETIONS);
    CompletionPage {
        values,
        total: Some(u64::try_from(total).unwrap_or(u64::MAX)),
        has_more: Some(total > MAX_COMPLETIONS),
    }
}

/// What `completion/complete` refers to.
#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
pub(crate) enum Reference {
    /// A prompt, by name.
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    /// A resource template, by its URI template.
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

/// The `argument` member of `completion/complete`.
#[derive(Debug, Deserialize)]
pub(crate) struct Argument {
    pub(crate) name: String,
    pub(crate) value: String,
}

/// The `context` member of `completion/complete`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct CompletionContext {
    #[serde(default)]
    pub(crate) arguments: BTreeMap<String, String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[tokio::test]
    async fn results_hold_at_most_100_values_and_say_how_many_there_are() {
        let mut completers = Completers::default();
        completers.insert("n".into(), |request: CompletionRequest| async move {
            (0..250).map(|i| format!("{}{i}", request.value)).collect()
        });
        let request = CompletionRequest {
            argument: "n".into(),
            value: "x".into(),
            context: BTreeMap::new(),
        };
        let result = completers
            .complete(request.clone(), Version::V2025_11_25)
            .await;
        let result: Value = serde_json::from_str(result.get()).unwrap();
        assert_eq!(
            result["completion"]["values"].as_array().unwrap().len(),
            100
        );
        assert_eq!(result["completion"]["values"][0], "x0");
        assert_eq!(result["completion"]["total"], 250);
        assert_eq!(result["completion"]["hasMore"], true);
        let other = CompletionRequest {
            argument: "other".into(),
            ..request
        };
        assert_eq!(
            completers.complete(other, Version::V2024_11_05).await.get(),
            serde_json::json!({ "completion": { "values": [], "total": 0, "hasMore": false } })
                .to_string()
        );
    }
}
