package hookline_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"sync"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// Close has no error result (nothing in it can fail): these only compile
// with `Close()`, so t.Cleanup(x.Close) works as is.
var (
	_ interface{ Close() } = (*hookline.Engine)(nil)
	_ interface{ Close() } = (*hookline.Registry)(nil)
)

func TestEmptySessionIDIsRejectedLikeAMissingOne(t *testing.T) {
	w := newWorkspace(t)
	_, err := hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir})
	var he *hookline.Error
	if !errors.As(err, &he) || he.Status != hookline.StatusInvalidArgument || !strings.Contains(he.Message, "session_id") {
		t.Fatalf("zero SessionID: err = %v, want ErrInvalidArgument naming session_id", err)
	}
	e := newEngine(t, w.options(nil))
	err = e.Reload(hookline.EngineOptions{Workspace: w.dir, SessionID: ""})
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("Reload with an empty SessionID: err = %v, want ErrInvalidArgument", err)
	}
}

type failures struct {
	mu  sync.Mutex
	got []hookline.CallbackFailure
}

func (f *failures) add(x hookline.CallbackFailure) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, x)
}

func (f *failures) all() []hookline.CallbackFailure {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hookline.CallbackFailure(nil), f.got...)
}

type panicValue struct{ code int }

func TestFailingCallbackHookReportsItsErrorAndPanicValueAndFailsOpen(t *testing.T) {
	w := newWorkspace(t)
	var seen failures
	opts := w.options(nil)
	opts.OnCallbackError = seen.add
	e := newEngine(t, opts)
	errBoom := errors.New("policy service unreachable")
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Bash", "returns-error", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), errBoom
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Edit", "panics", func(json.RawMessage) (hookline.CallbackReply, error) {
		panic(panicValue{code: 7})
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Read", "bad-reply", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyJSON(json.RawMessage(`{not json`)), nil
	}))
	ctx := context.Background()
	for _, tool := range []string{"Bash", "Edit", "Read"} {
		out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: tool})
		must(t, err)
		// A failed callback is exit code 1: a warning, no decision (fail open).
		if out.Decision != hookline.DecisionContinue {
			t.Errorf("%s: decision %q, want continue (a failing callback fails open)", tool, out.Decision)
		}
		if len(out.Hooks) != 1 || out.Hooks[0].ExitCode == nil || *out.Hooks[0].ExitCode != 1 {
			t.Errorf("%s: hooks = %+v, want one callback with exit code 1", tool, out.Hooks)
		}
	}
	got := seen.all()
	if len(got) != 3 {
		t.Fatalf("OnCallbackError called %d times, want 3: %+v", len(got), got)
	}
	if got[0].Name != "returns-error" || got[0].Where != "PreToolUse" || !errors.Is(got[0], errBoom) || got[0].Panic != nil {
		t.Errorf("error failure = %+v", got[0])
	}
	if got[1].Name != "panics" || got[1].Panic != (panicValue{code: 7}) || len(got[1].Stack) == 0 ||
		!strings.Contains(got[1].Err.Error(), "panic") {
		t.Errorf("panic failure = %+v", got[1])
	}
	if got[2].Name != "bad-reply" || got[2].Err == nil || !strings.Contains(got[2].Error(), "bad-reply") {
		t.Errorf("reply failure = %+v", got[2])
	}
}

func TestOnCallbackErrorThatPanicsDoesNotCrashTheHost(t *testing.T) {
	w := newWorkspace(t)
	opts := w.options(nil)
	opts.OnCallbackError = func(hookline.CallbackFailure) { panic("handler exploded too") }
	e := newEngine(t, opts)
	must(t, e.AddCallbackHook(hookline.EventStop, "", "fails", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), errors.New("no")
	}))
	out, err := e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	if out.BlockReason != "" || len(out.Hooks) != 1 || *out.Hooks[0].ExitCode != 1 {
		t.Fatalf("outcome = %+v", out)
	}
}

func TestRegistryOnCallbackErrorSeesThePanicAndTheDecideStillDenies(t *testing.T) {
	var seen failures
	r, err := hookline.NewRegistry(hookline.RegistryOptions{OnCallbackError: seen.add})
	must(t, err)
	t.Cleanup(r.Close)
	must(t, r.OnPreToolCallDecide("explodes", func(hookline.PreToolCallDecideContext) hookline.HookResult {
		panic("decide exploded")
	}))
	res, err := r.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "Bash"})
	must(t, err)
	if res.Allow {
		t.Fatal("a panicking decide callback must deny (fail closed)")
	}
	got := seen.all()
	if len(got) != 1 || got[0].Name != "explodes" || got[0].Where != "pre_tool_call_decide" || got[0].Panic != "decide exploded" {
		t.Fatalf("failures = %+v", got)
	}
	if _, err := hookline.NewRegistry(hookline.RegistryOptions{}, hookline.RegistryOptions{}); !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("two RegistryOptions: err = %v, want ErrInvalidArgument", err)
	}
}

// The leak counter is a test helper (export_test.go), not API: no exported
// identifier of the package's own (non-test) files may be OutstandingHandles.
func TestDebuggingHelpersAreNotPartOfThePublicAPI(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	must(t, err)
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "OutstandingHandles" {
					t.Errorf("%s exports OutstandingHandles", name)
				}
			}
		}
	}
}
