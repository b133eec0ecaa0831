//! Helpers of the `mcpwire check` tests: run the checker binary, start servers, read reports.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The longest any one checker run may take before the test fails.
pub const RUN_LIMIT: Duration = Duration::from_secs(120);

/// The `mcpwire check` binary.
pub fn check_bin() -> &'static str {
    env!("CARGO_BIN_EXE_check-under-test")
}

/// The reference server binary (`mcpwire serve`).
pub fn reference_bin() -> &'static str {
    env!("CARGO_BIN_EXE_reference-server")
}

/// A fixture server script.
pub fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/servers")
        .join(name)
        .display()
        .to_string()
}

/// The upstream MCP schemas every reply is validated against: `MCP_SCHEMA_DIR`, else
/// `../shared/schemas/mcp` from the workspace root.
pub fn schema_dir() -> PathBuf {
    std::env::var_os("MCP_SCHEMA_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/schemas/mcp"),
        PathBuf::from,
    )
}

/// What one checker run showed.
#[derive(Debug)]
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Wall time.
    pub elapsed: Duration,
}

impl Run {
    /// The JSON report on stdout.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("report is not JSON ({e}):\n{}", self.stdout))
    }

    /// `(kind, rule)` of every failure group in the JSON report.
    pub fn failure_kinds(&self) -> Vec<(String, String)> {
        self.json()["failures"]
            .as_array()
            .expect("failures")
            .iter()
            .map(|f| {
                (
                    f["kind"].as_str().unwrap().to_owned(),
                    f["rule"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }
}

/// Runs the checker with `args`, with `NO_COLOR` unset and stdout piped.
pub fn check(args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(check_bin())
        .args(args)
        .env("MCP_SCHEMA_DIR", schema_dir())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the checker starts");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            panic!("the checker ran longer than {RUN_LIMIT:?}: {args:?}");
        }
        thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.recv().unwrap_or_default(),
        stderr: stderr.recv().unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

/// Runs the checker once per argument list, all at once (each run mostly waits on its server,
/// so running them side by side costs about as long as the slowest); the runs in order.
pub fn check_each(runs: &[&[&str]]) -> Vec<Run> {
    in_parallel(runs.iter().map(|args| move || check(args)).collect())
}

/// Runs every job on its own thread and returns their results in order.
pub fn in_parallel<T: Send, F: FnOnce() -> T + Send>(jobs: Vec<F>) -> Vec<T> {
    thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|job| scope.spawn(job)).collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Runs two jobs side by side and returns both results.
pub fn both<A: Send, B: Send>(
    first: impl FnOnce() -> A + Send,
    second: impl FnOnce() -> B + Send,
) -> (A, B) {
    thread::scope(|scope| {
        let second = scope.spawn(second);
        let first = first();
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (first, second)
    })
}

fn drain(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// A server on loopback HTTP, killed when dropped.
pub struct HttpServer {
    child: Child,
    /// The endpoint URL the server printed.
    pub url: String,
}

impl HttpServer {
    /// Starts `program args…`, which must print `… http://ADDR/PATH` on stderr once bound.
    pub fn start(program: &str, args: &[&str]) -> HttpServer {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the HTTP server starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("http://") {
                    let _ = tx.send(
                        line[at..]
                            .split_whitespace()
                            .next()
                            .unwrap_or("")
                            .to_owned(),
                    );
                }
            }
        });
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(url) => {
                assert!(url.starts_with("http://127.0.0.1:"), "loopback only: {url}");
                HttpServer { child, url }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("{program} printed no http:// address");
            }
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asserts a JSON-format run passed: exit 0, no failure, every rule clean, every case counted.
pub fn assert_clean(run: &Run, what: &str) {
    assert_eq!(
        run.code, 0,
        "{what}: exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    let report = run.json();
    assert_eq!(report["passed"], true, "{what}");
    assert_eq!(
        report["failures"].as_array().map(Vec::len),
        Some(0),
        "{what}: {}",
        run.stdout
    );
    assert_eq!(report["violations"], 0, "{what}");
    assert_eq!(report["strict"], 0, "{what}: no strict finding either");
    let rules = report["rules"].as_array().expect("rules");
    let passed: u64 = rules.iter().map(|r| r["passed"].as_u64().unwrap()).sum();
    let failed: u64 = rules.iter().map(|r| r["failed"].as_u64().unwrap()).sum();
    assert_eq!(failed, 0, "{what}");
    assert!(
        passed >= report["cases"].as_u64().unwrap(),
        "{what}: every case exercises a rule"
    );
}

/// The `--expect-failures` lines (`RULE KIND`) of the JSON report's failure groups that `keep`
/// selects, one per line.
pub fn baseline_lines(report: &Value, keep: impl Fn(&Value) -> bool) -> String {
    report["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .filter(|g| keep(g))
        .map(|g| {
            format!(
                "{} {}\n",
                g["rule_id"].as_str().unwrap(),
                g["kind"].as_str().unwrap()
            )
        })
        .collect()
}

/// `(label, kind, level)` of every finding of a JSON-format run, case by case.
pub fn case_findings(run: &Run) -> Vec<(String, String, String)> {
    let report = run.json();
    report["case_findings"]
        .as_array()
        .expect("case_findings")
        .iter()
        .flat_map(|case| {
            case["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .map(|f| {
                    (
                        case["label"].as_str().unwrap().to_owned(),
                        f["kind"].as_str().unwrap().to_owned(),
                        f["level"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}
