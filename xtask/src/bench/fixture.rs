//! Test fixtures of the report: criterion results written as criterion lays them out, and a
//! report rendered from them.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use super::{Report, read_results};

/// A fresh, empty directory of this test process under the system's temp directory, removed
/// when dropped (also when the test fails).
pub(crate) struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `xtask-<name>-<process id>`, emptied of what an earlier run left.
    pub(crate) fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Criterion's directory layout for one benchmark: `<group>/<function>/new/estimates.json`.
pub(crate) fn write_estimate(home: &Path, group: &str, function: &str, median_ns: f64) {
    let dir = home.join(group).join(function).join("new");
    std::fs::create_dir_all(&dir).unwrap();
    let estimates = format!(
        r#"{{"mean":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":1.0,"standard_error":0.1}},"median":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":{median_ns},"standard_error":0.2}}}}"#
    );
    std::fs::write(dir.join("estimates.json"), estimates).unwrap();
}

/// The report over the results under `home`, rendered by `render`.
pub(crate) fn report_from(home: &Path, render: impl Fn(&Report<'_>, &mut String)) -> String {
    let results = read_results(home, None);
    let report = Report {
        results: &results,
        runs: &[],
        outcomes: "",
        gen_timing: None,
        previous_gen: None,
        quick: false,
        root: home,
    };
    let mut out = String::new();
    render(&report, &mut out);
    out
}
