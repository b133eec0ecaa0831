//! A server run as a child process, spoken to through its stdin and stdout (pipes, or UNIX
//! socket pairs as Node's `child_process` connects them): `mcpwire serve`
//! (`MCPWIRE_BIN`), the mcpwire-server example (`MCPWIRE_EXAMPLE_BIN`) and the rmcp server of
//! `benches/rmcp-server` (`RMCP_SERVER_BIN`), the binaries `cargo xtask bench` builds.
//!
//! Pushing many lines at once ([`ChildServer::pump`], [`LinePeer::stream`]) writes from a
//! second thread while the calling thread reads, so neither pipe (or socket) can fill up and
//! stall the other.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::line_peer::LinePeer;

/// A running server child process.
pub struct ChildServer {
    child: Child,
    stdin: Option<Box<dyn Write + Send>>,
    stdout: BufReader<Box<dyn Read + Send>>,
    line: Vec<u8>,
}

impl ChildServer {
    /// Starts `binary` with `args`, stdin and stdout piped, stderr inherited.
    pub fn spawn(binary: &Path, args: &[&str]) -> io::Result<Self> {
        let mut child = Command::new(binary)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        Ok(Self::new(child, Box::new(stdin), Box::new(stdout)))
    }

    /// Starts `binary` with `args`, stdin and stdout each one end of a UNIX socket pair (as
    /// Node's `child_process` connects a child), stderr inherited.
    #[cfg(unix)]
    pub fn spawn_on_sockets(binary: &Path, args: &[&str]) -> io::Result<Self> {
        use std::os::fd::OwnedFd;
        use std::os::unix::net::UnixStream;

        let (stdin, child_stdin) = UnixStream::pair()?;
        let (stdout, child_stdout) = UnixStream::pair()?;
        // The command, and with it the child's ends, is dropped once the child has them.
        let child = Command::new(binary)
            .args(args)
            .stdin(OwnedFd::from(child_stdin))
            .stdout(OwnedFd::from(child_stdout))
            .stderr(Stdio::inherit())
            .spawn()?;
        Ok(Self::new(child, Box::new(stdin), Box::new(stdout)))
    }

    fn new(child: Child, stdin: Box<dyn Write + Send>, stdout: Box<dyn Read + Send>) -> Self {
        Self {
            child,
            stdin: Some(stdin),
            stdout: BufReader::with_capacity(1 << 16, stdout),
            line: Vec::new(),
        }
    }

    /// Sends `count` copies of `frame` and waits for `count` replies; returns the elapsed time.
    pub fn pump(&mut self, frame: &[u8], count: u64) -> io::Result<Duration> {
        if count == 0 {
            return Ok(Duration::ZERO);
        }
        let start = Instant::now();
        let mut replies = 0;
        self.write_while_reading(
            |stdin| {
                let mut out = BufWriter::with_capacity(1 << 16, stdin);
                for _ in 0..count {
                    out.write_all(frame)?;
                    out.write_all(b"\n")?;
                }
                out.flush()
            },
            |_| {
                replies += 1;
                replies >= count
            },
        )?;
        Ok(start.elapsed())
    }

    /// Runs `write` on a second thread while this one hands each line the server writes to
    /// `done`, until it returns `true`.
    fn write_while_reading(
        &mut self,
        write: impl FnOnce(&mut Box<dyn Write + Send>) -> io::Result<()> + Send,
        mut done: impl FnMut(&[u8]) -> bool,
    ) -> io::Result<()> {
        let Self {
            stdin,
            stdout,
            line,
            ..
        } = self;
        let stdin = stdin.as_mut().expect("stdin open");
        std::thread::scope(|scope| {
            let writer = scope.spawn(move || write(stdin));
            let read = loop {
                if let Err(e) = read_line(stdout, line) {
                    break Err(e);
                }
                if done(line) {
                    break Ok(());
                }
            };
            writer.join().expect("writer thread").and(read)
        })
    }
}

impl LinePeer for ChildServer {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line)?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    fn read_next(&mut self) -> io::Result<()> {
        read_line(&mut self.stdout, &mut self.line)
    }

    fn stream(
        &mut self,
        bytes: &[u8],
        is_last: fn(&[u8]) -> bool,
    ) -> io::Result<(Duration, usize)> {
        let start = Instant::now();
        let mut before = 0;
        self.write_while_reading(
            |stdin| {
                stdin.write_all(bytes)?;
                stdin.flush()
            },
            |line| {
                let last = is_last(line);
                if !last {
                    before += 1;
                }
                last
            },
        )?;
        Ok((start.elapsed(), before))
    }

    fn last_line(&self) -> &[u8] {
        &self.line
    }
}

/// Reads one line into `line`, without its newline.
fn read_line(stdout: &mut BufReader<Box<dyn Read + Send>>, line: &mut Vec<u8>) -> io::Result<()> {
    line.clear();
    let n = stdout.read_until(b'\n', line)?;
    if n == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the server closed its stdout",
        ));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Ok(())
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        // Closing stdin ends the serving loop; wait so no zombie is left behind.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
