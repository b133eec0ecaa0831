//! The serialized form of a [`Change`]: one object tagged by `kind`, the lists' changes
//! flat (`toolsListChanged`), which is what the processes of one server exchange over a
//! message bus (and what `mcpwire_server::ServerEvent` was).

use serde::{Deserialize, Serialize};

use super::{Change, ListKind};

/// A [`Change`] as it is serialized.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub(super) enum Tagged {
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated { uri: String },
}

impl From<Change> for Tagged {
    fn from(change: Change) -> Self {
        match change {
            Change::ListChanged(ListKind::Tools) => Tagged::ToolsListChanged,
            Change::ListChanged(ListKind::Prompts) => Tagged::PromptsListChanged,
            Change::ListChanged(ListKind::Resources) => Tagged::ResourcesListChanged,
            Change::ResourceUpdated { uri } => Tagged::ResourceUpdated { uri },
        }
    }
}

impl From<Tagged> for Change {
    fn from(tagged: Tagged) -> Self {
        match tagged {
            Tagged::ToolsListChanged => Change::ListChanged(ListKind::Tools),
            Tagged::PromptsListChanged => Change::ListChanged(ListKind::Prompts),
            Tagged::ResourcesListChanged => Change::ListChanged(ListKind::Resources),
            Tagged::ResourceUpdated { uri } => Change::ResourceUpdated { uri },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The form the processes of a server exchange, unchanged from `ServerEvent`'s.
    #[test]
    fn changes_serialize_tagged_by_kind() {
        for (change, text) in [
            (
                Change::ListChanged(ListKind::Tools),
                r#"{"kind":"toolsListChanged"}"#,
            ),
            (
                Change::ListChanged(ListKind::Prompts),
                r#"{"kind":"promptsListChanged"}"#,
            ),
            (
                Change::ListChanged(ListKind::Resources),
                r#"{"kind":"resourcesListChanged"}"#,
            ),
            (
                Change::ResourceUpdated {
                    uri: "file:///a".into(),
                },
                r#"{"kind":"resourceUpdated","uri":"file:///a"}"#,
            ),
        ] {
            assert_eq!(serde_json::to_string(&change).unwrap(), text);
            assert_eq!(serde_json::from_str::<Change>(text).unwrap(), change);
        }
    }
}
