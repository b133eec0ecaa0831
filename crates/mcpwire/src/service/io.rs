//! Serving a session over a byte stream: any `AsyncRead` + `AsyncWrite`, or stdio.

use std::io;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::frames::AsyncFrameReader;
use super::sink::{Outgoing, SinkReceiver};
use super::stdio_streams::{StdInput, StdOutput};
use super::{PeerHandle, Session};
use crate::decode::Rejection;
use crate::framing::Frame;

/// Serves `session` over a byte stream until end of input, one message per line.
///
/// Every line the session sends, replies and handler output alike, goes to `output` (each
/// followed by `\n` and a flush). Invalid input never ends the loop. At end of input (or
/// when [`Session::close`] is called) the client is gone: it stops reading, cancels the
/// requests in flight (their [`CancellationToken`](super::CancellationToken)s fire), waits for
/// the handlers to finish for at most [`Options::end_of_input_grace`](super::Options), writes
/// what they sent and returns, leaving a handler that ignores its token behind. An I/O error
/// ends it the same way and is returned.
///
/// Returns an error at once if the session was already served (its session-wide
/// receiver is taken).
pub async fn serve<S, R, W>(session: &Session<S>, input: R, output: W) -> io::Result<()>
where
    S: Send + Sync + 'static,
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let Some(lines) = session.take_unsolicited() else {
        return Err(io::Error::other("this session is already being served"));
    };
    let (close, closed) = oneshot::channel();
    let writer = tokio::spawn(write_lines(lines, output, closed));
    let read = read_frames(session, input).await;
    // No work outlives the client that asked for it.
    session.cancel_in_flight();
    let _ = tokio::time::timeout(session.end_of_input_grace(), session.finish()).await;
    let _ = close.send(());
    let written = writer
        .await
        .unwrap_or_else(|e| Err(io::Error::other(format!("the writer task failed: {e}"))));
    read.and(written)
}

/// Serves `session` over the process's standard input and output (see [`serve`]).
///
/// On Linux, a stdin or stdout that is a pipe or a stream socket (as a client that spawns the
/// server makes it) is read or written on the runtime's own thread, polled by its reactor,
/// and never made non-blocking where other processes share it; anything else goes through
/// tokio's `Stdin` and `Stdout`, on the blocking pool. A `debug` event of target
/// `mcpwire::stdio` says which (`stdin`, `stdout`: `pipe`, `socket` or `blocking pool`).
pub async fn serve_stdio<S: Send + Sync + 'static>(session: &Session<S>) -> io::Result<()> {
    let (input, output) = (StdInput::open(), StdOutput::open());
    tracing::debug!(
        target: "mcpwire::stdio",
        stdin = input.driven_by(),
        stdout = output.driven_by(),
        "serving stdio"
    );
    serve(session, input, output).await
}

/// Starts serving `session` over a byte stream on a new task and returns at once with a
/// handle to talk to the other side: how a client connects (see [`serve`]).
pub fn spawn<S, R, W>(
    session: Session<S>,
    input: R,
    output: W,
) -> (PeerHandle, JoinHandle<io::Result<()>>)
where
    S: Send + Sync + 'static,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let handle = session.handle();
    let task = tokio::spawn(async move { serve(&session, input, output).await });
    (handle, task)
}

async fn read_frames<S, R>(session: &Session<S>, input: R) -> io::Result<()>
where
    S: Send + Sync + 'static,
    R: AsyncRead + Unpin,
{
    let sink = session.session_sink();
    let mut frames = AsyncFrameReader::new(BufReader::new(input));
    loop {
        let profile = session.profile();
        let max = profile.limits().max_frame_bytes;
        let frame = tokio::select! {
            frame = frames.next_frame(max) => frame?,
            () = session.closed() => return Ok(()),
        };
        match frame {
            None => return Ok(()),
            Some(Frame::Line(line)) => session.receive(line, &sink).await,
            Some(Frame::TooLong { len }) => {
                let rejection = Rejection::FrameTooLarge { len, max };
                let facts = crate::peer::ReplyFacts::error(rejection.error().code());
                let reply = crate::peer::ReplyFrame::new(rejection.reply(&profile), facts);
                let _ = sink.send(Outgoing::Reply(Box::new(reply))).await;
            }
        }
    }
}

/// Writes each message with a `\n`, flushing after each, until `closed` fires (then what is
/// already queued is written too) or every sender is gone. Replies and messages alike: over a
/// byte stream they share the one output.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut lines: SinkReceiver,
    mut output: W,
    mut closed: oneshot::Receiver<()>,
) -> io::Result<()> {
    loop {
        let line = tokio::select! {
            biased;
            line = lines.recv() => line,
            _ = &mut closed => {
                while let Ok(line) = lines.try_recv() {
                    write_line(&mut output, line).await?;
                }
                return Ok(());
            }
        };
        match line {
            Some(line) => write_line(&mut output, line).await?,
            None => return Ok(()),
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(output: &mut W, line: Outgoing) -> io::Result<()> {
    let mut line = line.into_bytes();
    line.push(b'\n');
    output.write_all(&line).await?;
    output.flush().await
}
