//! Elicitation as the client's handlers see it: a form to fill ([`FormElicitation`]) or a
//! URL to visit ([`UrlElicitation`]), answered with an [`ElicitAnswer`]. An accepted form
//! gets the schema's `default` for every field the handler left out (SEP-1034).

use serde_json::{Map, Value, json};

/// A form-mode `elicitation/create`: what to ask and the flat JSON Schema of the answer.
#[derive(Debug, Clone)]
pub struct FormElicitation {
    /// The message to show the user.
    pub message: String,
    /// The `requestedSchema`: an object schema whose `properties` are primitive fields
    /// (each may carry a `default`).
    pub requested_schema: Value,
}

/// A URL-mode `elicitation/create` (from 2025-11-25): the user is sent to a URL.
#[derive(Debug, Clone)]
pub struct UrlElicitation {
    /// The message to show the user.
    pub message: String,
    /// The URL to open.
    pub url: String,
    /// The server's id of this elicitation (its completion notification names it).
    pub elicitation_id: String,
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitAnswer {
    /// Accepted: the form's content (empty for URL mode). Fields left out get the schema's
    /// defaults.
    Accept(Map<String, Value>),
    /// Declined.
    Decline,
    /// Dismissed without a choice.
    Cancel,
}

impl ElicitAnswer {
    /// The `ElicitResult` JSON of this answer to a form with `schema` (`None` for URL mode):
    /// an accepted form's missing fields are filled from the schema's defaults.
    pub(crate) fn into_result(self, schema: Option<&Value>) -> Value {
        match self {
            ElicitAnswer::Accept(mut content) => match schema {
                Some(schema) => {
                    apply_defaults(schema, &mut content);
                    json!({ "action": "accept", "content": content })
                }
                None => json!({ "action": "accept" }),
            },
            ElicitAnswer::Decline => json!({ "action": "decline" }),
            ElicitAnswer::Cancel => json!({ "action": "cancel" }),
        }
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

    #[test]
    fn an_accepted_form_gets_the_defaults_it_lacks_and_keeps_its_own() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"},
            "age": {"type": "integer", "default": 36},
            "ok": {"type": "boolean"},
        }});
        let mut given = Map::new();
        given.insert("age".into(), json!(7));
        let result = ElicitAnswer::Accept(given).into_result(Some(&schema));
        assert_eq!(
            result,
            json!({"action": "accept", "content": {"age": 7, "name": "Ada"}})
        );
        assert_eq!(
            ElicitAnswer::Decline.into_result(Some(&schema)),
            json!({"action": "decline"})
        );
        assert_eq!(
            ElicitAnswer::Accept(Map::new()).into_result(None),
            json!({"action": "accept"})
        );
    }
}
