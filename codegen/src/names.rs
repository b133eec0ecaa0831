//! Turning JSON names into Rust identifiers.

/// Splits `text` into alphanumeric words, also at lower→upper case changes.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous = None;
            continue;
        }
        if let Some(p) = previous {
            let boundary = (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (p.is_ascii_digit() != c.is_ascii_digit());
            if boundary && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
        previous = Some(c);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `UpperCamelCase` for a type or variant name. Digit groups next to each other are joined
/// with `_` so the result stays readable and lint-clean (`2.0` → `V2_0`); a name that would
/// start with a digit gets a `V` in front.
pub fn pascal(text: &str) -> String {
    let mut out = pascal_fragment(text);
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    if out == "Self" {
        // Not even a raw identifier.
        out.push_str("Value");
    }
    out
}

/// Like [`pascal`] but for the tail of a name: no `V` in front of a leading digit.
pub fn pascal_fragment(text: &str) -> String {
    let mut out = String::new();
    for word in words(text) {
        let starts_digit = word.starts_with(|c: char| c.is_ascii_digit());
        if starts_digit && out.ends_with(|c: char| c.is_ascii_digit()) {
            out.push('_');
        }
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
}

/// Whether `name` can be a Rust type or variant name as it is: ASCII letters, digits and `_`,
/// not starting with a digit, not a keyword.
pub fn is_type_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !is_keyword(name)
}

/// `name` itself when [`is_type_name`] holds, else its [`pascal`] form (`my-type` → `MyType`).
pub fn type_name(name: &str) -> String {
    if is_type_name(name) {
        name.to_owned()
    } else {
        pascal(name)
    }
}

/// `snake_case` for a field name; a Rust keyword gets the `r#` prefix at emission time.
pub fn snake(text: &str) -> String {
    let out = words(text)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("field_{out}")
    } else if matches!(out.as_str(), "self" | "super" | "crate") {
        // Not even raw identifiers.
        format!("{out}_")
    } else {
        out
    }
}

/// Whether `name` is a Rust keyword that needs the raw `r#` form as an identifier.
pub fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

/// Keeps `name` unique against `taken` by appending a counter; records the result.
pub fn unique(name: String, taken: &mut std::collections::BTreeSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let mut n = 2;
    loop {
        let candidate = format!("{name}{n}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_and_snake() {
        assert_eq!(pascal("tools/list"), "ToolsList");
        assert_eq!(pascal("2.0"), "V2_0");
        assert_eq!(pascal("date-time"), "DateTime");
        assert_eq!(pascal("input_required"), "InputRequired");
        assert_eq!(snake("_meta"), "meta");
        assert_eq!(snake("resultType"), "result_type");
        assert_eq!(
            snake("io.modelcontextprotocol/clientInfo"),
            "io_modelcontextprotocol_client_info"
        );
    }
}
