//! Rule 1 (framing) and the serving loop: whole byte streams through `Server::serve` over
//! in-memory readers and writers, asserting the exact output bytes.

use std::io::{self, BufReader, Read, Write};

use mcpwire::Profile;
use mcpwire_tests::golden::{TestState, error_line, request, server, server_for};

fn run(server: &mut mcpwire::Server<TestState>, input: &[u8]) -> String {
    let mut output = Vec::new();
    server
        .serve(input, &mut output)
        .expect("in-memory serving cannot fail");
    String::from_utf8(output).expect("output is UTF-8")
}

fn run_under(profile: &str, input: &[u8]) -> String {
    run(&mut server_for(profile), input)
}

#[test]
fn rule_01_one_reply_line_per_frame_with_lf_or_crlf() {
    let input = format!(
        "{}\n{}\r\n{}",
        request("1", "sum", Some("[1]")),
        request("2", "sum", Some("[2]")),
        request("3", "sum", Some("[3]"))
    );
    assert_eq!(
        run_under("jsonrpc-2.0", input.as_bytes()),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":2}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":3}\n"
    );
}

#[test]
fn rule_01_blank_lines_and_a_leading_bom_are_skipped() {
    let input = format!(
        "\u{feff}\n\r\n   \n\t\r\n{}\n\n",
        request("1", "sum", Some("[5]"))
    );
    assert_eq!(
        run_under("jsonrpc-2.0", input.as_bytes()),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":5}\n"
    );
    let input = format!("\u{feff}{}\n", request("2", "sum", Some("[5]")));
    assert_eq!(
        run_under("jsonrpc-2.0", input.as_bytes()),
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":5}\n"
    );
}

#[test]
fn rule_01_the_loop_survives_garbage_and_ends_at_eof() {
    let mut input = Vec::new();
    input.extend_from_slice(b"garbage\n");
    input.extend_from_slice(b"\xff\xfe\xfd\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"panic\"}\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"log\"}\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":0}\n");
    input.extend_from_slice(b"[]\n");
    input.extend_from_slice(
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":{\"n\":2}}",
    );
    let parse = error_line(None, -32700, "Parse error", false);
    let want = format!(
        "{parse}\n{parse}\n{}\n{}\n{{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{{\"n\":2}}}}\n",
        error_line(Some("1"), -32603, "Internal error", true),
        error_line(None, -32600, "Invalid Request", false),
    );
    assert_eq!(run_under("mcp-2025-11-25", &input), want);
}

#[test]
fn rule_01_batch_replies_are_one_line() {
    let input = format!(
        "[{},{}]\n",
        request("1", "sum", Some("[1]")),
        request("2", "sum", Some("[2]"))
    );
    assert_eq!(
        run_under("jsonrpc-2.0", input.as_bytes()),
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1},{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":2}]\n"
    );
}

#[test]
fn rule_01_over_long_lines_are_discarded_and_answered_without_id() {
    let mut small = server(Profile::mcp("2025-11-25").unwrap().with_max_frame_bytes(64));
    let long = request(
        "1",
        "echo",
        Some(&format!(r#"{{"pad":"{}"}}"#, "x".repeat(100))),
    );
    let fits = request("2", "echo", Some(r#"{"n":2}"#));
    let input = format!("{long}\n{fits}\n{long}\r\n");
    let too_long = error_line(None, -32600, "Invalid Request", false);
    assert_eq!(
        run(&mut small, input.as_bytes()),
        format!(
            "{too_long}\n{{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{{\"n\":2}}}}\n{too_long}\n"
        )
    );
    assert_eq!(small.state().requests(), 1);
}

#[test]
fn rule_01_default_limit_is_64_mib() {
    let tail = format!("{}\n", request("7", "sum", Some("[7]"))).into_bytes();
    // 64 MiB + 1 bytes generated on the fly, never held in memory by the test.
    let input = io::repeat(b'x')
        .take(64 * 1024 * 1024 + 1)
        .chain(&b"\n"[..])
        .chain(&tail[..]);
    let mut server = server_for("jsonrpc-2.0");
    assert_eq!(server.profile().limits().max_frame_bytes, 64 * 1024 * 1024);
    let mut output = Vec::new();
    server
        .serve(BufReader::with_capacity(1 << 16, input), &mut output)
        .unwrap();
    assert_eq!(
        String::from_utf8(output).unwrap(),
        format!(
            "{}\n{{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":7}}\n",
            error_line(None, -32600, "Invalid Request", true)
        )
    );
}

/// A writer recording what was written before each flush.
#[derive(Default)]
struct FlushLog {
    pending: Vec<u8>,
    flushed: Vec<String>,
}

impl Write for FlushLog {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushed
            .push(String::from_utf8(std::mem::take(&mut self.pending)).unwrap());
        Ok(())
    }
}

#[test]
fn rule_01_each_reply_is_flushed_as_one_line() {
    let input = format!(
        "{}\n{{\n{}\n",
        request("1", "sum", Some("[1]")),
        request("2", "nope", None)
    );
    let mut log = FlushLog::default();
    server_for("jsonrpc-2.0")
        .serve(input.as_bytes(), &mut log)
        .unwrap();
    assert!(log.pending.is_empty());
    assert_eq!(
        log.flushed,
        [
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n".to_owned(),
            format!("{}\n", error_line(None, -32700, "Parse error", true)),
            format!(
                "{}\n",
                error_line(Some("2"), -32601, "Method not found", true)
            ),
        ]
    );
}

/// A writer that fails: serving stops with the error.
struct Broken;

impl Write for Broken {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn output_errors_end_the_loop_with_the_error() {
    let input = format!("{}\n", request("1", "sum", Some("[1]")));
    let error = server_for("jsonrpc-2.0")
        .serve(input.as_bytes(), Broken)
        .unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    // Nothing to write (a notification) means no error.
    server_for("jsonrpc-2.0")
        .serve(&b"{\"jsonrpc\":\"2.0\",\"method\":\"log\"}\n"[..], Broken)
        .unwrap();
}
