//! Issue 33, item 9: one large stdio frame costs at most about twice its size in memory.
//!
//! An 8 MiB `tools/call echo` frame goes through the reference server's stdio serving path
//! (`McpServer::serve`, what `mcpwire serve` runs: line framing, the envelope, the tool's
//! arguments, its result and the reply line), and a counting global allocator records the
//! most bytes live at once while it is served. Before the frame's line buffer was released
//! once read (its doubling room first) and the copies along the way were dropped as soon as
//! the next one was made, the peak was four times the frame (32 MiB); it is now twice the
//! frame and a few hundred KiB.
//!
//! A reallocation counts as its change in size (large blocks grow by remapping, not by a copy
//! that holds both), so the bound is about what the process's resident memory does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use mcpwire::Profile;

struct CountingAllocator;

/// Bytes allocated and not yet freed, all threads together.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since the last [`reset_peak`].
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::SeqCst) + by;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by, Ordering::SeqCst);
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same layout contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same layout contract as the caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        moved
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn reset_peak() -> usize {
    let now = LIVE.load(Ordering::SeqCst);
    PEAK.store(now, Ordering::SeqCst);
    now
}

const MIB: usize = 1 << 20;

/// What the server wrote: each line's length and its first bytes, so that the output itself
/// costs next to nothing.
#[derive(Default)]
struct Lines {
    /// (length without the `\n`, first 120 bytes) of every complete line.
    done: Vec<(usize, Vec<u8>)>,
    len: usize,
    head: Vec<u8>,
}

/// An output that keeps [`Lines`] instead of the bytes.
#[derive(Clone, Default)]
struct Summary(Arc<Mutex<Lines>>);

impl tokio::io::AsyncWrite for Summary {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let mut lines = self.0.lock().unwrap();
        for &byte in buf {
            if byte == b'\n' {
                let head = std::mem::take(&mut lines.head);
                let len = std::mem::take(&mut lines.len);
                lines.done.push((len, head));
            } else {
                lines.len += 1;
                if lines.head.len() < 120 {
                    lines.head.push(byte);
                }
            }
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// `initialize`, `notifications/initialized` and a `tools/call echo` frame of `size` bytes,
/// as `scripts/attack/stdio_frame.py` sends them.
fn input(size: usize) -> Vec<u8> {
    let mut input = Vec::with_capacity(size + 512);
    input.extend_from_slice(
        br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"peak","version":"1"}}}"#,
    );
    input.extend_from_slice(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    let head = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""#;
    let tail = br#""}}}"#;
    input.extend_from_slice(head);
    input.resize(input.len() + size - head.len() - tail.len(), b'x');
    input.extend_from_slice(tail);
    input.push(b'\n');
    input
}

#[test]
fn an_8_mib_frame_peaks_at_twice_its_size_plus_a_constant() {
    let frame = 8 * MIB;
    let server = mcpwire_cli::reference::mcp_server(Profile::mcp("2025-11-25").unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let output = Summary::default();
    let bytes = input(frame);
    let before = reset_peak();
    runtime
        .block_on(server.serve(std::io::Cursor::new(bytes), output.clone()))
        .expect("served to the end of input");
    let peak = PEAK.load(Ordering::SeqCst) - before;
    let lines = std::mem::take(&mut *output.0.lock().unwrap()).done;
    assert_eq!(lines.len(), 2, "the initialize and tools/call replies");
    let (len, head) = &lines[1];
    let head = String::from_utf8_lossy(head);
    assert!(
        head.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"xxxx"#),
        "the echo's reply: {head}"
    );
    assert!(*len > frame - 100, "the text echoed whole: {len} bytes");
    eprintln!(
        "peak while serving an {} MiB frame: {:.1} MiB ({:.2}x)",
        frame / MIB,
        peak as f64 / MIB as f64,
        peak as f64 / frame as f64
    );
    // The input itself (`bytes`, counted before) is not part of the peak. Twice the frame
    // (the line, or its buffer while it doubles; then two copies of the text at a time: the
    // line and the handler's params, the arguments and the tool's text, the result and its
    // JSON, the JSON and the reply line) plus 2 MiB for the rest.
    assert!(
        peak < 2 * frame + 2 * MIB,
        "the peak was {peak} bytes, {:.2} times the {frame}-byte frame",
        peak as f64 / frame as f64
    );
}
