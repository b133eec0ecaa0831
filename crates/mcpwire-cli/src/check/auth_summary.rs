//! What `mcpwire check --auth` saw, as the report lists it: every probe with its status and
//! challenge, or why it was not run (the probes themselves are the `auth` module's).

/// What one probe came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server answered: the status and its `WWW-Authenticate` headers (joined).
    Seen {
        /// The status code.
        status: u16,
        /// The challenge, if one came.
        challenge: Option<String>,
    },
    /// The request failed (connection refused, timeout).
    Failed(String),
    /// Not sent, and why (its token was not given): never counted as passed.
    NotRun(String),
    /// Judged without a request (the endpoint's URL itself): what was judged.
    Judged(String),
}

/// One probe as the report lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeLine {
    /// What the probe is (`POST without a token`).
    pub label: String,
    /// What a correct server answers.
    pub expected: String,
    /// What came.
    pub outcome: Outcome,
    /// The kinds it found.
    pub kinds: Vec<String>,
}

impl ProbeLine {
    /// The line as the table shows it.
    pub fn render(&self) -> String {
        let seen = match &self.outcome {
            Outcome::Seen {
                status,
                challenge: Some(challenge),
            } => format!("HTTP {status}, WWW-Authenticate: {challenge}"),
            Outcome::Seen { status, .. } => format!("HTTP {status}"),
            Outcome::Failed(why) => format!("failed: {why}"),
            Outcome::NotRun(why) => format!("not run: {why}"),
            Outcome::Judged(what) => what.clone(),
        };
        let verdict = if matches!(self.outcome, Outcome::NotRun(_) | Outcome::Failed(_)) {
            String::new()
        } else if self.kinds.is_empty() {
            " [ok]".into()
        } else {
            format!(" [{}]", self.kinds.join(", "))
        };
        format!("{}: {seen}{verdict}", self.label)
    }
}

/// What `--auth` did: the revision it judged by and every probe.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthSummary {
    /// The MCP revision the verdicts rest on.
    pub revision: String,
    /// Every probe, in the order sent.
    pub probes: Vec<ProbeLine>,
}

impl AuthSummary {
    /// Probes that were not run.
    pub fn not_run(&self) -> usize {
        self.probes
            .iter()
            .filter(|p| matches!(p.outcome, Outcome::NotRun(_)))
            .count()
    }
}

/// The `auth` member of the JSON report: the revision and every probe with its outcome.
pub fn summary_json(summary: &AuthSummary) -> serde_json::Value {
    let probes: Vec<serde_json::Value> = summary
        .probes
        .iter()
        .map(|p| {
            let (status, challenge, outcome) = match &p.outcome {
                Outcome::Seen { status, challenge } => {
                    (Some(*status), challenge.clone(), "sent".to_owned())
                }
                Outcome::Failed(why) => (None, None, format!("failed: {why}")),
                Outcome::NotRun(why) => (None, None, format!("not run: {why}")),
                Outcome::Judged(what) => (None, None, format!("judged: {what}")),
            };
            serde_json::json!({
                "probe": p.label,
                "expected": p.expected,
                "outcome": outcome,
                "status": status,
                "www_authenticate": challenge,
                "kinds": p.kinds,
            })
        })
        .collect();
    serde_json::json!({ "revision": summary.revision, "probes": probes })
}
