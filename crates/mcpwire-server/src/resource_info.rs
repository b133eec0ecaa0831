//! What a resource and a resource template both carry: a name, and optionally a title, a
//! description and a MIME type; and the builder methods that set them.

use serde_json::Value;

use crate::version::Version;

/// The descriptive members of a resource or resource template.
#[derive(Debug, Clone)]
pub(crate) struct ResourceInfo {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) mime_type: Option<String>,
}

impl ResourceInfo {
    pub(crate) fn new(name: String) -> Self {
        Self {
            name,
            title: None,
            description: None,
            mime_type: None,
        }
    }

    /// The listed object of `version`: these members plus `address_member` (`uri`,
    /// `uriTemplate`) set to `address`.
    pub(crate) fn definition(
        &self,
        version: Version,
        address_member: &str,
        address: &str,
    ) -> Value {
        let mut item = crate::describe::named(&self.name, self.title.as_deref(), version);
        item.insert(address_member.into(), address.into());
        if let Some(description) = &self.description {
            item.insert("description".into(), description.clone().into());
        }
        if let Some(mime_type) = &self.mime_type {
            item.insert("mimeType".into(), mime_type.clone().into());
        }
        Value::Object(item)
    }
}

/// The builder methods of a type with an `info: ResourceInfo` field.
macro_rules! resource_info_setters {
    () => {
        /// Sets the MIME type.
        pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
            self.info.mime_type = Some(mime_type.into());
            self
        }

        /// Sets the description.
        pub fn description(mut self, description: impl Into<String>) -> Self {
            self.info.description = Some(description.into());
            self
        }

        /// Sets the human-readable title (sent from 2025-06-18).
        pub fn title(mut self, title: impl Into<String>) -> Self {
            self.info.title = Some(title.into());
            self
        }
    };
}

pub(crate) use resource_info_setters;
