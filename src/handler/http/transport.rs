//! The socket under the http handler: ureq speaks HTTP/1.1 (and rustls
//! TLS) over this transport, and this transport owns every wait. Each wait
//! is one `poll(2)` on the socket and the run's cancellation descriptor,
//! bounded by the hook's deadline, so a server that never answers, trickles
//! or stalls costs at most the hook's timeout, and a cancel (or closing the
//! engine) ends the request at once.
//!
//! A cancel is seen within a few milliseconds (each `poll` is bounded by
//! [`CANCEL_CHECK`]). The deadline and the cancellation token of the call in progress are
//! thread-local ([`Scope`]): ureq runs a request on the calling thread, and
//! a pooled (keep-alive) connection serves whichever call uses it next.
//! Connecting is non-blocking too (a `connect` to an address that does not
//! answer is bounded the same way).

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::io::Errno;
use rustix::net::{AddressFamily, SocketType};
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{Buffers, ConnectionDetails, Connector, LazyBuffers, NextTimeout, Transport};

use crate::runner::CancelToken;

thread_local! {
    static SCOPE: RefCell<Option<(Instant, Option<CancelToken>)>> = const { RefCell::new(None) };
}

/// The deadline and cancellation of the request running on this thread;
/// restored on drop.
pub(super) struct Scope {
    previous: Option<(Instant, Option<CancelToken>)>,
}

impl Scope {
    pub(super) fn enter(deadline: Instant, token: Option<&CancelToken>) -> Scope {
        let previous = SCOPE.with(|s| s.replace(Some((deadline, token.cloned()))));
        Scope { previous }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        SCOPE.with(|s| *s.borrow_mut() = previous);
    }
}

/// The error a cancelled wait returns (recognised by the handler by the
/// token, not by this text).
fn cancelled() -> ureq::Error {
    ureq::Error::Io(io::Error::new(io::ErrorKind::Interrupted, "the run was cancelled"))
}

/// How long one `poll` waits at most before the wait looks at the run's
/// cancellation again (a cancel ends a request within this).
const CANCEL_CHECK: std::time::Duration = std::time::Duration::from_millis(5);

/// Wait until `fd` is ready for `events`, the scope's deadline (or ureq's
/// own `timeout`) passes, or the scope's run is cancelled.
fn wait(fd: BorrowedFd<'_>, events: PollFlags, timeout: &NextTimeout) -> Result<(), ureq::Error> {
    let (deadline, token) = SCOPE.with(|s| s.borrow().clone()).unzip();
    let token = token.flatten();
    let until = [deadline, Instant::now().checked_add(*timeout.after)].into_iter().flatten().min();
    loop {
        if token.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Err(cancelled());
        }
        let left = until.map(|u| u.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Err(ureq::Error::Timeout(timeout.reason));
        }
        let slice = left.map_or(CANCEL_CHECK, |l| l.min(CANCEL_CHECK));
        let ts = Timespec::try_from(slice).ok();
        let mut fds = [PollFd::from_borrowed_fd(fd, events)];
        match poll(&mut fds, ts.as_ref()) {
            Ok(_) if !fds[0].revents().is_empty() => return Ok(()),
            Ok(_) | Err(Errno::INTR) => {}
            Err(e) => return Err(ureq::Error::Io(e.into())),
        }
    }
}

/// A non-blocking TCP connection whose waits are bounded by the scope.
///
/// Writes are held back until the transport next waits for input (or a
/// lot is pending): ureq transmits a request's head and its body
/// separately, and one segment instead of two saves the server a wake-up
/// per request.
pub(super) struct HookTransport {
    stream: TcpStream,
    buffers: LazyBuffers,
    /// Output not sent yet.
    pending: Vec<u8>,
    /// The last thing done was sending: the answer cannot be there yet, so
    /// the next read waits first instead of trying.
    just_sent: bool,
    /// When data was last read (`None`: never, or the peer closed).
    last_read: Option<Instant>,
}

/// A connection read from less than this long ago is open (see `is_open`).
const JUST_READ: std::time::Duration = std::time::Duration::from_micros(200);

/// Pending output beyond this is sent without waiting for a read.
const MAX_PENDING: usize = 64 * 1024;

impl HookTransport {
    /// Send everything pending.
    fn flush(&mut self, timeout: &NextTimeout) -> Result<(), ureq::Error> {
        let mut data = &self.pending[..];
        while !data.is_empty() {
            match (&self.stream).write(data) {
                Ok(0) => return Err(ureq::Error::Io(io::ErrorKind::WriteZero.into())),
                Ok(n) => data = &data[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait(self.stream.as_fd(), PollFlags::OUT, timeout)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ureq::Error::Io(e)),
            }
        }
        self.pending.clear();
        self.just_sent = true;
        Ok(())
    }
}

impl std::fmt::Debug for HookTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookTransport").field("peer", &self.stream.peer_addr().ok()).finish()
    }
}

impl Transport for HookTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.pending.extend_from_slice(&self.buffers.output()[..amount]);
        if self.pending.len() >= MAX_PENDING {
            self.flush(&timeout.for_write())?;
        }
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        if !self.pending.is_empty() {
            self.flush(&timeout.for_write())?;
        }
        let timeout = timeout.for_read();
        if std::mem::take(&mut self.just_sent) {
            wait(self.stream.as_fd(), PollFlags::IN, &timeout)?;
        }
        loop {
            let buf = self.buffers.input_append_buf();
            match (&self.stream).read(buf) {
                Ok(n) => {
                    self.buffers.input_appended(n);
                    self.last_read = (n > 0).then(Instant::now);
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait(self.stream.as_fd(), PollFlags::IN, &timeout)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ureq::Error::Io(e)),
            }
        }
    }

    /// A pooled connection is reusable while the server has neither closed
    /// it nor sent anything unasked. Right after a response was read (ureq
    /// asks when it pools the connection, and again when the next request
    /// takes it) the answer is known without a system call.
    fn is_open(&mut self) -> bool {
        if self.last_read.is_some_and(|t| t.elapsed() < JUST_READ) {
            return true;
        }
        let mut byte = [0u8; 1];
        matches!(rustix::net::recv(&self.stream, &mut byte[..], PEEK_NOW), Err(Errno::AGAIN))
    }
}

/// A peek that does not wait (the socket is non-blocking on every system;
/// `MSG_DONTWAIT` says so again where it exists).
#[cfg(unix)]
const PEEK_NOW: rustix::net::RecvFlags = rustix::net::RecvFlags::PEEK.union(rustix::net::RecvFlags::DONTWAIT);
#[cfg(windows)]
const PEEK_NOW: rustix::net::RecvFlags = rustix::net::RecvFlags::PEEK;

/// Opens [`HookTransport`]s (TLS is the next connector's).
#[derive(Debug, Default)]
pub(super) struct HookConnector;

impl Connector<()> for HookConnector {
    type Out = HookTransport;

    fn connect(&self, details: &ConnectionDetails, _: Option<()>) -> Result<Option<HookTransport>, ureq::Error> {
        let mut last = None;
        for addr in details.addrs.iter() {
            match connect(addr, &details.timeout) {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    let config = details.config;
                    let buffers = LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size());
                    return Ok(Some(HookTransport {
                        stream,
                        buffers,
                        pending: Vec::new(),
                        just_sent: false,
                        last_read: None,
                    }));
                }
                // A timeout or a cancel ends the attempt; another error tries the next address.
                Err(e @ (ureq::Error::Timeout(_) | ureq::Error::Io(_))) if is_final(&e) => return Err(e),
                Err(e) => last = Some(e),
            }
        }
        Err(last
            .unwrap_or_else(|| ureq::Error::Io(io::Error::new(io::ErrorKind::NotFound, "no address to connect to"))))
    }
}

fn is_final(e: &ureq::Error) -> bool {
    match e {
        ureq::Error::Timeout(_) => true,
        ureq::Error::Io(io) => io.kind() == io::ErrorKind::Interrupted,
        _ => false,
    }
}

/// A close-on-exec, non-blocking stream socket: in one call where the
/// system has the flags (Linux, the BSDs), else set right after creation
/// (macOS has no `SOCK_CLOEXEC`; hook processes are spawned with their own
/// descriptor list, so the short window does not leak the socket).
#[cfg(not(any(target_os = "macos", target_os = "ios", windows)))]
fn stream_socket(family: AddressFamily) -> rustix::io::Result<OwnedFd> {
    use rustix::net::SocketFlags;
    rustix::net::socket_with(family, SocketType::STREAM, SocketFlags::CLOEXEC | SocketFlags::NONBLOCK, None)
}

#[cfg(any(target_os = "macos", target_os = "ios"))]
fn stream_socket(family: AddressFamily) -> rustix::io::Result<OwnedFd> {
    let fd = rustix::net::socket(family, SocketType::STREAM, None)?;
    rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::CLOEXEC)?;
    rustix::fs::fcntl_setfl(&fd, rustix::fs::OFlags::NONBLOCK)?;
    Ok(fd)
}

/// Windows: a socket is made non-inheritable (hooks are started with
/// handle inheritance on, for their pipes) and non-blocking.
#[cfg(windows)]
fn stream_socket(family: AddressFamily) -> rustix::io::Result<OwnedFd> {
    use std::os::windows::io::AsRawSocket;
    let fd = rustix::net::socket(family, SocketType::STREAM, None)?;
    crate::runner::no_inherit(fd.as_raw_socket() as std::os::windows::io::RawHandle)
        .map_err(|e| rustix::io::Errno::from_io_error(&e).unwrap_or(rustix::io::Errno::INVAL))?;
    rustix::io::ioctl_fionbio(&fd, true)?;
    Ok(fd)
}

/// A non-blocking connect to `addr`, its wait bounded by the scope.
fn connect(addr: &SocketAddr, timeout: &NextTimeout) -> Result<TcpStream, ureq::Error> {
    let family = if addr.is_ipv4() { AddressFamily::INET } else { AddressFamily::INET6 };
    let fd = stream_socket(family).map_err(|e| ureq::Error::Io(e.into()))?;
    match rustix::net::connect(&fd, addr) {
        Ok(()) => {}
        // Windows says WSAEWOULDBLOCK where Unix says EINPROGRESS.
        Err(Errno::INPROGRESS) | Err(Errno::INTR) | Err(Errno::WOULDBLOCK) => {
            wait(fd.as_fd(), PollFlags::OUT, timeout)?;
            match rustix::net::sockopt::socket_error(&fd) {
                Ok(Ok(())) => {}
                Ok(Err(e)) | Err(e) => return Err(ureq::Error::Io(e.into())),
            }
        }
        Err(e) => return Err(ureq::Error::Io(e.into())),
    }
    Ok(TcpStream::from(fd))
}

/// Name resolution: an IP literal without a lookup (no thread, no system
/// call); a host name by the system resolver on a helper thread, waited for
/// until the scope's deadline and ended by its cancel (the lookup itself
/// cannot be interrupted; its thread ends on its own).
#[derive(Debug, Default)]
pub(super) struct HookResolver;

/// How often a wait for a name lookup looks at the run's cancellation.
const RESOLVE_CANCEL_CHECK: std::time::Duration = std::time::Duration::from_millis(5);

impl Resolver for HookResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        _config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let authority = uri.authority().ok_or_else(|| ureq::Error::BadUri(format!("{uri} has no host")))?;
        let https = uri.scheme_str().is_some_and(|s| s.eq_ignore_ascii_case("https"));
        let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
        let host = authority.host();
        let literal = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
        let mut out = self.empty();
        if let Ok(ip) = literal.parse::<std::net::IpAddr>() {
            out.push(SocketAddr::new(ip, port));
            return Ok(out);
        }
        let (deadline, token) = SCOPE.with(|s| s.borrow().clone()).unzip();
        let token = token.flatten();
        let until = [deadline, Instant::now().checked_add(*timeout.after)].into_iter().flatten().min();
        let name = format!("{host}:{port}");
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("hookline-dns".into())
            .spawn(move || {
                use std::net::ToSocketAddrs;
                let _ = tx.send(name.to_socket_addrs().map(|a| a.collect::<Vec<_>>()));
            })
            .map_err(ureq::Error::Io)?;
        let addrs = loop {
            if token.as_ref().is_some_and(CancelToken::is_cancelled) {
                return Err(cancelled());
            }
            let slice = match until {
                Some(u) => match u.checked_duration_since(Instant::now()) {
                    Some(left) if !left.is_zero() => left.min(RESOLVE_CANCEL_CHECK),
                    _ => return Err(ureq::Error::Timeout(timeout.reason)),
                },
                None => RESOLVE_CANCEL_CHECK,
            };
            match rx.recv_timeout(slice) {
                Ok(result) => break result.map_err(ureq::Error::Io)?,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(ureq::Error::Io(io::Error::other("the name lookup thread ended without an answer")))
                }
            }
        };
        for addr in addrs.into_iter().take(16) {
            out.push(addr);
        }
        if out.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(out)
    }
}
