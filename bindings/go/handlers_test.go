package hookline_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

func promptHooks(event string, hooks ...map[string]any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{event: []any{map[string]any{"hooks": hooks}}})
	return b
}

var stopInput = hookline.StopInput{LastAssistantMessage: "done"}

func TestModelHandlerAnswersPromptHooksWithTypedRequests(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(promptHooks("Stop", map[string]any{"type": "prompt", "prompt": "Done? $ARGUMENTS", "model": "fast"})))
	var seen atomic.Pointer[hookline.ModelRequest]
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		seen.Store(&req)
		if _, ok := ctx.Deadline(); !ok {
			t.Error("the handler's context has no deadline")
		}
		return hookline.ModelReply{OK: false, Reason: "tests fail"}, nil
	}))
	out, err := e.Stop(context.Background(), stopInput)
	must(t, err)
	if out.BlockReason != "tests fail" {
		t.Fatalf("block reason %q, outcome %s", out.BlockReason, out.Raw)
	}
	req := seen.Load()
	if req == nil || req.Type != "prompt" || req.Event != "Stop" || req.Model != "fast" || req.TimeoutMS != 30000 {
		t.Fatalf("request %+v", req)
	}
	if h := out.Hooks[0]; h.Kind != "prompt" || h.Prompt != "Done? $ARGUMENTS" || h.Model != "fast" {
		t.Fatalf("report %+v", h)
	}
}

func TestModelHandlerErrorsAndPanicsAreRecoveredAsNonBlockingFailures(t *testing.T) {
	w := newWorkspace(t)
	var failures atomic.Int32
	opts := w.options(promptHooks("PreToolUse", map[string]any{"type": "prompt", "prompt": "safe?"}))
	opts.OnCallbackError = func(f hookline.CallbackFailure) { failures.Add(1) }
	e := newEngine(t, opts)
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		return hookline.ModelReply{}, errors.New("model unavailable")
	}))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Decision != "continue" || out.Hooks[0].Failure != "handler" {
		t.Fatalf("outcome %s", out.Raw)
	}
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		panic("model exploded")
	}))
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Hooks[0].Failure != "handler" {
		t.Fatalf("outcome %s", out.Raw)
	}
	if failures.Load() != 2 {
		t.Fatalf("%d failures reported, want 2", failures.Load())
	}
}

func TestModelHandlerThatBlocksPastTheTimeoutTimesOut(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(promptHooks("Stop", map[string]any{"type": "agent", "prompt": "verify", "timeout": 1})))
	release := make(chan struct{})
	defer close(release)
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		<-release // ignores its context on purpose
		return hookline.ModelReply{OK: false, Reason: "late"}, nil
	}))
	start := time.Now()
	out, err := e.Stop(context.Background(), stopInput)
	must(t, err)
	if out.Hooks[0].Failure != "timeout" || out.BlockReason != "" {
		t.Fatalf("outcome %s", out.Raw)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestModelHandlerReplacedWhileARunIsInFlight(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(promptHooks("Stop", map[string]any{"type": "prompt", "prompt": "p", "timeout": 30})))
	entered := make(chan struct{})
	var once sync.Once
	proceed := make(chan struct{})
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		once.Do(func() { close(entered) })
		<-proceed
		return hookline.ModelReply{OK: false, Reason: "first"}, nil
	}))
	type result struct {
		out hookline.StopOutcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := e.Stop(context.Background(), stopInput)
		done <- result{out, err}
	}()
	<-entered
	must(t, e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
		return hookline.ModelReply{OK: false, Reason: "second"}, nil
	}))
	close(proceed)
	r := <-done
	must(t, r.err)
	if r.out.BlockReason != "first" {
		t.Fatalf("in-flight run: %s", r.out.Raw)
	}
	out, err := e.Stop(context.Background(), stopInput)
	must(t, err)
	if out.BlockReason != "second" {
		t.Fatalf("next run: %s", out.Raw)
	}
	must(t, e.SetModelHandler(nil))
	out, err = e.Stop(context.Background(), stopInput)
	must(t, err)
	if out.Hooks[0].Failure != "no_handler" {
		t.Fatalf("after removal: %s", out.Raw)
	}
}

func TestMCPHandlerGetsFilledInputAndItsTextReadsAsStdout(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(promptHooks("PostToolUse", map[string]any{
		"type": "mcp_tool", "server": "sec", "tool": "scan", "input": map[string]any{"cmd": "${tool_input.command}"},
	})))
	var got atomic.Pointer[hookline.MCPRequest]
	must(t, e.SetMCPHandler(func(ctx context.Context, req hookline.MCPRequest) (hookline.MCPReply, error) {
		got.Store(&req)
		return hookline.MCPReply{Text: `{"decision":"block","reason":"found a key"}`}, nil
	}))
	out, err := e.PostToolUse(context.Background(), hookline.PostToolUseInput{
		ToolName: "Bash", ToolInput: map[string]any{"command": "cat .env"}, ToolResponse: "x",
	})
	must(t, err)
	if out.BlockReason != "found a key" {
		t.Fatalf("outcome %s", out.Raw)
	}
	req := got.Load()
	if req == nil || req.Server != "sec" || req.Tool != "scan" || string(req.Input) != `{"cmd":"cat .env"}` {
		t.Fatalf("request %+v", req)
	}
	must(t, e.SetMCPHandler(func(ctx context.Context, req hookline.MCPRequest) (hookline.MCPReply, error) {
		return hookline.MCPReply{Text: "not connected", IsError: true}, nil
	}))
	out, err = e.PostToolUse(context.Background(), hookline.PostToolUseInput{ToolName: "Bash", ToolResponse: "x"})
	must(t, err)
	if out.Hooks[0].Failure != "tool_error" {
		t.Fatalf("outcome %s", out.Raw)
	}
}

func TestSetHandlersOnManyGoroutinesWhileRunsAreInFlight(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(promptHooks("Stop", map[string]any{"type": "prompt", "prompt": "p", "timeout": 10})))
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				_ = e.SetModelHandler(func(ctx context.Context, req hookline.ModelRequest) (hookline.ModelReply, error) {
					return hookline.ModelReply{OK: j%2 == 0, Reason: "r"}, nil
				})
			}
		}(i)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				if _, err := e.Stop(context.Background(), stopInput); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
