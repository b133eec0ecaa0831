//! The arguments of `cargo xtask bench` (see the module docs of `bench` for the flags).

use super::USAGE;

/// What the command line asks for.
#[derive(Debug, Default)]
pub(super) struct Args {
    /// `--report-only`: rebuild the report from the last results.
    pub(super) report_only: bool,
    /// `--quick`: a smoke run.
    pub(super) quick: bool,
    /// Not `--no-write`: write `BENCHMARKS.md`.
    pub(super) write: bool,
    /// `--runs N`.
    pub(super) runs: Option<usize>,
    /// What follows `--`, for the criterion harness.
    pub(super) criterion: Vec<String>,
}

impl Args {
    /// Reads the arguments after `bench`; an unknown flag or a bad run count is an error
    /// ending with the usage text.
    pub(super) fn parse(args: &[String]) -> Result<Self, String> {
        let mut parsed = Self {
            write: true,
            ..Self::default()
        };
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--runs" => {
                    let count = rest.next().and_then(|n| n.parse().ok()).filter(|&n| n >= 1);
                    parsed.runs = Some(count.ok_or_else(|| {
                        format!("--runs needs a number of runs, 1 or more\n{USAGE}")
                    })?);
                }
                "--report-only" => parsed.report_only = true,
                "--quick" => parsed.quick = true,
                "--no-write" => parsed.write = false,
                "--" => parsed.criterion.extend(rest.by_ref().cloned()),
                other => return Err(format!("unknown flag {other:?}\n{USAGE}")),
            }
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_count_must_be_a_number_of_one_or_more() {
        for args in [&["--runs"][..], &["--runs", "0"], &["--runs", "three"]] {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let err = Args::parse(&args).unwrap_err();
            assert!(
                err.starts_with("--runs needs a number of runs, 1 or more\nusage:"),
                "{err}"
            );
        }
    }

    #[test]
    fn reads_the_flags_and_passes_the_rest_to_criterion() {
        let args: Vec<String> = ["--quick", "--no-write", "--", "decode_ping", "--x"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        let parsed = Args::parse(&args).unwrap();
        assert!(parsed.quick && !parsed.write && !parsed.report_only);
        assert_eq!(parsed.criterion, ["decode_ping", "--x"]);
        assert!(
            Args::parse(&["--nope".to_owned()])
                .unwrap_err()
                .starts_with("unknown flag")
        );
    }
}
