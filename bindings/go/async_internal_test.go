package hookline

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The fallback used where a blocking run is refused (a callback hook on a
// hookline thread): hl_engine_run_async with a done callback on a foreign
// thread and a channel hand-off back to the caller. Exercised directly,
// since the public methods only take it from such threads.
func TestAsyncFallbackRunsOnHooklineThreadsAndHonoursTheContext(t *testing.T) {
	dir := t.TempDir()
	e, err := NewEngine(EngineOptions{
		Workspace: dir, SessionID: "s",
		Hooks: json.RawMessage(`{"Notification":[{"hooks":[{"type":"command","command":"sleep 60"}]}]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var cbTid atomic.Int64
	if err := e.AddCallbackHook(EventPreToolUse, "", "tid", func(json.RawMessage) (CallbackReply, error) {
		cbTid.Store(int64(syscall.Gettid()))
		return ReplyAllow(), nil
	}); err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	run := func(ctx context.Context, event Event, input string) (json.RawMessage, error) {
		if !e.life.acquire() {
			t.Fatal("engine closed")
		}
		defer e.life.release()
		cs, err := cBytes([]byte(input), "input")
		if err != nil {
			t.Fatal(err)
		}
		defer freeC(cs)
		return e.runEventAsync(ctx, event, cs)
	}
	base := OutstandingHandles()
	out, err := run(context.Background(), EventPreToolUse, `{"tool_name":"Bash"}`)
	if err != nil {
		t.Fatal(err)
	}
	var o PreToolUseOutcome
	if err := json.Unmarshal(out, &o); err != nil || o.Decision != DecisionAllow {
		t.Fatalf("outcome %s (%v)", out, err)
	}
	if tid := cbTid.Load(); tid == 0 || tid == int64(syscall.Gettid()) {
		t.Fatalf("async callback ran on thread %d, the caller's is %d", tid, syscall.Gettid())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = run(ctx, EventNotification, `{"notification_type":"n","title":"t","message":"m"}`)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrCancelled) {
		t.Fatalf("err = %v, want DeadlineExceeded and ErrCancelled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("cancelled async run took %v", d)
	}
	deadline := time.Now().Add(5 * time.Second)
	for OutstandingHandles() != base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := OutstandingHandles(); got != base {
		t.Fatalf("async runs left %d handles", got-base)
	}
}
