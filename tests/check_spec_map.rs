//! Issue 47 item 2: the spec map (docs/spec-map.tsv) and the finding kinds stay in step. Every
//! kind `mcpwire check --list-kinds` prints is mapped to a sentence, every kind the map names
//! exists, every other row says why a black box cannot judge its sentence or why it is left,
//! every MUST / SHOULD sentence `scripts/spec-sentences.py` extracted from the spec pages
//! (docs/spec-sentences.tsv) has a row quoting it for its revision, and docs/check.md shows
//! the map as rendered here, with its counts.

use crate::check_support;

use std::path::PathBuf;

use check_support::check;

/// One row: revisions, source, keyword, addressee, sentence, judged by.
type Row = [String; 6];

/// Who a sentence binds.
const ADDRESSEES: [&str; 4] = ["server", "client", "both", "sender-receiver"];

/// One sentence the extraction found: revision, page, keywords, sentence.
type Extracted = [String; 4];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The rows of a tab-separated file under docs/, `#` lines skipped.
fn table<const N: usize>(file: &str) -> Vec<[String; N]> {
    let text = std::fs::read_to_string(root().join("docs").join(file)).expect(file);
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let cells: Vec<String> = line.split('\t').map(str::to_owned).collect();
            cells
                .try_into()
                .unwrap_or_else(|cells: Vec<String>| panic!("{N} cells in {file}: {cells:?}"))
        })
        .collect()
}

fn rows() -> Vec<Row> {
    table("spec-map.tsv")
}

fn extracted() -> Vec<Extracted> {
    table("spec-sentences.tsv")
}

/// Whether `cell` quotes `sentence`: in full, or shortened with " … " (each kept part in
/// order).
fn quotes(cell: &str, sentence: &str) -> bool {
    if cell.contains(sentence) {
        return true;
    }
    let mut rest = sentence;
    for part in cell.split(" … ") {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    cell.contains(" … ")
}

/// The row that quotes an extracted sentence for its revision.
fn row_of<'a>(rows: &'a [Row], sentence: &Extracted) -> Option<&'a Row> {
    rows.iter()
        .find(|row| row[0].contains(sentence[0].as_str()) && quotes(&row[4], &sentence[3]))
}

/// The map as docs/check.md shows it: a table, then the counts.
fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "| revisions | source | keyword | addressee | sentence | judged by |\n|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    let counts = |rows: &[&Row]| {
        let count = |prefix: &str| rows.iter().filter(|r| r[5].starts_with(prefix)).count();
        let (left, unjudgeable) = (count("left:"), count("not judgeable:"));
        format!(
            "{} judged by a finding kind, {} not judgeable by a black box, {} left",
            rows.len() - left - unjudgeable,
            unjudgeable,
            left
        )
    };
    let all: Vec<&Row> = rows.iter().collect();
    out.push_str(&format!("\n{} rows: {}.\n", rows.len(), counts(&all)));
    let sentences = extracted();
    let pages: Vec<&Row> = rows
        .iter()
        .filter(|row| sentences.iter().any(|s| quotes(&row[4], &s[3])))
        .collect();
    out.push_str(&format!(
        "\nThe {} sentences of the pages (docs/spec-sentences.tsv, {} rows, a sentence the two revisions share in one row):\n\n",
        sentences.len(),
        pages.len()
    ));
    for addressee in ADDRESSEES {
        let these: Vec<&Row> = pages
            .iter()
            .copied()
            .filter(|r| r[3] == addressee)
            .collect();
        out.push_str(&format!(
            "- addressed to {addressee}: {} rows, {}\n",
            these.len(),
            counts(&these)
        ));
    }
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
        let judged = &row[5];
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
        assert!(!row[4].is_empty() && !row[2].is_empty(), "{row:?}");
        assert!(ADDRESSEES.contains(&row[3].as_str()), "{row:?}");
    }
}

#[test]
fn every_extracted_sentence_has_a_row() {
    let rows = rows();
    let sentences = extracted();
    assert!(sentences.len() > 400, "{}", sentences.len());
    let missing: Vec<String> = sentences
        .iter()
        .filter(|s| row_of(&rows, s).is_none())
        .map(|s| format!("{} {}: {}", s[0], s[1], s[3]))
        .collect();
    assert!(
        missing.is_empty(),
        "{} sentences of docs/spec-sentences.tsv have no row in docs/spec-map.tsv:\n{}",
        missing.len(),
        missing.join("\n")
    );
    // A row's keyword column names the keywords its sentence has, and a sentence addressed to
    // the client is never judged by a finding kind of a server check.
    for s in &sentences {
        let row = row_of(&rows, s).expect("checked above");
        for keyword in s[2].split(", ") {
            assert!(row[2].contains(keyword), "{row:?} lacks {keyword}");
        }
        if row[3] == "client" {
            assert!(row[5].starts_with("not judgeable: "), "{row:?}");
        }
    }
}

#[test]
fn docs_check_md_shows_the_map_as_rendered() {
    let docs = std::fs::read_to_string(root().join("docs/check.md")).expect("docs/check.md");
    let begin = "<!-- spec-map: begin (rendered from docs/spec-map.tsv) -->\n";
    let end = "<!-- spec-map: end -->";
    let start = docs.find(begin).expect("the begin marker") + begin.len();
    let stop = docs.find(end).expect("the end marker");
    // `BLESS_SPEC_MAP=1 cargo test -p mcpwire-tests --test check check_spec_map::` rewrites it.
    if std::env::var_os("BLESS_SPEC_MAP").is_some() {
        let blessed = format!("{}{}{}", &docs[..start], render(&rows()), &docs[stop..]);
        std::fs::write(root().join("docs/check.md"), &blessed).expect("docs/check.md written");
        return;
    }
    assert_eq!(
        &docs[start..stop],
        render(&rows()),
        "docs/check.md is out of step with docs/spec-map.tsv"
    );
}
