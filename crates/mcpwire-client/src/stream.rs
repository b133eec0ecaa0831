//! A transport over any byte stream pair, one JSON-RPC message per line (what MCP's stdio
//! transport is): [`StreamTransport`]. Also the line pump the child-process transport uses.

use std::sync::Arc;

use mcpwire::framing::Frame;
use mcpwire::service::AsyncFrameReader;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};
use tokio::task::AbortHandle;

use crate::transport::{
    BoxFuture, Connection, Incoming, IncomingSender, OutgoingFrame, Transport, TransportError,
};

/// The default bound of one incoming line: 16 MiB (a longer line is discarded while it is
/// read, never buffered whole).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;

/// A boxed writer: the server's input.
pub(crate) type BoxWriter = Box<dyn AsyncWrite + Send + Unpin>;

/// A server reached through a byte stream pair: `input` is what the server writes (its
/// stdout), `output` what it reads (its stdin). Useful for in-process servers
/// (`tokio::io::duplex`) and sockets; [`ChildProcess`](crate::ChildProcess) builds on it for
/// child processes.
pub struct StreamTransport<R> {
    input: R,
    output: BoxWriter,
    max_frame_bytes: usize,
}

impl<R> std::fmt::Debug for StreamTransport<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamTransport")
            .field("max_frame_bytes", &self.max_frame_bytes)
            .finish_non_exhaustive()
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> StreamTransport<R> {
    /// A transport reading the server's frames from `input` and writing to `output`.
    pub fn new(input: R, output: impl AsyncWrite + Send + Unpin + 'static) -> Self {
        Self {
            input,
            output: Box::new(output),
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
        }
    }

    /// Sets the bound of one incoming line (default [`DEFAULT_MAX_FRAME_BYTES`]).
    pub fn max_frame_bytes(mut self, max: usize) -> Self {
        self.max_frame_bytes = max;
        self
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport for StreamTransport<R> {
    fn open(
        self: Box<Self>,
        incoming: IncomingSender,
    ) -> BoxFuture<'static, Result<Box<dyn Connection>, TransportError>> {
        let Self {
            input,
            output,
            max_frame_bytes,
        } = *self;
        Box::pin(async move {
            let reader = tokio::spawn(async move {
                let end = match pump_lines(input, &incoming, max_frame_bytes).await {
                    Ok(()) => TransportError::Closed,
                    Err(error) => error,
                };
                incoming.send(Incoming::Closed(end)).await;
            });
            let connection: Box<dyn Connection> =
                Box::new(LineWriter::new(output, Some(reader.abort_handle())));
            Ok(connection)
        })
    }
}

/// Reads lines from `input` into `incoming` until end of input (`Ok`) or a read error; a
/// line over `max` bytes is reported as [`Incoming::Discarded`]. Returns early, `Ok`, when
/// the client stopped listening.
pub(crate) async fn pump_lines<R: AsyncRead + Unpin>(
    input: R,
    incoming: &IncomingSender,
    max: usize,
) -> Result<(), TransportError> {
    let mut frames = AsyncFrameReader::new(BufReader::new(input));
    loop {
        let delivered = match frames.next_frame(max).await? {
            None => return Ok(()),
            Some(Frame::Line(line)) => incoming.frame(line.to_vec()).await,
            Some(Frame::TooLong { .. }) => {
                let error = TransportError::FrameTooLarge { limit: max };
                incoming.send(Incoming::Discarded(error)).await
            }
        };
        if !delivered {
            return Ok(());
        }
    }
}

/// How many frames may wait for the writer task before [`Connection::send`] waits.
const WRITE_QUEUE: usize = 64;

/// One frame for the writer task, and where its outcome goes.
type Line = (Vec<u8>, oneshot::Sender<Result<(), TransportError>>);

/// The sending side over a byte stream: a task of its own writes each frame with `\n` and
/// flushes it, one at a time, so a caller that gives up (a dropped call) never leaves half a
/// line on the stream. Closing ends the queue: what is queued is written, then the server
/// sees end of input.
pub(crate) struct LineWriter {
    queue: std::sync::Mutex<Option<mpsc::Sender<Line>>>,
    writer: AbortHandle,
    reader: Option<AbortHandle>,
    on_close: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl LineWriter {
    /// A writer to `output`; `reader`, when given, is aborted on close and on drop.
    pub(crate) fn new(output: BoxWriter, reader: Option<AbortHandle>) -> Self {
        let (queue, lines) = mpsc::channel(WRITE_QUEUE);
        let writer = tokio::spawn(write_lines(output, lines)).abort_handle();
        Self {
            queue: std::sync::Mutex::new(Some(queue)),
            writer,
            reader,
            on_close: None,
        }
    }

    /// Runs `on_close` (synchronously) on close and on drop, after the writer is dropped.
    pub(crate) fn with_on_close(mut self, on_close: Arc<dyn Fn() + Send + Sync>) -> Self {
        self.on_close = Some(on_close);
        self
    }

    /// Ends the queue: the frames already queued are written, then the server reads end of
    /// input. The reader keeps running.
    pub(crate) fn close_output(&self) {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
    }

    fn finish(&self) {
        if let Some(reader) = &self.reader {
            reader.abort();
        }
        if let Some(on_close) = &self.on_close {
            on_close();
        }
    }
}

/// The writer task: each frame written whole, with `\n`, and flushed; the first error ends
/// it (later sends fail with [`TransportError::Closed`]).
async fn write_lines(mut output: BoxWriter, mut lines: mpsc::Receiver<Line>) {
    while let Some((mut line, done)) = lines.recv().await {
        line.push(b'\n');
        let written = async {
            output.write_all(&line).await?;
            output.flush().await
        };
        let outcome = written.await.map_err(TransportError::from);
        let failed = outcome.is_err();
        let _ = done.send(outcome);
        if failed {
            return;
        }
    }
    let _ = output.shutdown().await;
}

impl Connection for LineWriter {
    fn send(&self, frame: OutgoingFrame) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            let queue = self
                .queue
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone()
                .ok_or(TransportError::Closed)?;
            let (done, written) = oneshot::channel();
            queue
                .send((frame.bytes, done))
                .await
                .map_err(|_| TransportError::Closed)?;
            written.await.unwrap_or(Err(TransportError::Closed))
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            self.close_output();
            self.finish();
        })
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        self.writer.abort();
        self.finish();
    }
}
