//! What a server lists, read into the model's types, the ones `mcpwire-server` lists with:
//! tools as [`ToolInfo`](mcpwire_model::ToolInfo), resources, templates and prompts as
//! [`ResourceEntry`](mcpwire_model::ResourceEntry),
//! [`ResourceTemplateEntry`](mcpwire_model::ResourceTemplateEntry) and
//! [`PromptEntry`](mcpwire_model::PromptEntry) (every member each version declares; those a
//! version lacks are `None`), one [`Page`] at a time.

/// One page of a list: its items, and the cursor of the next page (`None` on the last).
pub type Page<T> = mcpwire_model::ListPage<T>;
