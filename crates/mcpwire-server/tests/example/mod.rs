//! The `mcp_server` example as a child process (built by `cargo test` next to the tests)
//! serving Streamable HTTP on a port the system chose; killed when dropped.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub struct Example {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Example {
    /// `mcp_server --http 127.0.0.1:0` with `args` after it, once it listens.
    pub fn start(args: &[&str]) -> Self {
        let mut all = vec!["--http", "127.0.0.1:0"];
        all.extend_from_slice(args);
        Self::start_named("mcp_server", &all)
    }

    /// The example `name` with `args`, once it prints `NAME: listening on http://ADDR/mcp`.
    pub fn start_named(name: &str, args: &[&str]) -> Self {
        let exe = std::env::current_exe().expect("the test binary's path");
        let debug = exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target/<profile>");
        let mut child = Command::new(debug.join("examples").join(name))
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example starts");
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // `NAME: listening on http://127.0.0.1:PORT/mcp`
        let addr = line
            .trim()
            .strip_prefix(&format!("{name}: listening on http://"))
            .and_then(|rest| rest.strip_suffix("/mcp"))
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .parse()
            .unwrap();
        Example { child, addr }
    }

    /// Sends it SIGTERM (with `kill`, which must succeed).
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Its exit status once it exits, waiting at most `limit`.
    pub fn exits_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Example {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
