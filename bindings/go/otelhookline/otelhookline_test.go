package otelhookline_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
	"github.com/hookline/hookline/bindings/go/otelhookline"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// engine makes an engine for a Claude Code PreToolUse config of the given commands.
func engine(t *testing.T, commands ...string) *hookline.Engine {
	t.Helper()
	var hooks []map[string]any
	for _, c := range commands {
		hooks = append(hooks, map[string]any{"type": "command", "command": c})
	}
	cfg, err := json.Marshal(map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": hooks}}})
	must(t, err)
	e, err := hookline.NewEngine(hookline.EngineOptions{Workspace: t.TempDir(), SessionID: "s-otel", Hooks: cfg})
	must(t, err)
	t.Cleanup(e.Close)
	return e
}

func provider(keepIDs bool) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	rec := tracetest.NewSpanRecorder()
	opts := []sdktrace.TracerProviderOption{sdktrace.WithSpanProcessor(rec)}
	if keepIDs {
		opts = append(opts, sdktrace.WithIDGenerator(otelhookline.IDGenerator()))
	}
	return sdktrace.NewTracerProvider(opts...), rec
}

func input() hookline.PreToolUseInput {
	return hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}}
}

func byName(t *testing.T, spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	t.Helper()
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func attr(s sdktrace.ReadOnlySpan, key string) attribute.Value {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

func TestARunIsAChildOfTheContextsSpanAndEachHookOfTheRun(t *testing.T) {
	tp, rec := provider(true)
	out := filepath.Join(t.TempDir(), "traceparent")
	e := engine(t, `printf '%s' "$TRACEPARENT" > `+out, "exit 1")
	_, err := otelhookline.Install(e, tp)
	must(t, err)

	ctx, host := tp.Tracer("host").Start(context.Background(), "tool call")
	_, err = e.PreToolUse(ctx, input())
	must(t, err)
	host.End()
	e.Close() // every span delivered

	spans := rec.Ended()
	runs := byName(t, spans, "hooks PreToolUse")
	if len(runs) != 1 {
		t.Fatalf("%d run spans in %d", len(runs), len(spans))
	}
	run := runs[0]
	if run.Parent().SpanID() != host.SpanContext().SpanID() || run.SpanContext().TraceID() != host.SpanContext().TraceID() {
		t.Fatalf("run parent %v, want the host span %v", run.Parent(), host.SpanContext())
	}
	if run.InstrumentationScope().Name != otelhookline.ScopeName {
		t.Fatalf("scope %q", run.InstrumentationScope().Name)
	}
	hooks := byName(t, spans, "hook command")
	if len(hooks) != 2 {
		t.Fatalf("%d hook spans", len(hooks))
	}
	for _, h := range hooks {
		if h.Parent().SpanID() != run.SpanContext().SpanID() {
			t.Fatalf("hook parent %v, want the run %v", h.Parent().SpanID(), run.SpanContext().SpanID())
		}
		if h.StartTime().Before(run.StartTime()) || h.EndTime().After(run.EndTime()) {
			t.Fatalf("hook [%v %v] outside run [%v %v]", h.StartTime(), h.EndTime(), run.StartTime(), run.EndTime())
		}
		if attr(h, "hook.event").AsString() != "PreToolUse" || attr(h, "hookline.span_id").Type() != attribute.INVALID {
			t.Fatalf("attributes %v", h.Attributes())
		}
	}
	// The hook process continued from its own span: the id the SDK kept.
	printed, err := os.ReadFile(out)
	must(t, err)
	first := hooks[0]
	if attr(first, "hook.command").AsString() == "exit 1" {
		first = hooks[1]
	}
	want := "00-" + host.SpanContext().TraceID().String() + "-" + first.SpanContext().SpanID().String() + "-01"
	if string(printed) != want {
		t.Fatalf("TRACEPARENT %q, want %q", printed, want)
	}
}

func TestAFailingHookIsAnErrorSpanWithItsFailure(t *testing.T) {
	tp, rec := provider(true)
	e := engine(t, "exit 3")
	_, err := otelhookline.Install(e, tp)
	must(t, err)
	_, err = e.PreToolUse(context.Background(), input())
	must(t, err)
	e.Close()
	hooks := byName(t, rec.Ended(), "hook command")
	if len(hooks) != 1 {
		t.Fatalf("%d hook spans", len(hooks))
	}
	h := hooks[0]
	if h.Status().Code != codes.Error || !strings.Contains(h.Status().Description, "exit") {
		t.Fatalf("status %+v", h.Status())
	}
	if attr(h, "hook.failure").AsString() != "exit" || attr(h, "hook.exit_code").AsInt64() != 3 || attr(h, "hook.timed_out").AsBool() {
		t.Fatalf("attributes %v", h.Attributes())
	}
	runs := byName(t, rec.Ended(), "hooks PreToolUse")
	if len(runs) != 1 || runs[0].Parent().IsValid() || runs[0].Status().Code != codes.Unset {
		t.Fatalf("a run without a span in its context is a root with an unset status: %+v", runs)
	}
}

func TestWithoutTheIDGeneratorTheTreeHoldsAndHooklinesIdsAreAttributes(t *testing.T) {
	tp, rec := provider(false)
	e := engine(t, "true")
	_, err := otelhookline.Install(e, tp)
	must(t, err)
	ctx, host := tp.Tracer("host").Start(context.Background(), "tool call")
	_, err = e.PreToolUse(ctx, input())
	must(t, err)
	host.End()
	e.Close()
	run := byName(t, rec.Ended(), "hooks PreToolUse")[0]
	hook := byName(t, rec.Ended(), "hook command")[0]
	if run.Parent().SpanID() != host.SpanContext().SpanID() || hook.Parent().SpanID() != run.SpanContext().SpanID() {
		t.Fatalf("tree: run parent %v (host %v), hook parent %v (run %v)", run.Parent().SpanID(),
			host.SpanContext().SpanID(), hook.Parent().SpanID(), run.SpanContext().SpanID())
	}
	if id := attr(hook, "hookline.span_id").AsString(); len(id) != 16 || id == hook.SpanContext().SpanID().String() {
		t.Fatalf("hookline.span_id %q", id)
	}
}

func TestAnUnsampledHostSpanKeepsHooklinesSpansOut(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithIDGenerator(otelhookline.IDGenerator()),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.AlwaysSample())))
	e := engine(t, "true")
	_, err := otelhookline.Install(e, tp)
	must(t, err)
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: 0, Remote: true,
	})
	_, err = e.PreToolUse(trace.ContextWithRemoteSpanContext(context.Background(), sc), input())
	must(t, err)
	e.Close()
	if n := len(rec.Ended()); n != 0 {
		t.Fatalf("%d spans recorded for a trace the host does not sample", n)
	}
}

func TestConcurrentRunsEachGetTheirOwnTree(t *testing.T) {
	tp, rec := provider(true)
	e := engine(t, "true")
	_, err := otelhookline.Install(e, tp)
	must(t, err)
	tracer := tp.Tracer("host")
	var wg sync.WaitGroup
	hosts := make([]trace.Span, 8)
	for i := range hosts {
		ctx, span := tracer.Start(context.Background(), "tool call")
		hosts[i] = span
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.PreToolUse(ctx, input()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	e.Close()
	spans := rec.Ended()
	runs := byName(t, spans, "hooks PreToolUse")
	if len(runs) != len(hosts) {
		t.Fatalf("%d runs", len(runs))
	}
	parents := map[trace.SpanID]bool{}
	for _, h := range hosts {
		parents[h.SpanContext().SpanID()] = true
	}
	runIDs := map[trace.SpanID]bool{}
	for _, r := range runs {
		if !parents[r.Parent().SpanID()] {
			t.Fatalf("run parent %v is not a host span", r.Parent().SpanID())
		}
		delete(parents, r.Parent().SpanID())
		runIDs[r.SpanContext().SpanID()] = true
	}
	for _, h := range byName(t, spans, "hook command") {
		if !runIDs[h.Parent().SpanID()] {
			t.Fatalf("hook parent %v is not a run", h.Parent().SpanID())
		}
	}
}

func TestUninstallStopsTracing(t *testing.T) {
	tp, rec := provider(true)
	e := engine(t, "true")
	a, err := otelhookline.Install(e, tp)
	must(t, err)
	must(t, a.Uninstall())
	_, err = e.PreToolUse(context.Background(), input())
	must(t, err)
	e.Close()
	if n := len(rec.Ended()); n != 0 {
		t.Fatalf("%d spans after Uninstall", n)
	}
}
