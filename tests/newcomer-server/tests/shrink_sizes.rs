//! Issue 35's shrinking measurement (ignored by default): the shrunk input size for the three
//! planted defects over seeds 1..=7, each defect injected into the crate's reference server so
//! nothing else fails. Run with
//! `cargo test -p mcpwire-newcomer-server --test shrink_sizes -- --ignored --nocapture`.

use mcpwire_proptest::facts::MCP_2025_11_25 as PROFILE;
use mcpwire_proptest::faulty::{ids_through_f64, null_instead_of_readable_id, reference_reply};
use mcpwire_proptest::{ServerCheck, Vocabulary, check_server};

/// A server: the lines it writes for one input line.
type ReplyFn = fn(&[u8]) -> Vec<Vec<u8>>;

/// The reference server, dropping every -32700 reply.
fn dropped_parse_error(frame: &[u8]) -> Vec<Vec<u8>> {
    let replies = reference_reply(&PROFILE, frame);
    let parse_error = |r: &Vec<u8>| r.windows(14).any(|w| w == b"\"code\":-32700,");
    if replies.iter().any(parse_error) {
        Vec::new()
    } else {
        replies
    }
}

#[test]
#[ignore]
fn shrunk_sizes_of_the_three_defects() {
    let dir = std::env::temp_dir().join(format!("mcpwire-shrink-sizes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let servers: [(&str, ReplyFn); 3] = [
        ("ids through f64", |f| ids_through_f64(&PROFILE, f)),
        ("null id on invalid", |f| {
            null_instead_of_readable_id(&PROFILE, f)
        }),
        ("dropped parse error", dropped_parse_error),
    ];
    for (name, server) in servers {
        let mut sizes = Vec::new();
        for seed in 1..=7u64 {
            let source = dir.join(format!("{seed}-{}.rs", sizes.len() + name.len()));
            std::fs::write(&source, "").expect("scratch");
            let source = Box::leak(source.to_string_lossy().into_owned().into_boxed_str());
            let options = ServerCheck::default().seed(seed).regressions_beside(source);
            let failure = check_server(|| server, &PROFILE, Vocabulary::DEFAULT, &options)
                .expect_err("found");
            println!(
                "{name} seed {seed}: {} bytes {}",
                failure.frame.len(),
                String::from_utf8_lossy(&failure.frame)
            );
            sizes.push(failure.frame.len());
        }
        sizes.sort_unstable();
        println!(
            "MEDIAN {name}: {} bytes ({sizes:?})",
            sizes[sizes.len() / 2]
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
