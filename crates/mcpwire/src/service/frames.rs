//! Line framing over an async reader, by the same rules as [`FrameReader`](crate::framing::FrameReader):
//! one message per line (`\n` or `\r\n`), blank lines and a stream-start BOM skipped, an
//! over-long line discarded while it is read and reported as [`Frame::TooLong`].

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::framing::Frame;

/// Splits an async byte stream into frames.
#[derive(Debug)]
pub(crate) struct AsyncFrameReader<R> {
    input: R,
    line: Vec<u8>,
    at_stream_start: bool,
}

impl<R: AsyncBufRead + Unpin> AsyncFrameReader<R> {
    pub(crate) fn new(input: R) -> Self {
        Self {
            input,
            line: Vec::new(),
            at_stream_start: true,
        }
    }

    /// The next non-blank frame, or `None` at end of input.
    pub(crate) async fn next_frame(
        &mut self,
        max_frame_bytes: usize,
    ) -> io::Result<Option<Frame<'_>>> {
        loop {
            let Some((len, too_long)) = self.read_line(max_frame_bytes).await? else {
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
            if !content
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                let start = self.line.len() - content.len();
                return Ok(Some(Frame::Line(&self.line[start..])));
            }
        }
    }

    /// Reads one line into `self.line` (terminator stripped) unless longer than `max`;
    /// returns its length and whether it was too long, or `None` at end of input.
    async fn read_line(&mut self, max: usize) -> io::Result<Option<(usize, bool)>> {
        self.line.clear();
        let (mut len, mut too_long, mut saw_bytes) = (0usize, false, false);
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                if !saw_bytes {
                    return Ok(None);
                }
                break;
            }
            saw_bytes = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            len += chunk.len();
            // One byte of slack for a `\r` before the `\n`.
            if !too_long && len > max.saturating_add(1) {
                too_long = true;
                self.line = Vec::new();
            }
            if !too_long {
                self.line.extend_from_slice(chunk);
            }
            let consumed = newline.map_or(available.len(), |at| at + 1);
            self.input.consume(consumed);
            if newline.is_some() {
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
    use crate::framing::FrameReader;

    fn sync_frames(input: &[u8], max: usize) -> Vec<Result<Vec<u8>, usize>> {
        let mut frames = FrameReader::new(input);
        let mut out = Vec::new();
        while let Some(frame) = frames.next_frame(max).unwrap() {
            out.push(owned(frame));
        }
        out
    }

    fn owned(frame: Frame<'_>) -> Result<Vec<u8>, usize> {
        match frame {
            Frame::Line(line) => Ok(line.to_vec()),
            Frame::TooLong { len } => Err(len),
        }
    }

    #[test]
    fn splits_exactly_like_the_blocking_reader_at_any_read_size() {
        let input: &[u8] =
            b"\xEF\xBB\xBF\r\n{1}\r\n\n \t \n\r\n{22}\n12345678\n1234567\r\n123456789\r\n{3}";
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for max in [0, 3, 7, 8, 9, 100] {
            let expected = sync_frames(input, max);
            for chunk in 1..8 {
                let reader = tokio::io::BufReader::with_capacity(chunk, input);
                let mut frames = AsyncFrameReader::new(reader);
                let got = runtime.block_on(async {
                    let mut out = Vec::new();
                    while let Some(frame) = frames.next_frame(max).await.unwrap() {
                        out.push(owned(frame));
                    }
                    out
                });
                assert_eq!(got, expected, "max {max}, chunk {chunk}");
            }
        }
    }
}
