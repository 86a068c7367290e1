package hookline_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// A project's .codex/hooks.json through Go, recognised by its path: Codex
// rejects "ask" (the tool runs, with an error message), treats "allow" +
// updatedInput as a rewrite and not an approval, and a deny drops every
// rewrite.
func TestCodexHooksFileGetsCodexsDecisions(t *testing.T) {
	w := newWorkspace(t)
	say := func(v string) string { return `cat > payload.json; printf '%s' '` + v + `'` }
	cfg := `{"hooks": {"PreToolUse": [
	  {"matcher": "Bash", "hooks": [{"type": "command", "command": ` + quote(say(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`)) + `}]},
	  {"matcher": "Write", "hooks": [{"type": "command", "command": ` + quote(say(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`)) + `}]}
	]}}`
	path := filepath.Join(w.dir, ".codex", "hooks.json")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(cfg), 0o644))
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HooksFile: path, TrustStore: w.trust})

	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash",
		ToolInput: map[string]any{"command": "ls"}, ToolCallID: "call-1", Extra: map[string]any{"turn_id": "t1", "model": "gpt-5"}})
	must(t, err)
	if out.Decision != hookline.DecisionContinue || string(out.UpdatedInput) != `{"command":"ls -la"}` {
		t.Fatalf("allow + updatedInput is a rewrite only: %s", out.Raw)
	}
	payload, err := os.ReadFile(w.path("payload.json"))
	must(t, err)
	if strings.HasSuffix(string(payload), "\n") || !strings.HasPrefix(string(payload), `{"session_id":"s-go","turn_id":"t1","transcript_path":null,`) {
		t.Fatalf("Codex payload = %q", payload)
	}

	// apply_patch is also Write: the "ask" hook runs, and Codex rejects ask.
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "apply_patch"})
	must(t, err)
	if out.Decision != hookline.DecisionContinue || len(out.Messages) != 1 || out.Messages[0].Level != "error" ||
		!strings.HasSuffix(out.Messages[0].Text, "PreToolUse hook returned unsupported permissionDecision:ask") {
		t.Fatalf("ask: %s", out.Raw)
	}
	if out.Hooks[0].Failure != "invalid_output" {
		t.Fatalf("failure = %q", out.Hooks[0].Failure)
	}
	previews, err := e.Previews()
	must(t, err)
	if len(previews) != 2 || previews[0].Dialect != hookline.DialectCodex {
		t.Fatalf("previews = %+v", previews)
	}
}

// The Dialect option on inline hooks and on a hook source; Stop reasons of
// every blocking hook are joined and SubagentStart context lands in
// DialectFields.
func TestCodexDialectOptionAndDialectFields(t *testing.T) {
	w := newWorkspace(t)
	block := func(r string) string {
		return `{"type":"command","command":` + quote(`cat >/dev/null; printf '%s' '{"decision":"block","reason":"`+r+`"}'`) + `}`
	}
	hooks := json.RawMessage(`{"hooks": {
	  "Stop": [{"hooks": [` + block("first") + `, ` + block("second") + `]}],
	  "SubagentStart": [{"matcher": "reviewer", "hooks": [{"type": "command", "command": "cat >/dev/null; echo child context"}]}]
	}}`)
	opts := w.options(hooks)
	opts.Dialect = hookline.DialectCodex
	e := newEngine(t, opts)
	stop, err := e.Stop(context.Background(), hookline.StopInput{LastAssistantMessage: "done"})
	must(t, err)
	if stop.BlockReason != "first\n\nsecond" {
		t.Fatalf("Stop: %s", stop.Raw)
	}
	sub, err := e.SubagentStart(context.Background(), hookline.SubagentInput{AgentName: "reviewer", ChildThreadID: "c1"})
	must(t, err)
	if got := string(sub.DialectFields[hookline.DialectCodex]["additionalContext"]); got != `["child context"]` {
		t.Fatalf("SubagentStart dialect fields = %q (%s)", got, sub.Raw)
	}

	src := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s", TrustStore: w.trust,
		HookSources: []hookline.HookSource{{Hooks: hooks, Dialect: hookline.DialectCodex, Trusted: true}}})
	stop, err = src.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	if stop.BlockReason != "first\n\nsecond" {
		t.Fatalf("hook source Stop: %s", stop.Raw)
	}
	if _, err := hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir, SessionID: "s", Hooks: hooks, Dialect: "codx"}); err == nil ||
		!strings.Contains(err.Error(), "codex") {
		t.Fatalf("an unknown dialect must be refused naming the valid ones: %v", err)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
