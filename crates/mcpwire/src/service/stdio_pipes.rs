//! The process's standard input and output as [`serve_stdio`](super::serve_stdio) reads and
//! writes them: [`StdInput`] and [`StdOutput`].
//!
//! tokio's `Stdin` and `Stdout` hand every read and every write to a thread of the blocking
//! pool, since a terminal or a file cannot be polled: a request over stdio then costs a
//! handoff to that thread and back for its read, and again for its reply. A client that
//! spawns a server connects it by pipes, and a pipe can be polled. So on Linux, where stdin
//! (or stdout) is a pipe, it is opened again, non-blocking, and the runtime's reactor drives
//! it: the runtime's own thread reads and writes, and nothing waits on a helper thread.
//! Anything else (a terminal, a file, a socket, or a pipe that cannot be opened again) is read
//! and written through tokio's `Stdin` and `Stdout`, as before.
//!
//! Why opened again (`/proc/self/fd/N`), not switched to non-blocking in place: `O_NONBLOCK`
//! belongs to the open file description, which fd 0 (or 1) shares with every process that
//! inherited it, and under `2>&1` fd 1 shares it with fd 2. Set there, their blocking reads
//! and writes would fail with `EAGAIN`. Opening the pipe again gives a description of this
//! process's own, with the same pipe behind it.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

#[cfg(target_os = "linux")]
use std::os::fd::AsFd;

/// Standard input: its pipe, polled by the reactor, or tokio's `Stdin`.
#[derive(Debug)]
pub(super) enum StdInput {
    /// Stdin's pipe, opened again and non-blocking.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Receiver),
    /// Anything else, read on the blocking pool.
    Std(tokio::io::Stdin),
}

/// Standard output: its pipe, polled by the reactor, or tokio's `Stdout`.
#[derive(Debug)]
pub(super) enum StdOutput {
    /// Stdout's pipe, opened again and non-blocking.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Sender),
    /// Anything else, written on the blocking pool.
    Std(tokio::io::Stdout),
}

impl StdInput {
    /// Standard input, as its pipe where it is one. Must be called within the runtime.
    pub(super) fn open() -> Self {
        #[cfg(target_os = "linux")]
        if let Some(receiver) = linux::reopened(std::io::stdin().as_fd(), |options, path| {
            options.open_receiver(path)
        }) {
            return StdInput::Pipe(receiver);
        }
        StdInput::Std(tokio::io::stdin())
    }

    /// Whether the reactor drives it (a pipe), rather than the blocking pool.
    pub(super) fn polled(&self) -> bool {
        !matches!(self, StdInput::Std(_))
    }
}

impl StdOutput {
    /// Standard output, as its pipe where it is one. Must be called within the runtime.
    pub(super) fn open() -> Self {
        #[cfg(target_os = "linux")]
        if let Some(sender) = linux::reopened(std::io::stdout().as_fd(), |options, path| {
            options.open_sender(path)
        }) {
            return StdOutput::Pipe(sender);
        }
        StdOutput::Std(tokio::io::stdout())
    }

    /// Whether the reactor drives it (a pipe), rather than the blocking pool.
    pub(super) fn polled(&self) -> bool {
        !matches!(self, StdOutput::Std(_))
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::fd::{AsRawFd, BorrowedFd};
    use std::os::unix::fs::FileTypeExt;

    use tokio::net::unix::pipe::OpenOptions;

    /// Descriptor `fd`, opened again through `/proc/self/fd` by `open` when it is a pipe;
    /// `None` when it is not one or cannot be opened again (no `/proc`, a pipe of another
    /// user, a stdout whose reader is gone: `ENXIO`).
    pub(super) fn reopened<T>(
        fd: BorrowedFd<'_>,
        open: impl FnOnce(&OpenOptions, &str) -> io::Result<T>,
    ) -> Option<T> {
        // Only a pipe is opened again: opening a terminal could make it the controlling one.
        if !is_pipe(fd) {
            return None;
        }
        let path = format!("/proc/self/fd/{}", fd.as_raw_fd());
        open(&OpenOptions::new(), &path).ok()
    }

    /// Whether `fd` is a pipe or FIFO.
    fn is_pipe(fd: BorrowedFd<'_>) -> bool {
        fd.try_clone_to_owned()
            .map(std::fs::File::from)
            .and_then(|file| file.metadata())
            .is_ok_and(|meta| meta.file_type().is_fifo())
    }
}

impl AsyncRead for StdInput {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            StdInput::Pipe(pipe) => Pin::new(pipe).poll_read(cx, buf),
            StdInput::Std(stdin) => Pin::new(stdin).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for StdOutput {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            StdOutput::Pipe(pipe) => Pin::new(pipe).poll_write(cx, buf),
            StdOutput::Std(stdout) => Pin::new(stdout).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            StdOutput::Pipe(pipe) => Pin::new(pipe).poll_flush(cx),
            StdOutput::Std(stdout) => Pin::new(stdout).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            #[cfg(target_os = "linux")]
            StdOutput::Pipe(pipe) => Pin::new(pipe).poll_shutdown(cx),
            StdOutput::Std(stdout) => Pin::new(stdout).poll_shutdown(cx),
        }
    }
}
