//! Every reply against the negotiated MCP version's schema (finding `reply-schema-invalid`):
//! the response definition of the version, and a result against its method's result type.
//! `mcpwire check` and [`check_server`](crate::check_server) validate with this same code.
//!
//! The schemas are the upstream `<version>/schema.json` files, read at run time from a folder
//! the caller names. A file whose SHA-256 differs from the one the profile's facts were
//! generated from is refused: the verdicts would rest on another schema than the profile's.

use std::path::{Path, PathBuf};

use mcpwire_types::ProfileFacts;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::expected::{Cause, Expected};

/// The most schema errors one finding lists.
const SHOWN_ERRORS: usize = 3;

/// The compiled validators of one MCP version.
pub struct ReplySchemas {
    version: &'static str,
    result_response: jsonschema::Validator,
    error_response: jsonschema::Validator,
    results: Vec<(&'static str, jsonschema::Validator)>,
    any_result: Option<jsonschema::Validator>,
}

/// Whether and how replies were checked against the schema, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaCheck {
    /// Every reply was validated against this file.
    Checked(PathBuf),
    /// Not checked, and why (plain JSON-RPC 2.0, no schema folder).
    NotChecked(String),
}

/// The result type of `method`'s reply in the MCP schemas.
fn result_definition(method: &str) -> Option<&'static str> {
    match method {
        "initialize" => Some("InitializeResult"),
        "ping" => Some("EmptyResult"),
        "server/discover" => Some("DiscoverResult"),
        "tools/list" => Some("ListToolsResult"),
        "tools/call" => Some("CallToolResult"),
        "prompts/list" => Some("ListPromptsResult"),
        "prompts/get" => Some("GetPromptResult"),
        "resources/list" => Some("ListResourcesResult"),
        "resources/templates/list" => Some("ListResourceTemplatesResult"),
        "completion/complete" => Some("CompleteResult"),
        "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => Some("EmptyResult"),
        _ => None,
    }
}

/// The methods whose results are validated against their own result type (any other
/// method's result against `Result`).
const TYPED_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "completion/complete",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A validator for `schema` with its root pointed at definition `name`.
fn validator_for(schema: &Value, name: &str) -> Result<jsonschema::Validator, String> {
    let defs = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let mut root = schema.clone();
    let object = root
        .as_object_mut()
        .ok_or("the schema is not a JSON object")?;
    object.insert(
        "allOf".into(),
        serde_json::json!([{ "$ref": format!("#/{defs}/{name}") }]),
    );
    jsonschema::validator_for(&root).map_err(|error| format!("definition {name}: {error}"))
}

fn definition_exists(schema: &Value, name: &str) -> bool {
    schema.pointer(&format!("/$defs/{name}")).is_some()
        || schema.pointer(&format!("/definitions/{name}")).is_some()
}

impl ReplySchemas {
    /// Loads and compiles the schema of `facts`' MCP version from `dir`. `Ok(None)` with the
    /// reason when there is nothing to check against (plain JSON-RPC 2.0; no such file and
    /// the folder was not asked for explicitly); `Err` when the file is unusable or another
    /// schema than the profile's.
    pub fn load(
        facts: &'static ProfileFacts,
        dir: &Path,
        required: bool,
    ) -> Result<(Option<ReplySchemas>, SchemaCheck), String> {
        let Some(version) = facts.protocol_version else {
            return Ok((
                None,
                SchemaCheck::NotChecked(
                    "plain JSON-RPC 2.0 has no MCP schema; the envelope rules are checked".into(),
                ),
            ));
        };
        let path = dir.join(version).join("schema.json");
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if !required => {
                return Ok((
                    None,
                    SchemaCheck::NotChecked(format!(
                        "no MCP schema at {} ({error}); set MCP_SCHEMA_DIR or --schema-dir to the folder holding <version>/schema.json to validate every reply",
                        path.display()
                    )),
                ));
            }
            Err(error) => {
                return Err(format!(
                    "cannot read the MCP schema {}: {error} (--schema-dir names the folder holding <version>/schema.json)",
                    path.display()
                ));
            }
        };
        Self::from_bytes(facts, &bytes, path, required)
    }

    /// Compiles the schema `bytes` of `facts`' MCP version, read from `origin` (a file, or the
    /// copy built into a binary). They must be the schema the profile was generated from (the
    /// same SHA-256): else `Err` when `required`, or `Ok(None)` with the reason.
    pub fn from_bytes(
        facts: &'static ProfileFacts,
        bytes: &[u8],
        origin: PathBuf,
        required: bool,
    ) -> Result<(Option<ReplySchemas>, SchemaCheck), String> {
        let path = origin;
        let Some(version) = facts.protocol_version else {
            return Ok((
                None,
                SchemaCheck::NotChecked(
                    "plain JSON-RPC 2.0 has no MCP schema; the envelope rules are checked".into(),
                ),
            ));
        };
        let digest = hex::encode(Sha256::digest(bytes));
        if digest != facts.schema_sha256 {
            let message = format!(
                "{} is not the MCP {version} schema mcpwire was built from (SHA-256 {digest}, expected {}); point --schema-dir or MCP_SCHEMA_DIR at the upstream schemas",
                path.display(),
                facts.schema_sha256
            );
            return if required {
                Err(message)
            } else {
                Ok((None, SchemaCheck::NotChecked(message)))
            };
        }
        let schema: Value = serde_json::from_slice(bytes)
            .map_err(|error| format!("{} is not JSON: {error}", path.display()))?;
        let (result_name, error_name) = if definition_exists(&schema, "JSONRPCErrorResponse") {
            ("JSONRPCResultResponse", "JSONRPCErrorResponse")
        } else {
            ("JSONRPCResponse", "JSONRPCError")
        };
        let mut results = Vec::new();
        for method in TYPED_METHODS {
            if let Some(name) = result_definition(method).filter(|n| definition_exists(&schema, n))
            {
                results.push((method, validator_for(&schema, name)?));
            }
        }
        let any_result = if definition_exists(&schema, "Result") {
            Some(validator_for(&schema, "Result")?)
        } else {
            None
        };
        let schemas = ReplySchemas {
            version,
            result_response: validator_for(&schema, result_name)?,
            error_response: validator_for(&schema, error_name)?,
            results,
            any_result,
        };
        Ok((Some(schemas), SchemaCheck::Checked(path)))
    }

    /// How `reply` breaks the schema (the first few errors), as a message naming the
    /// definition, each error's JSON pointer into the reply and the error; `None` when it validates (or is not one JSON
    /// object with `result` or `error`: the envelope rules judge those). `method` is the
    /// request's method, when the input was a request.
    pub fn check(&self, reply: &[u8], method: Option<&str>) -> Option<String> {
        let mut value: Value = serde_json::from_slice(reply).ok()?;
        let object = value.as_object_mut()?;
        if object.contains_key("error") && object.get("id").is_none_or(Value::is_null) {
            // An error that carries no id: JSON-RPC 2.0 §5 spells it "id":null, which the
            // schema's RequestId (string or integer) cannot hold up to 2025-06-18; how "no id"
            // is spelt is judged by no-id-spelled-wrong, so the schema judges the rest.
            object.insert("id".into(), Value::from(0));
        }
        let object = value.as_object()?;
        let (validator, name, instance, prefix) = if object.contains_key("error") {
            (&self.error_response, "error response", &value, "")
        } else if let Some(result) = object.get("result") {
            if let Some(message) = self.first_error(&self.result_response, &value) {
                return Some(format!(
                    "the reply is not a valid result response of MCP {}: {message}",
                    self.version
                ));
            }
            let typed = method.and_then(|m| self.results.iter().find(|(name, _)| *name == m));
            match (typed, &self.any_result) {
                (Some((m, validator)), _) => {
                    let label = result_definition(m).unwrap_or("Result");
                    (validator, label, result, "/result")
                }
                (None, Some(validator)) => (validator, "Result", result, "/result"),
                (None, None) => return None,
            }
        } else {
            return None;
        };
        let message = self.first_error_at(validator, instance, prefix)?;
        Some(format!(
            "the reply breaks MCP {}'s {name}: {message}",
            self.version
        ))
    }

    fn first_error(&self, validator: &jsonschema::Validator, instance: &Value) -> Option<String> {
        self.first_error_at(validator, instance, "")
    }

    fn first_error_at(
        &self,
        validator: &jsonschema::Validator,
        instance: &Value,
        prefix: &str,
    ) -> Option<String> {
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .take(SHOWN_ERRORS)
            .map(|error| {
                let pointer = format!("{prefix}{}", error.instance_path());
                let pointer = if pointer.is_empty() {
                    "/".to_owned()
                } else {
                    pointer
                };
                format!("at {pointer}: {error}")
            })
            .collect();
        (!errors.is_empty()).then(|| errors.join("; "))
    }
}

/// The finding kind of a reply the version's schema refuses.
pub const REPLY_SCHEMA_INVALID: &str = "reply-schema-invalid";

/// The request method of `frame` when the case expects a reply to a request (its result is
/// validated against that method's result type).
fn request_method(frame: &[u8], expected: &Expected) -> Option<String> {
    match expected {
        Expected::Reply(reply) if reply.cause == Cause::Request => {
            serde_json::from_slice::<Value>(frame)
                .ok()?
                .get("method")?
                .as_str()
                .map(str::to_owned)
        }
        _ => None,
    }
}

/// How the first of `replies` to `frame` that breaks the schema breaks it (the message of
/// one `reply-schema-invalid` finding, naming the definition and JSON pointer); `None` when
/// every reply validates. The caller skips this when the envelope already broke a MUST: an
/// envelope violation is the one finding of its defect.
pub fn first_schema_error(
    schemas: &ReplySchemas,
    frame: &[u8],
    expected: &Expected,
    replies: &[Vec<u8>],
) -> Option<String> {
    let method = request_method(frame, expected);
    replies
        .iter()
        .find_map(|reply| schemas.check(reply, method.as_deref()))
}
