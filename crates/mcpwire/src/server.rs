//! A transport-independent server: frame in, reply bytes out.
//!
//! Handlers run inside `catch_unwind`: a panicking request handler is answered -32603
//! `Internal error` with the id (the panic message stays local, reported by the process's
//! panic hook, never sent to the peer); a panicking notification or event handler is
//! silent. Whatever the handler changed in the state before panicking stays changed.
//!
//! ```
//! use mcpwire::{Context, Profile, Router, RpcError, Server};
//!
//! let router = Router::new().request("echo", |_: &mut (), v: serde_json::Value, _: &mut Context<'_>| {
//!     Ok::<_, RpcError>(v)
//! });
//! let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
//! let reply = server.handle_frame(br#"[{"jsonrpc":"2.0","id":1e3,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"}]"#);
//! assert_eq!(reply.unwrap(), br#"[{"jsonrpc":"2.0","id":1e3,"result":[1]}]"#);
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::decode::{Decoded, Message, Rejection, decode};
use crate::events::ProtocolEvent;
use crate::profile::Profile;
use crate::reply::{self, RpcError};
use crate::router::{Context, Router};

/// A server: the current profile, the application state and the router.
pub struct Server<S> {
    profile: Profile,
    state: S,
    router: Router<S>,
}

impl<S: std::fmt::Debug> std::fmt::Debug for Server<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("profile", &self.profile)
            .field("state", &self.state)
            .field("router", &self.router)
            .finish()
    }
}

impl<S> Server<S> {
    /// A server starting under `profile`.
    pub fn new(profile: Profile, state: S, router: Router<S>) -> Self {
        Self {
            profile,
            state,
            router,
        }
    }

    /// The current profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Replaces the profile for the next frames.
    pub fn set_profile(&mut self, profile: Profile) {
        self.profile = profile;
    }

    /// The application state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The application state, mutably.
    pub fn state_mut(&mut self) -> &mut S {
        &mut self.state
    }

    /// Consumes the server, returning the state.
    pub fn into_state(self) -> S {
        self.state
    }

    /// Handles one frame and returns the reply line (without a newline), or `None` when
    /// nothing must be sent (notifications, responses, batches with no reply).
    pub fn handle_frame(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.handle_frame_into(frame, &mut out).then_some(out)
    }

    /// Like [`handle_frame`](Self::handle_frame), appending the reply to `out`; returns
    /// whether a reply was written.
    pub fn handle_frame_into(&mut self, frame: &[u8], out: &mut Vec<u8>) -> bool {
        let decoded = decode(frame, &self.profile);
        let mut switch_to = None;
        let replied = match decoded {
            Decoded::Rejected(rejection) => {
                self.write_rejection(&rejection, out);
                true
            }
            Decoded::Single(message) => self.handle_message(message, out, &mut switch_to),
            Decoded::Batch(messages) => {
                let budget = self.profile.limits().max_batch_reply_bytes;
                let mut batch = reply::BatchReply::begin(out, budget);
                for message in messages {
                    if let Message::Request { id, .. } = &message {
                        let id = *id;
                        batch.push_request(&id, |out| {
                            self.handle_message(message, out, &mut switch_to);
                        });
                    } else {
                        batch.push(|out| self.handle_message(message, out, &mut switch_to));
                    }
                }
                batch.finish()
            }
        };
        if let Some(profile) = switch_to {
            self.profile = profile;
        }
        replied
    }

    /// Writes the reply to a whole-frame rejection (no id) to `out`.
    pub fn write_rejection(&self, rejection: &Rejection, out: &mut Vec<u8>) {
        rejection.write_reply(&self.profile, out);
    }

    fn handle_message(
        &mut self,
        message: Message<'_>,
        out: &mut Vec<u8>,
        switch_to: &mut Option<Profile>,
    ) -> bool {
        match message {
            Message::Request { id, method, params } => {
                let mut ctx = Context::new(&self.profile, Some(id), &method);
                let router = &self.router;
                let state = &mut self.state;
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    router.call_request(state, params, &mut ctx)
                }))
                .unwrap_or_else(|_panic| Err(RpcError::internal_error()));
                if let Some(profile) = ctx.take_profile_switch() {
                    *switch_to = Some(profile);
                }
                match outcome {
                    Ok(result) => reply::write_success(out, &id, &result),
                    Err(error) => {
                        reply::write_error(out, Some(&id), &error, self.profile.missing_id())
                    }
                }
                true
            }
            Message::Notification { method, params } => {
                let mut ctx = Context::new(&self.profile, None, &method);
                let router = &self.router;
                let state = &mut self.state;
                let _ = catch_unwind(AssertUnwindSafe(|| {
                    router.call_notification(state, params, &mut ctx)
                }));
                if let Some(profile) = ctx.take_profile_switch() {
                    *switch_to = Some(profile);
                }
                false
            }
            Message::Response(response) => {
                let event = ProtocolEvent::from_response(&response);
                let router = &self.router;
                let state = &mut self.state;
                let _ = catch_unwind(AssertUnwindSafe(|| router.deliver_event(state, event)));
                false
            }
            invalid @ Message::Invalid { .. } => invalid.write_invalid_reply(&self.profile, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    #[derive(Default)]
    struct Seen {
        calls: Vec<(String, Option<String>, Option<String>, bool)>,
    }

    fn fallback_server() -> Server<Seen> {
        let router = Router::new()
            .request("known", |_: &mut Seen, _: (), _: &mut Context<'_>| {
                Ok::<_, RpcError>("known")
            })
            .fallback(|seen: &mut Seen, params, ctx| {
                seen.calls.push((
                    ctx.method().to_owned(),
                    ctx.id().map(|id| id.raw().to_owned()),
                    params.map(|p| p.get().to_owned()),
                    ctx.is_notification(),
                ));
                if ctx.method() == "refuse" {
                    return Err(RpcError::method_not_found());
                }
                Ok(RawValue::from_string(format!("{{\"method\":\"{}\"}}", ctx.method())).unwrap())
            });
        Server::new(Profile::jsonrpc_2_0(), Seen::default(), router)
    }

    #[test]
    fn fallback_receives_unknown_methods_with_raw_params() {
        let mut server = fallback_server();
        let reply = server
            .handle_frame(br#"{"jsonrpc":"2.0","id":"q","method":"dyn/x","params":{ "a" : [1] }}"#);
        assert_eq!(
            reply.unwrap(),
            br#"{"jsonrpc":"2.0","id":"q","result":{"method":"dyn/x"}}"#
        );
        let reply = server.handle_frame(br#"{"jsonrpc":"2.0","id":2,"method":"refuse"}"#);
        assert_eq!(
            reply.unwrap(),
            br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}"#
        );
        assert_eq!(
            server.handle_frame(br#"{"jsonrpc":"2.0","method":"note","params":[1]}"#),
            None
        );
        let reply = server.handle_frame(br#"{"jsonrpc":"2.0","id":3,"method":"known"}"#);
        assert_eq!(
            reply.unwrap(),
            br#"{"jsonrpc":"2.0","id":3,"result":"known"}"#
        );
        assert_eq!(
            server.state().calls,
            vec![
                (
                    "dyn/x".to_owned(),
                    Some("\"q\"".to_owned()),
                    Some(r#"{ "a" : [1] }"#.to_owned()),
                    false
                ),
                ("refuse".to_owned(), Some("2".to_owned()), None, false),
                ("note".to_owned(), None, Some("[1]".to_owned()), true),
            ]
        );
    }

    #[test]
    fn a_notification_can_switch_the_profile() {
        let router =
            Router::new().notification("go", |_: &mut (), _: (), ctx: &mut Context<'_>| {
                ctx.set_profile(ctx.profile().with_facts(Profile::latest_mcp().facts()));
            });
        let mut server = Server::new(
            Profile::jsonrpc_2_0().with_max_frame_bytes(1000),
            (),
            router,
        );
        assert_eq!(
            server.handle_frame(br#"{"jsonrpc":"2.0","method":"go"}"#),
            None
        );
        assert_eq!(server.profile().name(), Profile::latest_mcp().name());
        assert_eq!(server.profile().limits().max_frame_bytes, 1000);
    }

    #[test]
    fn results_that_fail_to_serialize_are_internal_errors() {
        let router = Router::new().request("bad", |_: &mut (), _: (), _: &mut Context<'_>| {
            let mut map = std::collections::HashMap::new();
            map.insert((1, 2), 3);
            Ok::<_, RpcError>(map)
        });
        let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
        let reply = String::from_utf8(
            server
                .handle_frame(br#"{"jsonrpc":"2.0","id":1,"method":"bad"}"#)
                .unwrap(),
        )
        .unwrap();
        assert!(reply.starts_with(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":"result does not serialize: "#), "{reply}");
    }
}
