//! What every session of a server shares: its name and version, the kinds of items it
//! offers, its catalogs of tools, resources and prompts, and the capabilities they declare.
//! Depends on no other part of the server, so the server, its sessions and the dispatch of
//! their requests all point here and never at each other.

use std::sync::{Arc, RwLock};

use mcpwire_model::{ListCapability, PeerInfo, ResourcesCapability, ServerCapabilitySet};

use crate::catalog::Catalog;
use crate::events::EventSource;
use crate::prompt::Prompt;
use crate::request_state::StateKey;
use crate::resource::Resource;
use crate::resource_template::ResourceTemplate;
use crate::tasks::{TASKS_EXTENSION, TaskStore};
use crate::tool::Tool;
use mcpwire_model::version::{Feature, Version};

/// What a server says about itself.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) instructions: Option<String>,
}

impl ServerInfo {
    /// The server's `Implementation` (`serverInfo`): its name and version.
    pub(crate) fn peer(&self) -> PeerInfo {
        PeerInfo::new(self.name.clone(), self.version.clone())
    }
}

/// Which kinds of items the server offers: fixed when it is built, because a client reads
/// the capabilities once.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Offers {
    pub(crate) tools: bool,
    pub(crate) resources: bool,
    pub(crate) prompts: bool,
    /// Some prompt or resource template has a completer.
    pub(crate) completions: bool,
    /// Some tool may run as a task (the Tasks extension, 2026-07-28).
    pub(crate) tasks: bool,
}

/// What every session of one server shares: what it says about itself, what it offers.
pub(crate) struct Shared {
    pub(crate) info: ServerInfo,
    pub(crate) page_size: usize,
    pub(crate) offers: Offers,
    pub(crate) tools: RwLock<Catalog<Tool>>,
    pub(crate) resources: RwLock<Catalog<Resource>>,
    pub(crate) resource_templates: RwLock<Catalog<ResourceTemplate>>,
    pub(crate) prompts: RwLock<Catalog<Prompt>>,
    /// Seals the `requestState` of 2026-07-28 input-required results.
    pub(crate) state_key: StateKey,
    /// Carries changes to the `subscriptions/listen` streams (2026-07-28).
    pub(crate) events: Arc<dyn EventSource>,
    /// The tasks of the Tasks extension (2026-07-28).
    pub(crate) tasks: Arc<TaskStore>,
}

impl Shared {
    /// The `capabilities` this server declares: only the kinds of items it was built with,
    /// each with `listChanged: true` (items can change while serving), and `logging`; under
    /// 2026-07-28 the Tasks extension when some tool may run as a task.
    /// Omitted on purpose where the version lacks them: `completions` before 2025-03-26
    /// (which serves `completion/complete` with no capability to declare it) and
    /// `resources.subscribe` where the version has no `resources/subscribe`.
    pub(crate) fn capabilities(&self, version: Version) -> ServerCapabilitySet {
        let listed = || ListCapability {
            list_changed: Some(true),
        };
        ServerCapabilitySet {
            logging: true,
            completions: self.offers.completions && version.has(Feature::CompletionsCapability),
            tools: self.offers.tools.then(listed),
            prompts: self.offers.prompts.then(listed),
            resources: self.offers.resources.then(|| ResourcesCapability {
                list_changed: Some(true),
                subscribe: version.has_request("resources/subscribe").then_some(true),
            }),
            extensions: (self.offers.tasks && version.is_stateless())
                .then(|| TASKS_EXTENSION.to_owned())
                .into_iter()
                .collect(),
        }
    }
}
