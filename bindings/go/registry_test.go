package hookline_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

func newRegistry(t *testing.T) *hookline.Registry {
	t.Helper()
	r, err := hookline.NewRegistry()
	must(t, err)
	t.Cleanup(r.Close)
	return r
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func jsonEqual(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON %q: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Fatalf("JSON = %s, want %s", gb, wb)
	}
}

func TestVersionAndStatusNamesComeFromTheLibrary(t *testing.T) {
	if hookline.Version() == "" {
		t.Fatal("empty version")
	}
	if got := hookline.StatusInvalidJSON.String(); got != "HL_ERR_INVALID_JSON" {
		t.Fatalf("StatusInvalidJSON.String() = %q", got)
	}
	if got := hookline.PointTransformToolInput.String(); got != "transform_tool_input" {
		t.Fatalf("PointTransformToolInput.String() = %q", got)
	}
}

func TestPreToolCallDecideFirstDenyStopsTheRun(t *testing.T) {
	r := newRegistry(t)
	var laterCalled atomic.Bool
	must(t, r.OnPreToolCallDecide("allow-all", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		return hookline.Allow()
	}))
	must(t, r.OnPreToolCallDecide("no-rm", func(c hookline.PreToolCallDecideContext) hookline.HookResult {
		if c.ToolName == "rm" {
			return hookline.Deny("rm is not allowed")
		}
		return hookline.Allow()
	}))
	must(t, r.OnPreToolCallDecide("later", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		laterCalled.Store(true)
		return hookline.Allow()
	}))

	res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "rm", ToolArgs: json.RawMessage(`{"path":"/"}`)})
	must(t, err)
	if res.Allow || res.Message != "rm is not allowed" {
		t.Fatalf("result = %+v, want deny 'rm is not allowed'", res)
	}
	if laterCalled.Load() {
		t.Fatal("a callback after the deny ran")
	}
	if res.ToolArgs != nil {
		t.Fatalf("tool_args = %s, want nil (no modified_args applied)", res.ToolArgs)
	}

	res, err = r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "ls"})
	must(t, err)
	if !res.Allow || !laterCalled.Load() {
		t.Fatalf("result = %+v, later called = %v; want allow and all run", res, laterCalled.Load())
	}
}

func TestPreToolCallDecideModifiedArgsMergeIntoLaterCallbacksArgs(t *testing.T) {
	r := newRegistry(t)
	var seen json.RawMessage
	must(t, r.OnPreToolCallDecide("add-timeout", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		return hookline.HookResult{Allow: true, ModifiedArgs: json.RawMessage(`{"timeout":30}`)}
	}))
	must(t, r.OnPreToolCallDecide("observe", func(c hookline.PreToolCallDecideContext) hookline.HookResult {
		seen = append(json.RawMessage(nil), c.ToolArgs...)
		return hookline.Allow()
	}))
	res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "Bash", ToolArgs: json.RawMessage(`{"command":"ls"}`)})
	must(t, err)
	jsonEqual(t, seen, `{"command":"ls","timeout":30}`)
	jsonEqual(t, res.ToolArgs, `{"command":"ls","timeout":30}`)
}

func TestTransformToolInputChainsEachSeesThePreviousResult(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnTransformToolInput("add-a", func(c hookline.PreToolCallDecideContext) (json.RawMessage, bool) {
		var m map[string]any
		_ = json.Unmarshal(c.ToolArgs, &m)
		m["a"] = 1
		b, _ := json.Marshal(m)
		return b, true
	}))
	must(t, r.OnTransformToolInput("keep", func(hookline.PreToolCallDecideContext) (json.RawMessage, bool) {
		return nil, false
	}))
	must(t, r.OnTransformToolInput("add-b-if-a", func(c hookline.PreToolCallDecideContext) (json.RawMessage, bool) {
		var m map[string]any
		_ = json.Unmarshal(c.ToolArgs, &m)
		if m["a"] == nil {
			return json.RawMessage(`"previous transform not seen"`), true
		}
		m["b"] = 2
		b, _ := json.Marshal(m)
		return b, true
	}))
	res, err := r.RunTransformToolInput(hookline.PreToolCallDecideContext{ToolName: "Edit", ToolArgs: json.RawMessage(`{"x":0}`)})
	must(t, err)
	jsonEqual(t, res.ToolArgs, `{"x":0,"a":1,"b":2}`)
	if !res.Allow || len(res.Errors) != 0 {
		t.Fatalf("result = %+v", res)
	}
}

func TestTransformToolInputPanicIsSkippedAndArgsKept(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnTransformToolInput("boom", func(hookline.PreToolCallDecideContext) (json.RawMessage, bool) {
		panic("transform exploded")
	}))
	res, err := r.RunTransformToolInput(hookline.PreToolCallDecideContext{ToolName: "Edit", ToolArgs: json.RawMessage(`{"x":0}`)})
	must(t, err)
	jsonEqual(t, res.ToolArgs, `{"x":0}`)
	if len(res.Errors) != 1 || res.Errors[0].Name != "boom" {
		t.Fatalf("errors = %+v, want one for boom", res.Errors)
	}
}

func TestPreToolCallDecidePanicDeniesWithHookFailed(t *testing.T) {
	r := newRegistry(t)
	var laterCalled atomic.Bool
	must(t, r.OnPreToolCallDecide("boom", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		panic("callback exploded")
	}))
	must(t, r.OnPreToolCallDecide("later", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		laterCalled.Store(true)
		return hookline.Allow()
	}))
	res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "Bash"})
	must(t, err)
	if res.Allow {
		t.Fatal("a panicking decide callback must deny (fail closed)")
	}
	if !strings.Contains(res.Message, "hook 'boom' failed") {
		t.Fatalf("message = %q, want it to contain hook 'boom' failed", res.Message)
	}
	if laterCalled.Load() {
		t.Fatal("callback after the failed one ran")
	}
	if len(res.Errors) != 1 || res.Errors[0].Name != "boom" {
		t.Fatalf("errors = %+v, want one for boom", res.Errors)
	}
}

func TestCallbackErrorTextIsTheFailureReason(t *testing.T) {
	r := newRegistry(t)
	must(t, r.Register(hookline.PointPreToolCallDecide, "boom", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), errors.New("policy file unreadable")
	}))
	res, err := r.Run(hookline.PointPreToolCallDecide, `{"tool_name":"Bash"}`)
	must(t, err)
	if res.Allow || res.Message != "hook 'boom' failed: policy file unreadable" {
		t.Fatalf("result = %+v, want a deny naming the error", res)
	}
	// A panic's value is the reason of a typed callback's failure.
	must(t, r.OnPostTurn("panics", func(hookline.PostTurnContext) { panic("out of policy") }))
	res, err = r.RunPostTurn(hookline.PostTurnContext{ResponseText: "ok", TurnNumber: 1})
	must(t, err)
	if len(res.Errors) != 1 || res.Errors[0].Message != "hook 'panics' failed: panic: out of policy" {
		t.Fatalf("errors = %+v, want the panic named", res.Errors)
	}
}

func TestRawCallbackErrorIsACallbackFailure(t *testing.T) {
	r := newRegistry(t)
	must(t, r.Register(hookline.PointPreToolCallDecide, "err", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), errors.New("nope")
	}))
	res, err := r.Run(hookline.PointPreToolCallDecide, `{"tool_name":"Bash"}`)
	must(t, err)
	if res.Allow || !strings.Contains(res.Message, "hook 'err' failed") {
		t.Fatalf("result = %+v, want deny with hook 'err' failed", res)
	}
}

func TestPreTurnFailureIsListedAndTheNextCallbackRuns(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnPreTurn("boom", func(hookline.PreTurnContext) hookline.HookResult { panic("x") }))
	must(t, r.OnPreTurn("guard", func(c hookline.PreTurnContext) hookline.HookResult {
		if c.TurnNumber == 7 && strings.Contains(c.Prompt, "secret") {
			return hookline.Deny("no secrets")
		}
		return hookline.Allow()
	}))
	res, err := r.RunPreTurn(hookline.PreTurnContext{Prompt: "tell me the secret", TurnNumber: 7})
	must(t, err)
	if res.Allow || res.Message != "no secrets" {
		t.Fatalf("result = %+v, want deny 'no secrets' from the next callback", res)
	}
	if len(res.Errors) != 1 || res.Errors[0].Name != "boom" {
		t.Fatalf("errors = %+v", res.Errors)
	}
}

func TestOnInteractionFailureDoesNotBlock(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnInteraction("boom", func(hookline.InteractionContext) hookline.HookResult { panic("x") }))
	res, err := r.RunOnInteraction(hookline.InteractionContext{Message: "hi"})
	must(t, err)
	if !res.Allow || len(res.Errors) != 1 {
		t.Fatalf("result = %+v, want allow with one error", res)
	}
}

func TestObserverPanicIsListedAndOtherObserversStillRun(t *testing.T) {
	r := newRegistry(t)
	var got hookline.PostToolCallContext
	must(t, r.OnPostToolCall("boom", func(hookline.PostToolCallContext) { panic("x") }))
	must(t, r.OnPostToolCall("record", func(c hookline.PostToolCallContext) { got = c }))
	res, err := r.RunPostToolCall(hookline.PostToolCallContext{ToolName: "Bash", Result: "ok", Metadata: json.RawMessage(`{"ms":3}`)})
	must(t, err)
	if got.ToolName != "Bash" || got.Result != "ok" {
		t.Fatalf("second observer saw %+v", got)
	}
	jsonEqual(t, got.Metadata, `{"ms":3}`)
	if !res.Allow || len(res.Errors) != 1 || res.Errors[0].Name != "boom" {
		t.Fatalf("result = %+v", res)
	}
}

func TestEveryObserverPointDeliversItsTypedContext(t *testing.T) {
	r := newRegistry(t)
	var calls []string
	var mu sync.Mutex
	note := func(s string) { mu.Lock(); calls = append(calls, s); mu.Unlock() }
	must(t, r.OnPostTurn("o", func(c hookline.PostTurnContext) { note("post_turn:" + c.ResponseText) }))
	must(t, r.OnCompaction("o", func(hookline.CompactionContext) { note("on_compaction") }))
	must(t, r.OnSessionStart("o", func(c hookline.SessionContext) { note("start:" + c.Session.SessionID) }))
	must(t, r.OnSessionEnd("o", func(c hookline.SessionContext) {
		if c.Session.AgentID == 42 {
			note("end:42")
		}
	}))
	must(t, r.OnToolError("o", func(c hookline.ToolErrorContext) { note("error:" + c.Error) }))

	_, err := r.RunPostTurn(hookline.PostTurnContext{ResponseText: "done", TurnNumber: 1})
	must(t, err)
	_, err = r.RunOnCompaction(hookline.CompactionContext{})
	must(t, err)
	_, err = r.RunOnSessionStart(hookline.SessionContext{Session: hookline.SessionInfo{SessionID: "s-1", AgentID: 42}})
	must(t, err)
	_, err = r.RunOnSessionEnd(hookline.SessionContext{Session: hookline.SessionInfo{SessionID: "s-1", AgentID: 42}})
	must(t, err)
	_, err = r.RunOnToolError(hookline.ToolErrorContext{ToolName: "Bash", Error: "boom"})
	must(t, err)
	want := "post_turn:done,on_compaction,start:s-1,end:42,error:boom"
	if got := strings.Join(calls, ","); got != want {
		t.Fatalf("calls = %s, want %s", got, want)
	}
}

func TestRegisteringAnExistingNameReplacesInPlace(t *testing.T) {
	r := newRegistry(t)
	base := hookline.OutstandingHandles()
	must(t, r.OnPreToolCallDecide("a", func(hookline.PreToolCallDecideContext) hookline.HookResult { return hookline.Deny("old a") }))
	must(t, r.OnPreToolCallDecide("b", func(hookline.PreToolCallDecideContext) hookline.HookResult { return hookline.Deny("b") }))
	must(t, r.OnPreToolCallDecide("a", func(hookline.PreToolCallDecideContext) hookline.HookResult { return hookline.Deny("new a") }))
	waitHandles(t, base+2) // the replaced callback's handle was released
	res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "x"})
	must(t, err)
	if res.Message != "new a" {
		t.Fatalf("message = %q, want the replacement, still first", res.Message)
	}
	entries, err := r.Entries()
	must(t, err)
	if len(entries) != 2 || entries[0].Name != "a" || entries[1].Name != "b" {
		t.Fatalf("entries = %+v, want a then b", entries)
	}
}

func TestEntriesListAllPointsInRegistrationOrder(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnPreTurn("p1", func(hookline.PreTurnContext) hookline.HookResult { return hookline.Allow() }))
	must(t, r.OnTransformToolInput("shared", func(hookline.PreToolCallDecideContext) (json.RawMessage, bool) { return nil, false }))
	must(t, r.OnPreToolCallDecide("shared", func(hookline.PreToolCallDecideContext) hookline.HookResult { return hookline.Allow() }))
	entries, err := r.Entries()
	must(t, err)
	want := []hookline.Entry{
		{Name: "p1", Point: hookline.PointPreTurn, CallbackID: "p1"},
		{Name: "shared", Point: hookline.PointTransformToolInput, CallbackID: "shared"},
		{Name: "shared", Point: hookline.PointPreToolCallDecide, CallbackID: "shared"},
	}
	if len(entries) != len(want) {
		t.Fatalf("entries = %+v", entries)
	}
	for i := range want {
		if entries[i] != want[i] {
			t.Fatalf("entries[%d] = %+v, want %+v", i, entries[i], want[i])
		}
	}
}

func TestUnregisterRemovesAndUnknownIsNotFound(t *testing.T) {
	r := newRegistry(t)
	base := hookline.OutstandingHandles()
	must(t, r.OnPreTurn("p", func(hookline.PreTurnContext) hookline.HookResult { return hookline.Deny("x") }))
	must(t, r.Unregister(hookline.PointPreTurn, "p"))
	waitHandles(t, base)
	res, err := r.RunPreTurn(hookline.PreTurnContext{Prompt: "hi", TurnNumber: 1})
	must(t, err)
	if !res.Allow {
		t.Fatal("unregistered callback still ran")
	}
	err = r.Unregister(hookline.PointPreTurn, "p")
	if !errors.Is(err, hookline.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	var he *hookline.Error
	if !errors.As(err, &he) || he.Status != hookline.StatusNotFound || he.Message == "" {
		t.Fatalf("err = %#v, want *Error with status and message", err)
	}
}

func TestBlankNameIsInvalidArgumentAndLeaksNoHandle(t *testing.T) {
	r := newRegistry(t)
	base := hookline.OutstandingHandles()
	for _, name := range []string{"", "   ", "nul\x00byte"} {
		err := r.OnPreTurn(name, func(hookline.PreTurnContext) hookline.HookResult { return hookline.Allow() })
		if !errors.Is(err, hookline.ErrInvalidArgument) {
			t.Fatalf("name %q: err = %v, want ErrInvalidArgument", name, err)
		}
	}
	err := r.Register(hookline.HookPoint(99), "x", func(json.RawMessage) (hookline.CallbackReply, error) { return hookline.NoOpinion(), nil })
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("unknown point: err = %v, want ErrInvalidArgument", err)
	}
	if got := hookline.OutstandingHandles(); got != base {
		t.Fatalf("handles = %d after failed registrations, want %d", got, base)
	}
}

func TestBadContextsReturnStatuses(t *testing.T) {
	r := newRegistry(t)
	cases := []struct {
		point   hookline.HookPoint
		context string
		want    error
	}{
		{hookline.PointPreTurn, `{"prompt":"x"}`, hookline.ErrInvalidArgument},
		{hookline.PointPreTurn, `{"prompt":"x","turn_number":"1"}`, hookline.ErrInvalidArgument},
		{hookline.PointPreToolCallDecide, `[1,2]`, hookline.ErrInvalidArgument},
		{hookline.PointPreToolCallDecide, `{"tool_name":`, hookline.ErrInvalidJSON},
		{hookline.HookPoint(-1), `{}`, hookline.ErrInvalidArgument},
		{hookline.PointPreTurn, "{\"prompt\":\"\xff\",\"turn_number\":1}", hookline.ErrInvalidUTF8},
	}
	for _, c := range cases {
		_, err := r.Run(c.point, c.context)
		if !errors.Is(err, c.want) {
			t.Errorf("Run(%v, %q) err = %v, want %v", c.point, c.context, err, c.want)
		}
	}
	_, err := r.Run(hookline.PointPreTurn, strings.Repeat("[", 100000)+strings.Repeat("]", 100000))
	if !errors.Is(err, hookline.ErrInvalidJSON) && !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Errorf("deeply nested context: err = %v", err)
	}
}

func TestMissingFieldErrorNamesTheField(t *testing.T) {
	r := newRegistry(t)
	_, err := r.Run(hookline.PointPostTurn, `{"turn_number":1}`)
	if !errors.Is(err, hookline.ErrInvalidArgument) || !strings.Contains(err.Error(), "response_text") {
		t.Fatalf("err = %v, want ErrInvalidArgument naming response_text", err)
	}
}

func TestAliasesReachCallbacksAsCanonicalNamesAndExtraFieldsPassThrough(t *testing.T) {
	r := newRegistry(t)
	var got hookline.PreToolCallDecideContext
	must(t, r.OnPreToolCallDecide("record", func(c hookline.PreToolCallDecideContext) hookline.HookResult {
		got = c
		return hookline.Allow()
	}))
	_, err := r.Run(hookline.PointPreToolCallDecide, `{"name":"Bash","args":{"command":"ls"},"trace_id":"t-9"}`)
	must(t, err)
	if got.ToolName != "Bash" {
		t.Fatalf("tool_name = %q, want Bash (alias name)", got.ToolName)
	}
	jsonEqual(t, got.ToolArgs, `{"command":"ls"}`)
	var raw map[string]any
	must(t, json.Unmarshal(got.Raw, &raw))
	if raw["trace_id"] != "t-9" {
		t.Fatalf("raw context %s lost the extra field", got.Raw)
	}

	_, err = r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "Edit", Extra: map[string]any{"trace_id": "t-10"}})
	must(t, err)
	must(t, json.Unmarshal(got.Raw, &raw))
	if raw["trace_id"] != "t-10" || got.ToolName != "Edit" {
		t.Fatalf("typed run with Extra: callback saw %s", got.Raw)
	}
}

func TestExtraFieldsFollowTheTypedFieldsInTheirOrder(t *testing.T) {
	r := newRegistry(t)
	var raw json.RawMessage
	must(t, r.OnPreToolCallDecide("record", func(c hookline.PreToolCallDecideContext) hookline.HookResult {
		raw = c.Raw
		return hookline.Allow()
	}))
	_, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{
		ToolName: "Edit", ToolArgs: json.RawMessage(`{"path":"a"}`),
		Extra: map[string]any{"zeta": 1, "alpha": 2},
	})
	must(t, err)
	want := `{"tool_name":"Edit","tool_args":{"path":"a"},"alpha":2,"zeta":1}`
	if string(raw) != want {
		t.Fatalf("context = %s, want %s", raw, want)
	}
}

func TestCallbackMayReenterTheRegistry(t *testing.T) {
	r := newRegistry(t)
	must(t, r.OnPreTurn("reenter", func(hookline.PreTurnContext) hookline.HookResult {
		if _, err := r.Entries(); err != nil {
			return hookline.Deny(err.Error())
		}
		if err := r.OnPostTurn("added-inside", func(hookline.PostTurnContext) {}); err != nil {
			return hookline.Deny(err.Error())
		}
		res, err := r.RunPostTurn(hookline.PostTurnContext{ResponseText: "nested", TurnNumber: 1})
		if err != nil || !res.Allow {
			return hookline.Deny("nested run failed")
		}
		return hookline.Allow()
	}))
	res, err := r.RunPreTurn(hookline.PreTurnContext{Prompt: "x", TurnNumber: 1})
	must(t, err)
	if !res.Allow {
		t.Fatalf("result = %+v", res)
	}
	entries, err := r.Entries()
	must(t, err)
	if len(entries) != 2 {
		t.Fatalf("entries = %+v, want the one added inside the callback too", entries)
	}
}

func TestRegistryCloseReleasesEveryHandleAndLaterCallsAreErrClosed(t *testing.T) {
	base := hookline.OutstandingHandles()
	r, err := hookline.NewRegistry()
	must(t, err)
	for _, n := range []string{"a", "b", "c"} {
		must(t, r.OnPreTurn(n, func(hookline.PreTurnContext) hookline.HookResult { return hookline.Allow() }))
	}
	must(t, r.OnPostToolCall("a", func(hookline.PostToolCallContext) {}))
	if got := hookline.OutstandingHandles(); got != base+4 {
		t.Fatalf("handles = %d, want %d", got, base+4)
	}
	r.Close()
	if got := hookline.OutstandingHandles(); got != base {
		t.Fatalf("handles after Close = %d, want %d", got, base)
	}
	r.Close() // idempotent
	if _, err := r.RunPreTurn(hookline.PreTurnContext{Prompt: "x", TurnNumber: 1}); !errors.Is(err, hookline.ErrClosed) {
		t.Fatalf("run after Close: err = %v, want ErrClosed", err)
	}
	err = r.OnPreTurn("d", func(hookline.PreTurnContext) hookline.HookResult { return hookline.Allow() })
	if !errors.Is(err, hookline.ErrClosed) {
		t.Fatalf("register after Close: err = %v, want ErrClosed", err)
	}
	if hookline.OutstandingHandles() != base {
		t.Fatal("register after Close leaked a handle")
	}
}

func TestRegistryCloseInsideACallbackDoesNotDeadlock(t *testing.T) {
	base := hookline.OutstandingHandles()
	r, err := hookline.NewRegistry()
	must(t, err)
	must(t, r.OnPreTurn("closer", func(hookline.PreTurnContext) hookline.HookResult {
		r.Close()
		return hookline.Deny("closed from inside")
	}))
	res, err := r.RunPreTurn(hookline.PreTurnContext{Prompt: "x", TurnNumber: 1})
	must(t, err)
	if res.Allow || res.Message != "closed from inside" {
		t.Fatalf("result = %+v", res)
	}
	waitHandles(t, base)
}

func TestConcurrentRegistrationsAndRunsAreSafe(t *testing.T) {
	r := newRegistry(t)
	var calls atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			name := []string{"a", "b", "c", "d"}[i%4]
			for j := 0; j < 20; j++ {
				if err := r.OnPreToolCallDecide(name, func(hookline.PreToolCallDecideContext) hookline.HookResult {
					calls.Add(1)
					return hookline.Allow()
				}); err != nil {
					t.Error(err)
					return
				}
				res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "t"})
				if err != nil || !res.Allow {
					t.Errorf("run: %+v %v", res, err)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	if calls.Load() == 0 {
		t.Fatal("no callback ran")
	}
	entries, err := r.Entries()
	must(t, err)
	if len(entries) != 4 {
		t.Fatalf("entries = %+v, want 4 (replacements in place)", entries)
	}
}

func TestAntigravitySDKContractAnswersAndStopContinues(t *testing.T) {
	r, err := hookline.NewRegistry(hookline.RegistryOptions{Contract: hookline.ContractAntigravitySDK})
	must(t, err)
	t.Cleanup(func() { r.Close() })
	must(t, r.Register(hookline.PointOnToolError, "recover", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyJSON("recovered_result"), nil
	}))
	res, err := r.Run(hookline.PointOnToolError, `{"error":"Error"}`)
	must(t, err)
	if !res.Allow || string(res.Answer) != `"recovered_result"` {
		t.Fatalf("on_tool_error = %+v, want allow with the recovery", res)
	}
	must(t, r.Register(hookline.PointStop, "more", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyDeny("Need more work"), nil
	}))
	res, err = r.Run(hookline.PointStop, `{}`)
	must(t, err)
	if res.Allow || res.Message != "Need more work" {
		t.Fatalf("stop = %+v, want continue with the reason", res)
	}
	if _, err := hookline.NewRegistry(hookline.RegistryOptions{Contract: 7}); err == nil {
		t.Fatal("an unknown contract must be refused")
	}
}

// The typed stop helpers: the first callback answering Continue keeps the
// agent going with its reason; a callback with no opinion lets it stop.
func TestOnStopContinuesWithTheFirstReason(t *testing.T) {
	r, err := hookline.NewRegistry(hookline.RegistryOptions{Contract: hookline.ContractAntigravitySDK})
	must(t, err)
	t.Cleanup(func() { r.Close() })
	var seen []hookline.StopContext
	must(t, r.OnStop("quiet", func(c hookline.StopContext) hookline.StopDecision {
		seen = append(seen, c)
		return hookline.StopDecision{}
	}))
	res, err := r.RunStop(hookline.StopContext{ResponseText: "done", ContinuationCount: 2})
	must(t, err)
	if !res.Allow || len(seen) != 1 || seen[0].ResponseText != "done" || seen[0].ContinuationCount != 2 {
		t.Fatalf("stop with no opinion = %+v (seen %+v), want allow", res, seen)
	}
	must(t, r.OnStop("tests", func(c hookline.StopContext) hookline.StopDecision {
		return hookline.StopDecision{Continue: c.ContinuationCount < 3, Reason: "run the tests first"}
	}))
	must(t, r.OnStop("later", func(hookline.StopContext) hookline.StopDecision {
		return hookline.StopDecision{Continue: true, Reason: "not this one"}
	}))
	res, err = r.RunStop(hookline.StopContext{ResponseText: "done"})
	must(t, err)
	if res.Allow || res.Message != "run the tests first" {
		t.Fatalf("stop = %+v, want continue with the first reason", res)
	}
	res, err = r.RunStop(hookline.StopContext{ContinuationCount: 5})
	must(t, err)
	if res.Allow || res.Message != "not this one" {
		t.Fatalf("stop = %+v, want the later callback's continue", res)
	}
}
