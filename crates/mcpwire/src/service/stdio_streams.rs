//! The process's standard input and output as [`serve_stdio`](super::serve_stdio) reads and
//! writes them: [`StdInput`] and [`StdOutput`].
//!
//! tokio's `Stdin` and `Stdout` hand every read and every write to a thread of the blocking
//! pool, since a terminal or a file cannot be polled: a request over stdio then costs a
//! handoff to that thread and back for its read, and again for its reply. A client that
//! spawns a server connects it by pipes (most) or by a UNIX socket pair (Node's
//! `child_process`, through libuv), and both can be polled. So on Linux the runtime's reactor
//! drives a stdin or stdout that is a pipe or a stream socket: the runtime's own thread reads
//! and writes, and nothing waits on a helper thread. Anything else (a terminal, a file, a
//! pipe that cannot be opened again, a datagram socket) is read and written through tokio's
//! `Stdin` and `Stdout`, as before.
//!
//! Neither is switched to non-blocking in place: `O_NONBLOCK` belongs to the open file
//! description, which fd 0 (or 1) shares with every process that inherited it, and under
//! `2>&1` fd 1 shares it with fd 2. Set there, their blocking reads and writes would fail
//! with `EAGAIN`. Instead:
//! - a pipe is opened again (`/proc/self/fd/N`), which gives a description of this process's
//!   own, non-blocking, with the same pipe behind it;
//! - a socket cannot be opened again, so a duplicate of its descriptor is registered with the
//!   reactor and each call asks for non-blocking behaviour itself (`recv` and `send` with
//!   `MSG_DONTWAIT`; `MSG_NOSIGNAL` too, so a reader that is gone is an error, not a signal).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

#[cfg(target_os = "linux")]
use std::os::fd::AsFd;

/// Standard input: its pipe or socket, polled by the reactor, or tokio's `Stdin`.
#[derive(Debug)]
pub(super) enum StdInput {
    /// Stdin's pipe, opened again and non-blocking.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Receiver),
    /// Stdin's stream socket, read with `MSG_DONTWAIT`.
    #[cfg(target_os = "linux")]
    Socket(linux::Socket),
    /// Anything else, read on the blocking pool.
    Std(tokio::io::Stdin),
}

/// Standard output: its pipe or socket, polled by the reactor, or tokio's `Stdout`.
#[derive(Debug)]
pub(super) enum StdOutput {
    /// Stdout's pipe, opened again and non-blocking.
    #[cfg(target_os = "linux")]
    Pipe(tokio::net::unix::pipe::Sender),
    /// Stdout's stream socket, written with `MSG_DONTWAIT`.
    #[cfg(target_os = "linux")]
    Socket(linux::Socket),
    /// Anything else, written on the blocking pool.
    Std(tokio::io::Stdout),
}

impl StdInput {
    /// Standard input, as its pipe or socket where it is one. Must be called within the
    /// runtime.
    pub(super) fn open() -> Self {
        #[cfg(target_os = "linux")]
        {
            let fd = std::io::stdin();
            if let Some(receiver) =
                linux::reopened(fd.as_fd(), |options, path| options.open_receiver(path))
            {
                return StdInput::Pipe(receiver);
            }
            if let Some(socket) = linux::Socket::new(fd.as_fd(), tokio::io::Interest::READABLE) {
                return StdInput::Socket(socket);
            }
        }
        StdInput::Std(tokio::io::stdin())
    }

    /// What drives it: `"pipe"` or `"socket"` (the reactor), or `"blocking pool"`.
    pub(super) fn driven_by(&self) -> &'static str {
        match self {
            #[cfg(target_os = "linux")]
            StdInput::Pipe(_) => "pipe",
            #[cfg(target_os = "linux")]
            StdInput::Socket(_) => "socket",
            StdInput::Std(_) => "blocking pool",
        }
    }
}

impl StdOutput {
    /// Standard output, as its pipe or socket where it is one. Must be called within the
    /// runtime.
    pub(super) fn open() -> Self {
        #[cfg(target_os = "linux")]
        {
            let fd = std::io::stdout();
            if let Some(sender) =
                linux::reopened(fd.as_fd(), |options, path| options.open_sender(path))
            {
                return StdOutput::Pipe(sender);
            }
            if let Some(socket) = linux::Socket::new(fd.as_fd(), tokio::io::Interest::WRITABLE) {
                return StdOutput::Socket(socket);
            }
        }
        StdOutput::Std(tokio::io::stdout())
    }

    /// What drives it: `"pipe"` or `"socket"` (the reactor), or `"blocking pool"`.
    pub(super) fn driven_by(&self) -> &'static str {
        match self {
            #[cfg(target_os = "linux")]
            StdOutput::Pipe(_) => "pipe",
            #[cfg(target_os = "linux")]
            StdOutput::Socket(_) => "socket",
            StdOutput::Std(_) => "blocking pool",
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
    use std::os::unix::fs::FileTypeExt;
    use std::pin::Pin;
    use std::task::{Context, Poll, ready};

    use rustix::net::{RecvFlags, SendFlags, SocketType};
    use tokio::io::unix::AsyncFd;
    use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
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

    /// A stream socket's duplicate descriptor, registered with the reactor and left blocking:
    /// each `recv` and `send` is non-blocking by its own flags (see the module).
    #[derive(Debug)]
    pub(in crate::service) struct Socket {
        fd: AsyncFd<OwnedFd>,
    }

    impl Socket {
        /// `fd`, duplicated and registered for `interest`, when it is a stream socket (UNIX or
        /// TCP); `None` otherwise, or when it cannot be duplicated or registered.
        pub(super) fn new(fd: BorrowedFd<'_>, interest: Interest) -> Option<Self> {
            // `ENOTSOCK` for anything that is not a socket; a datagram socket has no stream.
            if rustix::net::sockopt::socket_type(fd).ok()? != SocketType::STREAM {
                return None;
            }
            let fd = fd.try_clone_to_owned().ok()?;
            // Deprecated since tokio 1.54 for any `T`, whose descriptor could change or close
            // while registered; its replacement is `unsafe`. An `OwnedFd` meets the contract
            // by construction: its one descriptor stays open, and the same, until it is
            // dropped with the registration. tokio's socket types are no way round: they
            // refuse a descriptor left blocking.
            #[allow(deprecated)]
            let fd = AsyncFd::with_interest(fd, interest).ok()?;
            Some(Socket { fd })
        }
    }

    impl AsyncRead for Socket {
        fn poll_read(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            loop {
                let mut ready = ready!(self.fd.poll_read_ready(cx))?;
                let unfilled = buf.initialize_unfilled();
                let read = ready
                    .try_io(|fd| Ok(rustix::net::recv(fd, &mut *unfilled, RecvFlags::DONTWAIT)?.0));
                if let Ok(read) = read {
                    buf.advance(read?);
                    return Poll::Ready(Ok(()));
                }
                // `EAGAIN`: the readiness was stale and is cleared; wait for the next.
            }
        }
    }

    impl AsyncWrite for Socket {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            loop {
                let mut ready = ready!(self.fd.poll_write_ready(cx))?;
                let flags = SendFlags::DONTWAIT | SendFlags::NOSIGNAL;
                if let Ok(written) = ready.try_io(|fd| Ok(rustix::net::send(fd, buf, flags)?)) {
                    return Poll::Ready(written);
                }
            }
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            // `send` leaves nothing buffered here.
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            // Not `shutdown(2)`: the socket is shared with whoever else holds it (stdout under
            // `2>&1`, a parent), and it is theirs to end. Dropping closes only the duplicate.
            Poll::Ready(Ok(()))
        }
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
            #[cfg(target_os = "linux")]
            StdInput::Socket(socket) => Pin::new(socket).poll_read(cx, buf),
            StdInput::Std(stdin) => Pin::new(stdin).poll_read(cx, buf),
        }
    }
}

/// `$call`, with `$stream` bound to whichever stream `$output` holds.
macro_rules! on_output {
    ($output:expr, $stream:ident => $call:expr) => {
        match $output {
            #[cfg(target_os = "linux")]
            StdOutput::Pipe($stream) => $call,
            #[cfg(target_os = "linux")]
            StdOutput::Socket($stream) => $call,
            StdOutput::Std($stream) => $call,
        }
    };
}

impl AsyncWrite for StdOutput {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        on_output!(self.get_mut(), stream => Pin::new(stream).poll_write(cx, buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        on_output!(self.get_mut(), stream => Pin::new(stream).poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        on_output!(self.get_mut(), stream => Pin::new(stream).poll_shutdown(cx))
    }
}
