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

/// Where an SSE body lets a client resume its stream: the last event id it carried and the
/// last `retry` hint (milliseconds), as the SSE standard defines both fields.
///
/// ```
/// use mcpwire_cli::check::sse::resume_hint;
/// let body = b"id: s-0\nretry: 250\ndata:\n\nid: s-1\ndata: {\"a\":1}\n\n";
/// assert_eq!(resume_hint(body), (Some("s-1".to_owned()), Some(250)));
/// assert_eq!(resume_hint(b"data: {}\n\n"), (None, None));
/// ```
pub fn resume_hint(body: &[u8]) -> (Option<String>, Option<u64>) {
    let (mut id, mut retry) = (None, None);
    for line in body.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(at) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let value = &line[at + 1..];
        let value = value.strip_prefix(b" ").unwrap_or(value);
        match &line[..at] {
            // An id with a NUL is ignored (the SSE standard's rule).
            b"id" if !value.contains(&0) => id = Some(String::from_utf8_lossy(value).into_owned()),
            b"retry" => {
                if let Some(ms) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    retry = Some(ms);
                }
            }
            _ => {}
        }
    }
    (id.filter(|id| !id.is_empty()), retry)
}
