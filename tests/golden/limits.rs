//! Golden tests for the limits of docs/wire-rules.md (rule 9, batch length and reply budget)
//! and for unpaired surrogate ids (rule 4): exact reply bytes.

use mcpwire::Profile;
use mcpwire_tests::golden::{error_line, reply, reply_under, request, server, server_for};

const INVALID_NULL: &str =
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
const INVALID_OMIT: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#;

/// The -32003 element of a request whose reply did not fit the budget.
fn too_large(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32003,"message":"Batch reply too large"}}}}"#
    )
}

fn batch_of(elements: &[String]) -> String {
    format!("[{}]", elements.join(","))
}

#[test]
fn batches_are_limited_to_1000_elements_by_default() {
    for name in ["jsonrpc-2.0", "mcp-2025-03-26"] {
        let mut server = server_for(name);
        let call = request("1", "count", Some(r#"{"count":1}"#));
        let at_limit = batch_of(&vec![call.clone(); 1000]);
        let got = reply(&mut server, &at_limit).unwrap();
        let expected = batch_of(&vec![
            r#"{"jsonrpc":"2.0","id":1,"result":1}"#.to_owned();
            1000
        ]);
        assert!(got == expected, "{name}: {}", &got[..200]);
        assert_eq!(server.state().requests(), 1000);
        // One more: one -32600 without an id for the whole frame, and nothing runs.
        let over = batch_of(&vec![call; 1001]);
        assert_eq!(reply(&mut server, &over).unwrap(), INVALID_NULL, "{name}");
        assert_eq!(server.state().requests(), 1000, "{name}");
    }
    // The 20 MB `[1,1,...]` of issue 16: one short reply.
    let ones = format!("[{}1]", "1,".repeat(10_000_000));
    assert_eq!(reply_under("mcp-2025-03-26", &ones).unwrap(), INVALID_NULL);
    // `None` lifts the limit.
    let mut unlimited = server(Profile::jsonrpc_2_0().with_max_batch_len(None));
    let got = reply(&mut unlimited, &batch_of(&vec!["1".to_owned(); 1001])).unwrap();
    assert!(
        got == batch_of(&vec![INVALID_NULL.to_owned(); 1001]),
        "{}",
        &got[..200]
    );
}

#[test]
fn a_batch_reply_past_its_budget_answers_the_rest_with_32003() {
    // Each `sum` reply is 35 bytes; the array holds `[`, replies, commas and `]`.
    let first = r#"{"jsonrpc":"2.0","id":1,"result":1}"#;
    let second = r#"{"jsonrpc":"2.0","id":2,"result":2}"#;
    let frame = batch_of(&[
        request("1", "sum", Some("[1]")),
        request("2", "sum", Some("[2]")),
        request("3", "sum", Some("[3]")),
        r#"{"jsonrpc":"2.0","method":"log","params":["still runs"]}"#.to_owned(),
        "7".to_owned(),
        request("\"four\"", "sum", Some("[4]")),
    ]);
    // Exactly two replies fit: `[` + 35 + `,` + 35 + `]` = 73 bytes.
    assert_eq!(first.len() + second.len() + 3, 73);
    let mut fits = server(Profile::jsonrpc_2_0().with_max_batch_reply_bytes(73));
    let got = reply(&mut fits, &frame).unwrap();
    assert_eq!(
        got,
        batch_of(&[
            first.to_owned(),
            second.to_owned(),
            too_large("3"),
            INVALID_NULL.to_owned(),
            too_large("\"four\""),
        ])
    );
    // Requests 3 and "four" did not run; the notification did.
    assert_eq!(fits.state().requests(), 3);
    assert_eq!(
        fits.state().notifications(),
        [("log".to_owned(), r#"["still runs"]"#.to_owned())]
    );
    // One byte less and the second reply no longer fits (it ran, its reply is replaced).
    let mut tight = server(Profile::jsonrpc_2_0().with_max_batch_reply_bytes(72));
    let got = reply(&mut tight, &frame).unwrap();
    assert!(
        got.starts_with(&format!("[{first},{}", too_large("2"))),
        "{got}"
    );
    assert_eq!(tight.state().requests(), 2);
}

#[test]
fn the_default_reply_budget_is_16_mib() {
    assert_eq!(
        Profile::jsonrpc_2_0().limits().max_batch_reply_bytes,
        16 << 20
    );
    // Two 6 MiB results fit; the third would pass 16 MiB.
    let text = format!("{{\"t\":\"{}\"}}", "x".repeat(6 << 20));
    let frame = batch_of(&[
        request("1", "echo", Some(&text)),
        request("2", "echo", Some(&text)),
        request("3", "echo", Some(&text)),
    ]);
    let got = reply_under("mcp-2025-03-26", &frame).unwrap();
    assert!(got.len() < 13 << 20, "{}", got.len());
    assert!(
        got.ends_with(&format!(",{}]", too_large("3"))),
        "{}",
        &got[got.len() - 200..]
    );
    // A single reply is not limited.
    let big = format!("[\"{}\"]", "x".repeat(17 << 20));
    let got = reply_under("jsonrpc-2.0", &request("1", "echo", Some(&big))).unwrap();
    assert_eq!(
        got.len(),
        big.len() + r#"{"jsonrpc":"2.0","id":1,"result":}"#.len()
    );
}

#[test]
fn unpaired_surrogate_ids_are_unrecoverable_in_every_profile() {
    for id in [
        r#""\ud800""#,
        r#""\uDC00""#,
        r#""a\ud800\u0041""#,
        r#""\ude00\ud83d""#,
    ] {
        let frame = request(id, "echo", None);
        for profile in Profile::all() {
            let missing_null = profile.facts().error_response_requires_id;
            let expected = if missing_null {
                INVALID_NULL
            } else {
                INVALID_OMIT
            };
            let mut server = server(profile.clone());
            assert_eq!(
                reply(&mut server, &frame).unwrap(),
                expected,
                "{id} {}",
                profile.name()
            );
            // With details, the reason says why.
            server.set_profile(profile.clone().with_error_details(true));
            assert_eq!(
                reply(&mut server, &frame).unwrap(),
                error_line(None, -32600, "Invalid Request", missing_null).replace(
                    r#""Invalid Request"}"#,
                    r#""Invalid Request","data":{"reason":"string id holds an unpaired UTF-16 surrogate escape"}}"#
                ),
                "{id} {}",
                profile.name()
            );
        }
    }
    // A surrogate pair, an escaped backslash before `ud800`, and U+FFFD itself are ordinary
    // strings, echoed byte for byte.
    for id in [
        r#""\ud83d\ude00""#,
        r#""\\ud800""#,
        r#""\uFFFD""#,
        r#""\uD83D\uDE00x""#,
    ] {
        for profile in Profile::all() {
            let got = reply_under(profile.name(), &request(id, "echo", None)).unwrap();
            assert_eq!(
                got,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":null}}"#),
                "{}",
                profile.name()
            );
        }
    }
    // A response with such an id is still never answered.
    let response = r#"{"jsonrpc":"2.0","id":"\ud800","result":1}"#;
    assert_eq!(reply_under("jsonrpc-2.0", response), None);
}
