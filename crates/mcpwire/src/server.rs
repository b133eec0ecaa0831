//! A transport-independent server: frame in, reply bytes out.
//!
//! A thin blocking front end of the async [`Session`], the one driver: it polls the session's
//! reading of each frame in place and needs no runtime at all, which is what the fuzz
//! targets, the property tests and a server that only computes replies want. Handlers run inside `catch_unwind`: a panicking request handler is answered
//! -32603 `Internal error` with the id (the panic message stays local, reported by the
//! process's panic hook, never sent to the peer); a panicking notification or event handler
//! is silent. Whatever the handler changed in the state before panicking stays changed.
//!
//! ```
//! use mcpwire::{CallContext, Profile, Router, RpcError, Server};
//!
//! let router = Router::new().request("echo", |_: &(), v: serde_json::Value, _: &mut CallContext<'_>| {
//!     Ok::<_, RpcError>(v)
//! });
//! let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
//! let reply = server.handle_frame(br#"[{"jsonrpc":"2.0","id":1e3,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"}]"#);
//! assert_eq!(reply.unwrap(), br#"[{"jsonrpc":"2.0","id":1e3,"result":[1]}]"#);
//! ```

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::decode::Rejection;
use crate::peer::ReplyFrame;
use crate::profile::Profile;
use crate::router::Router;
use crate::service::{Outgoing, Session, Sink, SinkReceiver};

/// Replies one frame can cause: at most one ([`Outgoing::Reply`]); room to spare.
const REPLIES_PER_FRAME: usize = 4;

/// A server: the async [`Session`] of the application state and the router, driven in place.
/// Handlers run one at a time, in input order, on the caller's thread, with no runtime: the
/// session's reading of a frame is polled once and completes, since only synchronous
/// handlers run (an async one is answered -32603: it needs a runtime, see
/// [`into_session`](Self::into_session)).
pub struct Server<S> {
    session: Session<S>,
    /// The session's profile as of the last frame (the session keeps it behind its lock).
    profile: Profile,
    /// Where the session sends a frame's reply, drained after each frame.
    sink: Sink,
    replies: SinkReceiver,
}

impl<S: std::fmt::Debug> std::fmt::Debug for Server<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("profile", &self.profile)
            .field("state", self.state())
            .field("router", self.session.router())
            .finish()
    }
}

impl<S> Server<S> {
    /// A server starting under `profile`.
    pub fn new(profile: Profile, state: S, router: Router<S>) -> Self {
        #[cfg_attr(not(feature = "tokio"), allow(unused_mut))]
        let mut session = Session::new(profile.clone(), state, router);
        #[cfg(feature = "tokio")]
        session.set_runs_async(false);
        let (sink, replies) = Sink::channel(REPLIES_PER_FRAME);
        Self {
            session,
            profile,
            sink,
            replies,
        }
    }

    /// The current profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Replaces the profile for the next frames.
    pub fn set_profile(&mut self, profile: Profile) {
        self.session.set_profile(profile.clone());
        self.profile = profile;
    }

    /// The application state.
    pub fn state(&self) -> &S {
        self.session.state()
    }

    /// The application state, mutably (no handler runs meanwhile).
    pub fn state_mut(&mut self) -> &mut S {
        self.session
            .state_mut()
            .expect("no handler of a blocking server outlives its frame")
    }

    /// Consumes the server, returning the state.
    pub fn into_state(self) -> S {
        self.session
            .into_state()
            .expect("no handler of a blocking server outlives its frame")
    }

    /// The async [`Session`] this server drives, from its current profile, with the default
    /// [`Options`](crate::service::Options). Fed the same frames in the same order, one at a
    /// time, it sends the replies [`handle_frame`](Self::handle_frame) returns; run on tokio,
    /// it also runs the router's async handlers (feature `tokio`), which this server answers
    /// -32603.
    #[cfg_attr(not(feature = "tokio"), allow(unused_mut))]
    pub fn into_session(mut self) -> Session<S> {
        #[cfg(feature = "tokio")]
        self.session.set_runs_async(true);
        self.session
    }

    /// Handles one frame and returns the reply line (without a newline), or `None` when
    /// nothing must be sent (notifications, responses, batches with no reply).
    pub fn handle_frame(&mut self, frame: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.handle_frame_into(frame, &mut out).then_some(out)
    }

    /// Like [`handle_frame`](Self::handle_frame), appending the reply to `out`; returns
    /// whether a reply was written.
    ///
    /// The requests of a batch are handled in input order; the batch's replies are
    /// assembled by the [`Peer`](crate::peer::Peer) and written once the last of them is
    /// answered.
    pub fn handle_frame_into(&mut self, frame: &[u8], out: &mut Vec<u8>) -> bool {
        match self.handle_frame_reply(frame) {
            // Moved, not copied, when `out` holds nothing yet (the serving loop's case).
            Some(reply) if out.is_empty() => {
                *out = reply.into_bytes();
                true
            }
            Some(reply) => {
                out.extend_from_slice(&reply);
                true
            }
            None => false,
        }
    }

    /// Like [`handle_frame`](Self::handle_frame), the reply coming with what it is (one
    /// success, one error and its code, a batch's array), so that a transport mapping replies
    /// to statuses does not read it again.
    pub fn handle_frame_reply(&mut self, frame: &[u8]) -> Option<ReplyFrame> {
        // Without async handlers nothing in it waits: a handler slot is free (every frame
        // gives its slots back) and the sink has room for the frame's one reply. Both are
        // taken without waiting first, so tokio's cooperative budget, when this is called on
        // a runtime's task, is never consulted either.
        let done = {
            let receive = pin!(self.session.receive(frame, &self.sink));
            receive.poll(&mut Context::from_waker(Waker::noop()))
        };
        debug_assert!(done.is_ready(), "a frame of a blocking server never waits");
        if let Poll::Ready(()) = done {
            // A handler may have switched the profile.
            self.profile = self.session.profile();
        }
        let mut reply = None;
        while let Ok(item) = self.replies.try_recv() {
            if let Outgoing::Reply(frame) = item {
                reply = Some(*frame);
            }
        }
        reply
    }

    /// Writes the reply to a whole-frame rejection (no id) to `out`.
    pub fn write_rejection(&self, rejection: &Rejection, out: &mut Vec<u8>) {
        rejection.write_reply(&self.profile, out);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::context::CallContext;
    use crate::events::ProtocolEvent;
    use crate::reply::RpcError;
    use serde_json::value::RawValue;

    /// One call the fallback saw: method, id, params, whether a notification.
    type SeenCall = (String, Option<String>, Option<String>, bool);

    #[derive(Default)]
    struct Seen {
        calls: Mutex<Vec<SeenCall>>,
    }

    fn fallback_server() -> Server<Seen> {
        let router = Router::new()
            .request("known", |_: &Seen, _: (), _: &mut CallContext<'_>| {
                Ok::<_, RpcError>("known")
            })
            .fallback(|seen: &Seen, params, ctx| {
                seen.calls.lock().unwrap().push((
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

    /// Issue 33, item 9: a large reply is built once, in a buffer sized for it and the line
    /// end a transport appends: no buffer that doubles (twice the memory) or a second copy.
    #[test]
    fn a_large_reply_is_built_once_with_room_for_its_line_end() {
        let text = "x".repeat(4 << 20);
        let router = Router::new()
            .request("echo", move |_: &(), _: (), _: &mut CallContext<'_>| {
                Ok::<_, RpcError>(text.clone())
            });
        let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
        let reply = server
            .handle_frame(br#"{"jsonrpc":"2.0","id":1,"method":"echo"}"#)
            .unwrap();
        assert!(reply.starts_with(br#"{"jsonrpc":"2.0","id":1,"result":"xxx"#));
        assert_eq!(reply.len(), (4 << 20) + 36);
        assert!(
            reply.capacity() > reply.len() && reply.capacity() <= reply.len() + 256,
            "capacity {} for {} bytes",
            reply.capacity(),
            reply.len()
        );
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
            *server.state().calls.lock().unwrap(),
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

    /// The blocking server takes any state, one that is not `Sync` included, and hands it
    /// back mutably and by value once its frames are done.
    #[test]
    fn any_state_is_served_and_given_back() {
        let router = Router::new().request(
            "bump",
            |n: &std::cell::Cell<u32>, _: (), _: &mut CallContext<'_>| {
                n.set(n.get() + 1);
                Ok::<_, RpcError>(n.get())
            },
        );
        let mut server = Server::new(Profile::jsonrpc_2_0(), std::cell::Cell::new(0), router);
        let bump = br#"{"jsonrpc":"2.0","id":1,"method":"bump"}"#;
        assert_eq!(
            server.handle_frame(bump).unwrap(),
            br#"{"jsonrpc":"2.0","id":1,"result":1}"#
        );
        *server.state_mut().get_mut() = 41;
        assert_eq!(
            server.handle_frame(bump).unwrap(),
            br#"{"jsonrpc":"2.0","id":1,"result":42}"#
        );
        assert_eq!(server.into_state().get(), 42);
    }

    /// Without a runtime an async handler cannot run: the blocking server answers -32603 with
    /// the id; the session it becomes runs the handler on tokio.
    #[cfg(feature = "tokio")]
    #[test]
    fn async_handlers_are_refused_in_place_and_run_by_the_session() {
        let router = Router::<()>::new().request_async(
            "later",
            |_: std::sync::Arc<()>, _: (), _: crate::service::AsyncCallContext| async {
                Ok::<_, RpcError>("ran")
            },
        );
        let frame = br#"{"jsonrpc":"2.0","id":"x","method":"later"}"#;
        let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
        assert_eq!(
            server.handle_frame(frame).unwrap(),
            br#"{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"Internal error"}}"#
        );
        let session = server.into_session();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let reply = runtime.block_on(async {
            let (sink, mut items) = crate::service::Sink::channel(4);
            session.receive(frame, &sink).await;
            drop(sink);
            items.recv().await.unwrap().into_bytes()
        });
        assert_eq!(reply, br#"{"jsonrpc":"2.0","id":"x","result":"ran"}"#);
    }

    /// Called on a runtime's task that never yields, a blocking server answers every frame:
    /// tokio's cooperative budget (128 operations a poll) never makes its session wait.
    #[tokio::test(flavor = "current_thread")]
    async fn frames_on_a_task_never_wait_for_tokios_budget() {
        let router = Router::new().request("n", |_: &(), n: [u32; 1], _: &mut CallContext<'_>| {
            Ok::<_, RpcError>(n)
        });
        let mut server = Server::new(Profile::jsonrpc_2_0(), (), router);
        for n in 0..1000 {
            let frame = format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"n","params":[{n}]}}"#);
            assert_eq!(
                server.handle_frame(frame.as_bytes()),
                Some(format!(r#"{{"jsonrpc":"2.0","id":{n},"result":[{n}]}}"#).into_bytes()),
                "frame {n}"
            );
        }
    }

    #[test]
    fn a_notification_can_switch_the_profile() {
        let router =
            Router::new().notification("go", |_: &(), _: (), ctx: &mut CallContext<'_>| {
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
        let router = Router::new().request("bad", |_: &(), _: (), _: &mut CallContext<'_>| {
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

    #[test]
    fn negotiate_switches_after_the_frame_keeping_the_policy() {
        let router =
            Router::new().request("initialize", |_: &(), _: (), ctx: &mut CallContext<'_>| {
                let agreed = ctx.negotiate(Profile::mcp("2025-06-18").unwrap().facts());
                Ok::<_, RpcError>(agreed.name())
            });
        let start = Profile::jsonrpc_2_0()
            .with_max_frame_bytes(1000)
            .with_missing_id(crate::MissingId::Omit);
        let mut server = Server::new(start, (), router);
        assert_eq!(
            server
                .handle_frame(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#)
                .unwrap(),
            br#"{"jsonrpc":"2.0","id":1,"result":"mcp-2025-06-18"}"#
        );
        assert_eq!(server.profile().name(), "mcp-2025-06-18");
        assert_eq!(server.profile().limits().max_frame_bytes, 1000);
        assert_eq!(server.profile().missing_id(), crate::MissingId::Omit);
        // The new facts apply: a batch is no longer accepted under 2025-06-18.
        assert_eq!(
            server
                .handle_frame(br#"[{"jsonrpc":"2.0","id":2,"method":"x"}]"#)
                .unwrap(),
            br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#
        );
    }

    #[test]
    fn notifications_whose_params_do_not_decode_are_reported() {
        #[derive(serde::Deserialize)]
        struct Note {
            #[allow(dead_code)]
            level: u8,
        }
        let router = Router::<Mutex<Vec<ProtocolEvent>>>::new()
            .notification(
                "note",
                |_: &Mutex<Vec<ProtocolEvent>>, _: Note, _: &mut CallContext<'_>| {
                    panic!("must not run on bad params")
                },
            )
            .on_event(|seen: &Mutex<Vec<ProtocolEvent>>, event| seen.lock().unwrap().push(event));
        let mut server = Server::new(Profile::latest_mcp(), Mutex::new(Vec::new()), router);
        assert_eq!(
            server.handle_frame(br#"{"jsonrpc":"2.0","method":"note","params":{"level":"high"}}"#),
            None
        );
        assert_eq!(
            server.handle_frame(
                br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#
            ),
            None
        );
        let seen = server.state().lock().unwrap();
        let seen: Vec<_> = seen
            .iter()
            .map(|event| match event {
                ProtocolEvent::InvalidNotification { method, error } => (
                    method.as_str(),
                    error.code(),
                    error.data().unwrap().get().to_owned(),
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                (
                    "note",
                    -32602,
                    r#"{"pointer":"/level","reason":"invalid type: string \"high\", expected u8"}"#
                        .to_owned()
                ),
                (
                    "notifications/cancelled",
                    -32602,
                    r#"{"pointer":"/requestId","reason":"missing field `requestId`"}"#.to_owned()
                ),
            ]
        );
    }
}
