//! A reader for `text/event-stream` bodies (Server-Sent Events).

/// The `data` of each event in an SSE body, as the bytes of one message each (multi-line data
/// joined with `\n`). Events without data (comments, retry hints, priming events) are skipped.
///
/// ```
/// use mcpwire_cli::check::sse::parse_events;
/// let body = b": hello\n\nid: 1\nevent: message\ndata: {\"a\":1}\n\ndata: [1,\ndata: 2]\r\n\r\n";
/// assert_eq!(parse_events(body), vec![b"{\"a\":1}".to_vec(), b"[1,\n2]".to_vec()]);
/// ```
pub fn parse_events(body: &[u8]) -> Vec<Vec<u8>> {
    let mut events = Vec::new();
    let mut data: Option<Vec<u8>> = None;
    let mut flush = |data: &mut Option<Vec<u8>>| {
        if let Some(event) = data.take()
            && !event.trim_ascii().is_empty()
        {
            events.push(event);
        }
    };
    for line in body.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            flush(&mut data);
            continue;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(at) => {
                let value = &line[at + 1..];
                (&line[..at], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        if field == b"data" {
            let event = data.get_or_insert_with(Vec::new);
            if !event.is_empty() {
                event.push(b'\n');
            }
            event.extend_from_slice(value);
        }
    }
    flush(&mut data);
    events
}
