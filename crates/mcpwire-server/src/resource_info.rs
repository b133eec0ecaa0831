//! What a resource and a resource template both carry: a name, and optionally a title, a
//! description, a MIME type, annotations, icons and `_meta`; and the builder methods that
//! set them. Each list leaves out on purpose what the version in force lacks.

use mcpwire_model::{Annotations, ResourceEntry, ResourceTemplateEntry};
use serde_json::{Map, Value};

use mcpwire_model::version::{Feature, Version};

/// The descriptive members of a resource or resource template.
#[derive(Debug, Clone)]
pub(crate) struct ResourceInfo {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) annotations: Option<Annotations>,
    pub(crate) icons: Option<Vec<Map<String, Value>>>,
    pub(crate) meta: Option<Map<String, Value>>,
}

/// `annotations` as `version` can carry them (no `lastModified` before 2025-06-18).
pub(crate) fn annotations_for(
    annotations: &Option<Annotations>,
    version: Version,
) -> Option<Annotations> {
    let mut annotations = annotations.clone()?;
    if !version.has(Feature::Titles) {
        annotations.last_modified = None;
    }
    Some(annotations)
}

/// `icons` under `version` (from 2025-11-25).
pub(crate) fn icons_for(
    icons: &Option<Vec<Map<String, Value>>>,
    version: Version,
) -> Option<Vec<Map<String, Value>>> {
    icons.clone().filter(|_| version >= Version::V2025_11_25)
}

/// `_meta` under `version` (from 2025-06-18, with titles).
pub(crate) fn meta_for(
    meta: &Option<Map<String, Value>>,
    version: Version,
) -> Option<Map<String, Value>> {
    meta.clone().filter(|_| version.has(Feature::Titles))
}

impl ResourceInfo {
    pub(crate) fn new(name: String) -> Self {
        Self {
            name,
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
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
            size: None,
            annotations: annotations_for(&self.annotations, version),
            icons: icons_for(&self.icons, version),
            meta: meta_for(&self.meta, version),
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
            annotations: annotations_for(&self.annotations, version),
            icons: icons_for(&self.icons, version),
            meta: meta_for(&self.meta, version),
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

        /// Sets the annotations (`lastModified` sent from 2025-06-18).
        pub fn annotations(mut self, annotations: $crate::Annotations) -> Self {
            self.info.annotations = Some(annotations);
            self
        }

        /// Sets the icons, each an `Icon` object (`src`, `mimeType`, `sizes`, `theme`;
        /// sent from 2025-11-25).
        pub fn icons(mut self, icons: Vec<serde_json::Map<String, serde_json::Value>>) -> Self {
            self.info.icons = Some(icons);
            self
        }

        /// Sets `_meta` (sent from 2025-06-18).
        pub fn meta(mut self, meta: serde_json::Map<String, serde_json::Value>) -> Self {
            self.info.meta = Some(meta);
            self
        }
    };
}

pub(crate) use resource_info_setters;
