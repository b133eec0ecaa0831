//! A server run as a child process, spoken to through its stdin/stdout pipes: `mcpwire serve`
//! (`MCPWIRE_BIN`), the mcpwire-server example (`MCPWIRE_EXAMPLE_BIN`) and the rmcp server of
//! `benches/rmcp-server` (`RMCP_SERVER_BIN`), the binaries `cargo xtask bench` builds.
//!
//! Pushing many lines at once ([`ChildServer::pump`], [`LinePeer::stream`]) writes from a
//! second thread while the calling thread reads, so neither pipe can fill up and stall the
//! other.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::line_peer::LinePeer;

/// A running server child process.
pub struct ChildServer {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
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
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped stdout"));
        Ok(Self {
            child,
            stdin,
            stdout,
            line: Vec::new(),
        })
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
        write: impl FnOnce(&mut ChildStdin) -> io::Result<()> + Send,
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
fn read_line(stdout: &mut BufReader<ChildStdout>, line: &mut Vec<u8>) -> io::Result<()> {
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
