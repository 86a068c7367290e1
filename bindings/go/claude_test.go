package hookline_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// The Claude Code profile through Go: every PreToolUse hook runs and the
// most restrictive decision wins (the VT Code profile stops at the allow).
func TestClaudePreToolUseLaterDenyWinsOverEarlierAllow(t *testing.T) {
	allow := `cat >/dev/null; printf '%s\n' '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`
	deny := `cat >/dev/null; printf '%s\n' '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"guard"}}'`
	for _, tc := range []struct {
		hooks json.RawMessage
		want  hookline.PreToolUseDecision
		runs  int
	}{
		{claudeHooks(t, map[string][]hookSpec{"PreToolUse": {{command: allow}, {command: deny}}}), hookline.DecisionDeny, 2},
		{vtHooks(t, map[string][]hookSpec{"pre_tool_use": {{command: allow}, {command: deny}}}), hookline.DecisionAllow, 1},
	} {
		w := newWorkspace(t)
		e := newEngine(t, w.options(tc.hooks))
		out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
		must(t, err)
		if out.Decision != tc.want || len(out.Hooks) != tc.runs {
			t.Fatalf("decision = %q with %d hooks, want %q with %d", out.Decision, len(out.Hooks), tc.want, tc.runs)
		}
		if out.Hooks[0].Failure != "" {
			t.Fatalf("failure = %q, want none", out.Hooks[0].Failure)
		}
	}
}

func TestRunNamedFiresAnUnknownEventKey(t *testing.T) {
	w := newWorkspace(t)
	hooks := json.RawMessage(`{"PostCompact":[{"matcher":"auto","hooks":[{"type":"command","command":"cat > seen.json; echo compacted"}]}]}`)
	e := newEngine(t, w.options(hooks))
	out, err := e.RunNamed(context.Background(), "PostCompact", map[string]any{"matcher_value": "auto"})
	must(t, err)
	if len(out.Hooks) != 1 || len(out.Messages) != 1 || out.Messages[0].Text != "compacted" {
		t.Fatalf("outcome = %s", out.Raw)
	}
	b, err := os.ReadFile(w.path("seen.json"))
	must(t, err)
	if !strings.Contains(string(b), `"hook_event_name":"PostCompact"`) {
		t.Fatalf("payload = %s", b)
	}
	out, err = e.RunNamed(context.Background(), "PostCompact", `{"matcher_value":"manual"}`)
	must(t, err)
	if len(out.Hooks) != 0 {
		t.Fatalf("the matcher did not filter: %s", out.Raw)
	}
	if _, err := e.RunNamed(context.Background(), "", `{}`); err == nil {
		t.Fatal("a blank event name was accepted")
	}
	// A known event by name keeps its rules.
	out, err = e.RunNamed(context.Background(), "Stop", `{}`)
	must(t, err)
	if !strings.Contains(string(out.Raw), `"block_reason"`) {
		t.Fatalf("Stop by name: %s", out.Raw)
	}
}

func TestHookSourcesGateOnlyUntrustedSourcesAndSetPluginRoot(t *testing.T) {
	w := newWorkspace(t)
	user := claudeHooks(t, map[string][]hookSpec{"Stop": {{command: `cat >/dev/null; touch user-ran`}}})
	plugin := claudeHooks(t, map[string][]hookSpec{"Stop": {{command: `cat >/dev/null; printf '%s\n' "$CLAUDE_PLUGIN_ROOT" > root`}}})
	opts := hookline.EngineOptions{Workspace: w.dir, SessionID: "s", TrustStore: w.trust, WorkspaceGated: true,
		HookSources: []hookline.HookSource{{Hooks: user, Trusted: true}, {Hooks: plugin, PluginRoot: "/plugins/fmt"}}}
	e := newEngine(t, opts)
	if !e.NeedsApproval() {
		t.Fatal("the untrusted source needs approval")
	}
	out, err := e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	if !exists(w.path("user-ran")) || out.Hooks[1].Skipped != "not_approved" {
		t.Fatalf("trusted source must run, untrusted must wait: %s", out.Raw)
	}
	must(t, e.Approve(false))
	_, err = e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	if got := waitFile(t, w.path("root")); got != "/plugins/fmt" {
		t.Fatalf("CLAUDE_PLUGIN_ROOT = %q", got)
	}
}

func TestSessionStartEnvFileIsReturnedAsEnv(t *testing.T) {
	w := newWorkspace(t)
	hooks := claudeHooks(t, map[string][]hookSpec{"SessionStart": {{command: `echo 'export MODE=strict' >> "$CLAUDE_ENV_FILE"`}}})
	e := newEngine(t, w.options(hooks))
	out, err := e.SessionStart(context.Background())
	must(t, err)
	if out.Env["MODE"] != "strict" {
		t.Fatalf("env = %v (%s)", out.Env, out.Raw)
	}
}

func TestClaudeSubagentStopAndPreCompactBlock(t *testing.T) {
	w := newWorkspace(t)
	hooks := claudeHooks(t, map[string][]hookSpec{
		"SubagentStop": {{command: `cat >/dev/null; printf '%s\n' '{"decision":"block","reason":"finish the report"}'`}},
		"PreCompact":   {{command: `cat >/dev/null; echo 'not now' >&2; exit 2`}},
	})
	e := newEngine(t, w.options(hooks))
	sub, err := e.SubagentStop(context.Background(), hookline.SubagentInput{AgentName: "reviewer"})
	must(t, err)
	if sub.BlockReason != "finish the report" {
		t.Fatalf("SubagentStop: %s", sub.Raw)
	}
	pc, err := e.PreCompact(context.Background(), hookline.PreCompactInput{Trigger: hookline.CompactAuto})
	must(t, err)
	if pc.BlockReason != "not now" {
		t.Fatalf("PreCompact: %s", pc.Raw)
	}
}
