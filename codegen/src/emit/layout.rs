//! Lays out the tables of `object!`, `union!` and `sample_table!` calls one entry a line: `prettyplease`
//! fills a macro's tokens like a paragraph, with a space on each side of every `<` and `>`.

/// `source` with every `…::object! { … }`, `…::union! { … }` and `…::sample_table! { … }` call's
/// body rewritten one `;`-ended line per entry, spaced like hand-written Rust.
pub fn table_calls(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut lines = source.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let table = line.ends_with("::object! {\n")
            || line.ends_with("::sample_table! {\n")
            || line.ends_with("::union! {\n");
        if !table {
            continue;
        }
        // A call inside an inline module is indented: its entries and its `}` are too.
        let indent = &line[..line.len() - line.trim_start().len()];
        let mut body = String::new();
        for inner in lines.by_ref() {
            if inner
                .strip_prefix(indent)
                .is_some_and(|rest| rest.trim_end() == "}")
            {
                for entry in entries(&body) {
                    out.push_str(indent);
                    out.push_str("    ");
                    out.push_str(&entry);
                    out.push_str(";\n");
                }
                out.push_str(inner);
                break;
            }
            body.push(' ');
            body.push_str(inner.trim());
        }
    }
    out
}

/// The `;`-ended entries of a macro body, each with its whitespace collapsed and tightened
/// around `<`, `>`, `:` and `,` (string literals are kept as they are).
fn entries(body: &str) -> Vec<String> {
    let mut entries = Vec::new();
    let mut current = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                current.push(c);
                while let Some(c) = chars.next() {
                    current.push(c);
                    match c {
                        '\\' => current.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            ';' => entries.push(tighten(&std::mem::take(&mut current))),
            c if c.is_whitespace() => {
                if !current.is_empty() && !current.ends_with(' ') {
                    current.push(' ');
                }
            }
            c => current.push(c),
        }
    }
    entries
}

/// One entry with no space inside `<…>`, before `>`, `,` or `:`, except in string literals.
fn tighten(entry: &str) -> String {
    let entry = entry.trim();
    let mut out = String::with_capacity(entry.len());
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = entry.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ' ' {
            let before = out.chars().last();
            let after = chars.get(i + 1).copied();
            // `::` keeps its leading space (`: ::serde_json::Number`).
            let path = after == Some(':') && chars.get(i + 2) == Some(&':');
            if before == Some('<') || matches!(after, Some('>' | ',' | '<')) {
                continue;
            }
            if after == Some(':') && !path {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_member_a_line_spaced_like_rust() {
        let source = "::x::object! {\n    A \"A\" keeps extra with_extra_member : ::x::Json; 0\n    \
                      audience \"a < b ;\" opt with_audience into : Vec < Role >; 1 m \"m\" req :\n    \
                      BTreeMap < String, Option < X > >;\n}\nfn f() {}\n";
        assert_eq!(
            table_calls(source),
            "::x::object! {\n    A \"A\" keeps extra with_extra_member: ::x::Json;\n    \
             0 audience \"a < b ;\" opt with_audience into: Vec<Role>;\n    \
             1 m \"m\" req: BTreeMap<String, Option<X>>;\n}\nfn f() {}\n"
        );
    }
}
