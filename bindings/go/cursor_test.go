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

// cursorProject writes <dir>/.cursor/hooks.json with hooks (the object under
// "hooks") and returns the options of an engine reading it by its path.
func cursorProject(t *testing.T, w testWorkspace, hooks string) hookline.EngineOptions {
	t.Helper()
	must(t, os.MkdirAll(w.path(".cursor"), 0o755))
	file := filepath.Join(w.path(".cursor"), "hooks.json")
	must(t, os.WriteFile(file, []byte(`{"version":1,"hooks":`+hooks+`}`), 0o644))
	return hookline.EngineOptions{Workspace: w.dir, SessionID: "conv-go", HooksFile: file, TrustStore: w.trust}
}

// A Cursor project through Go: "A Shell call fires preToolUse and then
// beforeShellExecution"; a preToolUse "ask" is "accepted by the schema but
// not enforced" (it is in the outcome's Cursor fields), the shell hook's
// deny blocks with its user_message, and its agent_message is kept.
func TestCursorShellHooksRunInPreToolUseAndTheirDenyBlocks(t *testing.T) {
	w := newWorkspace(t)
	ask := `cat >/dev/null; echo '{"permission":"ask"}'`
	deny := `cat >/dev/null; echo '{"permission":"deny","user_message":"no force pushes","agent_message":"use a branch"}'`
	e := newEngine(t, cursorProject(t, w, `{"preToolUse":[{"command":`+quote(ask)+`}],
		"beforeShellExecution":[{"command":`+quote(deny)+`,"matcher":"--force"}]}`))
	ctx := context.Background()
	out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Shell", ToolInput: json.RawMessage(`{"command":"git push --force"}`)})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "no force pushes" {
		t.Fatalf("decision = %q (%q), want deny: %s", out.Decision, out.Reason, out.Raw)
	}
	f, err := out.Cursor()
	must(t, err)
	if f == nil || f.Permission != "ask" || f.AgentMessage != "use a branch" {
		t.Fatalf("cursor fields = %+v: %s", f, out.Raw)
	}
	out, err = e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Shell", ToolInput: json.RawMessage(`{"command":"git push"}`)})
	must(t, err)
	if out.Decision != hookline.DecisionContinue || len(out.Hooks) != 1 {
		t.Fatalf("the unenforced ask decides nothing, and the matcher skips the shell hook: %s", out.Raw)
	}
}

// Cursor's beforeReadFile has no canonical meaning: fired by name, it is a
// gate (allow/deny) whose outcome Gate decodes.
func TestCursorBeforeReadFileByNameIsAGate(t *testing.T) {
	w := newWorkspace(t)
	guard := `f=$(jq -r .file_path); case "$f" in *.env) echo '{"permission":"deny","user_message":"secrets"}';; *) echo '{"permission":"allow"}';; esac`
	e := newEngine(t, cursorProject(t, w, `{"beforeReadFile":[{"command":`+quote(guard)+`}]}`))
	out, err := e.RunNamed(context.Background(), "beforeReadFile", map[string]any{"file_path": "/p/.env", "content": "A=1"})
	must(t, err)
	g, err := out.Gate()
	must(t, err)
	if g.Decision != hookline.DecisionDeny || g.Reason != "secrets" {
		t.Fatalf("gate = %q (%q): %s", g.Decision, g.Reason, out.Raw)
	}
}

// stop: `followup_message` keeps the agent working ("auto-submitted as the
// next user message"), at most `loop_limit` times per script.
func TestCursorStopFollowUpsAreBoundedByLoopLimit(t *testing.T) {
	w := newWorkspace(t)
	hook := `cat >/dev/null; echo '{"followup_message":"run the tests"}'`
	opts := cursorProject(t, w, `{"stop":[{"command":`+quote(hook)+`,"loop_limit":1}]}`)
	opts.Dialect = hookline.DialectCursor
	e := newEngine(t, opts)
	ctx := context.Background()
	in := hookline.StopInput{Extra: map[string]any{"status": "completed"}}
	first, err := e.Stop(ctx, in)
	must(t, err)
	second, err := e.Stop(ctx, in)
	must(t, err)
	if first.BlockReason != "run the tests" || second.BlockReason != "" {
		t.Fatalf("block reasons %q then %q", first.BlockReason, second.BlockReason)
	}
	previews, err := e.Previews()
	must(t, err)
	if len(previews) != 1 || previews[0].Dialect != hookline.DialectCursor {
		t.Fatalf("previews = %+v", previews)
	}
	if !strings.Contains(string(second.Raw), "loop_limit of 1") {
		t.Fatalf("no message about the loop limit: %s", second.Raw)
	}
}
