//! Issue 47 item 2: the spec map (docs/spec-map.tsv) and the finding kinds stay in step. Every
//! kind `mcpwire check --list-kinds` prints is mapped to a sentence, every kind the map names
//! exists, every other row says why a black box cannot judge its sentence or why it is left,
//! and docs/check.md shows the map as rendered here, with its counts.

#[path = "check_support/mod.rs"]
mod check_support;

use std::path::PathBuf;

use check_support::check;

/// One row: revisions, source, keyword, sentence, judged by.
type Row = [String; 5];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join("docs/spec-map.tsv")).expect("the spec map");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<String> = line.split('\t').map(str::to_owned).collect();
            cells
                .try_into()
                .unwrap_or_else(|cells: Vec<String>| panic!("five cells: {cells:?}"))
        })
        .collect()
}

/// The map as docs/check.md shows it: a table, then the counts.
fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "| revisions | source | keyword | sentence | judged by |\n|---|---|---|---|---|\n",
    );
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    let count = |prefix: &str| rows.iter().filter(|r| r[4].starts_with(prefix)).count();
    let (left, unjudgeable) = (count("left:"), count("not judgeable:"));
    out.push_str(&format!(
        "\n{} sentences: {} judged by a finding kind, {} not judgeable by a black box, {} left.\n",
        rows.len(),
        rows.len() - left - unjudgeable,
        unjudgeable,
        left
    ));
    out
}

#[test]
fn the_spec_map_and_list_kinds_are_in_step() {
    let listed = check(&["--list-kinds"]);
    let kinds: Vec<&str> = listed
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(kinds.len() > 50, "{}", listed.stdout);
    let rows = rows();
    let mut mapped = Vec::new();
    for row in &rows {
        let judged = &row[4];
        if judged.starts_with("left: ") || judged.starts_with("not judgeable: ") {
            continue;
        }
        for kind in judged.split(", ") {
            assert!(
                kinds.contains(&kind),
                "the map names an unknown kind {kind}"
            );
            mapped.push(kind.to_owned());
        }
    }
    for kind in &kinds {
        assert!(mapped.iter().any(|m| m == kind), "{kind} is not in the map");
    }
    for row in &rows {
        assert!(!row[3].is_empty() && !row[2].is_empty(), "{row:?}");
    }
}

#[test]
fn docs_check_md_shows_the_map_as_rendered() {
    let docs = std::fs::read_to_string(root().join("docs/check.md")).expect("docs/check.md");
    let begin = "<!-- spec-map: begin (rendered from docs/spec-map.tsv) -->\n";
    let end = "<!-- spec-map: end -->";
    let start = docs.find(begin).expect("the begin marker") + begin.len();
    let stop = docs.find(end).expect("the end marker");
    assert_eq!(
        &docs[start..stop],
        render(&rows()),
        "docs/check.md is out of step with docs/spec-map.tsv"
    );
}
