package hookline_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

// Runs execute on the calling goroutine's OS thread (a blocking cgo call):
// a Go callback hook of the run sees the caller's thread, and no async
// completion handle is created.
func TestRunsExecuteOnTheCallingThreadWithoutAnAsyncHandOff(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(nil))
	var cbTid atomic.Int64
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Bash", "tid", func(json.RawMessage) (hookline.CallbackReply, error) {
		cbTid.Store(int64(syscall.Gettid()))
		return hookline.ReplyAllow(), nil
	}))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := int64(syscall.Gettid())
	base := hookline.OutstandingHandles()
	for _, ctx := range []context.Context{context.Background(), cancellableContext(t)} {
		out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Bash"})
		must(t, err)
		if out.Decision != hookline.DecisionAllow {
			t.Fatalf("decision %q", out.Decision)
		}
		if got := cbTid.Load(); got != tid {
			t.Fatalf("callback hook ran on thread %d, the caller is on %d", got, tid)
		}
		// No hook matches: answered on this thread too (no handle, no callback).
		cbTid.Store(0)
		out, err = e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Read"})
		must(t, err)
		if len(out.Hooks) != 0 || cbTid.Load() != 0 {
			t.Fatalf("no-match run ran hooks: %+v", out)
		}
		if got := hookline.OutstandingHandles(); got != base {
			t.Fatalf("a blocking run holds %d cgo handles", got-base)
		}
	}
}

func cancellableContext(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

// The decoded outcome of a run in which no hook ran is reused for the next
// such run; a caller that modifies its copy does not change the next one.
func TestNoHookOutcomesAreIndependentCopies(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(nil))
	a, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	a.Messages = append(a.Messages, hookline.Message{Text: "mine"})
	a.AdditionalContext = append(a.AdditionalContext, "mine")
	a.Raw[0] = 'X'
	b, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if len(b.Messages) != 0 || len(b.AdditionalContext) != 0 || len(b.Hooks) != 0 || b.Raw[0] != '{' {
		t.Fatalf("second no-hook outcome shares state with the first: %+v", b)
	}
	if !b.Continue || b.Decision != "" && b.Decision != hookline.DecisionContinue {
		t.Fatalf("no-hook outcome: %+v", b)
	}
}

// Close cancels runs blocked on callers' goroutines even when their context
// can never be cancelled (no watcher goroutine exists for them).
func TestCloseCancelsBlockingRunsWithBackgroundContexts(t *testing.T) {
	w := newWorkspace(t)
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{"Notification": {
		{command: `echo $$ > sh.pid; exec sleep 60`},
	}})))
	must(t, err)
	errc := make(chan error, 1)
	go func() {
		_, err := e.Notification(context.Background(), hookline.NotificationInput{NotificationType: "n", Title: "t", Message: "m"})
		errc <- err
	}()
	pid, err := strconv.Atoi(waitFile(t, w.path("sh.pid")))
	must(t, err)
	start := time.Now()
	e.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, hookline.ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the blocking run did not return after Close")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close + return took %v", d)
	}
	waitGone(t, pid, 3*time.Second)
}
