//! A reader for whole `text/event-stream` bodies (Server-Sent Events), on the incremental
//! parser the client shares ([`mcpwire::http::sse`]).

use mcpwire::http::sse::{SseItem, SseParser};

/// The checker reads a whole body (already bounded by its own limit): one event may be as
/// long as the body.
fn parse(body: &[u8]) -> (SseParser, Vec<Vec<u8>>) {
    let mut parser = SseParser::new(body.len().max(1));
    let mut events: Vec<Vec<u8>> = parser
        .push(body)
        .into_iter()
        .filter_map(|item| match item {
            SseItem::Event(event) => Some(event.data),
            SseItem::TooLarge { .. } => None,
        })
        .collect();
    events.extend(parser.finish().map(|event| event.data));
    (parser, events)
}

/// The `data` of each event in an SSE body, as the bytes of one message each (multi-line data
/// joined with `\n`). Events without data (comments, retry hints, priming events) are skipped.
///
/// ```
/// use mcpwire_cli::check::sse::parse_events;
/// let body = b": hello\n\nid: 1\nevent: message\ndata: {\"a\":1}\n\ndata: [1,\ndata: 2]\r\n\r\n";
/// assert_eq!(parse_events(body), vec![b"{\"a\":1}".to_vec(), b"[1,\n2]".to_vec()]);
/// ```
pub fn parse_events(body: &[u8]) -> Vec<Vec<u8>> {
    let (_, mut events) = parse(body);
    events.retain(|data| !data.trim_ascii().is_empty());
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
    let (parser, _) = parse(body);
    (
        parser.last_event_id().map(str::to_owned),
        parser
            .retry()
            .map(|retry| u64::try_from(retry.as_millis()).unwrap_or(u64::MAX)),
    )
}
