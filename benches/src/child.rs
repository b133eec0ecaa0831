//! Driving a `mcpwire serve` child process through its stdin/stdout pipes.
//!
//! The binary is the one `cargo xtask bench` builds (`MCPWIRE_BIN`). A writer thread feeds
//! `count` copies of a frame while the calling thread reads exactly `count` reply lines, so
//! neither pipe can fill up and stall the other.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `mcpwire serve`.
pub struct ServeProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
}

impl ServeProcess {
    /// Starts `binary serve` with extra arguments.
    pub fn spawn(binary: &Path, args: &[&str]) -> std::io::Result<Self> {
        let mut child = Command::new(binary)
            .arg("serve")
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

    /// Sends one frame and returns its reply line (without the newline).
    pub fn round_trip(&mut self, frame: &[u8]) -> std::io::Result<Vec<u8>> {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(frame)?;
        stdin.write_all(b"\n")?;
        stdin.flush()?;
        read_line(&mut self.stdout, &mut self.line)?;
        Ok(self.line.clone())
    }

    /// Sends `count` copies of `frame` and waits for `count` replies; returns the elapsed time.
    pub fn pump(&mut self, frame: &[u8], count: u64) -> std::io::Result<Duration> {
        let Self {
            stdin,
            stdout,
            line,
            ..
        } = self;
        let stdin = stdin.as_mut().expect("stdin open");
        let start = Instant::now();
        let written = std::thread::scope(|scope| {
            let writer = scope.spawn(move || -> std::io::Result<()> {
                let mut out = BufWriter::with_capacity(1 << 16, stdin);
                for _ in 0..count {
                    out.write_all(frame)?;
                    out.write_all(b"\n")?;
                }
                out.flush()
            });
            let mut read = Ok(());
            for _ in 0..count {
                if let Err(e) = read_line(stdout, line) {
                    read = Err(e);
                    break;
                }
            }
            writer.join().expect("writer thread").and(read)
        });
        written.map(|()| start.elapsed())
    }
}

/// Reads one reply line into `line`, without its newline.
fn read_line(stdout: &mut BufReader<ChildStdout>, line: &mut Vec<u8>) -> std::io::Result<()> {
    line.clear();
    let n = stdout.read_until(b'\n', line)?;
    if n == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "mcpwire serve closed stdout",
        ));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Ok(())
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        // Closing stdin ends the serving loop; wait so no zombie is left behind.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
