//! Line framing over an async reader: the same [`LineSplitter`] as the blocking
//! [`FrameReader`](crate::framing::FrameReader), stepped over what the reader's buffer holds,
//! so the two apply one set of rules (one message per line, `\n` or `\r\n`, blank lines and
//! a stream-start BOM skipped, an over-long line discarded while it is read and reported as
//! [`Frame::TooLong`]); only the waiting for bytes differs.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

use crate::framing::{Frame, LineSplitter, Step};

/// Splits an async byte stream into frames (what a client reading a server's stdout uses
/// too).
#[derive(Debug)]
pub struct AsyncFrameReader<R> {
    input: R,
    lines: LineSplitter,
}

impl<R: AsyncBufRead + Unpin> AsyncFrameReader<R> {
    /// A reader of the frames of `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            lines: LineSplitter::new(),
        }
    }

    /// The next non-blank frame, or `None` at end of input.
    pub async fn next_frame(&mut self, max_frame_bytes: usize) -> io::Result<Option<Frame<'_>>> {
        self.lines.release_line();
        loop {
            let available = self.input.fill_buf().await?;
            let (consumed, step) = self.lines.step(available, max_frame_bytes);
            self.input.consume(consumed);
            if let Step::Done(ending) = step {
                return Ok(self.lines.frame(ending));
            }
        }
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
