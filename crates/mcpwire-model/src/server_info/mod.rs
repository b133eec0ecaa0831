//! What a server says about itself, version-neutral: its name and version, the capabilities
//! it declares, its instructions, and the `initialize` and `server/discover` results that
//! carry them.

pub(crate) mod wire;

use serde_json::Value;

use crate::content::ContentError;
use crate::read_error::ReadError;
use crate::server_info::wire::{
    discover_result, initialize_result, read_discover, read_initialize,
};
use crate::version::Version;

/// A server's (or client's) name and version (`Implementation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerInfo {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// A human-readable title (from 2025-06-18).
    pub title: Option<String>,
}

impl PeerInfo {
    /// `name` at `version`, untitled.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            title: None,
        }
    }
}

/// A kind of listed item the server offers (`tools`, `prompts`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListCapability {
    /// Whether the server notifies changes of the list (`listChanged`).
    pub list_changed: Option<bool>,
}

/// The server offers resources (`resources`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourcesCapability {
    /// Whether the server notifies changes of the list (`listChanged`).
    pub list_changed: Option<bool>,
    /// Whether clients may subscribe to a resource's updates (`subscribe`).
    pub subscribe: Option<bool>,
}

/// The capabilities a server declares (`ServerCapabilities`). The model holds the ones this
/// workspace serves; `experimental`, `tasks`, the settings of extensions and undeclared
/// members are left behind when a server's are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerCapabilitySet {
    /// `logging`: the server sends log messages.
    pub logging: bool,
    /// `completions` (from 2025-03-26): the server completes arguments.
    pub completions: bool,
    /// `tools`.
    pub tools: Option<ListCapability>,
    /// `prompts`.
    pub prompts: Option<ListCapability>,
    /// `resources`.
    pub resources: Option<ResourcesCapability>,
    /// `extensions` (from 2026-07-28): the identifiers of the extensions the server supports
    /// (`io.modelcontextprotocol/tasks`), each declared with empty settings.
    pub extensions: std::collections::BTreeSet<String>,
}

/// The `initialize` result (versions with the handshake, up to 2025-11-25).
///
/// ```
/// use mcpwire_model::{InitializeReply, PeerInfo, ServerCapabilitySet, Version};
///
/// let reply = InitializeReply {
///     protocol_version: "2025-06-18".into(),
///     capabilities: ServerCapabilitySet { logging: true, ..Default::default() },
///     server_info: PeerInfo::new("demo", "1.0.0"),
///     instructions: None,
/// };
/// let sent = reply.to_json(Version::V2025_06_18).unwrap();
/// assert_eq!(sent["capabilities"]["logging"], serde_json::json!({}));
/// let read = InitializeReply::from_json(&sent.to_string(), Version::V2025_06_18).unwrap();
/// assert_eq!(read, reply);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitializeReply {
    /// The version the server chose.
    pub protocol_version: String,
    /// What it offers.
    pub capabilities: ServerCapabilitySet,
    /// Who it is.
    pub server_info: PeerInfo,
    /// How to use it, for the model.
    pub instructions: Option<String>,
}

impl InitializeReply {
    /// The `InitializeResult` of `version`, serialized from its generated type, or what the
    /// version lacks (2026-07-28 has no `initialize`).
    pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
        initialize_result(self, version)
    }

    /// [`to_json`](Self::to_json) as the result's JSON text, written once from the
    /// generated type (no [`Value`] in between; the same bytes as the value's).
    pub fn to_text(
        &self,
        version: Version,
    ) -> Result<Box<serde_json::value::RawValue>, ContentError> {
        initialize_result(self, version)
    }

    /// The result a server sent: `text` (an `InitializeResult` of `version`) decoded as that
    /// version's generated type, then read.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_initialize(text, version)
    }
}

/// The `server/discover` result (2026-07-28).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoverReply {
    /// The versions the server speaks, as it lists them.
    pub supported_versions: Vec<String>,
    /// What it offers.
    pub capabilities: ServerCapabilitySet,
    /// Who it is (`_meta["io.modelcontextprotocol/serverInfo"]`), if it says.
    pub server_info: Option<PeerInfo>,
    /// How to use it, for the model.
    pub instructions: Option<String>,
}

impl DiscoverReply {
    /// The `DiscoverResult` of `version`, serialized from its generated type (`complete`,
    /// cacheable for 0 ms by anyone), or why it cannot be: only 2026-07-28 has it.
    pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
        discover_result(self, version)
    }

    /// [`to_json`](Self::to_json) as the result's JSON text, written once from the
    /// generated type (no [`Value`] in between; the same bytes as the value's).
    pub fn to_text(
        &self,
        version: Version,
    ) -> Result<Box<serde_json::value::RawValue>, ContentError> {
        discover_result(self, version)
    }

    /// The result a server sent: `text` (a `DiscoverResult` of `version`) decoded as that
    /// version's generated type, then read.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_discover(text, version)
    }
}
