//! The blocking server's serving loop over any reader and writer, and over stdio
//! ([`Server::serve`], [`Server::serve_stdio`]).
//!
//! ```
//! use mcpwire::{Profile, Router, Server};
//!
//! let mut server = Server::new(Profile::latest_mcp(), (), Router::new());
//! let input = b"garbage\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"nope\"}\n";
//! let mut output = Vec::new();
//! server.serve(&input[..], &mut output).unwrap();
//! assert_eq!(
//!     String::from_utf8(output).unwrap(),
//!     "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n\
//!      {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n"
//! );
//! ```

use std::io::{self, BufRead, Write};

use crate::decode::Rejection;
use crate::framing::{Frame, FrameReader, KEPT_CAPACITY};
use crate::server::Server;

impl<S> Server<S> {
    /// Serves frames from `input` until end of input, writing each reply as exactly one line
    /// (flushed after each). Invalid input never ends the loop; only end of input or an I/O
    /// error does. The frame size limit is read from the server's current profile.
    pub fn serve<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        let mut frames = FrameReader::new(input);
        let mut reply = Vec::new();
        loop {
            let max = self.profile().limits().max_frame_bytes;
            let Some(frame) = frames.next_frame(max)? else {
                return Ok(());
            };
            reply.clear();
            if reply.capacity() > KEPT_CAPACITY {
                // A large reply's buffer is not held for the rest of the stream.
                reply = Vec::new();
            }
            let replied = match frame {
                Frame::Line(line) => self.handle_frame_into(line, &mut reply),
                Frame::TooLong { len } => {
                    self.write_rejection(&Rejection::FrameTooLarge { len, max }, &mut reply);
                    true
                }
            };
            if replied {
                reply.push(b'\n');
                output.write_all(&reply)?;
                output.flush()?;
            }
        }
    }

    /// Serves over the process's standard input and output (see [`serve`](Self::serve)).
    pub fn serve_stdio(&mut self) -> io::Result<()> {
        let stdin = io::stdin();
        let stdout = io::stdout();
        self.serve(stdin.lock(), stdout.lock())
    }
}
