//! `mcpwire serve` driven over a pipe: the bytes a client would see.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `mcpwire serve` with `args`, writes `input` to its stdin, closes it, and returns
/// (exit success, stdout lines).
fn serve(args: &[&str], input: &[u8]) -> (bool, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire serve");
    // A process that refuses its arguments exits without reading: a broken pipe is fine.
    let written = child.stdin.take().expect("stdin").write_all(input);
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    let output = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    (
        output.status.success(),
        stdout.lines().map(str::to_owned).collect(),
    )
}

#[test]
fn jsonrpc_spec_session_over_a_pipe() {
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":[42,23],\"id\":1}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":{\"subtrahend\":23,\"minuend\":42},\"id\":3}\r\n",
        "\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"update\",\"params\":[1,2,3,4,5]}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"foobar\",\"id\":\"1\"}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"foobar,\"params\":\"bar\",\"baz]\n",
        "[]\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"sum\",\"params\":[1,2,4],\"id\":9007199254740993}\n",
        "{\"jsonrpc\":\"2.0\",\"result\":19,\"id\":1}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"get_data\",\"id\":1e3}\n",
    );
    let (ok, lines) = serve(&["--profile", "jsonrpc-2.0"], input.as_bytes());
    assert!(ok, "serve exits 0 at end of input");
    assert_eq!(
        lines,
        [
            r#"{"jsonrpc":"2.0","id":1,"result":19}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":19}"#,
            r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"result":7}"#,
            r#"{"jsonrpc":"2.0","id":1e3,"result":["hello",5]}"#,
        ]
    );
}

#[test]
fn unknown_profile_is_a_usage_error_naming_the_known_ones() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["serve", "--profile", "mcp-1999-01-01"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown profile `mcp-1999-01-01`") && stderr.contains("mcp-2025-11-25"),
        "stderr: {stderr}"
    );
}

/// A `_meta` block for stateless (2026-07-28) requests stating `version`.
fn meta(version: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}"#
    )
}

#[test]
fn initialize_negotiates_an_older_version_and_the_wire_rules_follow_it() {
    let input = [
        // Before negotiation the server speaks 2026-07-28: an unrecoverable id is omitted.
        r#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        // 2025-06-18 requires an id in error responses: now it is `null`.
        r#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":5}}}"#.to_owned(),
        // A response-shaped message is never answered.
        r#"{"jsonrpc":"2.0","id":99,"result":{}}"#.to_owned(),
    ]
    .join("\n");
    let (ok, lines) = serve(&[], input.as_bytes());
    assert!(ok);
    assert_eq!(
        lines,
        [
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"logging":{},"tools":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"mcpwire-reference","version":"0.1.0"}}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
            r#"{"jsonrpc":"2.0","id":"p","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"héllo","type":"text"}]}}"#,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/name","reason":"no tool named `nope`"}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/arguments/text","reason":"invalid type: integer `5`, expected a string"}}}"#,
        ]
    );
}

#[test]
fn initialize_for_an_unknown_version_answers_the_newest_version_with_a_handshake() {
    let input = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (_, lines) = serve(&["--profile", "mcp-2024-11-05"], input.as_bytes());
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].contains(r#""protocolVersion":"2025-11-25""#),
        "{}",
        lines[0]
    );
}

#[test]
fn stateless_2026_07_28_discover_and_tools_with_the_version_in_meta() {
    let input = [
        format!(r#"{{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{{{}}}}}"#, meta("2026-07-28")),
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{{},"name":"echo","arguments":{{"text":"x"}}}}}}"#, meta("2026-07-28")),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{}}}}}"#, meta("1999-01-01")),
        // 2026-07-28 has neither `ping` nor `initialize`'s session model for itself.
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#.to_owned(),
        // Its typed params require `_meta`.
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}"#.to_owned(),
    ]
    .join("\n");
    let (ok, lines) = serve(&["--profile", "mcp-2026-07-28"], input.as_bytes());
    assert!(ok);
    assert_eq!(
        lines,
        [
            r#"{"jsonrpc":"2.0","id":"d","result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcpwire-reference","version":"0.1.0"}},"cacheScope":"public","capabilities":{"logging":{},"tools":{"listChanged":true}},"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"ttlMs":0}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"x","type":"text"}],"resultType":"complete"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"1999-01-01","supported":["2026-07-28"]}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/_meta","reason":"missing field `_meta`"}}}"#,
        ]
    );
}

#[test]
fn batches_are_served_only_where_the_profile_has_them() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#;
    let (_, with) = serve(&["--profile", "mcp-2025-03-26"], batch.as_bytes());
    assert_eq!(
        with,
        [
            r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}]"#
        ]
    );
    let (_, without) = serve(&["--profile", "mcp-2025-06-18"], batch.as_bytes());
    assert_eq!(
        without,
        [r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#]
    );
}

/// Found by `mcpwire check --seed 5 --cases 1000`: a method the version in force lacks is
/// -32601 whatever its params hold, even params past the depth limit.
#[test]
fn a_method_the_version_lacks_is_not_found_before_its_params_are_read() {
    // Past the default params depth limit (256).
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let input = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"ping","params":{{"x":{deep}}}}}"#);
    let (_, lines) = serve(&["--profile", "mcp-2026-07-28"], input.as_bytes());
    assert_eq!(
        lines,
        [r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}"#]
    );
    // Where the version has `ping`, the same params are refused by the depth limit.
    let (_, lines) = serve(&["--profile", "mcp-2025-11-25"], input.as_bytes());
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602"#),
        "{}",
        lines[0]
    );
}

/// JSON Schema's `integer` is any whole number, so a client that keeps numbers as floats
/// (`6e4`, `60000.0`) is served; a fraction is -32602 naming the member.
#[test]
fn integer_params_written_as_floats_are_whole_numbers() {
    let call = |id: u32, ttl: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"x"}},"task":{{"ttl":{ttl}}}}}}}"#
        )
    };
    let input = [call(1, "6e4"), call(2, "60000.0"), call(3, "0.5")].join("\n");
    let (ok, lines) = serve(&["--profile", "mcp-2025-11-25"], input.as_bytes());
    assert!(ok);
    assert_eq!(
        lines,
        [
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"x","type":"text"}]}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"x","type":"text"}]}}"#,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"pointer":"/task/ttl","reason":"invalid type: floating point `0.5`, expected an integer"}}}"#,
        ]
    );
}

/// How a test connects `mcpwire serve`'s stdin and stdout.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy, Debug)]
enum Connection {
    /// A pipe each, as most clients spawn a server.
    Pipes,
    /// A UNIX socket pair each, as Node's `child_process` (libuv) does.
    SocketPairs,
    /// One socket for both, as `socat` or `inetd` does.
    OneSocket,
}

/// Over pipes or stream sockets (Linux), an MCP server reads and writes them on its runtime's
/// one thread: they are polled by the reactor, not handed to blocking-pool threads, so no
/// request waits for a thread handoff. A reply larger than a pipe's or a socket's buffer is
/// written in parts as the client reads it, and arrives whole. Stdin and stdout stay blocking
/// for every other process that shares them.
#[cfg(target_os = "linux")]
fn an_mcp_server_serves_on_its_one_thread(connection: Connection) {
    use std::io::{BufRead, BufReader, Read};
    use std::net::Shutdown;
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;

    let pair = || UnixStream::pair().expect("a socket pair");
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcpwire"));
    command
        .args(["serve", "--profile", "mcp-2025-11-25"])
        .stderr(Stdio::null());
    /// Our ends, where not the child's pipes: what we write, what we read, and the socket to
    /// shut for end of input.
    type Ends = (
        Option<Box<dyn Write>>,
        Option<Box<dyn Read>>,
        Option<UnixStream>,
    );
    let (input, output, shut): Ends = match connection {
        Connection::Pipes => {
            command.stdin(Stdio::piped()).stdout(Stdio::piped());
            (None, None, None)
        }
        Connection::SocketPairs => {
            let ((input, stdin), (output, stdout)) = (pair(), pair());
            command
                .stdin(OwnedFd::from(stdin))
                .stdout(OwnedFd::from(stdout));
            let shut = input.try_clone().expect("clone");
            (Some(Box::new(input)), Some(Box::new(output)), Some(shut))
        }
        Connection::OneSocket => {
            let (ours, theirs) = pair();
            let stdin = theirs.try_clone().expect("clone");
            command
                .stdin(OwnedFd::from(stdin))
                .stdout(OwnedFd::from(theirs));
            let input = ours.try_clone().expect("clone");
            let shut = ours.try_clone().expect("clone");
            (Some(Box::new(input)), Some(Box::new(ours)), Some(shut))
        }
    };
    let mut child = command.spawn().expect("spawn mcpwire serve");
    // The server's ends, held by `command` until now: only the server holds them after this.
    drop(command);
    let mut stdin: Box<dyn Write> = match input {
        Some(input) => input,
        None => Box::new(child.stdin.take().expect("stdin")),
    };
    let mut stdout = BufReader::new(match output {
        Some(output) => output,
        None => Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read>,
    });
    // An id of 300 KB: its reply is larger than a pipe's 64 KiB buffer and a UNIX socket's
    // default 208 KiB.
    let id = "i".repeat(300_000);
    let input = format!(
        concat!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#,
            "\n",
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
            "\n",
            r#"{{"jsonrpc":"2.0","id":"{id}","method":"ping"}}"#,
            "\n"
        ),
        id = id
    );
    stdin.write_all(input.as_bytes()).expect("write stdin");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("initialize reply");
    assert!(
        line.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"#),
        "{connection:?}: {line}"
    );
    line.clear();
    stdout.read_line(&mut line).expect("ping reply");
    assert_eq!(
        line,
        format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"result\":{{}}}}\n"),
        "{connection:?}"
    );
    // The server now waits for input, stdin still open: on the runtime's thread alone.
    let threads = std::fs::read_dir(format!("/proc/{}/task", child.id()))
        .expect("the server's threads")
        .count();
    assert_eq!(threads, 1, "{connection:?}: the server waits on one thread");
    // `O_NONBLOCK` (octal 04000) is not set on what fd 0 and fd 1 share with others.
    for fd in [0, 1] {
        let info = std::fs::read_to_string(format!("/proc/{}/fdinfo/{fd}", child.id()))
            .expect("the server's fd info");
        let flags = info
            .lines()
            .find_map(|line| line.strip_prefix("flags:"))
            .map(|flags| u32::from_str_radix(flags.trim(), 8).expect("octal flags"))
            .expect("a flags line");
        assert_eq!(flags & 0o4000, 0, "{connection:?}: fd {fd} left blocking");
    }
    match shut {
        Some(socket) => socket.shutdown(Shutdown::Write).expect("end of input"),
        None => drop(stdin),
    }
    assert!(
        child.wait().expect("wait").success(),
        "{connection:?}: exits 0 at end of input"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn an_mcp_server_on_pipes_serves_on_its_one_thread() {
    an_mcp_server_serves_on_its_one_thread(Connection::Pipes);
}

/// Node's `child_process` connects a child's stdio by UNIX socket pairs.
#[cfg(target_os = "linux")]
#[test]
fn an_mcp_server_on_socket_pairs_serves_on_its_one_thread() {
    an_mcp_server_serves_on_its_one_thread(Connection::SocketPairs);
}

/// One socket as both stdin and stdout: registered twice with the reactor, once per side.
#[cfg(target_os = "linux")]
#[test]
fn an_mcp_server_on_one_socket_serves_on_its_one_thread() {
    an_mcp_server_serves_on_its_one_thread(Connection::OneSocket);
}
