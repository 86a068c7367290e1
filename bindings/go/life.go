//go:build cgo

package hookline

import "sync/atomic"

// life guards a C handle against use after free without holding a lock
// across C calls (callbacks may re-enter the binding from inside a call).
// refs is 1 (the owner's reference, dropped by Close) plus one per call in
// progress; whoever drops the last reference frees the C handle.
type life struct {
	refs    atomic.Int64
	closed  atomic.Bool
	closing chan struct{} // closed by Close: wakes runs in flight
	freed   chan struct{} // closed once the C handle is freed
	free    func()
}

func newLife(free func()) *life {
	l := &life{closing: make(chan struct{}), freed: make(chan struct{}), free: free}
	l.refs.Store(1)
	return l
}

// acquire takes a reference for one call; false once Close has begun.
func (l *life) acquire() bool {
	if l.closed.Load() {
		return false
	}
	for {
		n := l.refs.Load()
		if n <= 0 {
			return false
		}
		if l.refs.CompareAndSwap(n, n+1) {
			break
		}
	}
	if l.closed.Load() {
		l.release()
		return false
	}
	return true
}

// release drops a reference; the last one frees the C handle.
func (l *life) release() {
	if l.refs.Add(-1) == 0 {
		l.free()
		close(l.freed)
	}
}

// close drops the owner's reference (once) and waits until the C handle is
// freed (hookline has released every callback when its free returns),
// except inside a hookline callback, where waiting could deadlock: there the
// handle is freed when the last call in progress returns.
func (l *life) close() {
	if l.closed.CompareAndSwap(false, true) {
		close(l.closing)
		l.release()
	}
	if inCallback() {
		return
	}
	<-l.freed
}
