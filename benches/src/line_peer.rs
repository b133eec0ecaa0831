//! What the end-to-end rows need from a connection to a server, whatever carries it (a
//! `tokio::io::duplex` in the bench process, or a child process's pipes): send a line, read a
//! line, and push a long stream of lines while reading the replies.

use std::io;
use std::time::Duration;

use crate::conversation;

/// A client's end of a newline-delimited JSON-RPC connection to a server.
pub trait LinePeer {
    /// Writes `line` and a newline, and flushes.
    fn send(&mut self, line: &[u8]) -> io::Result<()>;

    /// Reads the next line the server wrote, without its newline, into
    /// [`last_line`](Self::last_line).
    fn read_next(&mut self) -> io::Result<()>;

    /// Writes `bytes` (newline-terminated lines) while reading the server's lines until one
    /// satisfies `is_last`; returns the time from the first byte written to that line, and how
    /// many lines came before it.
    fn stream(&mut self, bytes: &[u8], is_last: fn(&[u8]) -> bool)
    -> io::Result<(Duration, usize)>;

    /// The line read last (by [`read_next`](Self::read_next) or [`stream`](Self::stream)).
    fn last_line(&self) -> &[u8];

    /// Reads the next line the server wrote, without its newline.
    fn receive(&mut self) -> io::Result<&[u8]> {
        self.read_next()?;
        Ok(self.last_line())
    }

    /// [`send`](Self::send), then [`receive`](Self::receive): one request and its reply.
    fn round_trip(&mut self, line: &[u8]) -> io::Result<&[u8]> {
        self.send(line)?;
        self.receive()
    }
}

/// Opens the session: `initialize` (its reply checked), then `notifications/initialized`.
pub fn initialize(peer: &mut (impl LinePeer + ?Sized)) -> Result<(), String> {
    let reply = peer
        .round_trip(&conversation::initialize())
        .map_err(|e| format!("initialize: {e}"))?;
    conversation::check_initialize_reply(reply)?;
    peer.send(&conversation::initialized())
        .map_err(|e| format!("notifications/initialized: {e}"))
}

/// The reply to the measured `add` call, checked (run once before timing).
pub fn checked_add(peer: &mut (impl LinePeer + ?Sized)) -> Result<String, String> {
    let reply = peer
        .round_trip(&conversation::add_call())
        .map_err(|e| format!("tools/call add: {e}"))?;
    conversation::check_add_reply(reply)?;
    Ok(String::from_utf8_lossy(reply).into_owned())
}

/// One notification stream, checked (run once before timing): the server must answer the
/// closing `ping` and nothing before it. Returns the `ping` reply.
pub fn checked_stream(peer: &mut (impl LinePeer + ?Sized)) -> Result<String, String> {
    let (_, before) = peer
        .stream(
            &conversation::notification_stream(),
            conversation::is_stream_end,
        )
        .map_err(|e| format!("notification stream: {e}"))?;
    if before != 0 {
        return Err(format!(
            "the server wrote {before} lines in answer to notifications"
        ));
    }
    let reply = peer.last_line();
    conversation::check_stream_end_reply(reply)?;
    Ok(String::from_utf8_lossy(reply).into_owned())
}
