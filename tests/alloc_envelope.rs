//! Issue 6: the envelope decode allocates nothing for the id and the method.
//!
//! A counting global allocator counts the allocations made by the current thread while
//! `mcpwire::decode` runs (thread-local, so the test harness's other threads do not count).
//! The id and method of a decoded message must also point into the frame itself: borrowed, not
//! copied.

use std::borrow::Cow;

use mcpwire::{Decoded, Message, Profile, RawNotification, ResponseBody, decode};
use mcpwire_tests::counting_alloc::{CountingAllocator, counting};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn borrowed_from(frame: &[u8], text: &str) -> bool {
    let range = frame.as_ptr_range();
    let ptr = text.as_ptr();
    range.contains(&ptr) && (ptr as usize + text.len()) <= range.end as usize
}

fn profile() -> Profile {
    Profile::mcp("2025-11-25").expect("MCP 2025-11-25 profile")
}

/// Decodes a request frame with no allocation and returns its (id, method).
fn request_without_allocating(frame: &[u8]) -> (String, String) {
    let profile = profile();
    let (decoded, allocations, bytes) = counting(|| decode(frame, &profile));
    let Decoded::Single(Message::Request { id, method, .. }) = &decoded else {
        panic!(
            "{} should be a request, got {decoded:?}",
            String::from_utf8_lossy(frame)
        );
    };
    assert_eq!(
        (allocations, bytes),
        (0, 0),
        "decoding {} allocated",
        String::from_utf8_lossy(frame)
    );
    assert!(
        borrowed_from(frame, id.raw()),
        "the id is not borrowed from the frame"
    );
    assert!(matches!(method, Cow::Borrowed(_)), "the method was copied");
    assert!(
        borrowed_from(frame, method),
        "the method is not borrowed from the frame"
    );
    (id.raw().to_owned(), method.to_string())
}

#[test]
fn requests_decode_without_allocating() {
    let cases: [(&[u8], &str, &str); 6] = [
        (br#"{"jsonrpc":"2.0","id":"req-000001","method":"ping"}"#, r#""req-000001""#, "ping"),
        (
            br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi \"there\"\n","n":[1,2.5e3,{"x":null}]}}}"#,
            "42",
            "tools/call",
        ),
        (br#"{"method":"ping","id":18446744073709551616,"jsonrpc":"2.0"}"#, "18446744073709551616", "ping"),
        (br#" {"jsonrpc" : "2.0" , "id" : -0 , "method" : "tools/list" , "x" : [true,false] } "#, "-0", "tools/list"),
        (br#"{"jsonrpc":"2.0","id":"caf\u00e9 \"q\"","method":"resources/read","params":{}}"#, r#""caf\u00e9 \"q\"""#, "resources/read"),
        (br#"{"jsonrpc":"2.0","params":{"a":{"b":{"c":[[[[]]]]}}},"id":7,"method":"x/y"}"#, "7", "x/y"),
    ];
    for (frame, id, method) in cases {
        assert_eq!(
            request_without_allocating(frame),
            (id.to_owned(), method.to_owned())
        );
    }
}

#[test]
fn notifications_responses_and_invalid_messages_decode_without_allocating() {
    let profile = profile();
    // A notification: the method is borrowed.
    let frame = br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}"#;
    let (decoded, allocations, _) = counting(|| decode(frame, &profile));
    assert_eq!(allocations, 0);
    let Decoded::Single(Message::Notification(RawNotification {
        method: Cow::Borrowed(method),
        ..
    })) = decoded
    else {
        panic!("a notification with a borrowed method, got {decoded:?}");
    };
    assert!(borrowed_from(frame, method));

    // A success response: the id and the raw result are borrowed.
    let frame = br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}"#;
    let (decoded, allocations, _) = counting(|| decode(frame, &profile));
    assert_eq!(allocations, 0);
    let Decoded::Single(Message::Response(response)) = decoded else {
        panic!("a response, got {decoded:?}")
    };
    let (Some(id), ResponseBody::Result(result)) = (response.id, response.body) else {
        panic!("a success with an id")
    };
    assert_eq!(id.raw(), "2");
    assert!(borrowed_from(frame, id.raw()) && borrowed_from(frame, result));

    // Wrong version with a readable id: invalid, answered with the borrowed id.
    let frame = br#"{"jsonrpc":"1.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#;
    let (decoded, allocations, _) = counting(|| decode(frame, &profile));
    assert_eq!(allocations, 0);
    let Decoded::Single(Message::Invalid { id: Some(id), .. }) = decoded else {
        panic!("invalid with an id, got {decoded:?}")
    };
    assert_eq!(id.raw(), "7");
    assert!(borrowed_from(frame, id.raw()));

    // An id of a forbidden type: invalid, no id, still nothing allocated.
    let frame = br#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#;
    let (decoded, allocations, _) = counting(|| decode(frame, &profile));
    assert_eq!(allocations, 0);
    assert!(
        matches!(decoded, Decoded::Single(Message::Invalid { id: None, .. })),
        "{decoded:?}"
    );
}

#[test]
fn an_escaped_method_costs_exactly_its_own_copy() {
    // `tools\/call` must be unescaped to compare it: that one string is the only allocation.
    let profile = profile();
    let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools\/call"}"#;
    let (decoded, allocations, bytes) = counting(|| decode(frame, &profile));
    let Decoded::Single(Message::Request {
        id,
        method: Cow::Owned(method),
        ..
    }) = decoded
    else {
        panic!("a request with an unescaped method, got {decoded:?}")
    };
    assert_eq!((id.raw(), method.as_str()), ("1", "tools/call"));
    assert_eq!(allocations, 1, "only the unescaped method is allocated");
    assert!(
        bytes <= frame.len() as u64,
        "{bytes} bytes for a {}-byte method",
        method.len()
    );
}

#[test]
fn deep_params_cost_one_bit_per_level_and_keep_the_id() {
    // 100,000 levels: the scanner's nesting stack spills past 64 levels, one bit per level
    // (12.5 KB here, with growth), and neither the id nor the method is copied.
    let depth = 100_000;
    let frame = format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"deep":{}{}}},"id":9}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let frame = frame.as_bytes();
    let profile = profile();
    let (decoded, allocations, bytes) = counting(|| decode(frame, &profile));
    let Decoded::Single(Message::Request { id, method, .. }) = &decoded else {
        panic!("a request, got {decoded:?}")
    };
    assert_eq!((id.raw(), &**method), ("9", "tools/call"));
    assert!(borrowed_from(frame, id.raw()) && matches!(method, Cow::Borrowed(_)));
    let bit_stack_bytes = (depth / 8) as u64;
    assert!(
        bytes <= 4 * bit_stack_bytes,
        "{bytes} bytes allocated for {depth} levels ({allocations} allocations)"
    );
}
