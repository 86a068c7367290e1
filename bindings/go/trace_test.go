package hookline_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

const hostTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// spanLog collects the spans a trace handler receives.
type spanLog struct {
	mu    sync.Mutex
	spans []hookline.Span
}

func (l *spanLog) add(s hookline.Span) {
	l.mu.Lock()
	l.spans = append(l.spans, s)
	l.mu.Unlock()
}

func (l *spanLog) all() []hookline.Span {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]hookline.Span(nil), l.spans...)
}

func bashInput() hookline.PreToolUseInput {
	return hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}, ToolCallID: "c-1"}
}

func TestTraceHandlerGetsARunSpanAndOneSpanPerHookBeforeCloseReturns(t *testing.T) {
	w := newWorkspace(t)
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{
		"PreToolUse": {{matcher: "Bash", command: "echo no >&2; exit 2"}},
	})))
	must(t, err)
	var log spanLog
	must(t, e.SetTraceHandler(log.add))
	out, err := e.PreToolUse(context.Background(), bashInput())
	must(t, err)
	if out.Decision != hookline.DecisionDeny {
		t.Fatalf("decision %q", out.Decision)
	}
	e.Close() // returns after the spans were delivered
	spans := log.all()
	if len(spans) != 2 {
		t.Fatalf("%d spans: %+v", len(spans), spans)
	}
	var run, hook hookline.Span
	for _, s := range spans {
		if s.Level == "run" {
			run = s
		} else {
			hook = s
		}
	}
	if run.Name != "hooks PreToolUse" || run.ParentSpanID != "" || run.Attributes["hook.decision"] != "deny" {
		t.Fatalf("run span %+v", run)
	}
	if hook.ParentSpanID != run.SpanID || hook.TraceID != run.TraceID || hook.Attributes["hook.exit_code"] != int64(2) {
		t.Fatalf("hook span %+v (run %+v)", hook, run)
	}
	if hook.Start.Before(run.Start) || hook.End.After(run.End) || hook.End.Before(hook.Start) {
		t.Fatalf("hook span [%v, %v] not inside run [%v, %v]", hook.Start, hook.End, run.Start, run.End)
	}
	if time.Since(run.Start) > time.Minute || len(hook.Raw) == 0 {
		t.Fatalf("run start %v, raw %q", run.Start, hook.Raw)
	}
}

func TestTraceContextOfTheRunsContextReachesTheHookProcess(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{
		"PreToolUse": {{matcher: "Bash", command: `printf '{"systemMessage":"%s"}' "$TRACEPARENT"`}},
	})))
	type key struct{}
	e.SetTraceContext(func(ctx context.Context) hookline.TraceContext {
		tp, _ := ctx.Value(key{}).(string)
		return hookline.TraceContext{Traceparent: tp, Tracestate: "rojo=1"}
	})
	var log spanLog
	must(t, e.SetTraceHandler(log.add))
	ctx := context.WithValue(context.Background(), key{}, hostTraceparent)
	out, err := e.PreToolUse(ctx, bashInput())
	must(t, err)
	got := out.Messages[0].Text
	if !strings.HasPrefix(got, "00-4bf92f3577b34da6a3ce929d0e0e4736-") || strings.Contains(got, "00f067aa0ba902b7") {
		t.Fatalf("the hook's TRACEPARENT is %q: want the host's trace with the hook's own span", got)
	}
	// Without a trace in the context, a run starts a new trace.
	out, err = e.PreToolUse(context.Background(), bashInput())
	must(t, err)
	if strings.Contains(out.Messages[0].Text, "4bf92f3577b34da6a3ce929d0e0e4736") {
		t.Fatalf("a context without a span joined the old trace: %q", out.Messages[0].Text)
	}
}

func TestAnInputsOwnTraceparentWinsOverTheContexts(t *testing.T) {
	w := newWorkspace(t)
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{
		"PreToolUse": {{matcher: "Bash", command: "true"}},
	})))
	must(t, err)
	e.SetTraceContext(func(context.Context) hookline.TraceContext {
		return hookline.TraceContext{Traceparent: "00-11111111111111111111111111111111-2222222222222222-01"}
	})
	var log spanLog
	must(t, e.SetTraceHandler(log.add))
	in := json.RawMessage(`{"tool_name":"Bash","tool_input":{},"traceparent":"` + hostTraceparent + `"}`)
	_, err = e.RunJSON(context.Background(), hookline.EventPreToolUse, in)
	must(t, err)
	_, err = e.RunJSON(context.Background(), hookline.EventPreToolUse, json.RawMessage(` { } `))
	if err == nil {
		t.Fatal("an input without tool_name ran")
	}
	e.Close()
	for _, s := range log.all() {
		if s.Level == "run" && (s.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || s.ParentSpanID != "00f067aa0ba902b7") {
			t.Fatalf("run span %+v: the input's traceparent should win", s)
		}
	}
}

func TestTraceHandlerReplacedConcurrentlyWithRunsReleasesEveryHandle(t *testing.T) {
	before := hookline.OutstandingHandles()
	w := newWorkspace(t)
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{
		"PreToolUse": {{matcher: "Bash", command: "true"}},
	})))
	must(t, err)
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Bash", "allow", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyAllow(), nil
	}))
	var log spanLog
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := e.PreToolUse(context.Background(), bashInput()); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 0; i < 100; i++ {
		if i%5 == 4 {
			must(t, e.SetTraceHandler(nil))
		} else {
			must(t, e.SetTraceHandler(log.add))
		}
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	e.Close()
	if len(log.all()) == 0 {
		t.Fatal("no span delivered")
	}
	if n := hookline.OutstandingHandles(); n != before {
		t.Fatalf("%d cgo handles outstanding after Close, want %d: a replaced handler was not released", n, before)
	}
	if err := e.SetTraceHandler(log.add); err == nil {
		t.Fatal("SetTraceHandler on a closed engine succeeded")
	}
}

func TestAPanickingTraceHandlerDoesNotHurtTheRun(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{
		"PreToolUse": {{matcher: "Bash", command: "true"}},
	})))
	must(t, e.SetTraceHandler(func(hookline.Span) { panic("boom") }))
	if _, err := e.PreToolUse(context.Background(), bashInput()); err != nil {
		t.Fatal(err)
	}
}
