//! A counting global allocator: the bench binary installs it (`#[global_allocator]`) to
//! report allocations per file and peak heap. Counting is off, one relaxed load per call,
//! except inside [`measure`], so timed runs pay almost nothing for it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// Wraps the system allocator and counts while enabled.
pub struct Counting;

static ENABLED: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(live, Relaxed);
}

fn shrank(by: usize) {
    // Blocks allocated before counting started may be freed inside it; saturate at 0.
    let _ = LIVE.fetch_update(Relaxed, Relaxed, |live| Some(live.saturating_sub(by)));
}

// SAFETY: every call is forwarded unchanged to `System`; the counters are plain atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            grew(layout.size());
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            grew(layout.size());
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ENABLED.load(Relaxed) {
            shrank(layout.size());
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ENABLED.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            shrank(layout.size());
            grew(new_size);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocation statistics of one measured region.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Calls to `alloc`, `alloc_zeroed` and `realloc`.
    pub allocs: usize,
    /// Highest number of live heap bytes allocated inside the region.
    pub peak: usize,
}

/// Runs `f` with counting enabled and returns its allocation statistics. Only meaningful in a
/// binary that installs [`Counting`] as its global allocator.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Stats) {
    ALLOCS.store(0, Relaxed);
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ENABLED.store(true, Relaxed);
    let out = std::hint::black_box(f());
    ENABLED.store(false, Relaxed);
    (
        out,
        Stats {
            allocs: ALLOCS.load(Relaxed),
            peak: PEAK.load(Relaxed),
        },
    )
}
