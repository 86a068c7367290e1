//! The socket under the http handler: ureq speaks HTTP/1.1 (and rustls
//! TLS) over this transport, and this transport owns every wait. Each wait
//! is one `poll(2)` on the socket and the run's cancellation descriptor,
//! bounded by the hook's deadline, so a server that never answers, trickles
//! or stalls costs at most the hook's timeout, and a cancel (or closing the
//! engine) ends the request at once.
//!
//! The deadline and the cancellation token of the call in progress are
//! thread-local ([`Scope`]): ureq runs a request on the calling thread, and
//! a pooled (keep-alive) connection serves whichever call uses it next.
//! Connecting is non-blocking too (a `connect` to an address that does not
//! answer is bounded the same way).

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::fd::{AsFd, OwnedFd};
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::net::{AddressFamily, SocketFlags, SocketType};
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

/// Wait until `fd` is ready for `events`, the scope's deadline (or ureq's
/// own `timeout`) passes, or the scope's run is cancelled.
fn wait(fd: std::os::fd::BorrowedFd<'_>, events: PollFlags, timeout: &NextTimeout) -> Result<(), ureq::Error> {
    let (deadline, token) = SCOPE.with(|s| s.borrow().clone()).unzip();
    let token = token.flatten();
    let start = Instant::now();
    let ureq_deadline = start.checked_add(*timeout.after);
    let until = match (deadline, ureq_deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let wake = match &token {
        Some(t) => Some(t.wake_fd().map_err(ureq::Error::Io)?),
        None => None,
    };
    loop {
        if token.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Err(cancelled());
        }
        let now = Instant::now();
        let left = until.map(|u| u.saturating_duration_since(now));
        if left.is_some_and(|l| l.is_zero()) {
            return Err(ureq::Error::Timeout(timeout.reason));
        }
        let ts = left.and_then(|l| Timespec::try_from(l).ok());
        let mut fds =
            [PollFd::from_borrowed_fd(fd, events), PollFd::from_borrowed_fd(wake.unwrap_or(fd), PollFlags::IN)];
        let n = if wake.is_some() { 2 } else { 1 };
        match poll(&mut fds[..n], ts.as_ref()) {
            Ok(_) => {
                if n == 2 && !fds[1].revents().is_empty() {
                    return Err(cancelled());
                }
                if !fds[0].revents().is_empty() {
                    return Ok(());
                }
            }
            Err(Errno::INTR) => {}
            Err(e) => return Err(ureq::Error::Io(e.into())),
        }
    }
}

/// A non-blocking TCP connection whose waits are bounded by the scope.
pub(super) struct HookTransport {
    stream: TcpStream,
    buffers: LazyBuffers,
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
        let timeout = timeout.for_write();
        let mut data = &self.buffers.output()[..amount];
        while !data.is_empty() {
            match (&self.stream).write(data) {
                Ok(0) => return Err(ureq::Error::Io(io::ErrorKind::WriteZero.into())),
                Ok(n) => data = &data[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait(self.stream.as_fd(), PollFlags::OUT, &timeout)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ureq::Error::Io(e)),
            }
        }
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        let timeout = timeout.for_read();
        loop {
            let buf = self.buffers.input_append_buf();
            match (&self.stream).read(buf) {
                Ok(n) => {
                    self.buffers.input_appended(n);
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait(self.stream.as_fd(), PollFlags::IN, &timeout)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ureq::Error::Io(e)),
            }
        }
    }

    /// A pooled connection is reusable while the server has neither closed
    /// it nor sent anything unasked.
    fn is_open(&mut self) -> bool {
        let mut byte = [0u8; 1];
        matches!(
            rustix::net::recv(
                &self.stream,
                &mut byte[..],
                rustix::net::RecvFlags::PEEK | rustix::net::RecvFlags::DONTWAIT
            ),
            Err(Errno::AGAIN)
        )
    }
}

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
                    return Ok(Some(HookTransport { stream, buffers }));
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

/// A non-blocking connect to `addr`, its wait bounded by the scope.
fn connect(addr: &SocketAddr, timeout: &NextTimeout) -> Result<TcpStream, ureq::Error> {
    let family = if addr.is_ipv4() { AddressFamily::INET } else { AddressFamily::INET6 };
    let fd: OwnedFd =
        rustix::net::socket_with(family, SocketType::STREAM, SocketFlags::CLOEXEC | SocketFlags::NONBLOCK, None)
            .map_err(|e| ureq::Error::Io(e.into()))?;
    match rustix::net::connect(&fd, addr) {
        Ok(()) => {}
        Err(Errno::INPROGRESS) | Err(Errno::INTR) => {
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
