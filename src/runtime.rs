//! The process-wide runtime, hookline-owned threads, and fork detection.
//!
//! Asynchronous runs execute on the **run pool** ([`spawn_run`]): a small
//! pool of hookline threads, started on first use, that never runs anything
//! but hook runs (so their callbacks and `done` never land on an async
//! executor's worker). A thread that has just finished a short run (under
//! [`SPIN_AFTER_RUNS_UNDER`]: no process was spawned) stays awake
//! for a few tens of microseconds ([`SPIN`]) before it parks: a host that submits
//! its next run from its `done` (the common request/response pattern) hands
//! it to a running thread instead of paying a futex wake-up and a
//! scheduler round trip, which on a small, busy machine costs more than the
//! run itself. Threads beyond [`WARM_THREADS`] exit after [`KEEP_ALIVE`]
//! without work; at most [`MAX_THREADS`] run at once (more runs queue).
//!
//! Every hookline thread is marked (so the blocking `hl_engine_run` can
//! refuse to run there); the host's signal dispositions are never touched.
//!
//! After `fork()` the parent's pool threads do not exist in the child.
//! Handles remember the pid that created them ([`ForkGuard`]); the pool is
//! keyed by pid too, so a child that creates new handles gets a fresh pool
//! and the parent's one is leaked (dropping it would wait on threads that
//! are not there).

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, Result, Status};

thread_local! {
    static HOOKLINE_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether the current thread is owned by hookline.
pub(crate) fn on_hookline_thread() -> bool {
    HOOKLINE_THREAD.with(|c| c.get())
}

/// Mark the current thread as hookline-owned (used for threads hookline
/// spawns itself outside the runtime).
pub(crate) fn mark_hookline_thread() {
    HOOKLINE_THREAD.with(|c| c.set(true));
}

/// The current process id.
pub(crate) fn current_pid() -> u32 {
    std::process::id()
}

/// Remembers the process that created a handle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ForkGuard {
    pid: u32,
}

impl Default for ForkGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl ForkGuard {
    pub(crate) fn new() -> Self {
        ForkGuard { pid: current_pid() }
    }
    /// `Err(HL_ERR_FORKED)` when called in a process other than the creator.
    pub(crate) fn check(&self) -> Result<()> {
        if self.pid == current_pid() {
            Ok(())
        } else {
            Err(Error::new(
                Status::Forked,
                "this handle was created before fork(); create a new one in the child process",
            ))
        }
    }
    /// Whether we are still in the creating process.
    pub(crate) fn same_process(&self) -> bool {
        self.pid == current_pid()
    }
}

// ----- the run pool -------------------------------------------------------------

/// How long a run-pool thread keeps looking for the next run after finishing
/// one, before it parks on the condition variable.
pub(crate) const SPIN: Duration = Duration::from_micros(50);

/// A run that took longer than this is not followed by a spin: its thread
/// parks at once. The spin pays off for runs of a few microseconds (a
/// callback hook, a run that matched nothing), where a wake-up would cost
/// more than the run; after a run that spawned processes (a millisecond or
/// more), a wake-up is a small part of the next run, while a spin would
/// take CPU time from the hooks of other runs on a busy machine.
pub(crate) const SPIN_AFTER_RUNS_UNDER: Duration = Duration::from_micros(500);

/// Run-pool threads kept parked (not exited) when there is no work.
pub(crate) const WARM_THREADS: usize = 2;

/// How long a run-pool thread beyond [`WARM_THREADS`] waits for work before
/// it exits.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Most run-pool threads alive at once (runs beyond wait in the queue).
pub(crate) const MAX_THREADS: usize = 512;

type Job = Box<dyn FnOnce() + Send + 'static>;

struct PoolState {
    queue: VecDeque<Job>,
    /// Threads alive.
    threads: usize,
    /// Threads parked on `work` (not spinning, not running).
    parked: usize,
    /// Wake-ups sent to parked threads and not yet received.
    notified: usize,
}

struct Pool {
    state: Mutex<PoolState>,
    work: Condvar,
    /// Jobs in `queue` (readable without the lock, for spinning threads).
    queued: AtomicUsize,
    /// Threads between runs, spinning for the next one.
    spinning: AtomicUsize,
}

static POOL: Mutex<Option<(u32, Arc<Pool>)>> = Mutex::new(None);

fn pool(pid: u32) -> Arc<Pool> {
    let mut guard = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, p)) = guard.as_ref() {
        if *owner == pid {
            return p.clone();
        }
    }
    let p = Arc::new(Pool {
        state: Mutex::new(PoolState { queue: VecDeque::new(), threads: 0, parked: 0, notified: 0 }),
        work: Condvar::new(),
        queued: AtomicUsize::new(0),
        spinning: AtomicUsize::new(0),
    });
    if let Some((_, old)) = guard.replace((pid, p.clone())) {
        // Inherited through fork(): its threads are gone; leave it be.
        std::mem::forget(old);
    }
    p
}

/// Run `job` on a run-pool thread (a hookline thread). Returns once the job
/// is queued; `Err` only when no thread exists and none can be started.
pub(crate) fn spawn_run(job: impl FnOnce() + Send + 'static) -> Result<()> {
    spawn_run_in(current_pid(), job)
}

/// [`spawn_run`] for a caller whose `guard` has just passed its
/// [`check`](ForkGuard::check) (so this is the process it names): saves the
/// `getpid` system call on the path of every asynchronous run.
pub(crate) fn spawn_run_checked(guard: &ForkGuard, job: impl FnOnce() + Send + 'static) -> Result<()> {
    spawn_run_in(guard.pid, job)
}

fn spawn_run_in(pid: u32, job: impl FnOnce() + Send + 'static) -> Result<()> {
    let pool = pool(pid);
    let mut st = pool.state.lock().unwrap_or_else(|e| e.into_inner());
    st.queue.push_back(Box::new(job));
    pool.queued.fetch_add(1, Ordering::SeqCst);
    // A spinning thread takes it without being woken. Otherwise wake a parked
    // one, or start one when every thread is busy.
    if pool.spinning.load(Ordering::SeqCst) >= st.queue.len() {
        return Ok(());
    }
    if st.parked > st.notified {
        st.notified += 1;
        drop(st);
        pool.work.notify_one();
        return Ok(());
    }
    if st.threads >= MAX_THREADS {
        return Ok(()); // a busy thread takes it when it finishes
    }
    // Started under the lock (rare: only when the pool grows), so that on
    // failure the job just queued is still the last one.
    let worker = pool.clone();
    match std::thread::Builder::new().name("hookline".into()).spawn(move || worker.work_loop()) {
        Ok(_) => {
            st.threads += 1;
            Ok(())
        }
        Err(e) if st.threads == 0 => {
            // Nobody could ever take it: give it back as an error.
            st.queue.pop_back();
            pool.queued.fetch_sub(1, Ordering::SeqCst);
            Err(Error::io(format!("cannot start a hookline thread: {e}")))
        }
        Err(_) => Ok(()), // a busy thread takes it when it finishes
    }
}

impl Pool {
    fn take(&self, st: &mut PoolState) -> Option<Job> {
        let job = st.queue.pop_front();
        if job.is_some() {
            self.queued.fetch_sub(1, Ordering::SeqCst);
        }
        job
    }

    fn work_loop(self: Arc<Self>) {
        mark_hookline_thread();
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(job) = self.take(&mut st) {
                drop(st);
                let started = Instant::now();
                // A panicking job must not take the thread (and its count) down.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                if started.elapsed() < SPIN_AFTER_RUNS_UNDER {
                    self.spin_for_work();
                }
                st = self.state.lock().unwrap_or_else(|e| e.into_inner());
                continue;
            }
            st.parked += 1;
            let (guard, timeout) = self.work.wait_timeout(st, KEEP_ALIVE).unwrap_or_else(|e| e.into_inner());
            st = guard;
            st.parked -= 1;
            if st.notified > 0 {
                st.notified -= 1;
            }
            if timeout.timed_out() && st.queue.is_empty() && st.threads > WARM_THREADS {
                st.threads -= 1;
                return;
            }
        }
    }

    /// Stay awake for up to [`SPIN`] waiting for a queued job: a busy wait
    /// (no system call per check, so a job is picked up within a fraction
    /// of a microsecond), yielding the CPU now and then in case the host
    /// thread this run's `done` just woke is queued behind us.
    fn spin_for_work(&self) {
        self.spinning.fetch_add(1, Ordering::SeqCst);
        let until = Instant::now() + SPIN;
        let mut rounds = 0u32;
        'spin: while Instant::now() < until {
            for _ in 0..64 {
                if self.queued.load(Ordering::SeqCst) != 0 {
                    break 'spin;
                }
                std::hint::spin_loop();
            }
            // Now and then let a thread waiting for this CPU run (the host
            // we just woke may have been queued here).
            rounds += 1;
            if rounds % 32 == 0 {
                std::thread::yield_now();
            }
        }
        self.spinning.fetch_sub(1, Ordering::SeqCst);
    }
}
