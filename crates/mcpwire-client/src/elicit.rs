//! Elicitation as the client's handlers see it: a form to fill ([`FormElicitation`]) or a
//! URL to visit ([`UrlElicitation`]), both read from the server's params through the model's
//! [`ElicitRequest`](mcpwire_model::ElicitRequest) reader, answered with the model's
//! [`ElicitAnswer`] (the type a server built on `mcpwire-model` reads the answer into). An
//! accepted form gets the schema's `default` for every field the handler left out
//! (SEP-1034).

use mcpwire_model::{ElicitAnswer, Form};
use serde_json::{Map, Value};

/// A form-mode `elicitation/create`: what to ask, and the form.
#[derive(Debug, Clone)]
pub struct FormElicitation {
    /// The message to show the user.
    pub message: String,
    /// The form, read through the version's generated `requestedSchema`: its fields with
    /// their kinds, titles and defaults.
    pub form: Form,
    /// The `requestedSchema` as the server sent it (members the model has no place for
    /// included), for a handler that renders the schema itself.
    pub requested_schema: Value,
    /// The params' `_meta` (2025-11-25 only), as sent.
    pub meta: Option<Map<String, Value>>,
}

/// A URL-mode `elicitation/create` (from 2025-11-25): the user is sent to a URL.
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    /// The message to show the user.
    pub message: String,
    /// The URL to open.
    pub url: String,
    /// The server's id of this elicitation, which its completion notification names
    /// (2025-11-25; 2026-07-28 has none).
    pub elicitation_id: Option<String>,
    /// The params' `_meta` (2025-11-25 only), as sent.
    pub meta: Option<Map<String, Value>>,
}

/// `answer` to a form with `schema`: an accepted form's missing fields filled from the
/// schema's defaults.
pub(crate) fn with_defaults(answer: ElicitAnswer, schema: &Value) -> ElicitAnswer {
    match answer {
        ElicitAnswer::Accept(mut content) => {
            apply_defaults(schema, &mut content);
            ElicitAnswer::Accept(content)
        }
        other => other,
    }
}

/// Fills `content` with the `default` of every property of `schema` it lacks (SEP-1034).
pub fn apply_defaults(schema: &Value, content: &mut Map<String, Value>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        if let Some(default) = property.get("default")
            && !content.contains_key(name)
        {
            content.insert(name.clone(), default.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpwire_model::Version;
    use serde_json::json;

    #[test]
    fn an_accepted_form_gets_the_defaults_it_lacks_and_keeps_its_own() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"},
            "age": {"type": "integer", "default": 36},
            "ok": {"type": "boolean"},
        }});
        let mut given = Map::new();
        given.insert("age".into(), json!(7));
        let answer = with_defaults(ElicitAnswer::Accept(given), &schema);
        assert_eq!(
            answer.to_json(Version::V2025_11_25).expect("sendable"),
            json!({"action": "accept", "content": {"age": 7, "name": "Ada"}})
        );
        assert_eq!(
            with_defaults(ElicitAnswer::Decline, &schema),
            ElicitAnswer::Decline
        );
        assert_eq!(
            ElicitAnswer::Accept(Map::new())
                .to_json(Version::V2025_11_25)
                .expect("sendable"),
            json!({"action": "accept"})
        );
    }
}
