//! Elicitation forms derived from Rust types: a table of form shapes whose
//! `elicitation/create` params are validated against each version's schema (every
//! property a valid `PrimitiveSchemaDefinition`), with the shapes MCP asks for: refs
//! inlined, `Option` meaning not required (never a `null` choice), titled single- and
//! multi-select enums (SEP-1330), defaults (SEP-1034), no schemars number formats.

use crate::support;

use std::collections::BTreeSet;

use mcpwire_server::{
    AskError, ClientError, Context, ElicitRequest, Elicitation, FieldKind, Form, McpServer,
    NoArguments, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use support::{ClientAnswers, connect, declines};

/// The versions with elicitation.
const ELICITING: [Version; 3] = [
    Version::V2025_06_18,
    Version::V2025_11_25,
    Version::V2026_07_28,
];

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Scalars {
    /// Your name.
    name: String,
    age: u8,
    count: i64,
    ratio: f64,
    agree: bool,
    nickname: Option<String>,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(length(min = 2, max = 8))]
    code: String,
    #[schemars(range(min = 1, max = 5))]
    stars: Option<i32>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[allow(dead_code)]
enum Color {
    Red,
    Green,
}

// A titled enum: each variant's title is what the user sees.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[allow(dead_code)]
enum Plan {
    #[schemars(title = "Free plan")]
    #[serde(rename = "free")]
    Free,
    #[schemars(title = "Pro plan")]
    #[serde(rename = "pro")]
    Pro,
}

/// An enum whose variants are documented: the documentation is the title.
#[derive(Deserialize, Serialize, JsonSchema)]
#[allow(dead_code)]
enum Size {
    /// Small
    S,
    /// Large
    L,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Choices {
    color: Color,
    maybe_color: Option<Color>,
    plan: Plan,
    maybe_plan: Option<Plan>,
    size: Size,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Multi {
    colors: Vec<Color>,
    plans: BTreeSet<Plan>,
    maybe_colors: Option<Vec<Color>>,
}

fn default_name() -> String {
    "John Doe".into()
}
fn default_age() -> i64 {
    30
}
fn default_score() -> f64 {
    95.5
}
fn default_color() -> Color {
    Color::Green
}
fn default_true() -> bool {
    true
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[allow(dead_code)]
struct Defaults {
    #[serde(default = "default_name")]
    name: String,
    #[serde(default = "default_age")]
    age: i64,
    #[serde(default = "default_score")]
    score: f64,
    #[serde(default = "default_color")]
    color: Color,
    #[serde(default = "default_true")]
    verified: bool,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Legacy {
    #[schemars(extend("enum" = ["opt1", "opt2"], "enumNames" = ["Option One", "Option Two"]))]
    legacy: String,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Nested {
    inner: Scalars,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Listy {
    names: Vec<String>,
}

fn form<T: JsonSchema>() -> Form {
    Form::of::<T>().unwrap_or_else(|e| panic!("{}: {e}", std::any::type_name::<T>()))
}

/// The `elicitation/create` request of `form` under `version`, validated as the version's
/// `ElicitRequest`: its params.
fn sent(form: &Form, version: Version) -> Result<Value, AskError> {
    let request = ElicitRequest::Form {
        message: "Please fill in".into(),
        form: form.clone(),
        meta: None,
    };
    let params = request.to_json(version)?;
    let message =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params });
    support::assert_valid(version, "ElicitRequest", &message);
    for (name, property) in params["requestedSchema"]["properties"].as_object().unwrap() {
        support::assert_valid(version, "PrimitiveSchemaDefinition", property);
        let text = property.to_string();
        for forbidden in [
            "$ref",
            "null",
            "int64",
            "uint8",
            "int32",
            "double",
            "anyOf\":[{\"oneOf",
        ] {
            assert!(!text.contains(forbidden), "{version} {name}: {text}");
        }
    }
    Ok(params)
}

#[test]
fn the_table_of_form_shapes_is_valid_under_every_version_that_carries_it() {
    // (shape, the first version that carries it)
    let table: Vec<(&str, Form, Version)> = vec![
        ("scalars", form::<Scalars>(), Version::V2025_06_18),
        ("choices", form::<Choices>(), Version::V2025_06_18),
        ("legacy", form::<Legacy>(), Version::V2025_06_18),
        ("multi", form::<Multi>(), Version::V2025_11_25),
        ("defaults", form::<Defaults>(), Version::V2025_11_25),
    ];
    for (shape, form, first) in &table {
        for version in ELICITING {
            let sent = sent(form, version);
            if version >= *first {
                assert!(sent.is_ok(), "{shape} under {version}: {sent:?}");
            } else {
                let error = sent.unwrap_err().to_string();
                assert!(
                    error.contains(&format!("cannot be sent under MCP {version}")),
                    "{shape}: {error}"
                );
            }
        }
        for version in [Version::V2024_11_05, Version::V2025_03_26] {
            assert!(sent(form, version).is_err(), "{shape} under {version}");
        }
    }
}

#[test]
fn scalars_keep_their_types_bounds_and_formats_and_options_are_not_required() {
    let params = sent(&form::<Scalars>(), Version::V2025_11_25).unwrap();
    let schema = &params["requestedSchema"];
    let p = &schema["properties"];
    assert_eq!(schema["type"], "object");
    assert_eq!(
        p["name"],
        json!({ "type": "string", "description": "Your name." })
    );
    assert_eq!(
        p["age"],
        json!({ "type": "integer", "minimum": 0, "maximum": 255 })
    );
    assert_eq!(p["count"], json!({ "type": "integer" }));
    assert_eq!(p["ratio"], json!({ "type": "number" }));
    assert_eq!(p["agree"], json!({ "type": "boolean" }));
    assert_eq!(p["nickname"], json!({ "type": "string" }));
    assert_eq!(p["email"], json!({ "type": "string", "format": "email" }));
    assert_eq!(
        p["code"],
        json!({ "type": "string", "minLength": 2, "maxLength": 8 })
    );
    assert_eq!(
        p["stars"],
        json!({ "type": "integer", "minimum": 1, "maximum": 5 })
    );
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        required,
        BTreeSet::from(["age", "agree", "code", "count", "name", "ratio"])
    );
}

#[test]
fn enums_are_untitled_or_titled_single_selects_and_options_of_them_are_not_required() {
    let params = sent(&form::<Choices>(), Version::V2025_11_25).unwrap();
    let schema = &params["requestedSchema"];
    let p = &schema["properties"];
    let untitled = json!({ "type": "string", "enum": ["Red", "Green"] });
    assert_eq!(p["color"], untitled);
    assert_eq!(p["maybe_color"], untitled);
    let titled = json!({ "type": "string", "oneOf": [
        { "const": "free", "title": "Free plan" },
        { "const": "pro", "title": "Pro plan" },
    ] });
    assert_eq!(p["plan"]["oneOf"], titled["oneOf"]);
    assert_eq!(p["maybe_plan"]["oneOf"], titled["oneOf"]);
    assert_eq!(p["plan"]["type"], "string");
    assert_eq!(
        p["size"]["oneOf"],
        json!([{ "const": "S", "title": "Small" }, { "const": "L", "title": "Large" }])
    );
    assert_eq!(schema["required"], json!(["color", "plan", "size"]));
    // 2025-06-18 has titles only as `enumNames`.
    let old = sent(&form::<Choices>(), Version::V2025_06_18).unwrap();
    assert_eq!(
        old["requestedSchema"]["properties"]["plan"],
        json!({ "type": "string", "enum": ["free", "pro"], "enumNames": ["Free plan", "Pro plan"] })
    );
}

#[test]
fn sequences_of_enums_are_multi_selects() {
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let params = sent(&form::<Multi>(), version).unwrap();
        let p = &params["requestedSchema"]["properties"];
        assert_eq!(
            p["colors"],
            json!({ "type": "array", "items": { "type": "string", "enum": ["Red", "Green"] } })
        );
        assert_eq!(p["maybe_colors"], p["colors"]);
        assert_eq!(
            p["plans"],
            json!({ "type": "array", "items": { "anyOf": [
                { "const": "free", "title": "Free plan" },
                { "const": "pro", "title": "Pro plan" },
            ] } })
        );
        assert_eq!(
            params["requestedSchema"]["required"],
            json!(["colors", "plans"])
        );
    }
}

#[test]
fn defaults_of_every_primitive_type_are_sent_from_2025_11_25() {
    let params = sent(&form::<Defaults>(), Version::V2025_11_25).unwrap();
    let p = &params["requestedSchema"]["properties"];
    assert_eq!(p["name"]["default"], "John Doe");
    assert_eq!(p["age"]["default"], 30);
    assert_eq!(p["score"]["default"], 95.5);
    assert_eq!(p["color"]["default"], "Green");
    assert_eq!(p["verified"]["default"], true);
    // A field with a default is not required.
    assert!(params["requestedSchema"].get("required").is_none());
    let error = sent(&form::<Defaults>(), Version::V2025_06_18).unwrap_err();
    assert_eq!(
        error.to_string(),
        "form field `age`: a default value cannot be sent under MCP 2025-06-18"
    );
}

#[test]
fn legacy_enum_names_are_kept_as_enum_names() {
    for version in ELICITING {
        let params = sent(&form::<Legacy>(), version).unwrap();
        assert_eq!(
            params["requestedSchema"]["properties"]["legacy"],
            json!({ "type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"] }),
            "{version}"
        );
    }
}

#[test]
fn a_type_that_is_no_flat_form_is_refused_naming_the_field() {
    let nested = Form::of::<Nested>().unwrap_err();
    assert_eq!(nested.field.as_deref(), Some("inner"));
    let listy = Form::of::<Listy>().unwrap_err();
    assert_eq!(
        listy.to_string(),
        "form field `names`: an array field must be a multiple choice among strings"
    );
    let scalar = Form::of::<i64>().unwrap_err();
    assert_eq!(scalar.field, None);
    assert!(matches!(
        form::<Choices>().fields[0].kind,
        FieldKind::Select { .. }
    ));
}

/// A tool asking for `Multi` and `Defaults` and saying what it got.
fn asking_server() -> McpServer {
    McpServer::builder("forms", "1")
        .tool(
            "multi",
            "Asks for several choices",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Multi>("Pick").await {
                    Ok(Elicitation::Accepted(multi)) => {
                        ToolResult::text(format!("{} colors", multi.colors.len()))
                    }
                    Ok(_) => ToolResult::text("nothing"),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_form_the_version_cannot_carry_is_not_sent_and_the_handler_says_why() {
    let server = asking_server();
    let client = connect(&server, Version::V2025_06_18, declines());
    client.initialize(json!({ "elicitation": {} })).await;
    let result = client
        .request("tools/call", json!({ "name": "multi", "arguments": {} }))
        .await
        .unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "cannot ask the client: form field `colors`: a multiple choice cannot be sent under MCP 2025-06-18"
    );
    assert!(client.asked().is_empty());
    let error = ClientError::Unsendable(AskError::Form(Form::of::<Listy>().unwrap_err()));
    assert!(error.to_string().starts_with("cannot ask the client: "));
}

#[tokio::test]
async fn a_multi_select_form_goes_on_the_wire_and_its_answer_decodes() {
    let server = asking_server();
    let answers = ClientAnswers {
        elicit: json!({ "action": "accept", "content": { "colors": ["Red", "Green"], "plans": ["pro"] } }),
        ..declines()
    };
    let client = connect(&server, Version::V2025_11_25, answers);
    client.initialize(json!({ "elicitation": {} })).await;
    let result = client
        .request("tools/call", json!({ "name": "multi", "arguments": {} }))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "2 colors");
    let asked = client.asked();
    assert_eq!(asked[0].0, "elicitation/create");
    let message =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": asked[0].1 });
    support::assert_valid(Version::V2025_11_25, "ElicitRequest", &message);
    assert_eq!(
        asked[0].1["requestedSchema"]["properties"]["colors"]["type"],
        "array"
    );
}
