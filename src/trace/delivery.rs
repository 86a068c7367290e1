//! Span delivery: one hookline thread per process calls the trace handlers,
//! one span at a time, in the order the spans ended.
//!
//! A run hands each span over as it ends ([`Delivery::push`]: a queue push
//! under a lock, and a wake-up when the thread is parked) and goes on;
//! the handler runs on the delivery thread, never on the run's thread and
//! never under a lock of the run. So a slow handler delays spans, not runs.
//! The queue is bounded ([`MAX_QUEUED`]): beyond it a span is dropped (and
//! a warning logged), rather than memory growing without limit.
//!
//! Each queued span holds its [`Tracer`], so a handler that is replaced or
//! removed while spans of it wait is released (its `free` called) once the
//! last of them has been delivered, on the delivery thread.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use super::{Span, Tracer};
use crate::error::{Error, Result};

/// Spans waiting for delivery, at most.
pub const MAX_QUEUED: usize = 16 * 1024;

struct State {
    queue: VecDeque<(Arc<Tracer>, Span)>,
    /// The thread is parked on `work`.
    parked: bool,
    /// Spans dropped since the last warning.
    dropped: u64,
}

/// The delivery queue of a process and its thread.
pub(crate) struct Delivery {
    state: Mutex<State>,
    work: Condvar,
}

static DELIVERY: Mutex<Option<(u32, Arc<Delivery>)>> = Mutex::new(None);

/// The process's delivery queue, its thread started on first use. After
/// `fork()` the child gets a queue and thread of its own (the parent's
/// thread does not exist there).
pub(crate) fn delivery() -> Result<Arc<Delivery>> {
    let pid = std::process::id();
    let mut guard = DELIVERY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, d)) = guard.as_ref() {
        if *owner == pid {
            return Ok(d.clone());
        }
    }
    let d = Arc::new(Delivery {
        state: Mutex::new(State { queue: VecDeque::new(), parked: false, dropped: 0 }),
        work: Condvar::new(),
    });
    let worker = d.clone();
    std::thread::Builder::new()
        .name("hookline-trace".into())
        .spawn(move || worker.work_loop())
        .map_err(|e| Error::io(format!("cannot start the trace delivery thread: {e}")))?;
    if let Some((_, old)) = guard.replace((pid, d.clone())) {
        // Inherited through fork(): its thread is gone; leave it be.
        std::mem::forget(old);
    }
    Ok(d)
}

impl Delivery {
    /// Queue `span` for `tracer`'s handler.
    pub(crate) fn push(&self, tracer: Arc<Tracer>, span: Span) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.queue.len() >= MAX_QUEUED {
            st.dropped += 1;
            let first = st.dropped == 1;
            drop(st);
            if first {
                crate::hl_warn!(
                    "trace: {MAX_QUEUED} spans wait for the trace handler; dropping spans until it catches up"
                );
            }
            // The span and its tracer are released here, outside the lock.
            drop((tracer, span));
            return;
        }
        st.queue.push_back((tracer, span));
        let wake = st.parked;
        st.parked = false;
        drop(st);
        if wake {
            self.work.notify_one();
        }
    }

    fn work_loop(self: Arc<Self>) {
        crate::runtime::mark_hookline_thread();
        loop {
            let (tracer, span, dropped) = {
                let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some((tracer, span)) = st.queue.pop_front() {
                        let dropped = if st.queue.is_empty() { std::mem::take(&mut st.dropped) } else { 0 };
                        break (tracer, span, dropped);
                    }
                    st.parked = true;
                    st = self.work.wait(st).unwrap_or_else(|e| e.into_inner());
                }
            };
            if dropped > 0 {
                crate::hl_warn!("trace: {dropped} spans were dropped (the trace handler was too slow)");
            }
            // No lock is held while the host's handler runs; a panic in it
            // (a Rust sink) must not take the thread down.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tracer.sink.span(&span)));
            // The last reference to a replaced handler releases it here.
            drop(tracer);
        }
    }
}
