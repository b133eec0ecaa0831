//! Issue 16: a 20 MB batch line `[1,1,…]` (10 million elements) sent to the reference
//! server over stdio under `mcp-2025-03-26` (batches on) and the default limits is answered
//! with one -32600, and the server process's peak resident memory (`VmHWM`) stays under
//! 64 MiB. Before the batch limit this line took 1.59 GB and produced an 800 MB reply.
//! Linux only (reads `/proc/<pid>/status`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// The stated bound: the 20 MB line buffer (grown to at most 32 MiB) plus the program.
const PEAK_RSS_LIMIT_KIB: u64 = 64 * 1024;

fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("a VmHWM line");
    line.split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmHWM in kB")
}

#[test]
#[cfg(target_os = "linux")]
fn a_20_mb_batch_line_stays_under_64_mib() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reference-server"))
        .args(["--profile", "mcp-2025-03-26"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("reference-server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let line = format!("[{}1]\n", "1,".repeat(10_000_000));
    assert!(line.len() > 20_000_000);
    let writer = std::thread::spawn(move || {
        stdin.write_all(line.as_bytes()).expect("write the line");
        stdin.flush().expect("flush");
        stdin
    });
    let mut reply = String::new();
    stdout.read_line(&mut reply).expect("a reply line");
    // The process is still running (its stdin is open): measure before it exits.
    let peak = peak_rss_kib(child.id());
    eprintln!("reference-server peak RSS: {peak} KiB");
    drop(writer.join().expect("writer"));
    let status = child.wait().expect("exit");
    assert_eq!(
        reply,
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}\n"
    );
    assert!(status.success());
    assert!(
        peak < PEAK_RSS_LIMIT_KIB,
        "peak RSS {peak} KiB exceeds {PEAK_RSS_LIMIT_KIB} KiB"
    );
}
