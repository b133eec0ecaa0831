//! Resources, resource templates and prompts as their list results describe them,
//! version-neutral, and one page of each list. (Tools are in `tool_info.rs`.)

use serde_json::Value;

use crate::content::ContentError;
use crate::listing_wire::{
    list_prompts_result, list_resource_templates_result, list_resources_result,
    read_list_prompts_result, read_list_resource_templates_result, read_list_resources_result,
};
use crate::read_error::ReadError;
use crate::version::Version;

/// One resource of a `resources/list` result.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

/// One template of a `resources/templates/list` result.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

/// One argument of a listed prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgumentEntry {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: Option<String>,
    /// Whether `prompts/get` needs it.
    pub required: Option<bool>,
}

/// One prompt of a `prompts/list` result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptEntry {
    /// The name `prompts/get` takes.
    pub name: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
    /// What the prompt is for.
    pub description: Option<String>,
    /// Its arguments, if it says (`None`: the member is absent).
    pub arguments: Option<Vec<PromptArgumentEntry>>,
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
            /// item holds that the version lacks (a title before 2025-06-18).
            pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
                $to(self, version)
            }

            #[doc = concat!("The page a server sent: `text` (a `", $result, "` of `version`)")]
            /// decoded as that version's generated type, then read. `_meta`, `icons`,
            /// `annotations`, `size` and undeclared members are left behind.
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
