package hookline_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// writeHooksFile writes a Copilot CLI hooks file where Copilot CLI reads
// them (.github/hooks/<name>), so the engine recognises it by its path.
func writeHooksFile(t *testing.T, w testWorkspace, name string, config any) string {
	t.Helper()
	dir := w.path(".github/hooks")
	must(t, os.MkdirAll(dir, 0o755))
	b, err := json.Marshal(config)
	must(t, err)
	path := filepath.Join(dir, name)
	must(t, os.WriteFile(path, b, 0o644))
	return path
}

func bashEntry(script string) map[string]any {
	return map[string]any{"type": "command", "bash": script}
}

// Copilot CLI's rules through Go: "For preToolUse, if any hook returns
// "deny", the tool is blocked" — the hooks run in order and the first deny
// stops the rest; a guard written with jq reads toolArgs as a JSON string.
func TestCopilotFirstDenyStopsTheRestAndToolArgsIsAString(t *testing.T) {
	w := newWorkspace(t)
	guard := `input=$(cat); cmd=$(jq -r '.toolArgs | fromjson | .command' <<<"$input"); ` +
		`if [[ "$cmd" == rm* ]]; then echo '{"permissionDecision":"deny","permissionDecisionReason":"no rm"}'; fi`
	later := `cat >/dev/null; touch later-ran`
	path := writeHooksFile(t, w, "guard.json", map[string]any{"version": 1, "hooks": map[string]any{
		"preToolUse": []any{bashEntry(guard), bashEntry(later)},
	}})
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HooksFile: path})
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "bash", ToolInput: map[string]any{"command": "rm -rf /"}})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "no rm" || len(out.Hooks) != 1 {
		t.Fatalf("outcome = %s", out.Raw)
	}
	if exists(w.path("later-ran")) {
		t.Fatal("the hook after the deny ran")
	}
	previews, err := e.Previews()
	must(t, err)
	if previews[0].Dialect != "copilot" || len(previews[0].Argv) != 5 || previews[0].Argv[0] != "bash" {
		t.Fatalf("previews = %+v", previews)
	}
}

// "modifiedResult ... Replacement tool result": typed through
// Outcome.Copilot().
func TestCopilotModifiedResultIsTypedThroughDialectFields(t *testing.T) {
	w := newWorkspace(t)
	redact := `cat >/dev/null; echo '{"modifiedResult":{"resultType":"success","textResultForLlm":"[REDACTED]"},"additionalContext":"redacted"}'`
	path := writeHooksFile(t, w, "redact.json", map[string]any{"hooks": map[string]any{"postToolUse": []any{bashEntry(redact)}}})
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HooksFile: path})
	out, err := e.PostToolUse(context.Background(), hookline.PostToolUseInput{ToolName: "bash", ToolResponse: "GH=ghp_x"})
	must(t, err)
	fields, err := out.Copilot()
	must(t, err)
	if fields == nil || fields.ModifiedResult == nil || fields.ModifiedResult.TextResultForLLM != "[REDACTED]" ||
		fields.ModifiedResult.ResultType != "success" {
		t.Fatalf("copilot fields = %+v (outcome %s)", fields, out.Raw)
	}
	if len(out.AdditionalContext) != 1 || out.AdditionalContext[0] != "redacted" {
		t.Fatalf("context = %v", out.AdditionalContext)
	}
	// An outcome without them: nil, and no dialect_fields key at all.
	none, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "bash"})
	must(t, err)
	if f, err := none.Copilot(); f != nil || err != nil || none.DialectFields != nil {
		t.Fatalf("fields = %+v, %v (outcome %s)", f, err, none.Raw)
	}
}

// The Dialect option: the same file read with VS Code's rules (most
// restrictive wins, matchers ignored).
func TestDialectOptionReadsTheFileAsVSCode(t *testing.T) {
	w := newWorkspace(t)
	ask := `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`
	allow := `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`
	path := writeHooksFile(t, w, "h.json", map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		map[string]any{"type": "command", "command": ask, "matcher": "Edit"},
		map[string]any{"type": "command", "command": allow},
	}}})
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HooksFile: path, Dialect: "vscode"})
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "runTerminalCommand"})
	must(t, err)
	if out.Decision != hookline.DecisionAsk || len(out.Hooks) != 2 {
		t.Fatalf("outcome = %s", out.Raw)
	}
	if _, err := hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir, SessionID: "s", HooksFile: path, Dialect: "copilott"}); err == nil {
		t.Fatal("an unknown dialect was accepted")
	}
}

// A policy source through Go: Copilot CLI's policy hooks are "Not disabled
// by `disableAllHooks`" and "Within an event, policy entries are moved
// first"; their reports say Policy.
func TestCopilotPolicySourceRunsFirstAndSurvivesDisableAllHooks(t *testing.T) {
	w := newWorkspace(t)
	repo := writeHooksFile(t, w, "repo.json", map[string]any{"version": 1, "hooks": map[string]any{
		"preToolUse": []any{bashEntry(`cat >/dev/null; touch repo-ran`)},
	}})
	settings := w.path(".github/copilot/settings.json")
	must(t, os.MkdirAll(filepath.Dir(settings), 0o755))
	must(t, os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644))
	policy := w.path("00-org.json")
	allow := `cat >/dev/null; echo '{"permissionDecision":"allow"}'`
	b, err := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{bashEntry(allow)}}})
	must(t, err)
	must(t, os.WriteFile(policy, b, 0o644))
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HookSources: []hookline.HookSource{
		{HooksFile: repo, Trusted: true},
		{HooksFile: settings, Trusted: true},
		{HooksFile: policy, Policy: true, Dialect: hookline.DialectCopilot},
	}})
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "bash", ToolInput: map[string]any{"command": "ls"}})
	must(t, err)
	if out.Decision != hookline.DecisionAllow || len(out.Hooks) != 1 || !out.Hooks[0].Policy {
		t.Fatalf("outcome = %s", out.Raw)
	}
	if exists(w.path("repo-ran")) {
		t.Fatal("the repository's hook ran though its settings disable it")
	}
}
