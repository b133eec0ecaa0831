//! The cargo calls of `cargo xtask bench`: where the three workspaces build, the release
//! servers the end-to-end rows run, the timing of `xtask gen --check`, and the criterion suite.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::{BENCH_MEASUREMENT, BENCH_WARM_UP};

/// The checkout to benchmark: `MCPWIRE_ROOT`, else this workspace.
pub(super) fn workspace_root() -> PathBuf {
    match std::env::var_os("MCPWIRE_ROOT") {
        Some(root) => PathBuf::from(root),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives in the workspace")
            .to_owned(),
    }
}

/// Target directories of the three workspaces (the main one, `benches/` and
/// `benches/rmcp-server/`).
pub(super) struct Dirs {
    main_target: PathBuf,
    bench_target: PathBuf,
    rmcp_target: PathBuf,
}

impl Dirs {
    pub(super) fn new(root: &Path) -> Self {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                let dir = if dir.is_absolute() {
                    dir
                } else {
                    root.join(dir)
                };
                Self {
                    main_target: dir.clone(),
                    bench_target: dir.clone(),
                    rmcp_target: dir,
                }
            }
            None => Self {
                main_target: root.join("target"),
                bench_target: root.join("benches").join("target"),
                rmcp_target: root.join("benches").join("rmcp-server").join("target"),
            },
        }
    }

    pub(super) fn criterion_home(&self) -> PathBuf {
        self.bench_target.join("criterion")
    }

    /// Where `benches/` builds.
    pub(super) fn bench_target(&self) -> &Path {
        &self.bench_target
    }

    pub(super) fn outcomes_file(&self) -> PathBuf {
        self.criterion_home().join("mcpwire-outcomes.tsv")
    }
}

/// `cargo`, as the one running xtask (`CARGO`).
pub(super) fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs `command` to its end; a failure names `what`.
pub(super) fn status(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed: {status}"))
    }
}

/// The release binaries the end-to-end rows run as child processes.
pub(super) struct Servers {
    /// `mcpwire` (for `mcpwire serve`).
    mcpwire: PathBuf,
    /// The mcpwire-server example `mcp_server`.
    pub(super) example: PathBuf,
    /// `benches/rmcp-server`.
    pub(super) rmcp: PathBuf,
}

/// Builds the three release servers.
pub(super) fn build_servers(root: &Path, dirs: &Dirs) -> Result<Servers, String> {
    let exe = |name: &str| format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let release = dirs.main_target.join("release");
    let main = &dirs.main_target;
    let mcpwire_cli = ["-p", "mcpwire-cli", "--bin", "mcpwire"];
    let example = ["-p", "mcpwire-server", "--example", "mcp_server"];
    let rmcp = ["--manifest-path", "benches/rmcp-server/Cargo.toml"];
    let rmcp_binary = dirs.rmcp_target.join("release").join(exe("rmcp-server"));
    Ok(Servers {
        mcpwire: build_server(root, &mcpwire_cli, main, release.join(exe("mcpwire")))?,
        example: build_server(
            root,
            &example,
            main,
            release.join("examples").join(exe("mcp_server")),
        )?,
        rmcp: build_server(root, &rmcp, &dirs.rmcp_target, rmcp_binary)?,
    })
}

/// One release build (`cargo build --release` with `args`, into `target`), and the binary it
/// must leave behind.
fn build_server(
    root: &Path,
    args: &[&str],
    target: &Path,
    binary: PathBuf,
) -> Result<PathBuf, String> {
    let command = format!("cargo build --release {}", args.join(" "));
    eprintln!("bench: {command}");
    status(
        cargo()
            .current_dir(root)
            .args(["build", "--quiet", "--release"])
            .args(args)
            .env("CARGO_TARGET_DIR", target),
        &command,
    )?;
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!("{} is missing after `{command}`", binary.display()))
    }
}

/// How long `xtask gen --check` takes (release build, all five MCP versions), best of runs.
pub(super) struct GenTiming {
    /// The fastest run.
    pub(super) best: Duration,
    /// Every run, in order.
    pub(super) runs: Vec<Duration>,
    /// Whether every run found the generated files up to date.
    pub(super) fresh: bool,
}

/// Builds xtask in release and times `xtask gen --check` three times.
pub(super) fn time_gen(root: &Path, dirs: &Dirs) -> Result<GenTiming, String> {
    eprintln!("bench: timing `xtask gen --check` (release)");
    status(
        cargo()
            .current_dir(root)
            .args(["build", "--quiet", "--release", "-p", "xtask"])
            .env("CARGO_TARGET_DIR", &dirs.main_target),
        "cargo build --release -p xtask",
    )?;
    let xtask = dirs
        .main_target
        .join("release")
        .join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    let mut runs = Vec::new();
    let mut fresh = true;
    for _ in 0..3 {
        let start = Instant::now();
        let output = Command::new(&xtask)
            .current_dir(root)
            .args(["gen", "--check"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", xtask.display()))?;
        runs.push(start.elapsed());
        fresh &= output.status.success();
    }
    let best = *runs.iter().min().expect("three runs");
    Ok(GenTiming { best, runs, fresh })
}

/// One run of the criterion suite in `benches/`, with the servers' paths.
pub(super) fn run_suite(
    root: &Path,
    dirs: &Dirs,
    servers: &Servers,
    quick: bool,
    extra: &[String],
) -> Result<(), String> {
    eprintln!("bench: running the criterion suite (benches/)");
    let (warm_up, measurement) = if quick {
        ("0.5", "1")
    } else {
        (BENCH_WARM_UP, BENCH_MEASUREMENT)
    };
    let home = dirs.criterion_home();
    std::fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let _ = std::fs::remove_file(dirs.outcomes_file());
    status(
        cargo()
            .current_dir(root)
            .args([
                "bench",
                "--manifest-path",
                "benches/Cargo.toml",
                "--bench",
                "wire",
                "--",
            ])
            .args(["--warm-up-time", warm_up, "--measurement-time", measurement])
            .args(extra)
            .env("CARGO_TARGET_DIR", &dirs.bench_target)
            .env("CRITERION_HOME", &home)
            .env("MCPWIRE_BIN", &servers.mcpwire)
            .env("MCPWIRE_EXAMPLE_BIN", &servers.example)
            .env("RMCP_SERVER_BIN", &servers.rmcp)
            .env("MCPWIRE_BENCH_OUTCOMES", dirs.outcomes_file()),
        "cargo bench --manifest-path benches/Cargo.toml",
    )
}
