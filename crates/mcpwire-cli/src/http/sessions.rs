//! Sessions of the HTTP reference server: one reference server per `Mcp-Session-Id`.

use std::collections::{HashMap, VecDeque};

use mcpwire::{Decoded, Message, Profile, Server};

use crate::check::handshake::has_handshake;
use crate::http::status_for;
use crate::reference::{self, ReferenceState};

/// The most sessions kept at once; the oldest is dropped beyond it.
pub const MAX_SESSIONS: usize = 1024;

/// What the server does with one POST body, before HTTP status mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The reference server handled the body: its reply (if any), and a session id to send
    /// back when this body opened a session.
    Handled {
        /// The HTTP status (see [`crate::http::status_for`]).
        status: u16,
        /// The reply line, `None` when nothing must be sent.
        reply: Option<Vec<u8>>,
        /// The new session's id, for the `Mcp-Session-Id` header.
        new_session: Option<String>,
    },
    /// The body needs a session and the request named none.
    SessionRequired,
    /// The request named a session that does not exist (or has ended).
    UnknownSession,
}

/// All sessions of one HTTP reference server.
///
/// ```
/// use mcpwire::Profile;
/// use mcpwire_cli::http::Sessions;
///
/// let mut sessions = Sessions::new(Profile::jsonrpc_2_0());
/// let outcome = sessions.handle(None, br#"{"jsonrpc":"2.0","id":1,"method":"subtract","params":[3,1]}"#);
/// assert!(format!("{outcome:?}").contains("Handled"));
/// ```
pub struct Sessions {
    start: Profile,
    shared: Server<ReferenceState>,
    by_id: HashMap<String, Server<ReferenceState>>,
    order: VecDeque<String>,
    opened: u64,
    salt: u64,
}

impl Sessions {
    /// Sessions whose servers start with `profile` (an MCP `initialize` negotiates from there).
    pub fn new(profile: Profile) -> Sessions {
        let salt = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id());
        Sessions {
            shared: reference::server(profile.clone()),
            start: profile,
            by_id: HashMap::new(),
            order: VecDeque::new(),
            opened: 0,
            salt,
        }
    }

    /// The profile new sessions start with.
    pub fn start_profile(&self) -> &Profile {
        &self.start
    }

    /// Whether POSTs must name a session (MCP profiles that have `initialize`).
    pub fn sessions_required(&self) -> bool {
        has_handshake(self.start.facts())
    }

    /// Handles one POST body, sent with `session` as its `Mcp-Session-Id` (if any).
    pub fn handle(&mut self, session: Option<&str>, body: &[u8]) -> Outcome {
        if let Some(id) = session {
            return match self.by_id.get_mut(id) {
                Some(server) => handled(run(server, body)),
                None => Outcome::UnknownSession,
            };
        }
        if is_initialize(&self.start, body) {
            let mut server = reference::server(self.start.clone());
            let (status, reply) = run(&mut server, body);
            let opened = reply.as_deref().is_some_and(is_success);
            let new_session = opened.then(|| self.open(server));
            return Outcome::Handled {
                status,
                reply,
                new_session,
            };
        }
        if !self.sessions_required() {
            return handled(run(&mut self.shared, body));
        }
        Outcome::SessionRequired
    }

    /// Ends a session; returns whether it existed.
    pub fn end(&mut self, id: &str) -> bool {
        self.order.retain(|known| known != id);
        self.by_id.remove(id).is_some()
    }

    fn open(&mut self, server: Server<ReferenceState>) -> String {
        self.opened += 1;
        let id = format!("mcpwire-{:016x}-{}", self.salt, self.opened);
        if self.order.len() >= MAX_SESSIONS {
            if let Some(oldest) = self.order.pop_front() {
                self.by_id.remove(&oldest);
            }
        }
        self.order.push_back(id.clone());
        self.by_id.insert(id.clone(), server);
        id
    }
}

/// Lets `server` handle `body`: the HTTP status and the reply.
fn run(server: &mut Server<ReferenceState>, body: &[u8]) -> (u16, Option<Vec<u8>>) {
    let profile = server.profile().clone();
    let reply = server.handle_frame(body);
    (status_for(&profile, body, reply.is_some()), reply)
}

/// A handled body that opened no session.
fn handled((status, reply): (u16, Option<Vec<u8>>)) -> Outcome {
    Outcome::Handled {
        status,
        reply,
        new_session: None,
    }
}

/// Whether `body` is a single `initialize` request.
fn is_initialize(profile: &Profile, body: &[u8]) -> bool {
    matches!(
        mcpwire::decode(body, profile),
        Decoded::Single(Message::Request { ref method, .. }) if method == "initialize"
    )
}

/// Whether a reply line is a success (`result`) reply.
fn is_success(reply: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(reply)
        .ok()
        .is_some_and(|value| value.get("result").is_some())
}
