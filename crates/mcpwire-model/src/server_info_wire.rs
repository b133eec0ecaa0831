//! What a server says about itself on the wire, both ways: [`ServerCapabilitySet`],
//! [`PeerInfo`], [`InitializeReply`] and [`DiscoverReply`] converted into each version's
//! generated `ServerCapabilities`, `Implementation`, `InitializeResult` and `DiscoverResult`,
//! and read back from them. A member a version lacks is a [`ContentError`], never dropped.

use std::collections::BTreeMap;

use mcpwire_types::JsonObject;
use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::Value;

use crate::content::ContentError;
use crate::content_read::complete;
use crate::content_wire::to_value;
use crate::read_error::{ReadError, decode};
use crate::server_info::{
    DiscoverReply, InitializeReply, ListCapability, PeerInfo, ResourcesCapability,
    ServerCapabilitySet,
};
use crate::version::Version;

/// The generated `ServerCapabilities` of module `$m`; `$empty` is its empty object
/// (`logging: {}`); `completions` when the version has that capability.
macro_rules! capabilities_to {
    ($m:ident, $c:expr, $empty:expr $(, $completions:ident)?) => {{
        let c: &ServerCapabilitySet = $c;
        let mut out = $m::ServerCapabilities::new();
        out.logging = c.logging.then(|| $empty);
        $(out.$completions = c.completions.then(|| $empty);)?
        out.tools = c.tools.as_ref().map(|t| {
            let mut tools = $m::ServerCapabilitiesTools::new();
            tools.list_changed = t.list_changed;
            tools
        });
        out.prompts = c.prompts.as_ref().map(|p| {
            let mut prompts = $m::ServerCapabilitiesPrompts::new();
            prompts.list_changed = p.list_changed;
            prompts
        });
        out.resources = c.resources.as_ref().map(|r| {
            let mut resources = $m::ServerCapabilitiesResources::new();
            resources.list_changed = r.list_changed;
            resources.subscribe = r.subscribe;
            resources
        });
        out
    }};
}

/// The generated `Implementation` of module `$m`; `titled` from 2025-06-18.
macro_rules! peer_to {
    ($m:ident, $p:expr, $v:expr, titled) => {{
        let p: &PeerInfo = $p;
        let mut out = $m::Implementation::new(p.name.clone(), p.version.clone());
        out.title = p.title.clone();
        out
    }};
    ($m:ident, $p:expr, $v:expr) => {{
        let p: &PeerInfo = $p;
        if p.title.is_some() {
            return Err(ContentError::lacking("an implementation `title`", $v));
        }
        $m::Implementation::new(p.name.clone(), p.version.clone())
    }};
}

/// The `InitializeResult` of `version`, serialized from its generated type.
pub(crate) fn initialize_result(
    reply: &InitializeReply,
    version: Version,
) -> Result<Value, ContentError> {
    macro_rules! result {
        ($m:ident, $capabilities:expr, $info:expr) => {{
            let mut out =
                $m::InitializeResult::new($capabilities, reply.protocol_version.clone(), $info);
            out.instructions = reply.instructions.clone();
            to_value(out)
        }};
    }
    let c = &reply.capabilities;
    let p = &reply.server_info;
    let v = version;
    if !c.extensions.is_empty() {
        return Err(ContentError::lacking("the `extensions` capability", v));
    }
    Ok(match version {
        Version::V2024_11_05 => {
            if c.completions {
                return Err(ContentError::lacking("the `completions` capability", v));
            }
            let capabilities = capabilities_to!(v2024_11_05, c, JsonObject::new());
            result!(v2024_11_05, capabilities, peer_to!(v2024_11_05, p, v))
        }
        Version::V2025_03_26 => result!(
            v2025_03_26,
            capabilities_to!(v2025_03_26, c, JsonObject::new(), completions),
            peer_to!(v2025_03_26, p, v)
        ),
        Version::V2025_06_18 => result!(
            v2025_06_18,
            capabilities_to!(v2025_06_18, c, JsonObject::new(), completions),
            peer_to!(v2025_06_18, p, v, titled)
        ),
        Version::V2025_11_25 => result!(
            v2025_11_25,
            capabilities_to!(v2025_11_25, c, JsonObject::new(), completions),
            peer_to!(v2025_11_25, p, v, titled)
        ),
        Version::V2026_07_28 => {
            return Err(ContentError::lacking("an `initialize` result", v));
        }
    })
}

/// The `DiscoverResult` of `version` (2026-07-28 only), serialized from its generated type:
/// `complete`, cacheable for 0 ms by anyone (capabilities can change with the server).
pub(crate) fn discover_result(
    reply: &DiscoverReply,
    version: Version,
) -> Result<Value, ContentError> {
    use v2026_07_28 as m;
    if version != Version::V2026_07_28 {
        return Err(ContentError::lacking("a `server/discover` result", version));
    }
    let mut capabilities = capabilities_to!(m, &reply.capabilities, BTreeMap::new(), completions);
    if !reply.capabilities.extensions.is_empty() {
        let declared = reply.capabilities.extensions.iter();
        capabilities.extensions = Some(declared.map(|id| (id.clone(), BTreeMap::new())).collect());
    }
    let mut out = m::DiscoverResult::new(
        m::DiscoverResultCacheScope::Public,
        capabilities,
        "complete",
        reply.supported_versions.clone(),
        0u64,
    );
    if let Some(info) = &reply.server_info {
        let mut meta = m::ResultMetaObject::new();
        meta.io_modelcontextprotocol_server_info = Some(peer_to!(m, info, version, titled));
        out.meta = Some(meta);
    }
    out.instructions = reply.instructions.clone();
    Ok(to_value(out))
}

/// A [`ServerCapabilitySet`] from a generated `ServerCapabilities`; `completions` when the
/// version has that capability.
macro_rules! capabilities_of {
    ($c:expr $(, $completions:ident)?) => {{
        let c = $c;
        #[allow(unused_mut)]
        let mut out = ServerCapabilitySet {
            logging: c.logging.is_some(),
            completions: false,
            tools: c.tools.map(|t| ListCapability {
                list_changed: t.list_changed,
            }),
            prompts: c.prompts.map(|p| ListCapability {
                list_changed: p.list_changed,
            }),
            resources: c.resources.map(|r| ResourcesCapability {
                list_changed: r.list_changed,
                subscribe: r.subscribe,
            }),
            extensions: Default::default(),
        };
        $(out.completions = c.$completions.is_some();)?
        out
    }};
}

/// A [`PeerInfo`] from a generated `Implementation`; `titled` from 2025-06-18.
macro_rules! peer_of {
    ($p:expr $(, $title:ident)?) => {{
        let p = $p;
        #[allow(unused_mut)]
        let mut out = PeerInfo::new(p.name, p.version);
        $(out.$title = p.$title;)?
        out
    }};
}

/// The [`InitializeReply`] of an `InitializeResult` of `version` (its JSON text).
pub(crate) fn read_initialize(text: &str, version: Version) -> Result<InitializeReply, ReadError> {
    const WHAT: &str = "InitializeResult";
    macro_rules! read {
        ($m:ident, [$($completions:ident)?], [$($title:ident)?]) => {{
            let r: $m::InitializeResult = decode(text, WHAT, version)?;
            InitializeReply {
                protocol_version: r.protocol_version,
                capabilities: capabilities_of!(r.capabilities $(, $completions)?),
                server_info: peer_of!(r.server_info $(, $title)?),
                instructions: r.instructions,
            }
        }};
    }
    Ok(match version {
        Version::V2024_11_05 => read!(v2024_11_05, [], []),
        Version::V2025_03_26 => read!(v2025_03_26, [completions], []),
        Version::V2025_06_18 => read!(v2025_06_18, [completions], [title]),
        Version::V2025_11_25 => read!(v2025_11_25, [completions], [title]),
        Version::V2026_07_28 => {
            return Err(ReadError::new(
                WHAT,
                version,
                "the version has no `initialize`",
            ));
        }
    })
}

/// The [`DiscoverReply`] of a `DiscoverResult` of `version` (its JSON text).
pub(crate) fn read_discover(text: &str, version: Version) -> Result<DiscoverReply, ReadError> {
    const WHAT: &str = "DiscoverResult";
    if version != Version::V2026_07_28 {
        return Err(ReadError::new(
            WHAT,
            version,
            "the version has no `server/discover`",
        ));
    }
    let r: v2026_07_28::DiscoverResult = decode(text, WHAT, version)?;
    complete(&r.result_type, WHAT, version)?;
    Ok(DiscoverReply {
        supported_versions: r.supported_versions,
        capabilities: {
            let extensions = r.capabilities.extensions.clone().unwrap_or_default();
            ServerCapabilitySet {
                extensions: extensions.into_keys().collect(),
                ..capabilities_of!(r.capabilities, completions)
            }
        },
        server_info: r
            .meta
            .and_then(|meta| meta.io_modelcontextprotocol_server_info)
            .map(|p| peer_of!(p, title)),
        instructions: r.instructions,
    })
}
