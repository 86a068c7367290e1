//! The Windows backend's system calls, each behind a safe type or
//! function: events, job objects, resuming a suspended process, named
//! pipes with overlapped I/O, and waits. Nothing here knows about hooks.
//!
//! Handles are `OwnedHandle`s (closed on drop). An overlapped operation's
//! `OVERLAPPED` and buffer live in a box owned by [`AsyncPipe`], which never
//! lets go of them while the operation is in flight: dropping the pipe
//! cancels the operation and waits for the cancellation to complete.

use std::ffi::OsStr;
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::io::{AsRawHandle, BorrowedHandle, FromRawHandle, OwnedHandle, RawHandle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use windows_sys::Win32::Foundation::{
    GetHandleInformation, GetLastError, SetHandleInformation, ERROR_ACCESS_DENIED, ERROR_BROKEN_PIPE, ERROR_HANDLE_EOF,
    ERROR_IO_INCOMPLETE, ERROR_IO_PENDING, ERROR_NO_DATA, ERROR_PIPE_NOT_CONNECTED, GENERIC_READ, GENERIC_WRITE,
    HANDLE, HANDLE_FLAG_INHERIT, INVALID_HANDLE_VALUE, WAIT_FAILED, WAIT_OBJECT_0, WAIT_TIMEOUT,
};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, ReadFile, WriteFile, FILE_FLAG_FIRST_PIPE_INSTANCE, FILE_FLAG_OVERLAPPED, FILE_READ_ATTRIBUTES,
    FILE_WRITE_ATTRIBUTES, OPEN_EXISTING, PIPE_ACCESS_INBOUND, PIPE_ACCESS_OUTBOUND,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation, SetInformationJobObject,
    TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Pipes::{
    CreateNamedPipeW, PIPE_READMODE_BYTE, PIPE_REJECT_REMOTE_CLIENTS, PIPE_TYPE_BYTE, PIPE_WAIT,
};
use windows_sys::Win32::System::Threading::{
    CreateEventW, GetCurrentProcess, GetProcessHandleCount, OpenThread, ResumeThread, SetEvent, WaitForMultipleObjects,
    INFINITE, THREAD_SUSPEND_RESUME,
};
use windows_sys::Win32::System::IO::{CancelIoEx, GetOverlappedResult, OVERLAPPED};

fn last_error() -> io::Error {
    io::Error::last_os_error()
}

/// A handle a `Create*` function returned: `None` for NULL or
/// `INVALID_HANDLE_VALUE` (the two failure values Win32 uses).
fn owned(handle: HANDLE) -> Option<OwnedHandle> {
    if handle.is_null() || handle == INVALID_HANDLE_VALUE {
        return None;
    }
    // SAFETY: a fresh handle just returned to us by the system, owned by
    // nobody else.
    Some(unsafe { OwnedHandle::from_raw_handle(handle as RawHandle) })
}

fn raw(handle: &impl AsRawHandle) -> HANDLE {
    handle.as_raw_handle() as HANDLE
}

/// A manual-reset event object, not signalled at first.
pub(crate) struct Event(OwnedHandle);

impl Event {
    pub(super) fn new() -> io::Result<Event> {
        // SAFETY: no security attributes, no name: plain arguments.
        let handle = unsafe { CreateEventW(std::ptr::null(), 1, 0, std::ptr::null()) };
        owned(handle).map(Event).ok_or_else(last_error)
    }

    /// Signal the event (it stays signalled).
    pub(super) fn set(&self) {
        // SAFETY: our open event handle.
        unsafe { SetEvent(raw(&self.0)) };
    }

    pub(super) fn handle(&self) -> BorrowedHandle<'_> {
        use std::os::windows::io::AsHandle;
        self.0.as_handle()
    }
}

/// A job object whose processes are all killed when its last handle
/// closes (`JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`), so a host that dies
/// mid-run leaves no hook behind.
pub(super) struct Job(OwnedHandle);

impl Job {
    pub(super) fn new() -> io::Result<Job> {
        // SAFETY: no security attributes, no name.
        let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        let job = Job(owned(handle).ok_or_else(last_error)?);
        job.set_limits(JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE)?;
        Ok(job)
    }

    fn set_limits(&self, flags: u32) -> io::Result<()> {
        // SAFETY: a zeroed JOBOBJECT_EXTENDED_LIMIT_INFORMATION is valid (all
        // integers), and the size passed is its size.
        let ok = unsafe {
            let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
            info.BasicLimitInformation.LimitFlags = flags;
            SetInformationJobObject(
                raw(&self.0),
                JobObjectExtendedLimitInformation,
                &info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION as *const core::ffi::c_void,
                std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            )
        };
        if ok == 0 {
            return Err(last_error());
        }
        Ok(())
    }

    /// Put `process` (not yet running: started suspended) in the job.
    pub(super) fn assign(&self, process: BorrowedHandle<'_>) -> io::Result<()> {
        // SAFETY: our job handle and a live process handle.
        if unsafe { AssignProcessToJobObject(raw(&self.0), raw(&process)) } == 0 {
            return Err(last_error());
        }
        Ok(())
    }

    /// End every process of the job with `code`.
    pub(super) fn terminate(&self, code: u32) -> io::Result<()> {
        // SAFETY: our job handle.
        if unsafe { TerminateJobObject(raw(&self.0), code) } == 0 {
            return Err(last_error());
        }
        Ok(())
    }

    /// Close the job without killing what is still in it (processes a hook
    /// left running after it exited on its own, as on Unix).
    pub(super) fn release(self) {
        if let Err(e) = self.set_limits(0) {
            crate::hl_debug!("cannot clear the hook job's kill-on-close limit ({e}); its leftovers end with it");
        }
    }
}

/// Resume every thread of process `pid` (started with `CREATE_SUSPENDED`:
/// its one main thread). Returns how many were resumed.
///
/// The standard library does not give a child's main-thread handle on
/// stable Rust, so the threads are found in a Toolhelp snapshot.
pub(super) fn resume_threads(pid: u32) -> io::Result<usize> {
    // SAFETY: plain arguments; the snapshot handle is owned below.
    let snapshot = owned(unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) }).ok_or_else(last_error)?;
    let mut entry = THREADENTRY32 { dwSize: std::mem::size_of::<THREADENTRY32>() as u32, ..THREADENTRY32::default() };
    let mut resumed = 0;
    // SAFETY: `entry` is a THREADENTRY32 with its dwSize set, as both
    // functions require; the snapshot handle is open.
    let mut more = unsafe { Thread32First(raw(&snapshot), &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: plain arguments; the thread handle is owned below.
            let thread = owned(unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) });
            if let Some(thread) = thread {
                // SAFETY: an open thread handle with THREAD_SUSPEND_RESUME.
                if unsafe { ResumeThread(raw(&thread)) } != u32::MAX {
                    resumed += 1;
                }
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(raw(&snapshot), &mut entry) } != 0;
    }
    Ok(resumed)
}

/// Which way a pipe carries data, seen from the hook.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// The hook reads (its stdin): we write.
    ToChild,
    /// The hook writes (its stdout or stderr): we read.
    FromChild,
}

/// A named pipe: our end for overlapped I/O, the hook's end for ordinary
/// (synchronous) I/O. Neither end is inheritable (the process spawner
/// makes an inheritable copy of the hook's end for the one child it is
/// meant for).
pub(super) fn pipe(direction: Direction, buffer: u32) -> io::Result<(AsyncPipe, OwnedHandle)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let access = match direction {
        Direction::ToChild => PIPE_ACCESS_OUTBOUND,
        Direction::FromChild => PIPE_ACCESS_INBOUND,
    };
    let mut attempts = 0;
    let (ours, name) = loop {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let name =
            format!(r"\\.\pipe\hookline-{}-{}-{nanos:x}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let wide = wide(OsStr::new(&name));
        // SAFETY: `wide` is NUL-terminated and outlives the call; no
        // security attributes (the handle is not inheritable).
        let handle = unsafe {
            CreateNamedPipeW(
                wide.as_ptr(),
                access | FILE_FLAG_FIRST_PIPE_INSTANCE | FILE_FLAG_OVERLAPPED,
                PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
                1,
                buffer,
                buffer,
                0,
                std::ptr::null(),
            )
        };
        match owned(handle) {
            Some(h) => break (h, wide),
            None => {
                let err = last_error();
                // Another pipe of that name exists: try another name.
                if err.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32) && attempts < 16 {
                    attempts += 1;
                    continue;
                }
                return Err(err);
            }
        }
    };
    let access = match direction {
        Direction::ToChild => GENERIC_READ | FILE_WRITE_ATTRIBUTES,
        Direction::FromChild => GENERIC_WRITE | FILE_READ_ATTRIBUTES,
    };
    // SAFETY: `name` is NUL-terminated and outlives the call; no security
    // attributes, no template.
    let theirs =
        unsafe { CreateFileW(name.as_ptr(), access, 0, std::ptr::null(), OPEN_EXISTING, 0, std::ptr::null_mut()) };
    let theirs = owned(theirs).ok_or_else(last_error)?;
    Ok((AsyncPipe::new(ours)?, theirs))
}

fn wide(s: &OsStr) -> Vec<u16> {
    s.encode_wide().chain(std::iter::once(0)).collect()
}

/// What an overlapped operation came to.
#[derive(Debug)]
pub(super) enum Progress {
    /// Still in flight: wait on [`AsyncPipe::event`].
    Pending,
    /// Done: this many bytes were read ([`AsyncPipe::data`]) or written.
    Done(usize),
    /// The other end is closed (end of file, or nobody reads any more).
    Closed,
    /// Another error (the pipe is of no further use).
    Failed(io::Error),
}

/// An operation's `OVERLAPPED` and buffer, at a fixed address (boxed) for
/// as long as the operation is in flight.
struct Slot {
    overlapped: OVERLAPPED,
    buffer: Vec<u8>,
}

/// Our end of a pipe, with at most one overlapped read or write in flight.
pub(super) struct AsyncPipe {
    handle: OwnedHandle,
    event: Event,
    slot: Box<Slot>,
    in_flight: bool,
}

// SAFETY: the raw pointers inside `OVERLAPPED` (the event handle) and the
// buffer are owned by the pipe; nothing is shared with another thread.
unsafe impl Send for AsyncPipe {}

impl AsyncPipe {
    fn new(handle: OwnedHandle) -> io::Result<AsyncPipe> {
        Ok(AsyncPipe {
            handle,
            event: Event::new()?,
            slot: Box::new(Slot { overlapped: OVERLAPPED::default(), buffer: Vec::new() }),
            in_flight: false,
        })
    }

    /// Signalled when the operation in flight completes.
    pub(super) fn event(&self) -> BorrowedHandle<'_> {
        self.event.handle()
    }

    pub(super) fn in_flight(&self) -> bool {
        self.in_flight
    }

    /// The bytes the last completed read brought (`Done(n)`: the first `n`).
    pub(super) fn data(&self) -> &[u8] {
        &self.slot.buffer
    }

    fn prepare(&mut self) {
        self.slot.overlapped = OVERLAPPED { hEvent: raw(&self.event.0), ..OVERLAPPED::default() };
    }

    /// Start reading up to `len` bytes (nothing must be in flight).
    pub(super) fn start_read(&mut self, len: usize) -> Progress {
        debug_assert!(!self.in_flight);
        self.prepare();
        self.slot.buffer.clear();
        self.slot.buffer.resize(len, 0);
        let slot = &mut *self.slot;
        // SAFETY: the buffer and OVERLAPPED are in the box, which stays put
        // until the operation completes (`check`) or is cancelled and
        // waited for (`Drop`); the handle was opened for overlapped I/O.
        let ok = unsafe {
            ReadFile(
                raw(&self.handle),
                slot.buffer.as_mut_ptr(),
                slot.buffer.len() as u32,
                std::ptr::null_mut(),
                &mut slot.overlapped,
            )
        };
        self.started(ok)
    }

    /// Start writing `data` (copied; nothing must be in flight).
    pub(super) fn start_write(&mut self, data: &[u8]) -> Progress {
        debug_assert!(!self.in_flight);
        self.prepare();
        self.slot.buffer.clear();
        self.slot.buffer.extend_from_slice(data);
        let slot = &mut *self.slot;
        // SAFETY: as in `start_read`.
        let ok = unsafe {
            WriteFile(
                raw(&self.handle),
                slot.buffer.as_ptr(),
                slot.buffer.len() as u32,
                std::ptr::null_mut(),
                &mut slot.overlapped,
            )
        };
        self.started(ok)
    }

    fn started(&mut self, ok: i32) -> Progress {
        if ok == 0 {
            // SAFETY: no arguments.
            let code = unsafe { GetLastError() };
            if code != ERROR_IO_PENDING {
                return failure(code);
            }
        }
        self.in_flight = true;
        self.check()
    }

    /// The state of the operation in flight, without waiting.
    pub(super) fn check(&mut self) -> Progress {
        if !self.in_flight {
            return Progress::Pending;
        }
        let mut n = 0u32;
        // SAFETY: the OVERLAPPED of the operation in flight on this handle.
        let ok = unsafe { GetOverlappedResult(raw(&self.handle), &self.slot.overlapped, &mut n, 0) };
        if ok != 0 {
            self.in_flight = false;
            return Progress::Done(n as usize);
        }
        // SAFETY: no arguments.
        let code = unsafe { GetLastError() };
        if code == ERROR_IO_INCOMPLETE || code == ERROR_IO_PENDING {
            return Progress::Pending;
        }
        self.in_flight = false;
        failure(code)
    }
}

fn failure(code: u32) -> Progress {
    match code {
        ERROR_BROKEN_PIPE | ERROR_HANDLE_EOF | ERROR_NO_DATA | ERROR_PIPE_NOT_CONNECTED => Progress::Closed,
        _ => Progress::Failed(io::Error::from_raw_os_error(code as i32)),
    }
}

impl Drop for AsyncPipe {
    fn drop(&mut self) {
        if self.in_flight {
            let mut n = 0u32;
            // SAFETY: the OVERLAPPED of the operation in flight; waiting for
            // its completion (normal or cancelled) before the box is freed
            // is what makes freeing it sound.
            unsafe {
                CancelIoEx(raw(&self.handle), &self.slot.overlapped);
                GetOverlappedResult(raw(&self.handle), &self.slot.overlapped, &mut n, 1);
            }
        }
    }
}

/// Wait until one of `handles` is signalled (its index) or `timeout`
/// passes (`None`); no timeout waits indefinitely. At most 64 handles.
pub(super) fn wait_any(handles: &[BorrowedHandle<'_>], timeout: Option<Duration>) -> io::Result<Option<usize>> {
    let raw_handles: Vec<HANDLE> = handles.iter().map(raw).collect();
    let ms = match timeout {
        None => INFINITE,
        // Rounded up, so a wait never ends before the deadline it serves.
        Some(t) => t.as_nanos().div_ceil(1_000_000).min(u128::from(INFINITE - 1)) as u32,
    };
    // SAFETY: an array of open handles and its length.
    let rc = unsafe { WaitForMultipleObjects(raw_handles.len() as u32, raw_handles.as_ptr(), 0, ms) };
    match rc {
        WAIT_TIMEOUT => Ok(None),
        WAIT_FAILED => Err(last_error()),
        n if (n - WAIT_OBJECT_0) < raw_handles.len() as u32 => Ok(Some((n - WAIT_OBJECT_0) as usize)),
        n => Err(io::Error::other(format!("unexpected wait result {n:#x}"))),
    }
}

/// Make a socket (or any handle) non-inheritable.
pub(crate) fn no_inherit(handle: RawHandle) -> io::Result<()> {
    // SAFETY: the caller's open handle; only its inherit flag changes.
    if unsafe { SetHandleInformation(handle as HANDLE, HANDLE_FLAG_INHERIT, 0) } == 0 {
        return Err(last_error());
    }
    Ok(())
}

/// How many handles this process has open, for tests that check that runs
/// leak none: `GetProcessHandleCount`, or where that says 0 (Wine 8 does
/// not count), the handle values below 2^18 that `GetHandleInformation`
/// accepts.
#[doc(hidden)]
pub fn open_handle_count() -> Option<u32> {
    let mut count = 0u32;
    // SAFETY: the pseudo-handle of this process and a valid out pointer.
    if unsafe { GetProcessHandleCount(GetCurrentProcess(), &mut count) } == 0 {
        return None;
    }
    if count > 0 {
        return Some(count);
    }
    let mut flags = 0u32;
    // Handle values are multiples of 4.
    let open = (1..1usize << 16)
        // SAFETY: asking about a handle value that may not be open is what
        // the function is for; it fails for those.
        .filter(|i| unsafe { GetHandleInformation((i * 4) as HANDLE, &mut flags) } != 0)
        .count();
    Some(open as u32)
}
