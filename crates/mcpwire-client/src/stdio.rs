//! The stdio transport: a server run as a child process ([`ChildProcess`]), spoken to over
//! its stdin and stdout, one message per line.
//!
//! The child runs in a process group of its own; closing the connection, or dropping it,
//! kills that whole group (the server and anything it started), and the child is reaped, so
//! no process or zombie outlives the client. Its stderr is inherited, discarded, or read
//! line by line into a callback ([`Stderr`]). When the child exits, the connection ends
//! with [`TransportError::Exited`] and every pending call fails with it.

use std::ffi::OsStr;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};
use tokio::process::Command;

use crate::stream::{DEFAULT_MAX_FRAME_BYTES, LineWriter, pump_lines};
use crate::transport::{
    BoxFuture, Connection, Incoming, IncomingSender, OutgoingFrame, Transport, TransportError,
};

/// How long the child has to exit by itself after its stdin is closed, by default, before
/// [`Connection::close`] kills its group.
pub const DEFAULT_EXIT_GRACE: Duration = Duration::from_millis(200);

/// The longest stderr line handed to a [`Stderr::Lines`] callback (the rest of a longer
/// line is dropped).
pub const MAX_STDERR_LINE: usize = 64 * 1024;

/// How long output the child wrote before exiting still counts after its exit is seen,
/// when a process it started keeps its stdout open.
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(200);

/// What happens to the child's stderr.
#[derive(Clone, Default)]
pub enum Stderr {
    /// Forwarded: the child writes to this process's stderr (the default).
    #[default]
    Inherit,
    /// Thrown away.
    Discard,
    /// Captured: each line (lossy UTF-8, without its terminator, at most
    /// [`MAX_STDERR_LINE`] bytes) is passed to the callback.
    Lines(Arc<dyn Fn(String) + Send + Sync>),
}

impl std::fmt::Debug for Stderr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stderr::Inherit => "Inherit",
            Stderr::Discard => "Discard",
            Stderr::Lines(_) => "Lines(..)",
        })
    }
}

/// A server to run as a child process.
///
/// ```
/// use mcpwire_client::{ChildProcess, Stderr};
///
/// let server = ChildProcess::new("my-mcp-server").arg("--stdio").stderr(Stderr::Discard);
/// # let _ = server;
/// ```
#[derive(Debug)]
pub struct ChildProcess {
    command: Command,
    stderr: Stderr,
    max_frame_bytes: usize,
    exit_grace: Duration,
}

impl ChildProcess {
    /// Runs `program` (looked up in `PATH` like [`std::process::Command`]).
    pub fn new(program: impl AsRef<OsStr>) -> Self {
        Self::from_command(Command::new(program))
    }

    /// Runs a command prepared by the caller (arguments, environment, working directory);
    /// its stdin, stdout, stderr and process group are set by the transport.
    pub fn from_command(command: Command) -> Self {
        Self {
            command,
            stderr: Stderr::default(),
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            exit_grace: DEFAULT_EXIT_GRACE,
        }
    }

    /// Adds an argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// Sets an environment variable of the child.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.command.env(key, value);
        self
    }

    /// Sets what happens to the child's stderr (default [`Stderr::Inherit`]).
    pub fn stderr(mut self, stderr: Stderr) -> Self {
        self.stderr = stderr;
        self
    }

    /// Sets the bound of one line the child writes (default [`DEFAULT_MAX_FRAME_BYTES`]).
    pub fn max_frame_bytes(mut self, max: usize) -> Self {
        self.max_frame_bytes = max;
        self
    }

    /// Sets how long [`Connection::close`] lets the child exit by itself once its stdin is
    /// closed before killing its group (default [`DEFAULT_EXIT_GRACE`]).
    pub fn exit_grace(mut self, grace: Duration) -> Self {
        self.exit_grace = grace;
        self
    }
}

impl Transport for ChildProcess {
    fn open(
        self: Box<Self>,
        incoming: IncomingSender,
    ) -> BoxFuture<'static, Result<Box<dyn Connection>, TransportError>> {
        Box::pin(async move { self.spawn(incoming) })
    }
}

impl ChildProcess {
    fn spawn(mut self, incoming: IncomingSender) -> Result<Box<dyn Connection>, TransportError> {
        self.command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match self.stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Discard => Stdio::null(),
                Stderr::Lines(_) => Stdio::piped(),
            })
            .kill_on_drop(true);
        #[cfg(unix)]
        self.command.process_group(0);
        let mut child = self.command.spawn()?;
        let pid = child.id();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(TransportError::Io("the child's stdio was not piped".into()));
        };
        if let (Stderr::Lines(callback), Some(stderr)) = (&self.stderr, child.stderr.take()) {
            tokio::spawn(forward_stderr(stderr, Arc::clone(callback)));
        }
        let max = self.max_frame_bytes;
        let supervisor = tokio::spawn(async move {
            let pump = pump_lines(stdout, &incoming, max);
            tokio::pin!(pump);
            let status = tokio::select! {
                _ = &mut pump => child.wait().await,
                status = child.wait() => {
                    let _ = tokio::time::timeout(DRAIN_AFTER_EXIT, &mut pump).await;
                    status
                }
            };
            let end = match status {
                Ok(status) => TransportError::Exited(status.to_string()),
                Err(error) => TransportError::Io(error.to_string()),
            };
            incoming.send(Incoming::Closed(end)).await;
        });
        // Once: after the group is gone its id could in time name another group.
        let killed = AtomicBool::new(false);
        let kill: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
            if !killed.swap(true, Ordering::SeqCst) {
                kill_group(pid);
            }
        });
        let writer = LineWriter::new(Box::new(stdin), None).with_on_close(kill);
        Ok(Box::new(ChildConnection {
            writer,
            supervisor,
            exit_grace: self.exit_grace,
        }))
    }
}

/// The connection to a running child: closing ends its stdin, waits a grace for it to exit,
/// then kills its group; dropping kills the group at once.
struct ChildConnection {
    writer: LineWriter,
    supervisor: tokio::task::JoinHandle<()>,
    exit_grace: Duration,
}

impl Connection for ChildConnection {
    fn send(&self, frame: OutgoingFrame) -> BoxFuture<'_, Result<(), TransportError>> {
        self.writer.send(frame)
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.writer.close_output();
            let exited = async {
                while !self.supervisor.is_finished() {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            };
            let _ = tokio::time::timeout(self.exit_grace, exited).await;
            self.writer.close().await;
        })
    }
}

/// Reads the child's stderr line by line into `callback`, each line bounded.
async fn forward_stderr(
    stderr: impl AsyncRead + Unpin,
    callback: Arc<dyn Fn(String) + Send + Sync>,
) {
    let mut lines = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut taken = (&mut lines).take(MAX_STDERR_LINE as u64 + 1);
        match taken.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.last() != Some(&b'\n') && line.len() > MAX_STDERR_LINE {
            // Skip the rest of an over-long line.
            line.truncate(MAX_STDERR_LINE);
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let mut taken = (&mut lines).take(MAX_STDERR_LINE as u64);
                match taken.read_until(b'\n', &mut rest).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        callback(String::from_utf8_lossy(&line).into_owned());
    }
}

/// Kills the process group led by `pid` (the child and what it started).
fn kill_group(pid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok())
        && let Some(pid) = rustix::process::Pid::from_raw(pid)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}
