//! A connection whose writes fail when the client does not take its answer: once a write has
//! made no progress for the write timeout, or once the client, since it fell behind, has taken
//! its answer slower than the minimum rate over at least the write timeout. A client that stops
//! reading, or reads a few bytes now and then, cannot hold its connection, its slot and its
//! answer forever. Every byte written gives its share of the response budget back.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep, sleep};

use super::response_budget::Unsent;

/// How a connection's writes are watched.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WriteLimits {
    /// The longest a write may make no progress; also the shortest time over which the rate is
    /// judged.
    pub(crate) timeout: Duration,
    /// The slowest average, in bytes per second, at which a client that fell behind may take
    /// its answer; `0`: not checked.
    pub(crate) min_rate: u64,
}

/// A TCP stream whose pending writes time out (see the module).
pub(crate) struct WriteTimeout {
    stream: TcpStream,
    limits: WriteLimits,
    /// Running while a write is pending; cleared by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
    /// Since the client fell behind (a write could not go out at once) and until the server
    /// has nothing more to write (a flush completes).
    behind: Option<Behind>,
    unsent: Arc<Unsent>,
}

struct Behind {
    since: Instant,
    taken: u64,
    /// When the rate is next judged.
    check: Pin<Box<Sleep>>,
}

impl WriteTimeout {
    pub(crate) fn new(stream: TcpStream, limits: WriteLimits, unsent: Arc<Unsent>) -> WriteTimeout {
        WriteTimeout {
            stream,
            limits,
            stalled: None,
            behind: None,
            unsent,
        }
    }

    /// After a write (or flush) returned `result` with `written` bytes: progress clears the
    /// stall timer, a pending write starts it (or checks it) and the rate is judged.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<T>>,
        written: impl FnOnce(&T) -> usize,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(ready) = &result {
            self.stalled = None;
            if let Ok(value) = ready {
                let written = written(value);
                self.unsent.written(written);
                if let Some(behind) = &mut self.behind {
                    behind.taken += written as u64;
                }
            }
            return result;
        }
        let limit = self.limits.timeout;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(sleep(limit)));
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of the answer within the write timeout",
            )));
        }
        if self.limits.min_rate > 0 && self.too_slow(cx) {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took its answer slower than the minimum rate",
            )));
        }
        Poll::Pending
    }

    /// Whether the client, behind since some time, has taken its answer below the minimum
    /// rate over at least the write timeout; otherwise sets the next check.
    fn too_slow(&mut self, cx: &mut Context<'_>) -> bool {
        let WriteLimits { timeout, min_rate } = self.limits;
        let behind = self.behind.get_or_insert_with(|| Behind {
            since: Instant::now(),
            taken: 0,
            check: Box::pin(sleep(timeout)),
        });
        while behind.check.as_mut().poll(cx).is_ready() {
            let elapsed = behind.since.elapsed();
            let owed = u128::from(min_rate) * elapsed.as_millis() / 1000;
            if u128::from(behind.taken) < owed {
                return true;
            }
            // Judged again when what it took would no longer cover the rate.
            let covered = Duration::from_millis(behind.taken.saturating_mul(1000) / min_rate);
            let next = (behind.since + covered).max(Instant::now() + Duration::from_millis(10));
            behind.check.as_mut().reset(next);
        }
        false
    }
}

impl AsyncRead for WriteTimeout {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteTimeout {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, result, |n| *n)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.watch(cx, result, |n| *n)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.stream).poll_flush(cx);
        if result.is_ready() {
            // hyper flushes once its buffer is written out: the client has caught up.
            this.behind = None;
        }
        this.watch(cx, result, |()| 0)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
