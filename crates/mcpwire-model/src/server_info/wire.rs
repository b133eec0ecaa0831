//! What a server says about itself on the wire, both ways: [`ServerCapabilitySet`],
//! [`PeerInfo`], [`InitializeReply`] and [`DiscoverReply`] converted into each version's
//! generated `ServerCapabilities`, `Implementation`, `InitializeResult` and `DiscoverResult`,
//! and read back from them. A member a version lacks is a [`ContentError`], never dropped.

use std::collections::BTreeMap;

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

use crate::by_version::{by_version, if_member, refuse_member, set_member};
use crate::content::ContentError;
use crate::content::read::complete;
use crate::read_error::{ReadError, decode};
use crate::server_info::{
    DiscoverReply, InitializeReply, ListCapability, PeerInfo, ResourcesCapability,
    ServerCapabilitySet,
};
use crate::version::Version;
use crate::written::Written;

/// The generated `ServerCapabilities` of module `$m`: `completions` where the version has it
/// (else asking for it is a [`ContentError`]); `extensions` are set by the caller.
macro_rules! capabilities_to {
    ($m:ident, $c:expr, $v:expr) => {{
        let c: &ServerCapabilitySet = $c;
        refuse_member!(
            $m,
            ServerCapabilities,
            completions,
            c.completions,
            ContentError::lacking("the `completions` capability", $v)
        );
        let mut out = $m::ServerCapabilities::new();
        out.logging = c.logging.then(Default::default);
        set_member!(
            $m,
            ServerCapabilities,
            out.completions = c.completions.then(Default::default)
        );
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

/// The generated `Implementation` of module `$m`: `title` where the version has it (else a
/// title is a [`ContentError`]).
macro_rules! peer_to {
    ($m:ident, $p:expr, $v:expr) => {{
        let p: &PeerInfo = $p;
        refuse_member!(
            $m,
            Implementation,
            title,
            p.title.is_some(),
            ContentError::lacking("an implementation `title`", $v)
        );
        #[allow(unused_mut)]
        let mut out = $m::Implementation::new(p.name.clone(), p.version.clone());
        set_member!($m, Implementation, out.title = p.title.clone());
        out
    }};
}

/// The `InitializeResult` of `version`, serialized from its generated type.
pub(crate) fn initialize_result<W: Written>(
    reply: &InitializeReply,
    version: Version,
) -> Result<W, ContentError> {
    let c = &reply.capabilities;
    let v = version;
    if !c.extensions.is_empty() {
        return Err(ContentError::lacking("the `extensions` capability", v));
    }
    macro_rules! result {
        // The stateless version has no `initialize`.
        (v2026_07_28) => {
            return Err(ContentError::lacking("an `initialize` result", v))
        };
        ($m:ident) => {{
            let capabilities = capabilities_to!($m, c, v);
            let info = peer_to!($m, &reply.server_info, v);
            let mut out =
                $m::InitializeResult::new(capabilities, reply.protocol_version.clone(), info);
            out.instructions = reply.instructions.clone();
            W::written(out)
        }};
    }
    Ok(by_version!(version, result))
}

/// The `DiscoverResult` of `version` (2026-07-28 only), serialized from its generated type:
/// `complete`, cacheable for 0 ms by anyone (capabilities can change with the server).
pub(crate) fn discover_result<W: Written>(
    reply: &DiscoverReply,
    version: Version,
) -> Result<W, ContentError> {
    use v2026_07_28 as m;
    if !version.is_stateless() {
        return Err(ContentError::lacking("a `server/discover` result", version));
    }
    let mut capabilities = capabilities_to!(v2026_07_28, &reply.capabilities, version);
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
        meta.io_modelcontextprotocol_server_info = Some(peer_to!(v2026_07_28, info, version));
        out.meta = Some(meta);
    }
    out.instructions = reply.instructions.clone();
    Ok(W::written(out))
}

/// A [`ServerCapabilitySet`] from a generated `ServerCapabilities`; `completions` when the
/// version has that capability.
macro_rules! capabilities_of {
    ($m:ident, $c:expr) => {{
        let c: $m::ServerCapabilities = $c;
        ServerCapabilitySet {
            logging: c.logging.is_some(),
            completions: if_member!(
                $m,
                ServerCapabilities,
                completions,
                { c.completions.is_some() },
                { false }
            ),
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
        }
    }};
}

/// A [`PeerInfo`] from the generated `Implementation` of module `$m` (its `title` where the
/// version has it).
macro_rules! peer_of {
    ($m:ident, $p:expr) => {{
        let p: $m::Implementation = $p;
        #[allow(unused_mut)]
        let mut out = PeerInfo::new(p.name, p.version);
        if_member!(
            $m,
            Implementation,
            title,
            {
                out.title = p.title;
            },
            {}
        );
        out
    }};
}

pub(crate) fn read_initialize(text: &str, version: Version) -> Result<InitializeReply, ReadError> {
    const WHAT: &str = "InitializeResult";
    macro_rules! read {
        // The stateless version has no `initialize`.
        (v2026_07_28) => {
            return Err(ReadError::new(
                WHAT,
                version,
                "the version has no `initialize`",
            ))
        };
        ($m:ident) => {{
            let r: $m::InitializeResult = decode(text, WHAT, version)?;
            InitializeReply {
                protocol_version: r.protocol_version,
                capabilities: capabilities_of!($m, r.capabilities),
                server_info: peer_of!($m, r.server_info),
                instructions: r.instructions,
            }
        }};
    }
    Ok(by_version!(version, read))
}

/// The [`DiscoverReply`] of a `DiscoverResult` of `version` (its JSON text).
pub(crate) fn read_discover(text: &str, version: Version) -> Result<DiscoverReply, ReadError> {
    const WHAT: &str = "DiscoverResult";
    if !version.is_stateless() {
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
                ..capabilities_of!(v2026_07_28, r.capabilities)
            }
        },
        server_info: r
            .meta
            .and_then(|meta| meta.io_modelcontextprotocol_server_info)
            .map(|p| peer_of!(v2026_07_28, p)),
        instructions: r.instructions,
    })
}
