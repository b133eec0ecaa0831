//! Line framing over any [`BufRead`] (wire rule 1).
//!
//! One message per line, terminated by `\n` or `\r\n` (the last line may lack a
//! terminator). Blank lines (empty or JSON whitespace only) are skipped, a UTF-8 byte order
//! mark at the start of the stream is skipped, and a line longer than the limit is
//! discarded while it is read (never buffered whole) and reported as
//! [`Frame::TooLong`]. A line's length counts every byte before its terminator (a
//! stream-start byte order mark included).
//!
//! ```
//! use mcpwire::framing::{Frame, FrameReader};
//!
//! let input = b"\xEF\xBB\xBF{\"a\":1}\r\n\n   \n0123456789ab\n[]";
//! let mut frames = FrameReader::new(&input[..]);
//! assert_eq!(frames.next_frame(10).unwrap(), Some(Frame::Line(&b"{\"a\":1}"[..])));
//! assert_eq!(frames.next_frame(10).unwrap(), Some(Frame::TooLong { len: 12 }));
//! assert_eq!(frames.next_frame(10).unwrap(), Some(Frame::Line(&b"[]"[..])));
//! assert_eq!(frames.next_frame(10).unwrap(), None);
//! ```

use std::io::{self, BufRead};

/// One frame read from the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'b> {
    /// A line's content, without its terminator.
    Line(&'b [u8]),
    /// A line longer than the limit, already discarded; `len` is its length in bytes
    /// (terminator excluded).
    TooLong {
        /// Length of the discarded line.
        len: usize,
    },
}

/// Splits a byte stream into frames.
#[derive(Debug)]
pub struct FrameReader<R> {
    input: R,
    lines: LineSplitter,
}

impl<R: BufRead> FrameReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            lines: LineSplitter::new(),
        }
    }

    /// The next non-blank frame, or `None` at end of input. Lines longer than
    /// `max_frame_bytes` (terminator excluded) come back as [`Frame::TooLong`].
    pub fn next_frame(&mut self, max_frame_bytes: usize) -> io::Result<Option<Frame<'_>>> {
        self.lines.release_line();
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let (consumed, step) = self.lines.step(available, max_frame_bytes);
            self.input.consume(consumed);
            if let Step::Done(ending) = step {
                return Ok(self.lines.frame(ending));
            }
        }
    }
}

/// How a line ended (see [`LineSplitter::end_line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineEnd {
    /// Empty or JSON whitespace only (after a stream-start BOM): skipped.
    Blank,
    /// Longer than the limit; its bytes were discarded while read.
    TooLong { len: usize },
    /// A frame: [`LineSplitter::content`] from `start` (past a stream-start BOM).
    Line { start: usize },
}

/// What [`LineSplitter::step`] made of the bytes at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The line goes on, or it was blank: read on.
    ReadOn,
    /// A frame to hand out, or the end of input ([`LineSplitter::frame`]).
    Done(Ending),
}

/// How the reading of one frame ended (see [`LineSplitter::frame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// End of input, with no byte of a new line.
    End,
    /// A line longer than the limit, already discarded.
    TooLong { len: usize },
    /// A frame: [`LineSplitter::content`] from `start`.
    Line { start: usize },
}

/// The buffer a line leaves behind for the next one: a larger one (after a frame of many
/// MiB) is given back to the allocator, not held for the rest of the stream.
pub(crate) const KEPT_CAPACITY: usize = 64 * 1024;

/// The line rules of this module without any I/O, shared by [`FrameReader`] and the async
/// reader of [`service`](crate::service): feed it the bytes at hand, and end the line at
/// its `\n` or at end of input.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    line: Vec<u8>,
    len: usize,
    too_long: bool,
    saw_bytes: bool,
    at_stream_start: bool,
}

impl LineSplitter {
    pub(crate) fn new() -> Self {
        Self {
            line: Vec::new(),
            len: 0,
            too_long: false,
            saw_bytes: false,
            at_stream_start: true,
        }
    }

    /// Takes the current line's bytes from non-empty `available` (up to and including its
    /// `\n`); returns how many bytes it consumed and whether the line ended. A line past the
    /// limit is dropped as it is read, never buffered whole.
    fn feed(&mut self, available: &[u8], max: usize) -> (usize, bool) {
        if !self.saw_bytes {
            self.release_line();
            self.saw_bytes = true;
        }
        let newline = memchr::memchr(b'\n', available);
        let chunk = &available[..newline.unwrap_or(available.len())];
        self.len += chunk.len();
        // One extra byte of slack for a `\r` before the `\n`.
        if !self.too_long && self.len > max.saturating_add(1) {
            self.too_long = true;
            self.line = Vec::new();
        }
        if !self.too_long {
            self.line.extend_from_slice(chunk);
        }
        (
            newline.map_or(available.len(), |at| at + 1),
            newline.is_some(),
        )
    }

    /// Lets go of the last frame handed out, before the next one is waited for: its bytes
    /// are no longer needed once the caller has decoded it, and a large line's buffer is
    /// given back to the allocator rather than held while its handler runs (a client that
    /// sent a 60 MiB frame waits for the reply before sending more). Nothing happens while a
    /// line is being read.
    pub(crate) fn release_line(&mut self) {
        if self.saw_bytes {
            return;
        }
        self.line.clear();
        if self.line.capacity() > KEPT_CAPACITY {
            self.line = Vec::new();
        }
    }

    /// Ends the current line, at its `\n` or at end of input (`None` there when no byte of
    /// a new line came), and makes ready for the next.
    fn end_line(&mut self, max: usize) -> Option<LineEnd> {
        if !std::mem::replace(&mut self.saw_bytes, false) {
            return None;
        }
        let mut len = std::mem::take(&mut self.len);
        let mut too_long = std::mem::replace(&mut self.too_long, false);
        if !too_long && self.line.last() == Some(&b'\r') {
            self.line.pop();
            len -= 1;
        }
        if !too_long && len > max {
            too_long = true;
            self.line.clear();
        }
        let at_stream_start = std::mem::replace(&mut self.at_stream_start, false);
        if too_long {
            return Some(LineEnd::TooLong { len });
        }
        let mut content: &[u8] = &self.line;
        if at_stream_start {
            content = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
        }
        if content
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return Some(LineEnd::Blank);
        }
        let start = self.line.len() - content.len();
        if self.line.capacity() > KEPT_CAPACITY {
            // The buffer grew by doubling: up to twice a large frame. Its spare room goes
            // back before the frame is handed out (and copied by whoever reads it).
            self.line.shrink_to_fit();
        }
        Some(LineEnd::Line { start })
    }

    /// One step of a frame reader over the bytes its buffer holds (`available`; empty at end
    /// of input): how many it consumed, and whether a frame (or the end) is ready. Both
    /// readers, blocking and async, loop on this: fill the buffer, step, consume, and hand
    /// out [`LineSplitter::frame`] when done.
    pub(crate) fn step(&mut self, available: &[u8], max: usize) -> (usize, Step) {
        let (consumed, ended) = if available.is_empty() {
            (0, true)
        } else {
            self.feed(available, max)
        };
        let step = if !ended {
            Step::ReadOn
        } else {
            match self.end_line(max) {
                None => Step::Done(Ending::End),
                Some(LineEnd::Blank) => Step::ReadOn,
                Some(LineEnd::TooLong { len }) => Step::Done(Ending::TooLong { len }),
                Some(LineEnd::Line { start }) => Step::Done(Ending::Line { start }),
            }
        };
        (consumed, step)
    }

    /// The frame an [`Ending`] stands for; `None` at end of input.
    pub(crate) fn frame(&self, ending: Ending) -> Option<Frame<'_>> {
        match ending {
            Ending::End => None,
            Ending::TooLong { len } => Some(Frame::TooLong { len }),
            Ending::Line { start } => Some(Frame::Line(self.content(start))),
        }
    }

    /// The last line's content from `start` (see [`LineEnd::Line`]).
    fn content(&self, start: usize) -> &[u8] {
        self.line.get(start..).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], max: usize, chunk: usize) -> Vec<Result<Vec<u8>, usize>> {
        let reader = io::BufReader::with_capacity(chunk, input);
        let mut frames = FrameReader::new(reader);
        let mut out = Vec::new();
        while let Some(frame) = frames.next_frame(max).unwrap() {
            out.push(match frame {
                Frame::Line(line) => Ok(line.to_vec()),
                Frame::TooLong { len } => Err(len),
            });
        }
        out
    }

    #[test]
    fn splits_lines_at_any_read_size() {
        let input = b"\xEF\xBB\xBF\r\n{1}\r\n\n \t \n\r\n{22}\n12345678\n1234567\r\n{3}";
        for chunk in [1, 2, 3, 5, 8, 64] {
            assert_eq!(
                frames(input, 7, chunk),
                vec![
                    Ok(b"{1}".to_vec()),
                    Ok(b"{22}".to_vec()),
                    Err(8),
                    Ok(b"1234567".to_vec()),
                    Ok(b"{3}".to_vec())
                ],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn bom_is_skipped_only_at_stream_start() {
        let input = b"\xEF\xBB\xBFa\n\xEF\xBB\xBFb\n";
        assert_eq!(
            frames(input, 100, 4),
            vec![Ok(b"a".to_vec()), Ok(b"\xEF\xBB\xBFb".to_vec())]
        );
    }

    #[test]
    fn over_long_lines_are_not_buffered() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\nok\n");
        let mut frames = FrameReader::new(io::BufReader::with_capacity(4096, &input[..]));
        assert_eq!(
            frames.next_frame(1000).unwrap(),
            Some(Frame::TooLong { len: 1 << 20 })
        );
        assert!(
            frames.lines.line.capacity() <= 8192,
            "buffered {}",
            frames.lines.line.capacity()
        );
        assert_eq!(
            frames.next_frame(1000).unwrap(),
            Some(Frame::Line(&b"ok"[..]))
        );
    }

    #[test]
    fn a_large_line_s_buffer_is_not_kept_for_the_next() {
        let mut input = vec![b'x'; 4 << 20];
        input.extend_from_slice(b"\nok\n");
        let mut frames = FrameReader::new(io::BufReader::with_capacity(4096, &input[..]));
        assert_eq!(
            frames
                .next_frame(8 << 20)
                .unwrap()
                .map(|f| matches!(f, Frame::Line(l) if l.len() == 4 << 20)),
            Some(true)
        );
        assert_eq!(
            frames.next_frame(8 << 20).unwrap(),
            Some(Frame::Line(&b"ok"[..]))
        );
        assert!(
            frames.lines.line.capacity() <= KEPT_CAPACITY,
            "kept {}",
            frames.lines.line.capacity()
        );
    }
}
