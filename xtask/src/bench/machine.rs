//! What the report says of the machine: cores, CPU model and flags (and so the SIMD the
//! string scan runs with), rustc, and crate versions from a lock file.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The number of cores the suite may use.
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The value of the first `/proc/cpuinfo` line starting with `key` (`None` where there is none).
fn cpuinfo(key: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    Some(line.split_once(':')?.1.trim().to_owned())
}

/// The CPU's model name.
pub(super) fn cpu_model() -> String {
    cpuinfo("model name").unwrap_or_else(|| "unknown CPU".to_owned())
}

/// The `flags` line of `/proc/cpuinfo` (empty where there is none).
pub(super) fn cpu_flags() -> String {
    cpuinfo("flags").unwrap_or_default()
}

/// Which SIMD mcpwire's string scan runs with on a CPU with these flags: it chooses the
/// widest at run time (`crates/mcpwire/src/scan/blocks.rs`), so the envelope rows depend on it.
pub(super) fn string_scan_simd(flags: &str) -> String {
    let has_all = |wanted: &[&str]| {
        wanted
            .iter()
            .all(|flag| flags.split_whitespace().any(|f| f == *flag))
    };
    // pulp's tokens: `V3` (x86-64-v3) and `V4` (x86-64-v4), by their main features.
    let v3 = has_all(&["avx2", "bmi1", "bmi2", "fma"]);
    let simd = if v3 && has_all(&["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]) {
        "AVX-512"
    } else if v3 {
        "AVX2"
    } else if std::env::consts::ARCH == "x86_64" {
        "SSE2"
    } else {
        "no SIMD (words of eight bytes)"
    };
    format!(
        "string scan: {simd} (mcpwire picks the widest of AVX-512, AVX2 and SSE2 the CPU has, at run time; the UTF-8 check likewise through simdutf8)"
    )
}

/// `rustc --version`, as the one running xtask (`RUSTC`).
pub(super) fn rustc_version() -> String {
    Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Resolved versions by package name from a `Cargo.lock` (the highest, when several).
pub(super) fn crate_versions(lock: &Path) -> BTreeMap<String, String> {
    let mut versions = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(lock) else {
        return versions;
    };
    let mut name: Option<String> = None;
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_owned());
        } else if let (Some(value), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            versions.insert(n, value.trim_matches('"').to_owned());
        }
    }
    versions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fixture;

    #[test]
    fn reads_versions_from_a_lock_file() {
        let dir = fixture::ScratchDir::new("bench-lock");
        let lock = dir.join("Cargo.lock");
        std::fs::write(&lock, "[[package]]\nname = \"rmcp\"\nversion = \"3.9.0\"\nsource = \"x\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.1\"\n").unwrap();
        let versions = crate_versions(&lock);
        assert_eq!(versions.get("rmcp").map(String::as_str), Some("3.9.0"));
        assert_eq!(versions.get("serde").map(String::as_str), Some("1.0.1"));
    }

    #[test]
    fn names_the_widest_simd_the_string_scan_can_use() {
        let v3 = "fpu sse2 avx avx2 bmi1 bmi2 fma";
        let v4 = "avx512f avx512bw avx512cd avx512dq avx512vl";
        assert!(string_scan_simd(&format!("{v3} {v4}")).starts_with("string scan: AVX-512 "));
        assert!(string_scan_simd(v3).starts_with("string scan: AVX2 "));
        // AVX-512 without the rest of x86-64-v3, or AVX2 alone, is not enough for pulp's tokens.
        assert!(!string_scan_simd(&format!("avx2 {v4}")).starts_with("string scan: AVX"));
        assert!(!string_scan_simd("sse2 avx2").starts_with("string scan: AVX"));
    }
}
