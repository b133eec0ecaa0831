//! Per-profile golden replies. The expectations are written out per profile name from the
//! schemas (not computed from the runtime's facts), so they also check the generated facts:
//!
//! | profile        | id types              | no-id reply  | batches |
//! |----------------|-----------------------|--------------|---------|
//! | jsonrpc-2.0    | string, number, null  | `"id":null`  | yes     |
//! | mcp-2024-11-05 | string, integer       | `"id":null`  | no      |
//! | mcp-2025-03-26 | string, integer       | `"id":null`  | yes     |
//! | mcp-2025-06-18 | string, integer       | `"id":null`  | no      |
//! | mcp-2025-11-25 | string, integer       | omitted      | no      |
//! | mcp-2026-07-28 | string, integer       | omitted      | no      |

use mcpwire::Profile;
use mcpwire_tests::golden::{error_line, reply, reply_under, request, server_for};

struct Expect {
    name: &'static str,
    null_for_missing: bool,
    batches: bool,
    fraction_ids: bool,
    null_ids: bool,
    array_params: bool,
}

const EXPECTED: [Expect; 6] = [
    Expect {
        name: "jsonrpc-2.0",
        null_for_missing: true,
        batches: true,
        fraction_ids: true,
        null_ids: true,
        array_params: true,
    },
    Expect {
        name: "mcp-2024-11-05",
        null_for_missing: true,
        batches: false,
        fraction_ids: false,
        null_ids: false,
        array_params: false,
    },
    Expect {
        name: "mcp-2025-03-26",
        null_for_missing: true,
        batches: true,
        fraction_ids: false,
        null_ids: false,
        array_params: false,
    },
    Expect {
        name: "mcp-2025-06-18",
        null_for_missing: true,
        batches: false,
        fraction_ids: false,
        null_ids: false,
        array_params: false,
    },
    Expect {
        name: "mcp-2025-11-25",
        null_for_missing: false,
        batches: false,
        fraction_ids: false,
        null_ids: false,
        array_params: false,
    },
    Expect {
        name: "mcp-2026-07-28",
        null_for_missing: false,
        batches: false,
        fraction_ids: false,
        null_ids: false,
        array_params: false,
    },
];

#[test]
fn every_profile_is_covered_here() {
    let names: Vec<_> = EXPECTED.iter().map(|e| e.name).collect();
    assert_eq!(Profile::names(), names);
}

#[test]
fn each_profile_answers_per_its_schema() {
    for e in &EXPECTED {
        let invalid_no_id = error_line(None, -32600, "Invalid Request", e.null_for_missing);
        let ok = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);

        // The missing-id spelling.
        assert_eq!(
            reply_under(e.name, "{").unwrap(),
            error_line(None, -32700, "Parse error", e.null_for_missing),
            "{}",
            e.name
        );
        assert_eq!(
            reply_under(e.name, r#"{"jsonrpc":"2.0","id":true,"method":"echo"}"#).unwrap(),
            invalid_no_id,
            "{}",
            e.name
        );

        // Batches.
        let batch = format!("[{}]", request("1", "echo", Some("{}")));
        let want = if e.batches {
            format!("[{}]", ok("1"))
        } else {
            invalid_no_id.clone()
        };
        assert_eq!(reply_under(e.name, &batch).unwrap(), want, "{}", e.name);

        // Id types.
        let want = if e.fraction_ids {
            ok("1.5")
        } else {
            invalid_no_id.clone()
        };
        assert_eq!(
            reply_under(e.name, &request("1.5", "echo", Some("{}"))).unwrap(),
            want,
            "{}",
            e.name
        );
        let want = if e.null_ids {
            ok("null")
        } else {
            invalid_no_id.clone()
        };
        assert_eq!(
            reply_under(e.name, &request("null", "echo", Some("{}"))).unwrap(),
            want,
            "{}",
            e.name
        );
        assert_eq!(
            reply_under(e.name, &request("1e3", "echo", Some("{}"))).unwrap(),
            ok("1e3"),
            "{}",
            e.name
        );
        assert_eq!(
            reply_under(e.name, &request("\"s\"", "echo", Some("{}"))).unwrap(),
            ok("\"s\""),
            "{}",
            e.name
        );

        // Params types.
        let want = if e.array_params {
            r#"{"jsonrpc":"2.0","id":1,"result":[]}"#.to_owned()
        } else {
            error_line(Some("1"), -32600, "Invalid Request", true)
        };
        assert_eq!(
            reply_under(e.name, &request("1", "echo", Some("[]"))).unwrap(),
            want,
            "{}",
            e.name
        );
    }
}

#[test]
fn profile_constructors_agree() {
    assert_eq!(Profile::jsonrpc_2_0().name(), "jsonrpc-2.0");
    assert_eq!(Profile::mcp("2025-11-25").unwrap().name(), "mcp-2025-11-25");
    assert_eq!(
        Profile::by_name("mcp-2025-03-26")
            .unwrap()
            .protocol_version(),
        Some("2025-03-26")
    );
    assert_eq!(Profile::latest_mcp().name(), "mcp-2026-07-28");
    assert!(Profile::mcp("2099-01-01").is_none());
    assert!(Profile::by_name("mcp-latest").is_none());
}

#[test]
fn a_handler_can_switch_the_profile_for_later_frames() {
    let mut server = server_for("mcp-2025-06-18");
    // The switch takes effect after the frame that requested it.
    let got = reply(
        &mut server,
        &request("1", "switch", Some(r#"{"profile":"mcp-2025-11-25"}"#)),
    )
    .unwrap();
    assert_eq!(got, r#"{"jsonrpc":"2.0","id":1,"result":true}"#);
    assert_eq!(server.profile().name(), "mcp-2025-11-25");
    assert_eq!(
        reply(&mut server, "{").unwrap(),
        error_line(None, -32700, "Parse error", false)
    );
    // Inside a batch, the rest of the batch keeps the old profile.
    let mut server = server_for("jsonrpc-2.0");
    let batch = format!(
        "[{},{}]",
        request("1", "switch", Some(r#"{"profile":"mcp-2025-11-25"}"#)),
        request("2.5", "echo", Some("{}"))
    );
    assert_eq!(
        reply(&mut server, &batch).unwrap(),
        r#"[{"jsonrpc":"2.0","id":1,"result":true},{"jsonrpc":"2.0","id":2.5,"result":{}}]"#
    );
    assert_eq!(
        reply(&mut server, &request("2.5", "echo", Some("{}"))).unwrap(),
        error_line(None, -32600, "Invalid Request", false)
    );
}
