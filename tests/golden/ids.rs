//! Rule 4 (id recovery): ids are echoed as their original JSON text, never through an
//! f64/i64 round trip; forbidden, duplicated or policy-rejected ids are unrecoverable.

use mcpwire::{IdPolicy, Profile};
use mcpwire_tests::golden::{error_line, reply, reply_under, request, server};

const PROFILES: [&str; 3] = ["jsonrpc-2.0", "mcp-2025-06-18", "mcp-2025-11-25"];

#[test]
fn integer_ids_keep_their_text_in_every_profile() {
    for id in [
        "9007199254740993",                        // 2^53 + 1
        "18446744073709551616",                    // 2^64
        "-9223372036854775809",                    // i64::MIN - 1
        "123456789012345678901234567890123456789", // beyond 128 bits
        "1e3",
        "1E+3",
        "-0",
        "2.0",
        "1.5e1",
        "0",
    ] {
        for profile in PROFILES {
            let got = reply_under(profile, &request(id, "echo", Some("{}")));
            assert_eq!(
                got.unwrap(),
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#),
                "id {id} under {profile}"
            );
            let got = reply_under(profile, &request(id, "missing", None));
            assert_eq!(
                got.unwrap(),
                error_line(Some(id), -32601, "Method not found", true),
                "id {id} under {profile}"
            );
        }
    }
}

#[test]
fn fractional_ids_are_numbers_in_jsonrpc_and_unrecoverable_in_mcp() {
    for id in ["1.5", "-0.25", "1e-3", "0.01e1"] {
        let got = reply_under("jsonrpc-2.0", &request(id, "echo", Some("[]")));
        assert_eq!(
            got.unwrap(),
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":[]}}"#),
            "{id}"
        );
        let got = reply_under("mcp-2025-06-18", &request(id, "echo", Some("{}")));
        assert_eq!(
            got.unwrap(),
            error_line(None, -32600, "Invalid Request", true),
            "{id}"
        );
        let got = reply_under("mcp-2025-11-25", &request(id, "echo", Some("{}")));
        assert_eq!(
            got.unwrap(),
            error_line(None, -32600, "Invalid Request", false),
            "{id}"
        );
    }
}

#[test]
fn huge_exponents_are_decided_without_overflow() {
    let integer = "1e999999999999999999999999";
    let fraction = "1e-999999999999999999999999";
    let got = reply_under("mcp-2025-11-25", &request(integer, "echo", Some("{}")));
    assert_eq!(
        got.unwrap(),
        format!(r#"{{"jsonrpc":"2.0","id":{integer},"result":{{}}}}"#)
    );
    let got = reply_under("mcp-2025-11-25", &request(fraction, "echo", Some("{}")));
    assert_eq!(
        got.unwrap(),
        error_line(None, -32600, "Invalid Request", false)
    );
}

#[test]
fn string_ids_keep_escapes_and_unicode_byte_for_byte() {
    for id in [
        r#""""#,
        r#""abc""#,
        r#""\u0041\n\"\\\/""#,
        r#""ünïcødé 😀""#,
        r#""\ud83d\ude00""#,
        r#""<script>alert(1)</script>""#,
        r#""1""#,
    ] {
        for profile in PROFILES {
            let got = reply_under(profile, &request(id, "missing", None));
            assert_eq!(
                got.unwrap(),
                error_line(Some(id), -32601, "Method not found", true),
                "id {id} under {profile}"
            );
        }
    }
}

#[test]
fn huge_string_ids_are_echoed_whole() {
    let id = format!("\"{}\"", "x".repeat(4 * 1024 * 1024));
    let got = reply_under("mcp-2025-11-25", &request(&id, "echo", Some("{}"))).unwrap();
    assert_eq!(
        got,
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
    );
}

#[test]
fn whitespace_around_the_id_is_not_part_of_it() {
    let got = reply_under(
        "jsonrpc-2.0",
        "{ \"jsonrpc\" : \"2.0\" , \"id\" :\t 12 \r , \"method\" : \"nope\" }",
    );
    assert_eq!(
        got.unwrap(),
        error_line(Some("12"), -32601, "Method not found", true)
    );
}

#[test]
fn escaped_id_key_is_the_id() {
    let got = reply_under(
        "mcp-2025-11-25",
        r#"{"jsonrpc":"2.0","\u0069d":41,"method":"nope"}"#,
    );
    assert_eq!(
        got.unwrap(),
        error_line(Some("41"), -32601, "Method not found", true)
    );
    // Keys are case-sensitive: "ID" is an unknown member, so this is a notification.
    assert_eq!(
        reply_under(
            "mcp-2025-11-25",
            r#"{"jsonrpc":"2.0","ID":41,"method":"nope"}"#
        ),
        None
    );
}

#[test]
fn duplicated_id_is_unrecoverable() {
    for frame in [
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"echo"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"echo","\u0069d":1}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":1,"id":1,"method":"echo"}"#,
    ] {
        assert_eq!(
            reply_under("jsonrpc-2.0", frame).unwrap(),
            error_line(None, -32600, "Invalid Request", true),
            "{frame}"
        );
        assert_eq!(
            reply_under("mcp-2025-11-25", frame).unwrap(),
            error_line(None, -32600, "Invalid Request", false),
            "{frame}"
        );
    }
}

#[test]
fn id_policy_marks_more_ids_unrecoverable() {
    let policy = IdPolicy {
        max_len: Some(8),
        allowed_chars: Some(|c: char| c.is_ascii_alphanumeric()),
    };
    let profile = Profile::mcp("2025-11-25").unwrap().with_id_policy(policy);
    let mut server = server(profile);
    assert_eq!(
        reply(&mut server, &request(r#""abc123""#, "echo", Some("{}"))).unwrap(),
        r#"{"jsonrpc":"2.0","id":"abc123","result":{}}"#
    );
    for id in [r#""has space""#, r#""toolongforit""#, "123456789"] {
        assert_eq!(
            reply(&mut server, &request(id, "echo", Some("{}"))).unwrap(),
            error_line(None, -32600, "Invalid Request", false),
            "{id}"
        );
    }
}

#[test]
fn huge_string_params_do_not_disturb_the_id() {
    let text = "ä\\\"x".repeat(1 << 20);
    let frame = format!(
        r#"{{"jsonrpc":"2.0","method":"echo","params":{{"t":"{text}"}},"id":18446744073709551617}}"#
    );
    let got = reply_under("mcp-2025-11-25", &frame).unwrap();
    assert_eq!(
        got,
        format!(r#"{{"jsonrpc":"2.0","id":18446744073709551617,"result":{{"t":"{text}"}}}}"#)
    );
}
