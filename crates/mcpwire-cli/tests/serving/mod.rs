//! `mcpwire serve --http` as a child process, for the tests that talk to it over the network.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `mcpwire serve --http …`, killed when dropped.
pub struct Serving {
    /// The server process.
    pub child: Child,
    /// The endpoint URL the server printed.
    pub url: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `mcpwire serve <args>` (which must hold `--http ADDR`) and waits for its URL.
pub fn serve(args: &[&str]) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire serve");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let _ = tx.send(line[at..].trim().to_owned());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the URL on stderr");
    Serving { child, url }
}
