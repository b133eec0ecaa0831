//! A counting global allocator for the allocation tests (`alloc_envelope`, `alloc_tool_call`):
//! it forwards every call to the system allocator and counts, per thread, the allocations
//! (and reallocations) and the bytes asked for. Install it in a test binary with
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: mcpwire_tests::counting_alloc::CountingAllocator =
//!     mcpwire_tests::counting_alloc::CountingAllocator;
//! ```
//!
//! Counting is thread-local, so the test harness's other threads do not count; work spread over
//! a current-thread tokio runtime runs on the thread that counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The allocator: [`System`], counted.
pub struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn record(size: usize) {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    let _ = BYTES.try_with(|n| n.set(n.get() + size as u64));
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made on this thread so far: (count, bytes).
pub fn so_far() -> (u64, u64) {
    (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get))
}

/// Runs `f` and returns its result with the allocations (count, bytes) it made on this thread.
pub fn counting<T>(f: impl FnOnce() -> T) -> (T, u64, u64) {
    let (count0, bytes0) = so_far();
    let out = f();
    let (count1, bytes1) = so_far();
    (out, count1 - count0, bytes1 - bytes0)
}

/// Allocations per call on this thread: (count, bytes), averaged over `calls` calls of `call`
/// made after as many warm-up calls. `call(i)` makes call `i` (and checks its outcome).
pub async fn per_call<F: AsyncFnMut(u64)>(calls: u64, mut call: F) -> (u64, u64) {
    for i in 0..calls {
        call(i).await;
    }
    let (count0, bytes0) = so_far();
    for i in calls..2 * calls {
        call(i).await;
    }
    let (count1, bytes1) = so_far();
    ((count1 - count0) / calls, (bytes1 - bytes0) / calls)
}
