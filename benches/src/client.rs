//! The client path (issue 15): a response decoded into the result type its pending request
//! named, by `mcpwire::peer::Peer::receive` (one pass for the common spelling) and by
//! `Peer::receive_two_pass` (envelope, then the typed result), against the floor of that
//! path: serde_json decoding the result text alone into the same generated type.
//!
//! Each frame is answered to a fresh peer whose request 1 is pending (`iter_batched`: making
//! the peer and sending the request are not timed). The same group times the frame's
//! `IgnoredAny` floor and rmcp decoding the frame, so the ratios the targets are read from
//! come from measurements taken back to back, not from another group's run minutes apart.

use mcpwire::Profile;
use mcpwire::peer::{Event, Peer, Request};
use mcpwire_types::mcp::v2025_11_25 as generated;
use serde::de::DeserializeOwned;

/// A typed request of the client, by the result type it names.
pub struct Expecting<R>(std::marker::PhantomData<R>);

impl<R: DeserializeOwned + Send + 'static> Request for Expecting<R> {
    const METHOD: &'static str = "bench/result";
    type Params = ();
    type Result = R;
}

/// One response frame of the suite, answering request 1, with its result text.
pub struct ClientFrame {
    /// The frame's name in the suite (`messages::all`).
    pub name: &'static str,
    /// The frame, its id rewritten to 1.
    pub frame: Vec<u8>,
    /// The `result` member's text.
    pub result: String,
    /// The generated result type's decoders.
    pub kind: ResultKind,
}

/// Which generated 2025-11-25 result type the frame's request named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultKind {
    /// `tools/list`.
    ListTools,
    /// `resources/read`.
    ReadResource,
    /// `tools/call`.
    CallTool,
}

/// The ways the client path is measured: the peer's two paths, the result decode alone, and
/// the frame's floor (`serde_json` into `IgnoredAny`) and rmcp (`ServerJsonRpcMessage`) as the
/// decode table's contenders take them (the peer is ignored by all but the first two).
pub const WAYS: [&str; 5] = [
    "result_alone",
    "peer_single_pass",
    "peer_two_pass",
    "floor_frame",
    "rmcp_frame",
];

impl ClientFrame {
    /// The response frames of the suite, re-addressed to request 1.
    pub fn all() -> Vec<ClientFrame> {
        crate::messages::all()
            .into_iter()
            .filter_map(|message| {
                let text = String::from_utf8(message.bytes.clone()).ok()?;
                let rest = text.strip_prefix(r#"{"jsonrpc":"2.0","id":"#)?;
                let digits = rest.find(',')?;
                let method = crate::messages::pending_method(&rest[..digits])?;
                let kind = match method {
                    "tools/list" => ResultKind::ListTools,
                    "resources/read" => ResultKind::ReadResource,
                    "tools/call" => ResultKind::CallTool,
                    _ => return None,
                };
                let result = rest[digits..]
                    .strip_prefix(r#","result":"#)?
                    .strip_suffix('}')?
                    .to_owned();
                let frame = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
                Some(ClientFrame {
                    name: message.name,
                    frame: frame.into_bytes(),
                    result,
                    kind,
                })
            })
            .collect()
    }

    /// A client whose request 1 names this frame's result type.
    pub fn client(&self) -> Peer {
        let mut peer = Peer::new(Profile::mcp("2025-11-25").expect("a known version"));
        let sent = match self.kind {
            ResultKind::ListTools => {
                peer.request::<Expecting<generated::ListToolsResult>>(&(), None)
            }
            ResultKind::ReadResource => {
                peer.request::<Expecting<generated::ReadResourceResult>>(&(), None)
            }
            ResultKind::CallTool => peer.request::<Expecting<generated::CallToolResult>>(&(), None),
        };
        assert_eq!(sent.expect("a request").0.get(), 1);
        peer
    }

    /// One way of decoding the frame; `true` when it produced the typed result.
    pub fn run(&self, way: &str, peer: &mut Peer) -> bool {
        match way {
            "result_alone" => self.result_alone(),
            "peer_single_pass" => is_typed_result(&peer.receive(&self.frame).events),
            "peer_two_pass" => is_typed_result(&peer.receive_two_pass(&self.frame).events),
            "floor_frame" => crate::contenders::floor(&self.frame).is_ok(),
            "rmcp_frame" => crate::contenders::rmcp_server_message(&self.frame).is_ok(),
            _ => panic!("unknown way {way}"),
        }
    }

    fn result_alone(&self) -> bool {
        match self.kind {
            ResultKind::ListTools => {
                serde_json::from_str::<generated::ListToolsResult>(&self.result).is_ok()
            }
            ResultKind::ReadResource => {
                serde_json::from_str::<generated::ReadResourceResult>(&self.result).is_ok()
            }
            ResultKind::CallTool => {
                serde_json::from_str::<generated::CallToolResult>(&self.result).is_ok()
            }
        }
    }
}

fn is_typed_result(events: &[Event<'_>]) -> bool {
    matches!(events, [Event::Response { outcome: Ok(_), .. }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_response_frame_decodes_every_way() {
        let frames = ClientFrame::all();
        assert!(frames.len() >= 3, "{} response frames", frames.len());
        for frame in &frames {
            for way in WAYS {
                let mut peer = frame.client();
                assert!(frame.run(way, &mut peer), "{} {way}", frame.name);
            }
        }
    }
}
