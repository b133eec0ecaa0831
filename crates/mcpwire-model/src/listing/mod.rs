//! Resources, resource templates and prompts as their list results describe them,
//! version-neutral, and one page of each list. (Tools are in `tool_info.rs`.)

pub(crate) mod wire;

use serde_json::{Map, Value};

use crate::content::{Annotations, ContentError};
use crate::listing::wire::{
    list_prompts_result, list_resource_templates_result, list_resources_result,
    read_list_prompts_result, read_list_resource_templates_result, read_list_resources_result,
};
use crate::read_error::ReadError;
use crate::version::Version;

/// One resource of a `resources/list` result: every member of each version's `Resource`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResourceEntry {
    /// Its URI, which `resources/read` takes.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// Its MIME type, if known.
    pub mime_type: Option<String>,
    /// Its size in bytes (before any encoding), if known.
    pub size: Option<u64>,
    /// Hints for the client (`lastModified` from 2025-06-18).
    pub annotations: Option<Annotations>,
    /// Icons a client may show (from 2025-11-25), each `Icon` object as sent.
    pub icons: Option<Vec<Map<String, Value>>>,
    /// `_meta` (from 2025-06-18), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl ResourceEntry {
    /// A resource at `uri` named `name`, nothing else set.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            ..Self::default()
        }
    }
}

/// One template of a `resources/templates/list` result: every member of each version's
/// `ResourceTemplate`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResourceTemplateEntry {
    /// Its RFC 6570 URI template.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What the resources it matches are.
    pub description: Option<String>,
    /// Their MIME type, if all share one.
    pub mime_type: Option<String>,
    /// Hints for the client (`lastModified` from 2025-06-18).
    pub annotations: Option<Annotations>,
    /// Icons a client may show (from 2025-11-25), each `Icon` object as sent.
    pub icons: Option<Vec<Map<String, Value>>>,
    /// `_meta` (from 2025-06-18), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl ResourceTemplateEntry {
    /// A template `uri_template` named `name`, nothing else set.
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            ..Self::default()
        }
    }
}

/// One argument of a listed prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgumentEntry {
    /// Its name.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What it is for.
    pub description: Option<String>,
    /// Whether `prompts/get` needs it.
    pub required: Option<bool>,
}

/// One prompt of a `prompts/list` result: every member of each version's `Prompt`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptEntry {
    /// The name `prompts/get` takes.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What the prompt is for.
    pub description: Option<String>,
    /// Its arguments, if it says (`None`: the member is absent).
    pub arguments: Option<Vec<PromptArgumentEntry>>,
    /// Icons a client may show (from 2025-11-25), each `Icon` object as sent.
    pub icons: Option<Vec<Map<String, Value>>>,
    /// `_meta` (from 2025-06-18), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl PromptEntry {
    /// A prompt named `name`, nothing else set.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }
}

/// One page of a list: its items and the cursor of the next page, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListPage<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// The `cursor` that asks for the next page.
    pub next_cursor: Option<String>,
}

/// Generates `to_json` and `from_json` for one kind of page.
macro_rules! page_methods {
    ($item:ty, $result:literal, $to:ident, $read:ident) => {
        impl ListPage<$item> {
            #[doc = concat!("The `", $result, "` of `version`, serialized from its generated")]
            /// type (2026-07-28: `complete`, cacheable for 0 ms by anyone), or the member an
            /// item holds that the version lacks (a title, `_meta` or `lastModified` before
            /// 2025-06-18, icons before 2025-11-25).
            pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
                $to(self, version)
            }

            /// [`to_json`](Self::to_json) as the result's JSON text, written once from the
            /// generated type (no [`Value`] in between; the same bytes as the value's).
            pub fn to_text(
                &self,
                version: Version,
            ) -> Result<Box<serde_json::value::RawValue>, ContentError> {
                $to(self, version)
            }

            #[doc = concat!("The page a server sent: `text` (a `", $result, "` of `version`)")]
            /// decoded as that version's generated type, then read: every member the
            /// version declares is kept; undeclared members are left behind.
            pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
                $read(text, version)
            }
        }
    };
}

page_methods!(
    ResourceEntry,
    "ListResourcesResult",
    list_resources_result,
    read_list_resources_result
);
page_methods!(
    ResourceTemplateEntry,
    "ListResourceTemplatesResult",
    list_resource_templates_result,
    read_list_resource_templates_result
);
page_methods!(
    PromptEntry,
    "ListPromptsResult",
    list_prompts_result,
    read_list_prompts_result
);
