//! The changes a server announces to its client: a list changed
//! (`notifications/{tools,prompts,resources}/list_changed`), or the contents of a resource
//! (`notifications/resources/updated`). The same in every MCP version: a server publishes a
//! [`Change`] to its sessions and `subscriptions/listen` streams, a client reads one from
//! either; the notification methods are mapped here once, both ways.
//!
//! ```
//! use mcpwire_model::{Change, ListKind};
//!
//! let change = Change::from_notification("notifications/resources/updated", Some(r#"{"uri":"file:///a"}"#));
//! assert_eq!(change.unwrap().unwrap(), Change::ResourceUpdated { uri: "file:///a".into() });
//! assert_eq!(Change::ListChanged(ListKind::Tools).method(), "notifications/tools/list_changed");
//! assert!(Change::from_notification("notifications/message", None).is_none());
//! ```

mod tagged;

use serde::Deserialize;

/// Which list changed (`notifications/{tools,resources,prompts}/list_changed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `tools/list`.
    Tools,
    /// `resources/list` (and the templates).
    Resources,
    /// `prompts/list`.
    Prompts,
}

impl ListKind {
    /// The method of the notification announcing that this list changed.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
        }
    }

    /// The list whose change `method` announces; `None` for any other method.
    pub fn of_method(method: &str) -> Option<ListKind> {
        [ListKind::Tools, ListKind::Resources, ListKind::Prompts]
            .into_iter()
            .find(|kind| kind.method() == method)
    }
}

/// A change a server announces: to the sessions that agreed a version with it, as a
/// notification, and to its `subscriptions/listen` streams (MCP 2026-07-28) whose filter
/// names it. Serialized (a message bus between the processes of one server) as an object
/// tagged by `kind`: `{"kind":"toolsListChanged"}`, `{"kind":"resourceUpdated","uri":"…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "tagged::Tagged", from = "tagged::Tagged")]
#[non_exhaustive]
pub enum Change {
    /// A list changed (`notifications/{tools,resources,prompts}/list_changed`).
    ListChanged(ListKind),
    /// The contents of the resource at `uri` changed (`notifications/resources/updated`).
    ResourceUpdated {
        /// The resource's URI.
        uri: String,
    },
}

/// The params of `notifications/resources/updated` that name the change (every version's
/// `ResourceUpdatedNotificationParams` has at least its `uri`).
#[derive(Deserialize)]
struct Updated {
    uri: String,
}

impl Change {
    /// The method of the notification announcing this change.
    pub fn method(&self) -> &'static str {
        match self {
            Change::ListChanged(kind) => kind.method(),
            Change::ResourceUpdated { .. } => "notifications/resources/updated",
        }
    }

    /// The change a notification announces, from its method and its params' JSON text:
    /// `None` when the method announces none, an error when params of
    /// `notifications/resources/updated` hold no string `uri`. The params of a list change
    /// are not read (they carry nothing but `_meta`).
    pub fn from_notification(
        method: &str,
        params: Option<&str>,
    ) -> Option<Result<Change, serde_json::Error>> {
        if let Some(kind) = ListKind::of_method(method) {
            return Some(Ok(Change::ListChanged(kind)));
        }
        if method != "notifications/resources/updated" {
            return None;
        }
        Some(
            serde_json::from_str::<Updated>(params.unwrap_or("null"))
                .map(|updated| Change::ResourceUpdated { uri: updated.uri }),
        )
    }
}
