//! What a resource and a resource template both carry: a name, and optionally a title, a
//! description and a MIME type; and the builder methods that set them.

use mcpwire_model::{ResourceEntry, ResourceTemplateEntry};

use crate::version::{Feature, Version};

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

    /// The title under `version`: left out on purpose before 2025-06-18, which has no
    /// titles (so the lists hold every item under every version).
    pub(crate) fn title(&self, version: Version) -> Option<String> {
        self.title.clone().filter(|_| version.has(Feature::Titles))
    }

    /// The item as `resources/list` describes it under `version`, at `uri`.
    pub(crate) fn resource_entry(&self, version: Version, uri: &str) -> ResourceEntry {
        ResourceEntry {
            uri: uri.to_owned(),
            name: self.name.clone(),
            title: self.title(version),
            description: self.description.clone(),
            mime_type: self.mime_type.clone(),
        }
    }

    /// The item as `resources/templates/list` describes it under `version`, for
    /// `uri_template`.
    pub(crate) fn template_entry(
        &self,
        version: Version,
        uri_template: &str,
    ) -> ResourceTemplateEntry {
        ResourceTemplateEntry {
            uri_template: uri_template.to_owned(),
            name: self.name.clone(),
            title: self.title(version),
            description: self.description.clone(),
            mime_type: self.mime_type.clone(),
        }
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
