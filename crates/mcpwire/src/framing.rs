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
    line: Vec<u8>,
    at_stream_start: bool,
}

impl<R: BufRead> FrameReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            line: Vec::new(),
            at_stream_start: true,
        }
    }

    /// The next non-blank frame, or `None` at end of input. Lines longer than
    /// `max_frame_bytes` (terminator excluded) come back as [`Frame::TooLong`].
    pub fn next_frame(&mut self, max_frame_bytes: usize) -> io::Result<Option<Frame<'_>>> {
        loop {
            let Some((len, too_long)) = self.read_line(max_frame_bytes)? else {
                return Ok(None);
            };
            let at_stream_start = std::mem::replace(&mut self.at_stream_start, false);
            if too_long {
                return Ok(Some(Frame::TooLong { len }));
            }
            let mut content: &[u8] = &self.line;
            if at_stream_start {
                content = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
            }
            if content
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                continue;
            }
            let start = self.line.len() - content.len();
            return Ok(Some(Frame::Line(&self.line[start..])));
        }
    }

    /// Reads one line into `self.line` (terminator stripped) unless it is too long.
    /// Returns its length and whether it was too long, or `None` at end of input.
    fn read_line(&mut self, max: usize) -> io::Result<Option<(usize, bool)>> {
        self.line.clear();
        let mut len = 0usize;
        let mut too_long = false;
        let mut saw_bytes = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !saw_bytes {
                    return Ok(None);
                }
                break;
            }
            saw_bytes = true;
            let (chunk, consumed, done) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            len += chunk.len();
            // One extra byte of slack for a `\r` before the `\n`.
            if !too_long && len > max.saturating_add(1) {
                too_long = true;
                self.line = Vec::new();
            }
            if !too_long {
                self.line.extend_from_slice(chunk);
            }
            self.input.consume(consumed);
            if done {
                break;
            }
        }
        if !too_long && self.line.last() == Some(&b'\r') {
            self.line.pop();
            len -= 1;
        }
        if !too_long && len > max {
            too_long = true;
            self.line.clear();
        }
        Ok(Some((len, too_long)))
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
            frames.line.capacity() <= 8192,
            "buffered {}",
            frames.line.capacity()
        );
        assert_eq!(
            frames.next_frame(1000).unwrap(),
            Some(Frame::Line(&b"ok"[..]))
        );
    }
}
