//! The contenders: one decode function per crate, each taking the frame bytes as they come off
//! the wire, plus a one-line description of what each made of a frame (for the report).
//!
//! Every decode function returns what its crate hands to the application, so the measured time
//! includes building (and, in the harness, dropping) that value.
//!
//! ```
//! use mcpwire_benches::{contenders::Contender, messages};
//!
//! let ping = messages::all().remove(0);
//! assert_eq!(Contender::McpwireEnvelope.describe(&ping), "request id=\"req-000001\" method=ping");
//! ```

use rust_mcp_schema::mcp_2025_11_25::schema_utils::McpMessage as _;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use crate::messages::{BenchMessage, Direction};
use crate::typed;

/// The MCP version every version-specific contender decodes.
pub const MCP_VERSION: &str = "2025-11-25";

/// One decoder under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    /// `serde_json::from_slice::<IgnoredAny>`: validates the JSON and builds nothing.
    Floor,
    /// `serde_json::from_slice::<serde_json::Value>`.
    Value,
    /// `mcpwire::decode` under the MCP 2025-11-25 profile: envelope, classification, id.
    McpwireEnvelope,
    /// `mcpwire::decode`, then the generated 2025-11-25 type of the message.
    McpwireTyped20251125,
    /// `mcpwire::decode`, then the generated 2026-07-28 type of the message.
    McpwireTyped20260728,
    /// rmcp's `ClientJsonRpcMessage` (frames a server receives) or `ServerJsonRpcMessage`.
    Rmcp,
    /// rust-mcp-schema 2025-11-25 `ClientMessage` or `ServerMessage`.
    RustMcpSchema,
    /// jsonrpsee-types `Request`, else `Notification` (server side), or `Response` (client side).
    Jsonrpsee,
}

impl Contender {
    /// All contenders, in report order.
    pub const ALL: [Contender; 8] = [
        Contender::Floor,
        Contender::Value,
        Contender::McpwireEnvelope,
        Contender::McpwireTyped20251125,
        Contender::McpwireTyped20260728,
        Contender::Rmcp,
        Contender::RustMcpSchema,
        Contender::Jsonrpsee,
    ];

    /// The criterion function id (a directory name under `target/criterion/<group>/`).
    pub fn id(self) -> &'static str {
        match self {
            Contender::Floor => "floor_ignored_any",
            Contender::Value => "serde_json_value",
            Contender::McpwireEnvelope => "mcpwire_envelope",
            Contender::McpwireTyped20251125 => "mcpwire_typed_2025_11_25",
            Contender::McpwireTyped20260728 => "mcpwire_typed_2026_07_28",
            Contender::Rmcp => "rmcp",
            Contender::RustMcpSchema => "rust_mcp_schema",
            Contender::Jsonrpsee => "jsonrpsee_types",
        }
    }

    /// Decodes `message` and drops the result; the value goes through `black_box` first.
    #[inline]
    pub fn run(self, message: &BenchMessage) {
        let bytes = &message.bytes[..];
        let server_side = message.direction == Direction::ClientToServer;
        match self {
            Contender::Floor => drop(std::hint::black_box(floor(bytes))),
            Contender::Value => drop(std::hint::black_box(value(bytes))),
            Contender::McpwireEnvelope => drop(std::hint::black_box(mcpwire_envelope(bytes))),
            Contender::McpwireTyped20251125 => {
                drop(std::hint::black_box(typed::v2025_11_25(bytes)))
            }
            Contender::McpwireTyped20260728 => {
                drop(std::hint::black_box(typed::v2026_07_28(bytes)))
            }
            Contender::Rmcp if server_side => {
                drop(std::hint::black_box(rmcp_client_message(bytes)))
            }
            Contender::Rmcp => drop(std::hint::black_box(rmcp_server_message(bytes))),
            Contender::RustMcpSchema if server_side => {
                drop(std::hint::black_box(rms_client_message(bytes)))
            }
            Contender::RustMcpSchema => drop(std::hint::black_box(rms_server_message(bytes))),
            Contender::Jsonrpsee if server_side => {
                drop(std::hint::black_box(jsonrpsee_call(bytes)))
            }
            Contender::Jsonrpsee => drop(std::hint::black_box(jsonrpsee_response(bytes))),
        }
    }

    /// What this contender made of `message`, in a few words.
    pub fn describe(self, message: &BenchMessage) -> String {
        let bytes = &message.bytes[..];
        let server_side = message.direction == Direction::ClientToServer;
        match self {
            Contender::Floor => ok_or_err(floor(bytes).map(|_| "valid JSON".to_owned())),
            Contender::Value => ok_or_err(value(bytes).map(|_| "valid JSON".to_owned())),
            Contender::McpwireEnvelope => describe_mcpwire(&mcpwire_envelope(bytes)),
            Contender::McpwireTyped20251125 => typed::describe_v2025_11_25(bytes),
            Contender::McpwireTyped20260728 => typed::describe_v2026_07_28(bytes),
            Contender::Rmcp if server_side => {
                ok_or_err(rmcp_client_message(bytes).map(|m| describe_rmcp(&m)))
            }
            Contender::Rmcp => ok_or_err(rmcp_server_message(bytes).map(|m| describe_rmcp(&m))),
            Contender::RustMcpSchema if server_side => {
                ok_or_err(rms_client_message(bytes).map(|m| format!("{:?}", m.message_type())))
            }
            Contender::RustMcpSchema => {
                ok_or_err(rms_server_message(bytes).map(|m| format!("{:?}", m.message_type())))
            }
            Contender::Jsonrpsee if server_side => {
                ok_or_err(jsonrpsee_call(bytes).map(|c| match c {
                    JsonrpseeCall::Request(r) => format!("request id={} method={}", r.id, r.method),
                    JsonrpseeCall::Notification(n) => format!("notification method={}", n.method),
                }))
            }
            Contender::Jsonrpsee => {
                ok_or_err(jsonrpsee_response(bytes).map(|r| format!("response id={}", r.id)))
            }
        }
    }
}

fn ok_or_err<E: std::fmt::Display>(result: Result<String, E>) -> String {
    match result {
        Ok(text) => text,
        Err(error) => {
            let text = error.to_string();
            let short: String = text.chars().take(60).collect();
            format!(
                "error: {short}{}",
                if text.len() > short.len() { "…" } else { "" }
            )
        }
    }
}

/// The floor: validate and build nothing.
pub fn floor(bytes: &[u8]) -> serde_json::Result<IgnoredAny> {
    serde_json::from_slice::<IgnoredAny>(bytes)
}

/// A generic tree.
pub fn value(bytes: &[u8]) -> serde_json::Result<serde_json::Value> {
    serde_json::from_slice(bytes)
}

/// The MCP 2025-11-25 profile every mcpwire contender uses.
pub fn profile() -> &'static mcpwire::Profile {
    static PROFILE: std::sync::OnceLock<mcpwire::Profile> = std::sync::OnceLock::new();
    PROFILE.get_or_init(|| mcpwire::Profile::mcp(MCP_VERSION).expect("profile for the MCP version"))
}

/// mcpwire's envelope decode: classification and id recovery, borrowing from the frame.
pub fn mcpwire_envelope(bytes: &[u8]) -> mcpwire::Decoded<'_> {
    mcpwire::decode(bytes, profile())
}

/// Describes a decoded mcpwire frame.
pub fn describe_mcpwire(decoded: &mcpwire::Decoded<'_>) -> String {
    use mcpwire::{Decoded, Message, RawNotification};
    match decoded {
        Decoded::Rejected(rejection) => format!("rejected: {rejection}"),
        Decoded::Batch(messages) => format!("batch of {}", messages.len()),
        Decoded::Single(Message::Request { id, method, .. }) => {
            format!("request id={} method={method}", id.raw())
        }
        Decoded::Single(Message::Notification(RawNotification { method, .. })) => {
            format!("notification method={method}")
        }
        Decoded::Single(Message::Response(response)) => {
            format!("response id={}", response.id.map_or("none", |id| id.raw()))
        }
        Decoded::Single(Message::Invalid { id, reason }) => {
            format!(
                "invalid ({reason}), answered with id={}",
                id.map_or("none", |id| id.raw())
            )
        }
    }
}

fn describe_rmcp<Req, Resp, Not>(message: &rmcp::model::JsonRpcMessage<Req, Resp, Not>) -> String {
    use rmcp::model::JsonRpcMessage;
    match message {
        JsonRpcMessage::Request(r) => format!("request id={}", r.id),
        JsonRpcMessage::Response(r) => format!("response id={}", r.id),
        JsonRpcMessage::Notification(_) => "notification".to_owned(),
        JsonRpcMessage::Error(e) => format!("error response id={:?}", e.id),
    }
}

/// rmcp, server side.
pub fn rmcp_client_message(bytes: &[u8]) -> serde_json::Result<rmcp::model::ClientJsonRpcMessage> {
    serde_json::from_slice(bytes)
}

/// rmcp, client side.
pub fn rmcp_server_message(bytes: &[u8]) -> serde_json::Result<rmcp::model::ServerJsonRpcMessage> {
    serde_json::from_slice(bytes)
}

/// rust-mcp-schema 2025-11-25, server side.
pub fn rms_client_message(
    bytes: &[u8],
) -> serde_json::Result<rust_mcp_schema::mcp_2025_11_25::schema_utils::ClientMessage> {
    serde_json::from_slice(bytes)
}

/// rust-mcp-schema 2025-11-25, client side.
pub fn rms_server_message(
    bytes: &[u8],
) -> serde_json::Result<rust_mcp_schema::mcp_2025_11_25::schema_utils::ServerMessage> {
    serde_json::from_slice(bytes)
}

/// What a jsonrpsee server reads a call as.
pub enum JsonrpseeCall<'a> {
    /// A request.
    Request(jsonrpsee_types::Request<'a>),
    /// A notification.
    Notification(jsonrpsee_types::Notification<'a, Option<&'a RawValue>>),
}

/// jsonrpsee, server side: `Request`, else `Notification` (what its server does).
pub fn jsonrpsee_call(bytes: &[u8]) -> serde_json::Result<JsonrpseeCall<'_>> {
    match serde_json::from_slice::<jsonrpsee_types::Request<'_>>(bytes) {
        Ok(request) => Ok(JsonrpseeCall::Request(request)),
        Err(_) => serde_json::from_slice(bytes).map(JsonrpseeCall::Notification),
    }
}

/// jsonrpsee, client side: a `Response` with a raw result.
pub fn jsonrpsee_response(
    bytes: &[u8],
) -> serde_json::Result<jsonrpsee_types::Response<'_, &RawValue>> {
    serde_json::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages;

    #[test]
    fn every_contender_decodes_every_well_formed_frame() {
        for message in messages::all().iter().filter(|m| !m.malformed) {
            for contender in Contender::ALL {
                let outcome = contender.describe(message);
                assert!(
                    !outcome.contains("error"),
                    "{} on {}: {outcome}",
                    contender.id(),
                    message.name
                );
            }
        }
    }

    #[test]
    fn mcpwire_recovers_the_id_of_every_malformed_frame_that_has_a_valid_one() {
        let outcome = |name: &str| {
            let message = messages::all()
                .into_iter()
                .find(|m| m.name == name)
                .unwrap();
            Contender::McpwireEnvelope.describe(&message)
        };
        assert!(
            outcome("bad_version").ends_with("answered with id=7"),
            "{}",
            outcome("bad_version")
        );
        assert!(
            outcome("bad_id_type").ends_with("answered with id=none"),
            "{}",
            outcome("bad_id_type")
        );
        assert_eq!(outcome("deep_params"), "request id=9 method=tools/call");
    }
}
