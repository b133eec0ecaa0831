//! `roots/list`: the filesystem roots the client exposes, asked by a handler through
//! [`Context::list_roots`](crate::Context::list_roots).

use mcpwire::peer::Request;
use serde::Deserialize;
use serde_json::Value;

/// One root the client exposes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Root {
    /// The root's URI (`file://…`).
    pub uri: String,
    /// A name to show for it, if the client gave one.
    #[serde(default)]
    pub name: Option<String>,
}

/// `roots/list`; its result is read as [`RootsReply`].
pub(crate) struct ListRoots;

/// The result of `roots/list`.
#[derive(Debug, Deserialize)]
pub(crate) struct RootsReply {
    pub(crate) roots: Vec<Root>,
}

impl Request for ListRoots {
    const METHOD: &'static str = "roots/list";
    type Params = Value;
    type Result = Box<serde_json::value::RawValue>;
}
