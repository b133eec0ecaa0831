//! The `add` tool several tests register: two integers in, their sum out as structured
//! content (`Add` and `Sum` give its input and output schemas).
// Each test binary includes this module and uses part of it.
#![allow(dead_code)]

use mcpwire_server::{Context, Structured};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// The tool's arguments. (A doc comment here would become the input schema's description,
// which the golden replies hold without one.)
#[derive(Deserialize, JsonSchema)]
pub struct Add {
    pub a: i64,
    pub b: i64,
}

// The tool's structured result (no doc comment either: the output schema).
#[derive(Serialize, JsonSchema)]
pub struct Sum {
    pub sum: i64,
}

/// The tool: `a + b`.
pub async fn add(Add { a, b }: Add, _: Context) -> Structured<Sum> {
    Structured(Sum { sum: a + b })
}
