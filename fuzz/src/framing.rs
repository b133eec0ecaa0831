//! `framing`: `serve` over reads of 1 to 8 bytes against an independent line splitter.
//!
//! The first input byte picks the read size and the frame limit (8 to 135 bytes, so long
//! lines are common); the rest is the stream. The oracle splits the stream on `\n` itself
//! (one `\r` before it dropped, a UTF-8 BOM skipped at the very start, blank lines skipped,
//! lines over the limit answered -32600) and answers each line with a second server through
//! `handle_frame`: `serve` must write exactly those replies, one line each.

use std::io::{self, BufReader, Read};

use mcpwire::{Profile, Rejection};

/// A reader that hands out at most `step` bytes per read.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Runs the oracle on one input.
pub fn check(data: &[u8]) {
    let Some((&selector, stream)) = data.split_first() else {
        return;
    };
    let step = usize::from(selector & 7) + 1;
    let max = usize::from(selector >> 1) + 8;
    let profile = || Profile::jsonrpc_2_0().with_max_frame_bytes(max);

    let mut served = Vec::new();
    let input = BufReader::with_capacity(step, Trickle { data: stream, step });
    crate::server(profile()).serve(input, &mut served).expect("no I/O error");

    let mut expected = Vec::new();
    let mut oracle = crate::server(profile());
    for (index, line) in lines(stream).enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > max {
            Rejection::FrameTooLarge {
                len: line.len(),
                max,
            }
            .write_reply(oracle.profile(), &mut expected);
            expected.push(b'\n');
            continue;
        }
        let line = match index {
            0 => line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line),
            _ => line,
        };
        if line
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            continue;
        }
        if let Some(reply) = oracle.handle_frame(line) {
            expected.extend_from_slice(&reply);
            expected.push(b'\n');
        }
    }
    assert_eq!(
        String::from_utf8_lossy(&served),
        String::from_utf8_lossy(&expected),
        "step {step}, limit {max}"
    );
    assert_eq!(served, expected);
}

/// The lines of `stream` without their `\n`; a final line without one counts, an empty one
/// after the last `\n` does not.
fn lines(stream: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = stream.strip_suffix(b"\n").unwrap_or(stream);
    let empty = stream.is_empty();
    body.split(|&b| b == b'\n').filter(move |_| !empty)
}
