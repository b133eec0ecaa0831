//! The stdio transport: the server as a child process, one JSON-RPC message per line.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use mcpwire_types::ProfileFacts;

use super::exchange::{Exchange, Fault, Target, is_reply_to, is_server_message, trim_line_end};
use super::handshake::{self, INITIALIZE_ID, INITIALIZED_FRAME};

/// The longest line read from the server in one piece (a longer one is cut into pieces).
const MAX_LINE: u64 = 64 << 20;
/// How much of the server's stderr is kept for error messages.
const STDERR_TAIL: usize = 1000;

/// How the session's profile is chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setup {
    /// No handshake: the profile is fixed (`jsonrpc-2.0`, or an MCP version without `initialize`).
    Fixed(&'static ProfileFacts),
    /// `initialize` asking for this MCP version; the server's answer selects the profile.
    Negotiate(String),
}

enum Line {
    Frame(Vec<u8>),
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
        let (reader_tx, from_child) = mpsc::channel();
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

fn read_lines(stdout: ChildStdout, lines: Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let frame = trim_line_end(&line).to_vec();
                if lines.send(Line::Frame(frame)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = lines.send(Line::Closed);
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

/// A server started as a child process and spoken to over its stdin/stdout.
pub struct StdioTarget {
    command: Vec<String>,
    setup: Setup,
    timeout: Duration,
    startup_timeout: Duration,
    facts: &'static ProfileFacts,
    running: Option<Running>,
    sentinels: u64,
    restarts: usize,
}

impl StdioTarget {
    /// Starts `command`, performs the handshake `setup` asks for and checks that the server
    /// answers a sentinel call. Errors name what was needed.
    /// `timeout` bounds each case, `startup_timeout` the handshake and first sentinel.
    pub fn start(
        command: Vec<String>,
        setup: Setup,
        timeout: Duration,
        startup_timeout: Duration,
    ) -> Result<StdioTarget, String> {
        let facts = match &setup {
            Setup::Fixed(facts) => facts,
            Setup::Negotiate(_) => &mcpwire_types::facts::JSONRPC_2_0,
        };
        let mut target = StdioTarget {
            command,
            setup,
            timeout,
            startup_timeout,
            facts,
            running: None,
            sentinels: 0,
            restarts: 0,
        };
        target.launch()?;
        Ok(target)
    }

    /// Spawns the server, performs the handshake and one sentinel round trip.
    fn launch(&mut self) -> Result<(), String> {
        let running = Running::spawn(&self.command)?;
        self.running = Some(running);
        let case_timeout = std::mem::replace(&mut self.timeout, self.startup_timeout);
        let outcome = self.handshake();
        self.timeout = case_timeout;
        outcome
    }

    /// The handshake (when the setup asks for one) and one sentinel round trip.
    fn handshake(&mut self) -> Result<(), String> {
        if let Setup::Negotiate(version) = self.setup.clone() {
            let reply = self
                .call(&handshake::initialize_frame(&version), INITIALIZE_ID)
                .map_err(|fault| format!("the server did not answer initialize: {fault}"))?;
            let reply: serde_json::Value = serde_json::from_slice(&reply)
                .map_err(|error| format!("the initialize reply is not JSON: {error}"))?;
            let negotiated = handshake::negotiated_version(&reply)?;
            self.facts = handshake::mcp_facts(&negotiated).ok_or_else(|| {
                format!(
                    "the server chose protocol version {negotiated:?}, which mcpwire does not know"
                )
            })?;
            if let Some(running) = &self.running {
                running.send(INITIALIZED_FRAME);
            }
        }
        let (frame, id) = self.next_sentinel();
        self.call(&frame, &id).map_err(|fault| {
            format!(
                "the server did not answer the sentinel call {}: {fault}",
                String::from_utf8_lossy(&frame)
            )
        })?;
        Ok(())
    }

    fn next_sentinel(&mut self) -> (Vec<u8>, String) {
        self.sentinels += 1;
        handshake::sentinel(self.facts, self.sentinels)
    }

    /// Sends `frame` and returns the reply whose id is `id`.
    fn call(&mut self, frame: &[u8], id: &str) -> Result<Vec<u8>, Fault> {
        let running = self
            .running
            .as_ref()
            .ok_or(Fault::Transport("the server is not running".into()))?;
        running.send(frame);
        let mut found = None;
        let mut ignored = Vec::new();
        let mut count = 0;
        self.collect(id, &mut ignored, &mut count, &mut found)?;
        found.ok_or(Fault::Transport("no reply".into()))
    }

    /// Reads frames until the reply to `id`, pushing other replies to `replies`.
    fn collect(
        &mut self,
        id: &str,
        replies: &mut Vec<Vec<u8>>,
        server_messages: &mut usize,
        found: &mut Option<Vec<u8>>,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + self.timeout;
        let outcome = loop {
            let Some(running) = self.running.as_mut() else {
                break Err(Fault::Transport("the server is not running".into()));
            };
            let left = deadline.saturating_duration_since(Instant::now());
            match running.from_child.recv_timeout(left) {
                Ok(Line::Frame(frame)) if is_reply_to(&frame, id) => {
                    *found = Some(frame);
                    break Ok(());
                }
                Ok(Line::Frame(frame)) if is_server_message(&frame) => *server_messages += 1,
                Ok(Line::Frame(frame)) => replies.push(frame),
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = running.exit_status();
                    break Err(Fault::Exited {
                        status,
                        stderr: running.stderr_tail(),
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    break Err(Fault::NoReply {
                        timeout: self.timeout,
                        id: id.to_owned(),
                    });
                }
            }
        };
        if outcome.is_err() {
            if let Some(running) = self.running.take() {
                running.stop();
            }
        }
        outcome
    }
}

impl Target for StdioTarget {
    fn exchange(&mut self, frame: &[u8]) -> Exchange {
        if self.running.is_none() {
            self.restarts += 1;
            if let Err(message) = self.launch() {
                if let Some(running) = self.running.take() {
                    running.stop();
                }
                return Exchange {
                    fault: Some(Fault::Transport(format!("restart failed: {message}"))),
                    ..Exchange::default()
                };
            }
        }
        let mut exchange = Exchange::default();
        if let Some(running) = &self.running {
            // Lines that arrived after the previous sentinel's reply are late; drop them.
            while running
                .from_child
                .try_recv()
                .is_ok_and(|line| matches!(line, Line::Frame(_)))
            {}
        }
        let (sentinel, id) = self.next_sentinel();
        if let Some(running) = &self.running {
            running.send(frame);
            running.send(&sentinel);
        }
        let mut found = None;
        if let Err(fault) = self.collect(
            &id,
            &mut exchange.replies,
            &mut exchange.server_messages,
            &mut found,
        ) {
            exchange.fault = Some(fault);
        }
        exchange
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
}

impl Drop for StdioTarget {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop();
        }
    }
}
