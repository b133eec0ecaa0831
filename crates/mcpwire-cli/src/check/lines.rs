//! Turning a server's stdout lines into protocol frames and noise.
//!
//! A line that is one JSON value is a frame. A line that starts a JSON value without ending it
//! (a pretty-printed reply) is joined with the following lines until they form one value, and
//! that multi-line frame is judged (it breaks the one-line rule, and still names its id). A
//! line that does not look like JSON at all (a log line, a banner) is noise: it is counted and
//! left out of the replies. Blank lines are skipped.

use mcpwire_proptest::json::{Frame, read_frame};

/// The most lines joined while waiting for a pretty-printed value to end.
pub const MAX_JOINED_LINES: usize = 10_000;
/// The most bytes joined while waiting for a pretty-printed value to end.
pub const MAX_JOINED_BYTES: usize = 4 << 20;

/// What one or more stdout lines turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// A frame to judge: one JSON value (possibly spread over several lines, joined with `\n`),
    /// or bytes that try to be JSON and fail.
    Frame(Vec<u8>),
    /// A line that is not the protocol.
    Noise(Vec<u8>),
}

/// Joins the lines of pretty-printed values; see the module documentation.
#[derive(Debug, Default)]
pub struct Assembler {
    pending: Vec<u8>,
    lines: usize,
}

/// How a single line reads.
enum Shape {
    Blank,
    Value,
    /// Starts like JSON and stops at the end of the line: more lines may complete it.
    Prefix,
    /// Starts like JSON but is broken within the line.
    Broken,
    Noise,
}

fn shape(line: &[u8]) -> Shape {
    let error = match read_frame(line) {
        Frame::Blank => return Shape::Blank,
        Frame::Value { .. } => return Shape::Value,
        Frame::NotUtf8 => None,
        Frame::NotJson(error) => Some(error),
    };
    let trimmed = line.trim_ascii_start();
    let trimmed = trimmed.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(trimmed);
    let prefix = error.is_some_and(|e| e.offset >= line.len());
    match trimmed.first() {
        Some(b'{') if prefix => Shape::Prefix,
        Some(b'{') => Shape::Broken,
        Some(b'[') => {
            // `[INFO] ...` is a log line; `[{"jsonrpc"...` or `[1,` is JSON.
            let second = trimmed[1..].trim_ascii_start().first().copied();
            let jsonish = matches!(
                second,
                None | Some(b'{' | b'[' | b'"' | b']' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
            );
            match (jsonish, prefix) {
                (true, true) => Shape::Prefix,
                (true, false) => Shape::Broken,
                (false, _) => Shape::Noise,
            }
        }
        _ => Shape::Noise,
    }
}

impl Assembler {
    /// Feeds one line (without its line ending); returns the pieces it completes.
    ///
    /// ```
    /// use mcpwire_cli::check::lines::{Assembler, Piece};
    /// let mut lines = Assembler::default();
    /// assert_eq!(lines.push(b"INFO starting"), vec![Piece::Noise(b"INFO starting".to_vec())]);
    /// assert!(lines.push(b"{").is_empty());
    /// assert!(lines.push(b"  \"id\": 1").is_empty());
    /// assert_eq!(lines.push(b"}"), vec![Piece::Frame(b"{\n  \"id\": 1\n}".to_vec())]);
    /// ```
    pub fn push(&mut self, line: &[u8]) -> Vec<Piece> {
        let mut out = Vec::new();
        if !self.pending.is_empty() {
            let opens = matches!(line.trim_ascii_start().first(), Some(b'{' | b'['));
            if opens && matches!(shape(line), Shape::Value) {
                // A complete line never continues a pending value.
                out.extend(self.flush());
            } else {
                self.pending.push(b'\n');
                self.pending.extend_from_slice(line);
                self.lines += 1;
                if matches!(read_frame(&self.pending), Frame::Value { .. })
                    || self.lines >= MAX_JOINED_LINES
                    || self.pending.len() >= MAX_JOINED_BYTES
                {
                    out.extend(self.flush());
                }
                return out;
            }
        }
        match shape(line) {
            Shape::Blank => {}
            Shape::Value | Shape::Broken => out.push(Piece::Frame(line.to_vec())),
            Shape::Prefix => {
                self.pending = line.to_vec();
                self.lines = 1;
            }
            Shape::Noise => out.push(Piece::Noise(line.to_vec())),
        }
        out
    }

    /// Ends a pending value (the stream paused or closed): it becomes a frame as it is.
    pub fn flush(&mut self) -> Option<Piece> {
        if self.pending.is_empty() {
            return None;
        }
        self.lines = 0;
        Some(Piece::Frame(std::mem::take(&mut self.pending)))
    }

    /// Whether lines are waiting for a value to end.
    pub fn is_pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(lines: &[&str]) -> Vec<Piece> {
        let mut assembler = Assembler::default();
        let mut out: Vec<Piece> = lines
            .iter()
            .flat_map(|l| assembler.push(l.as_bytes()))
            .collect();
        out.extend(assembler.flush());
        out
    }

    #[test]
    fn log_lines_are_noise_and_frames_stay_frames() {
        let out = feed(&[
            "[INFO] listening",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            "",
            "DEBUG handled ping",
            "[1,2]",
        ]);
        assert_eq!(
            out,
            vec![
                Piece::Noise(b"[INFO] listening".to_vec()),
                Piece::Frame(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_vec()),
                Piece::Noise(b"DEBUG handled ping".to_vec()),
                Piece::Frame(b"[1,2]".to_vec()),
            ]
        );
    }

    #[test]
    fn a_cut_reply_followed_by_a_whole_one_is_two_frames() {
        let out = feed(&[
            r#"{"jsonrpc":"2.0","id":1"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
        ]);
        assert_eq!(
            out,
            vec![
                Piece::Frame(br#"{"jsonrpc":"2.0","id":1"#.to_vec()),
                Piece::Frame(br#"{"jsonrpc":"2.0","id":2,"result":{}}"#.to_vec()),
            ]
        );
    }

    #[test]
    fn broken_json_on_one_line_is_a_frame() {
        assert_eq!(
            feed(&[r#"{"id":1,}"#]),
            vec![Piece::Frame(br#"{"id":1,}"#.to_vec())]
        );
    }

    #[test]
    fn pretty_printed_values_are_joined() {
        let out = feed(&["[", "  {", r#"    "id": 1"#, "  }", "]"]);
        assert_eq!(
            out,
            vec![Piece::Frame(b"[\n  {\n    \"id\": 1\n  }\n]".to_vec())]
        );
    }
}
