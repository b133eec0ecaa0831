//! Short spellings of the standard prelude's names. The emitters write every std path in
//! full (`::core::option::Option`), which is right whatever the schema names its types; this
//! pass then spells each one by its prelude name (`Option`) wherever the module does not
//! define a type of that name, so the output reads like hand-written Rust.

use proc_macro2::{Group, TokenStream, TokenTree};

/// Full paths and the prelude names they shorten to, longest first (so `…::Option::Some`
/// is found before `…::Option`).
const PATHS: &[(&str, &str)] = &[
    ("::core::option::Option::Some", "Some"),
    ("::core::option::Option::None", "None"),
    ("::core::result::Result::Ok", "Ok"),
    ("::core::result::Result::Err", "Err"),
    ("::core::option::Option", "Option"),
    ("::core::result::Result", "Result"),
    ("::std::string::String", "String"),
    ("::std::vec::Vec", "Vec"),
    ("::std::boxed::Box", "Box"),
    ("::core::convert::Into", "Into"),
    ("::core::default::Default", "Default"),
];

/// The path segments of a full path (`["core", "option", "Option"]`).
fn segments(path: &str) -> Vec<&str> {
    path.trim_start_matches("::").split("::").collect()
}

/// `tokens` with every full std path listed in this module shortened, except those whose short name
/// is in `taken` (a type of the module), also inside string literals (serde's
/// `skip_serializing_if = "::core::option::Option::is_none"`).
pub fn shorten(tokens: TokenStream, taken: &dyn Fn(&str) -> bool) -> TokenStream {
    let usable: Vec<(Vec<&str>, &str, String)> = PATHS
        .iter()
        .filter(|(path, short)| {
            // `Some` goes with `Option`, `Ok` with `Result`: the enum's own name must be free.
            let owner = segments(path)[2];
            !taken(short) && !taken(owner)
        })
        .map(|(path, short)| (segments(path), *short, (*path).to_owned()))
        .collect();
    rewrite(tokens, &usable)
}

fn rewrite(tokens: TokenStream, usable: &[(Vec<&str>, &str, String)]) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    'next: while i < trees.len() {
        for (segments, short, _) in usable {
            if let Some(len) = matches_path(&trees[i..], segments) {
                // Not when the path continues past a type into an associated item we do not
                // list, e.g. `::core::option::Option::is_none` as a path expression.
                out.push(TokenTree::Ident(proc_macro2::Ident::new(
                    short,
                    proc_macro2::Span::call_site(),
                )));
                i += len;
                continue 'next;
            }
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), rewrite(g.stream(), usable));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Literal(lit) => {
                let text = lit.to_string();
                let mut rewritten = text.clone();
                if text.starts_with('"') {
                    for (_, short, full) in usable {
                        rewritten =
                            rewritten.replace(&format!("\"{full}::"), &format!("\"{short}::"));
                    }
                }
                if rewritten == text {
                    trees[i].clone()
                } else {
                    TokenTree::Literal(rewritten.parse().expect("a string literal"))
                }
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The number of tokens `:: a :: b :: c` takes at the start of `trees` when it spells
/// `segments` (and is not preceded by more path: the caller starts at a leading `::`).
fn matches_path(trees: &[TokenTree], segments: &[&str]) -> Option<usize> {
    let mut at = 0;
    for segment in segments {
        match (trees.get(at), trees.get(at + 1), trees.get(at + 2)) {
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(id)))
                if a.as_char() == ':' && b.as_char() == ':' && id == segment => {}
            _ => return None,
        }
        at += 3;
    }
    // `::core::option::Option::Some` must not match the `::core::option::Option` entry
    // only partly: a longer listed path is tried first, and any other continuation
    // (`::is_none`) keeps its prefix short too, which stays valid.
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn full_paths_become_prelude_names_unless_the_module_takes_them() {
        let tokens = quote! {
            #[serde(skip_serializing_if = "::core::option::Option::is_none")]
            x: ::core::option::Option<::std::vec::Vec<::core::result::Result<u8, ()>>>,
            y: ::core::option::Option::None,
        };
        let short = shorten(tokens.clone(), &|name| name == "Result").to_string();
        assert!(short.contains("\"Option::is_none\""), "{short}");
        assert!(
            short.contains("x : Option < Vec < :: core :: result :: Result"),
            "{short}"
        );
        assert!(short.contains("y : None"), "{short}");
        let kept = shorten(tokens, &|name| name == "Option").to_string();
        assert!(
            kept.contains(":: core :: option :: Option :: None"),
            "{kept}"
        );
        assert!(kept.contains("Vec < Result < u8"), "{kept}");
    }
}
