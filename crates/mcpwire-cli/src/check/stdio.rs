//! The stdio transport: the server as a child process, one JSON-RPC message per line.
//!
//! Replies are attributed to cases by id: each case is followed by a sentinel call (a method
//! the server answers under the profile, see [`handshake::sentinel_method`]); the window of a
//! case ends when the sentinel's reply has come and so has the reply the case is owed (or
//! `--timeout` has passed), so the next case is never sent while a reply without a usable id
//! may still be on its way. A reply that arrives later is attributed to its case by id; one whose id
//! matches nothing awaited is reported on its own (unless the open case's id is unreadable:
//! then it is that case's reply with an invented id); only replies without a usable id are
//! attributed by arrival order. Stdout lines that are not the protocol are set aside.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use mcpwire_proptest::json::{Frame, JsonKind, object_members, read_frame};
use mcpwire_proptest::{Expected, ReplyId};
use mcpwire_types::ProfileFacts;

use super::cases::CheckCase;
use super::exchange::{
    Exchange, Fault, Leftovers, ReplyKey, Target, is_server_message, reply_key, trim_line_end,
};
use super::handshake::{
    self, DISCOVER_ID, INITIALIZE_ID, INITIALIZED_FRAME, SENTINEL_PREFIX, Setup, Startup,
};
use super::ids::related;
use super::lenient::is_malformed_response;
use super::lines::{Assembler, Piece};

/// The longest reply line the checker reads (4 MiB, without its line ending); a longer one is
/// discarded as it is read and reported as `reply-too-long`.
pub const MAX_LINE: usize = 4 << 20;
/// Lines read ahead of the checker (the reader blocks beyond: at most 16 × 4 MiB buffered).
const QUEUE: usize = 16;
/// How much of the server's stderr is kept for error messages.
const STDERR_TAIL: usize = 1000;
/// Noise lines and unknown-id replies kept for the report (all are counted).
const KEEP: usize = 5;
/// Cases whose replies are still awaited after their window (oldest forgotten first).
const OUTSTANDING: usize = 256;
/// At the end of the run, how long replies still owed are awaited after the last sentinel's.
const FINAL_GRACE: Duration = Duration::from_secs(1);
/// The most frames taken between two windows.
const DRAIN_MAX: usize = 4 * QUEUE;
/// How long a pretty-printed value may pause before its lines are judged as they are.
const PENDING_WAIT: Duration = Duration::from_millis(200);

enum Line {
    Frame(Vec<u8>),
    TooLong(usize),
    Closed,
}

struct Running {
    child: Child,
    to_child: Option<Sender<Vec<u8>>>,
    from_child: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Running {
    fn spawn(command: &[String]) -> Result<Running, String> {
        let (program, args) = command
            .split_first()
            .ok_or("no server command given after `--`")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| {
                format!(
                    "cannot start the server command `{}`: {error}",
                    command.join(" ")
                )
            })?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(stdin), Some(stdout), Some(stderr)) => (stdin, stdout, stderr),
                _ => return Err("the server's standard streams could not be opened".into()),
            };
        let (to_child, writer_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for line in writer_rx {
                if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
        });
        let (reader_tx, from_child) = mpsc::sync_channel(QUEUE);
        thread::spawn(move || read_lines(stdout, reader_tx));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&tail);
        thread::spawn(move || keep_tail(stderr, keep));
        Ok(Running {
            child,
            to_child: Some(to_child),
            from_child,
            stderr: tail,
        })
    }

    fn send(&self, frame: &[u8]) {
        let mut line = Vec::with_capacity(frame.len() + 1);
        line.extend_from_slice(frame);
        line.push(b'\n');
        if let Some(sender) = &self.to_child {
            // A closed pipe shows up as the server's exit on the reading side.
            let _ = sender.send(line);
        }
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes: Vec<u8> = tail.iter().copied().collect();
        String::from_utf8_lossy(&bytes).trim().replace('\n', " | ")
    }

    /// Waits up to a second for the exit status after the server closed its stdout.
    fn exit_status(&mut self) -> String {
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                Ok(None) => return "closed its stdout".into(),
                Err(error) => return error.to_string(),
            }
        }
    }

    fn stop(mut self) {
        self.to_child = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes; a longer line is skipped to its end unbuffered.
fn read_lines(stdout: ChildStdout, lines: SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line);
        let message = match read {
            Ok(0) | Err(_) => break,
            Ok(_) if line.ends_with(b"\n") || line.len() <= MAX_LINE => {
                Line::Frame(trim_line_end(&line).to_vec())
            }
            Ok(n) => match skip_line(&mut reader) {
                Some(rest) => Line::TooLong(n + rest),
                None => {
                    let _ = lines.send(Line::TooLong(n));
                    break;
                }
            },
        };
        if lines.send(message).is_err() {
            return;
        }
    }
    let _ = lines.send(Line::Closed);
}

/// Consumes the rest of an over-long line; `None` when the stream ends first.
fn skip_line(reader: &mut impl BufRead) -> Option<usize> {
    let mut skipped = 0;
    loop {
        let buffer = reader.fill_buf().ok()?;
        if buffer.is_empty() {
            return None;
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Some(skipped + at + 1);
            }
            None => {
                let n = buffer.len();
                reader.consume(n);
                skipped += n;
            }
        }
    }
}

fn keep_tail(mut stderr: ChildStderr, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut chunk = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut chunk) {
        if n == 0 {
            break;
        }
        let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
        tail.extend(&chunk[..n]);
        let excess = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..excess);
    }
}

/// One frame (or over-long line) from the server.
enum Got {
    Frame(Vec<u8>),
    TooLong(usize),
}

/// Whom a frame answers.
enum Route {
    Server,
    Sentinel(String),
    Id(String),
    NoId,
}

fn route(frame: &[u8]) -> Route {
    if is_server_message(frame) {
        return Route::Server;
    }
    match reply_key(frame) {
        ReplyKey::Id(text) => match serde_json::from_str::<String>(&text) {
            Ok(id) if id.starts_with(SENTINEL_PREFIX) => Route::Sentinel(id),
            _ => Route::Id(text),
        },
        ReplyKey::NoId => Route::NoId,
    }
}

/// Whether a frame is a JSON object with none of the JSON-RPC members (`jsonrpc`, `id`,
/// `method`, `result`, `error`): a structured log line, not the protocol.
///
/// ```
/// use mcpwire_cli::check::stdio::is_foreign_object;
/// assert!(is_foreign_object(br#"{"level":"info","msg":"listening"}"#));
/// assert!(!is_foreign_object(br#"{"id":1,"result":{}}"#));
/// assert!(!is_foreign_object(br#"{}"#));
/// assert!(!is_foreign_object(b"[1]"));
/// ```
pub fn is_foreign_object(frame: &[u8]) -> bool {
    let Frame::Value {
        text,
        kind: JsonKind::Object,
    } = read_frame(frame)
    else {
        return false;
    };
    let members = object_members(text);
    !members.is_empty()
        && !members.iter().any(|m| {
            matches!(
                m.key.as_str(),
                "jsonrpc" | "id" | "method" | "result" | "error"
            )
        })
}

/// The ids a correct server's replies to this input carry.
pub fn expected_ids(expected: &Expected) -> Vec<String> {
    match expected {
        Expected::Reply(reply) => match &reply.id {
            ReplyId::Echo(id) => vec![id.clone()],
            ReplyId::Absent => Vec::new(),
        },
        Expected::Batch(elements) => elements.iter().flat_map(expected_ids).collect(),
        // A reply a same-batch cancel made optional is not owed, so it is not awaited; its
        // id is still among the input's (`input_ids`), so a reply carrying it is taken as
        // this input's (`Outstanding::other`), not another case's.
        Expected::NoReply(_) | Expected::ReplyOptional(_) => Vec::new(),
    }
}

/// For a batch (or the batch reading of an array), how many of its elements get a reply.
fn batch_replies(expected: &Expected) -> Option<usize> {
    match expected {
        Expected::Batch(elements) => Some(
            elements
                .iter()
                .filter(|e| matches!(e, Expected::Reply(_)))
                .count(),
        ),
        _ => None,
    }
}

/// The `id` members of the input (of each element of a batch), as JSON text: a reply that
/// carries one of them answers this input, even when none is owed (a reply to a response).
pub use mcpwire_proptest::input_ids;

/// The ids of one case whose replies have not all come: those a correct server echoes, and
/// the input's other ids (a reply carrying one still answers this input, not another).
struct Outstanding {
    case: usize,
    owed: Vec<String>,
    other: Vec<String>,
}

impl Outstanding {
    /// Whether a reply with id text `got` answers this case; the id is then no longer awaited.
    fn take(&mut self, got: &str) -> bool {
        for ids in [&mut self.owed, &mut self.other] {
            if let Some(at) = ids.iter().position(|sent| related(sent, got)) {
                ids.remove(at);
                return true;
            }
        }
        false
    }

    fn is_empty(&self) -> bool {
        self.owed.is_empty() && self.other.is_empty()
    }
}

/// A server started as a child process and spoken to over its stdin/stdout.
pub struct StdioTarget {
    command: Vec<String>,
    setup: Setup,
    declared: Vec<String>,
    timeout: Duration,
    startup_timeout: Duration,
    facts: &'static ProfileFacts,
    sentinel_method: String,
    running: Option<Running>,
    assembler: Assembler,
    ready: VecDeque<Got>,
    seen_output: bool,
    sentinels: u64,
    restarts: usize,
    outstanding: VecDeque<Outstanding>,
    last_case: Option<usize>,
    leftovers: Leftovers,
    handshake: Vec<(CheckCase, Exchange)>,
    broken: Option<String>,
    /// A frame to send right behind the next case's (see [`Target::exchange_followed`]).
    follow: Option<Vec<u8>>,
}

impl StdioTarget {
    /// Starts `command` and performs the handshake `setup` asks for, then one sentinel round
    /// trip. `declared` are the `--method`s (the sentinel may use the first). `timeout` bounds
    /// each case, `startup_timeout` the start and handshake.
    ///
    /// `Err` when the checker could not run at all; a server that answered but broke the
    /// handshake gives a target whose [`StdioTarget::broken`] says why (its findings are in
    /// [`Target::handshake`]).
    pub fn start(
        command: Vec<String>,
        setup: Setup,
        declared: Vec<String>,
        timeout: Duration,
        startup_timeout: Duration,
    ) -> Result<StdioTarget, String> {
        let facts = match &setup {
            Setup::Fixed(facts) | Setup::Discover(facts) => facts,
            Setup::Negotiate(_) => &mcpwire_types::facts::JSONRPC_2_0,
        };
        let mut target = StdioTarget {
            command,
            setup,
            declared,
            timeout,
            startup_timeout,
            facts,
            sentinel_method: String::new(),
            running: None,
            assembler: Assembler::default(),
            ready: VecDeque::new(),
            seen_output: false,
            sentinels: 0,
            restarts: 0,
            outstanding: VecDeque::new(),
            last_case: None,
            leftovers: Leftovers::default(),
            handshake: Vec::new(),
            broken: None,
            follow: None,
        };
        match target.launch(true) {
            Ok(()) => {}
            Err(Startup::CouldNotRun(message)) => return Err(message),
            Err(Startup::Broken(message)) => target.broken = Some(message),
        }
        Ok(target)
    }

    /// Why the handshake could not be completed although the server answered, if it could not.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// Spawns the server, performs the handshake and one sentinel round trip; the handshake's
    /// exchanges are recorded on the first launch only.
    fn launch(&mut self, first: bool) -> Result<(), Startup> {
        self.running = Some(Running::spawn(&self.command).map_err(Startup::CouldNotRun)?);
        self.assembler = Assembler::default();
        self.ready.clear();
        self.seen_output = false;
        self.outstanding.clear();
        let deadline = Instant::now() + self.startup_timeout;
        let outcome = self.handshake_steps(first, deadline);
        if outcome.is_err() {
            self.stop();
        }
        outcome
    }

    fn handshake_steps(&mut self, first: bool, deadline: Instant) -> Result<(), Startup> {
        match self.setup.clone() {
            Setup::Fixed(_) => {}
            Setup::Negotiate(version) => {
                let frame = handshake::initialize_frame(&version);
                let reply =
                    self.handshake_call("initialize", INITIALIZE_ID, frame, first, deadline)?;
                self.facts = handshake::accept_initialize(&reply, &version, "the server")?.1;
                self.send(INITIALIZED_FRAME);
            }
            Setup::Discover(facts) => {
                let version = facts.protocol_version.unwrap_or_default();
                let frame = handshake::discover_frame(version);
                let reply =
                    self.handshake_call("server/discover", DISCOVER_ID, frame, first, deadline)?;
                handshake::accept_discover(&reply, version)?;
            }
        }
        self.sentinel_method =
            handshake::sentinel_method(self.facts, &self.declared).map_err(Startup::CouldNotRun)?;
        let (frame, id) = self.next_sentinel();
        self.send(&frame);
        loop {
            match self.receive(deadline, &id, self.startup_timeout) {
                Ok(Got::Frame(reply)) => match route(&reply) {
                    Route::Sentinel(got) if got == id => return Ok(()),
                    Route::Server => {}
                    _ => {}
                },
                Ok(Got::TooLong(_)) => {}
                Err(fault) => {
                    return Err(Startup::Broken(format!(
                        "the server did not answer the sentinel call {}: {fault}",
                        String::from_utf8_lossy(&frame)
                    )));
                }
            }
        }
    }

    /// Sends a handshake call and waits for the reply with its id; the exchange is recorded
    /// (on the first launch) to be judged like a case.
    fn handshake_call(
        &mut self,
        label: &str,
        id: &str,
        frame: Vec<u8>,
        first: bool,
        deadline: Instant,
    ) -> Result<Vec<u8>, Startup> {
        self.send(&frame);
        let id_text = serde_json::Value::from(id).to_string();
        let mut exchange = Exchange::default();
        let mut found = None;
        while found.is_none() {
            match self.receive(deadline, id, self.startup_timeout) {
                Ok(Got::Frame(reply)) => match route(&reply) {
                    Route::Server => exchange.server_messages += 1,
                    Route::Id(got) if related(&id_text, &got) => {
                        exchange.replies.push(reply.clone());
                        found = Some(reply);
                    }
                    _ => {
                        exchange.by_order += 1;
                        exchange.replies.push(reply);
                    }
                },
                Ok(Got::TooLong(n)) => exchange.too_long = Some(n),
                Err(fault) => {
                    let seen = self.seen_output;
                    let message = match (&fault, seen) {
                        (Fault::NoReply { timeout, .. }, false) => format!(
                            "the server wrote nothing on stdout within {:.1}s of starting (it was sent {label}); a cold start (e.g. `npx -y` downloading a package) can take longer: raise --startup-timeout",
                            timeout.as_secs_f64()
                        ),
                        (Fault::Exited { .. }, false) => {
                            format!("the server did not answer {label}: {fault}")
                        }
                        _ => String::new(),
                    };
                    if !message.is_empty() {
                        return Err(Startup::CouldNotRun(message));
                    }
                    exchange.fault = Some(fault.clone());
                    if first {
                        self.handshake
                            .push((handshake::handshake_case(label, id, frame), exchange));
                    }
                    return Err(Startup::Broken(format!(
                        "the server did not answer {label} with its id: {fault}"
                    )));
                }
            }
        }
        if first {
            self.handshake
                .push((handshake::handshake_case(label, id, frame), exchange));
        }
        Ok(found.unwrap_or_default())
    }

    fn send(&self, frame: &[u8]) {
        if let Some(running) = &self.running {
            running.send(frame);
        }
    }

    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop();
        }
        self.outstanding.clear();
    }

    fn next_sentinel(&mut self) -> (Vec<u8>, String) {
        self.sentinels += 1;
        handshake::sentinel(self.facts, &self.sentinel_method, self.sentinels)
    }

    fn take(&mut self, pieces: Vec<Piece>) {
        for piece in pieces {
            match piece {
                Piece::Frame(frame) if !is_foreign_object(&frame) => {
                    self.ready.push_back(Got::Frame(frame))
                }
                Piece::Frame(line) | Piece::Noise(line) => {
                    self.leftovers.noise_count += 1;
                    if self.leftovers.noise.len() < KEEP {
                        self.leftovers.noise.push(line);
                    }
                }
            }
        }
    }

    /// The next frame before `deadline`; `Err` when the server exits or the deadline passes.
    /// `waited` is the timeout the deadline stands for (for the message).
    fn receive(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        waited: Duration,
    ) -> Result<Got, Fault> {
        loop {
            if let Some(got) = self.ready.pop_front() {
                return Ok(got);
            }
            let Some(running) = self.running.as_mut() else {
                return Err(Fault::Transport("the server is not running".into()));
            };
            // A server that writes without end (notifications) still meets the deadline.
            if Instant::now() >= deadline && !self.assembler.is_pending() {
                return Err(Fault::NoReply {
                    timeout: waited,
                    id: waiting_for.to_owned(),
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = if self.assembler.is_pending() {
                left.min(PENDING_WAIT)
            } else {
                left
            };
            match running.from_child.recv_timeout(wait) {
                Ok(Line::Frame(line)) => {
                    self.seen_output = true;
                    let pieces = self.assembler.push(&line);
                    self.take(pieces);
                }
                Ok(Line::TooLong(n)) => {
                    self.seen_output = true;
                    let pending = self.assembler.flush().into_iter().collect();
                    self.take(pending);
                    self.ready.push_back(Got::TooLong(n));
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    if let Some(piece) = self.assembler.flush() {
                        self.take(vec![piece]);
                        continue;
                    }
                    let status = running.exit_status();
                    return Err(Fault::Exited {
                        status,
                        stderr: running.stderr_tail(),
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(piece) = self.assembler.flush() {
                        self.take(vec![piece]);
                    } else if Instant::now() >= deadline {
                        return Err(Fault::NoReply {
                            timeout: waited,
                            id: waiting_for.to_owned(),
                        });
                    }
                }
            }
        }
    }

    /// Frames already written since the last window: late replies (by id), replies to no
    /// request, and id-less replies (by order, to the previous case).
    fn drain(&mut self, late: &mut Vec<(usize, Vec<u8>)>, server_messages: &mut usize) {
        // At most what was read ahead and a little more: a server that writes without end
        // cannot keep the checker here (the rest is read in the case's window).
        for _ in 0..DRAIN_MAX {
            let got = match self.ready.pop_front() {
                Some(got) => got,
                None => {
                    let Some(running) = self.running.as_ref() else {
                        return;
                    };
                    match running.from_child.try_recv() {
                        Ok(Line::Frame(line)) => {
                            let pieces = self.assembler.push(&line);
                            self.take(pieces);
                            continue;
                        }
                        Ok(Line::TooLong(_)) => continue,
                        Ok(Line::Closed)
                        | Err(TryRecvError::Empty | TryRecvError::Disconnected) => {
                            return;
                        }
                    }
                }
            };
            let Got::Frame(frame) = got else {
                continue;
            };
            match route(&frame) {
                Route::Server => *server_messages += 1,
                Route::Sentinel(_) => {}
                Route::Id(id) => match self.claim(&id) {
                    Some(case) => late.push((case, frame)),
                    None => self.unknown(frame),
                },
                Route::NoId => match self.last_case {
                    Some(case) => late.push((case, frame)),
                    None => self.unknown(frame),
                },
            }
        }
    }

    fn unknown(&mut self, frame: Vec<u8>) {
        self.leftovers.unknown_count += 1;
        if self.leftovers.unknown.len() < KEEP {
            self.leftovers.unknown.push(frame);
        }
    }

    /// The outstanding case whose id `id` answers (newest first), that id removed from it.
    fn claim(&mut self, id: &str) -> Option<usize> {
        let slot = self
            .outstanding
            .iter_mut()
            .rposition(|open| open.take(id))?;
        let case = self.outstanding[slot].case;
        if self.outstanding[slot].is_empty() {
            self.outstanding.remove(slot);
        }
        Some(case)
    }

    fn ensure_running(&mut self) -> Result<(), Fault> {
        if self.running.is_some() {
            return Ok(());
        }
        self.restarts += 1;
        match self.launch(false) {
            Ok(()) => Ok(()),
            Err(Startup::CouldNotRun(message) | Startup::Broken(message)) => {
                Err(Fault::Transport(format!("restart failed: {message}")))
            }
        }
    }
}

impl Target for StdioTarget {
    fn exchange(&mut self, index: usize, case: &CheckCase) -> Exchange {
        if let Err(fault) = self.ensure_running() {
            return Exchange {
                fault: Some(fault),
                ..Exchange::default()
            };
        }
        let mut exchange = Exchange::default();
        self.drain(&mut exchange.late, &mut exchange.server_messages);
        let owed = expected_ids(&case.expected);
        // Ids the input carries but no correct reply echoes (a response's, a batch's under a
        // reading): a reply with one of them still answers this input.
        let other: Vec<String> = input_ids(&case.frame)
            .into_iter()
            .filter(|id| !owed.iter().any(|o| related(o, id)))
            .collect();
        let own: Vec<String> = owed.iter().chain(&other).cloned().collect();
        let mut open = Outstanding {
            case: index,
            owed,
            other,
        };
        let invents_id = matches!(&case.expected, Expected::Reply(r) if r.id == ReplyId::Absent);
        // A correct server sends one frame (a reply, or one array for a batch) or nothing; a
        // server that answers a batch's elements as separate lines (as soon as one line carries
        // an element's id) sends one per element that gets a reply.
        let one = usize::from(case.expected.expects_output() || is_malformed_response(&case.frame));
        let per_element = batch_replies(&case.expected)
            .or_else(|| case.batch_reading.as_ref().and_then(batch_replies))
            .unwrap_or(one);
        let mut needed = one;
        let (sentinel, sentinel_id) = self.next_sentinel();
        self.send(&case.frame);
        if let Some(follow) = self.follow.take() {
            self.send(&follow);
        }
        self.send(&sentinel);
        let deadline = Instant::now() + self.timeout;
        let mut sentinel_seen = false;
        loop {
            // The window stays open until the sentinel has been answered and the reply the
            // case is owed has come (by id or, without a usable id, by order), or until
            // --timeout: so no verdict depends on how fast an error reply is.
            if sentinel_seen && exchange.replies.len() >= needed {
                break;
            }
            match self.receive(deadline, &sentinel_id, self.timeout) {
                Ok(Got::TooLong(n)) => exchange.too_long = Some(n),
                Ok(Got::Frame(frame)) => match route(&frame) {
                    Route::Server => exchange.server_message(frame),
                    Route::Sentinel(id) if id == sentinel_id => sentinel_seen = true,
                    Route::Sentinel(_) => {}
                    Route::Id(id) => {
                        if open.take(&id) {
                            if !frame.trim_ascii_start().starts_with(b"[") {
                                needed = needed.max(per_element);
                            }
                            exchange.replies.push(frame);
                        } else if own.iter().any(|sent| related(sent, &id)) {
                            // Its id again: a second reply to this input.
                            exchange.replies.push(frame);
                        } else if let Some(earlier) = self.claim(&id) {
                            exchange.late.push((earlier, frame));
                        } else if invents_id && exchange.replies.is_empty() {
                            // The input's id is unreadable: a reply with an id is the
                            // input's, with an invented id (judged as such).
                            exchange.by_order += 1;
                            exchange.by_order_input_id_unreadable += 1;
                            exchange.replies.push(frame);
                        } else {
                            self.unknown(frame);
                        }
                    }
                    Route::NoId => {
                        exchange.by_order += 1;
                        exchange.replies.push(frame);
                    }
                },
                Err(Fault::NoReply { .. }) if sentinel_seen => break,
                Err(fault) => {
                    exchange.fault = Some(fault);
                    self.stop();
                    break;
                }
            }
        }
        self.last_case = Some(index);
        if !open.is_empty() && self.running.is_some() {
            if self.outstanding.len() >= OUTSTANDING {
                self.outstanding.pop_front();
            }
            self.outstanding.push_back(open);
        }
        exchange
    }

    fn exchange_followed(
        &mut self,
        index: usize,
        case: &CheckCase,
        follow: &[u8],
    ) -> Option<Exchange> {
        self.follow = Some(follow.to_vec());
        let exchange = self.exchange(index, case);
        self.follow = None;
        Some(exchange)
    }

    fn fresh_session(&mut self, frame: &[u8]) -> Option<Exchange> {
        let id = serde_json::from_slice::<serde_json::Value>(frame)
            .ok()?
            .get("id")?
            .to_string();
        let mut exchange = Exchange::default();
        let running = match Running::spawn(&self.command) {
            Ok(running) => running,
            Err(message) => {
                exchange.fault = Some(Fault::Transport(message));
                return Some(exchange);
            }
        };
        running.send(frame);
        let deadline = Instant::now() + self.startup_timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.from_child.recv_timeout(left) {
                Ok(Line::Frame(line)) => match route(&line) {
                    Route::Server => exchange.server_message(line),
                    Route::Id(got) if related(&id, &got) => {
                        exchange.replies.push(line);
                        linger(&running, &mut exchange);
                        break;
                    }
                    _ => {}
                },
                Ok(Line::TooLong(n)) => {
                    exchange.too_long = Some(n);
                    break;
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    exchange.fault = Some(Fault::Exited {
                        status: "closed its stdout".into(),
                        stderr: running.stderr_tail(),
                    });
                    break;
                }
                Err(RecvTimeoutError::Timeout) => {
                    exchange.fault = Some(Fault::NoReply {
                        timeout: self.startup_timeout,
                        id,
                    });
                    break;
                }
            }
        }
        running.stop();
        Some(exchange)
    }

    fn profile(&self) -> &'static ProfileFacts {
        self.facts
    }

    fn describe(&self) -> String {
        format!("stdio: {}", self.command.join(" "))
    }

    fn restarts(&self) -> usize {
        self.restarts
    }

    fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    fn handshake(&mut self) -> Vec<(CheckCase, Exchange)> {
        std::mem::take(&mut self.handshake)
    }

    fn finish(&mut self) -> Leftovers {
        if self.running.is_some() && self.broken.is_none() {
            // One last sentinel collects replies still on their way; replies still owed get
            // a moment more after its reply.
            let (sentinel, id) = self.next_sentinel();
            self.send(&sentinel);
            let mut deadline = Instant::now() + self.timeout;
            let mut sentinel_seen = false;
            let mut late = Vec::new();
            while !(sentinel_seen && self.outstanding.iter().all(|open| open.owed.is_empty())) {
                let Ok(got) = self.receive(deadline, &id, self.timeout) else {
                    break;
                };
                let Got::Frame(frame) = got else {
                    continue;
                };
                match route(&frame) {
                    Route::Sentinel(got) if got == id => {
                        sentinel_seen = true;
                        deadline = deadline.min(Instant::now() + FINAL_GRACE);
                    }
                    Route::Sentinel(_) | Route::Server => {}
                    Route::Id(reply_id) => match self.claim(&reply_id) {
                        Some(case) => late.push((case, frame)),
                        None => self.unknown(frame),
                    },
                    Route::NoId => match self.last_case {
                        Some(case) => late.push((case, frame)),
                        None => self.unknown(frame),
                    },
                }
            }
            self.leftovers.late = late;
        }
        std::mem::take(&mut self.leftovers)
    }
}

impl Drop for StdioTarget {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How long a fresh session is watched after its `initialize` reply: what the server sends
/// before `notifications/initialized` (which a fresh session never gets) is kept.
pub const PRE_INITIALIZED_WATCH: Duration = Duration::from_millis(300);

/// Keeps the server-initiated messages `running` sends within [`PRE_INITIALIZED_WATCH`].
fn linger(running: &Running, exchange: &mut Exchange) {
    let until = Instant::now() + PRE_INITIALIZED_WATCH;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match running.from_child.recv_timeout(left) {
            Ok(Line::Frame(line)) if matches!(route(&line), Route::Server) => {
                exchange.server_message(line);
            }
            Ok(Line::Frame(_)) => {}
            _ => break,
        }
    }
}
