//! Reading `text/event-stream` bodies (Server-Sent Events) as they arrive, within a bound on
//! each event: the parser the MCP client and the checker share.
//!
//! It follows the event-stream interpretation of the HTML standard (§9.2.6): lines end with
//! CRLF, LF or CR; a blank line dispatches the event; `data` lines join with `\n`; `id` sets
//! the last event id (kept across events, ignored when it contains NUL); `retry` with only
//! ASCII digits sets the reconnection time; comments (`:`) and other fields are ignored; a
//! leading byte order mark is skipped.

use std::sync::Arc;
use std::time::Duration;

/// One dispatched event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `data` lines joined with `\n` (empty for an event such as a priming event that
    /// carries an empty `data` field).
    pub data: Vec<u8>,
    /// The `event` field (`None`: the default type, `message`).
    pub event: Option<String>,
    /// The last event id when the event was dispatched (`None` when no id was set, or it was
    /// reset to empty). Shared with the parser and every later event until the next `id`
    /// field, so that a long id followed by many events costs its length once, not once per
    /// event.
    pub id: Option<Arc<str>>,
}

/// What [`SseParser::push`] found in a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// A complete event.
    Event(SseEvent),
    /// An event (or one line) grew past the parser's bound: its bytes were dropped and the
    /// rest of it is skipped up to the blank line that ends it.
    TooLarge {
        /// The bound, in bytes.
        limit: usize,
    },
}

/// An incremental SSE parser: feed it the body's chunks as they come.
///
/// ```
/// use mcpwire::http::sse::{SseEvent, SseItem, SseParser};
/// let mut parser = SseParser::new(1024);
/// let mut items = parser.push(b"id: s-0\nretry: 250\ndata:\n\nid: s-1\ndata: {\"a\"");
/// items.extend(parser.push(b":1}\r\n\r\n"));
/// assert_eq!(items.len(), 2);
/// assert_eq!(
///     items[1],
///     SseItem::Event(SseEvent { data: b"{\"a\":1}".to_vec(), event: None, id: Some("s-1".into()) })
/// );
/// assert_eq!(parser.last_event_id(), Some("s-1"));
/// assert_eq!(parser.retry(), Some(std::time::Duration::from_millis(250)));
/// ```
#[derive(Debug, Clone)]
pub struct SseParser {
    max_event_bytes: usize,
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    event: Option<String>,
    last_event_id: Option<Arc<str>>,
    retry: Option<Duration>,
    /// The previous chunk ended with CR: an LF opening this one belongs to that line end.
    after_cr: bool,
    /// How many bytes of a leading byte order mark were seen (3: done, or none).
    bom_seen: usize,
    /// The current event outgrew the bound: drop lines until the blank line ending it.
    skipping: bool,
    /// The current line has had bytes (kept or dropped): it is not a blank line.
    line_started: bool,
}

/// The UTF-8 byte order mark a stream may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseParser {
    /// A parser that holds at most `max_event_bytes` of one event (its data and the line
    /// being read); a larger event is reported as [`SseItem::TooLarge`] and skipped.
    pub fn new(max_event_bytes: usize) -> Self {
        Self {
            max_event_bytes,
            line: Vec::new(),
            data: Vec::new(),
            has_data: false,
            event: None,
            last_event_id: None,
            retry: None,
            after_cr: false,
            bom_seen: 0,
            skipping: false,
            line_started: false,
        }
    }

    /// The last event id the stream set (for `Last-Event-ID` when resuming); `None` when none
    /// was set or the last one was empty.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The reconnection time the stream asked for with `retry`, if it did.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Starts over on a new connection of the same stream (a resumption): the unfinished line
    /// and event are dropped; the last event id and the reconnection time are kept.
    pub fn resume(&mut self) {
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        self.event = None;
        self.after_cr = false;
        self.bom_seen = 0;
        self.skipping = false;
        self.line_started = false;
    }

    /// Reads one chunk of the body; returns the events it completed, in order.
    pub fn push(&mut self, mut chunk: &[u8]) -> Vec<SseItem> {
        let mut items = Vec::new();
        while self.bom_seen < BOM.len() && !chunk.is_empty() {
            if chunk[0] == BOM[self.bom_seen] {
                self.bom_seen += 1;
                chunk = &chunk[1..];
            } else {
                // Not a byte order mark: what was taken for its start is ordinary text.
                let taken = &BOM[..self.bom_seen];
                self.bom_seen = BOM.len();
                self.line.extend_from_slice(taken);
                self.line_started = !taken.is_empty();
            }
        }
        if self.after_cr && !chunk.is_empty() {
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
            }
            self.after_cr = false;
        }
        while let Some(end) = memchr::memchr2(b'\n', b'\r', chunk) {
            self.extend_line(&chunk[..end], &mut items);
            self.end_line(&mut items);
            let crlf = chunk[end] == b'\r' && chunk.get(end + 1) == Some(&b'\n');
            if chunk[end] == b'\r' && end + 1 == chunk.len() {
                self.after_cr = true;
            }
            chunk = &chunk[end + if crlf { 2 } else { 1 }..];
        }
        self.extend_line(chunk, &mut items);
        items
    }

    /// The event the body left unfinished at its end (no blank line after it), if it has
    /// data. The HTML standard discards it; a reader of a complete body may want it.
    pub fn finish(&mut self) -> Option<SseEvent> {
        if self.line_started {
            let mut items = Vec::new();
            self.end_line(&mut items);
        }
        let event = self.take_event();
        self.skipping = false;
        event
    }

    fn extend_line(&mut self, bytes: &[u8], items: &mut Vec<SseItem>) {
        if bytes.is_empty() {
            return;
        }
        self.line_started = true;
        if self.skipping {
            return;
        }
        if self.line.len() + self.data.len() + bytes.len() > self.max_event_bytes {
            self.overflow(items);
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn overflow(&mut self, items: &mut Vec<SseItem>) {
        self.line.clear();
        self.data.clear();
        self.has_data = false;
        self.event = None;
        self.skipping = true;
        items.push(SseItem::TooLarge {
            limit: self.max_event_bytes,
        });
    }

    fn end_line(&mut self, items: &mut Vec<SseItem>) {
        if !std::mem::take(&mut self.line_started) {
            if self.skipping {
                self.skipping = false;
            } else if let Some(event) = self.take_event() {
                items.push(SseItem::Event(event));
            }
            return;
        }
        if self.skipping {
            self.line.clear();
            return;
        }
        let line = std::mem::take(&mut self.line);
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(0) => (&b""[..], &b""[..]), // a comment
            Some(at) => {
                let value = &line[at + 1..];
                (&line[..at], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (&line[..], &b""[..]),
        };
        match field {
            b"data" => {
                if self.line.len() + self.data.len() + value.len() + 1 > self.max_event_bytes {
                    return self.overflow(items);
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            b"id" if !value.contains(&0) => {
                self.last_event_id =
                    (!value.is_empty()).then(|| String::from_utf8_lossy(value).into());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                if let Some(ms) = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok()) {
                    self.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {}
        }
        self.line = line;
        self.line.clear();
    }

    fn take_event(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(SseEvent {
            data: std::mem::take(&mut self.data),
            event,
            id: self.last_event_id.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(parser: &mut SseParser, chunks: &[&[u8]]) -> Vec<SseItem> {
        chunks.iter().flat_map(|chunk| parser.push(chunk)).collect()
    }

    fn data(items: &[SseItem]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                SseItem::Event(event) => String::from_utf8_lossy(&event.data).into_owned(),
                SseItem::TooLarge { .. } => "<too large>".to_owned(),
            })
            .collect()
    }

    #[test]
    fn every_line_ending_and_any_split_give_the_same_events() {
        let body = b"\xEF\xBB\xBF: comment\r\nevent: message\rid: 7\ndata: a\r\ndata:b\r\n\r\ndata: c\r\rdata\n\n";
        let expected = vec!["a\nb".to_owned(), "c".to_owned(), String::new()];
        for split in 0..body.len() {
            let mut parser = SseParser::new(64);
            let items = events(&mut parser, &[&body[..split], &body[split..]]);
            assert_eq!(data(&items), expected, "split at {split}");
            let SseItem::Event(first) = &items[0] else {
                panic!("an event")
            };
            assert_eq!(first.event.as_deref(), Some("message"));
            assert_eq!(first.id.as_deref(), Some("7"));
            assert_eq!(parser.last_event_id(), Some("7"));
        }
        let mut bytewise = SseParser::new(64);
        let items: Vec<_> = body.iter().flat_map(|b| bytewise.push(&[*b])).collect();
        assert_eq!(data(&items), expected);
    }

    #[test]
    fn ids_and_retry_follow_the_standard() {
        let mut parser = SseParser::new(64);
        parser.push(b"id: a\nretry: 300\n\nid: b\0c\nretry: 1x\n\n");
        assert_eq!(parser.last_event_id(), Some("a"));
        assert_eq!(parser.retry(), Some(Duration::from_millis(300)));
        parser.push(b"id\n\n");
        assert_eq!(parser.last_event_id(), None);
        let mut no_bom = SseParser::new(64);
        assert_eq!(data(&no_bom.push(b"\xEFdata: x\n\n")), Vec::<String>::new());
        assert_eq!(no_bom.finish(), None);
    }

    #[test]
    fn an_event_past_the_bound_is_reported_once_and_skipped() {
        let mut parser = SseParser::new(8);
        let items = events(
            &mut parser,
            &[b"data: 0123", b"456789\ndata: more\n\ndata: ok\n\n"],
        );
        assert_eq!(data(&items), vec!["<too large>", "ok"]);
        let mut lines = SseParser::new(8);
        let items = lines.push(b"data: 1234\ndata: 5678\n\ndata: ok\n\n");
        assert_eq!(data(&items), vec!["<too large>", "ok"]);
    }

    #[test]
    fn finish_returns_an_unterminated_event() {
        let mut parser = SseParser::new(64);
        assert!(parser.push(b"data: [1,\ndata: 2]").is_empty());
        assert_eq!(parser.finish().map(|e| e.data), Some(b"[1,\n2]".to_vec()));
        assert_eq!(parser.finish(), None);
    }

    /// Issue 46: a stream that sets a long `id` and then sends many small events cost the
    /// reader a copy of the id per event, so `n` bytes could cost `n²/16`. The CPU time per
    /// byte now stays within 3× from 8 KiB to 128 KiB of such a stream (the least of three
    /// runs, the thread's own clock).
    #[test]
    fn a_long_id_before_many_events_costs_linear_time() {
        let stream = |n: usize| {
            let mut body = format!("id: {}\n", "i".repeat(n / 2)).into_bytes();
            body.extend(b"data: x\n\n".repeat(n / 2 / 9));
            body
        };
        let per_byte = |n: usize| {
            let body = stream(n);
            (0..3)
                .map(|_| {
                    let mut parser = SseParser::new(n);
                    let started = thread_cpu();
                    let events = parser.push(&body).len();
                    assert_eq!(events, n / 2 / 9);
                    (thread_cpu() - started).as_secs_f64() / body.len() as f64
                })
                .fold(f64::MAX, f64::min)
        };
        let small = per_byte(8 << 10);
        let large = per_byte(128 << 10);
        assert!(
            large < small * 3.0,
            "{:.1} ns a byte at 8 KiB grew to {:.1} at 128 KiB",
            small * 1e9,
            large * 1e9
        );
    }

    /// The CPU time this thread has used.
    fn thread_cpu() -> Duration {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
    }
}
