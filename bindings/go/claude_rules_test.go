package hookline_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// "Fixed a malformed hooks entry in settings.json no longer invalidating the
// entire file" (Claude Code 2.1.101): the entry is skipped, ConfigWarnings
// names it, and every other hook runs.
func TestConfigWarningsNameTheSkippedEntriesAndTheRestLoads(t *testing.T) {
	w := newWorkspace(t)
	hooks := json.RawMessage(`{"PreToolUse":[{"hooks":[{"type":"command"},
	  {"type":"command","command":"cat >/dev/null; echo guarded >&2; exit 2"}]}]}`)
	e := newEngine(t, w.options(hooks))
	warnings, err := e.ConfigWarnings()
	must(t, err)
	if len(warnings) != 1 || warnings[0].Path != "hooks.PreToolUse[0].hooks[0]" ||
		!strings.Contains(warnings[0].Message, "must specify a command") {
		t.Fatalf("warnings = %+v", warnings)
	}
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "guarded" {
		t.Fatalf("outcome = %s", out.Raw)
	}
	clean := newEngine(t, w.options(json.RawMessage(`{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}`)))
	warnings, err = clean.ConfigWarnings()
	must(t, err)
	if warnings == nil || len(warnings) != 0 {
		t.Fatalf("warnings = %#v, want an empty slice", warnings)
	}
}

// "precedence is deny > defer > ask > allow".
func TestPreToolUseDeferIsDecisionDefer(t *testing.T) {
	w := newWorkspace(t)
	say := func(d string) map[string]any {
		return map[string]any{"type": "command", "command": `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"` + d + `"}}'`}
	}
	hooks, _ := json.Marshal(map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{say("ask"), say("defer")}}}})
	e := newEngine(t, w.options(hooks))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Decision != hookline.DecisionDefer {
		t.Fatalf("decision = %q: %s", out.Decision, out.Raw)
	}
}

// SubagentStart "can inject context into the subagent"; its matcher tests
// agent_type ("the agent name that the matcher filters on").
func TestSubagentStartMatchesAgentTypeAndReturnsContext(t *testing.T) {
	w := newWorkspace(t)
	hooks := json.RawMessage(`{"SubagentStart":[{"matcher":"Explore","hooks":[{"type":"command","command":
	  "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"be careful\"}}'"}]}]}`)
	e := newEngine(t, w.options(hooks))
	out, err := e.SubagentStart(context.Background(), hookline.SubagentInput{AgentType: "Explore", AgentID: "a1"})
	must(t, err)
	if len(out.AdditionalContext) != 1 || out.AdditionalContext[0] != "be careful" {
		t.Fatalf("outcome = %s", out.Raw)
	}
	out, err = e.SubagentStart(context.Background(), hookline.SubagentInput{AgentType: "Plan", AgentName: "Explore"})
	must(t, err)
	if len(out.Hooks) != 0 {
		t.Fatalf("agent_name matched: %s", out.Raw)
	}
}

// Named events with rules of their own: TaskCreated "Exit code 2 ... cancels
// the task"; WorktreeCreate "print the path as the last non-empty line".
func TestRunNamedReturnsTheFieldsOfTheEventsFamily(t *testing.T) {
	w := newWorkspace(t)
	hooks := json.RawMessage(`{
	  "TaskCreated":[{"hooks":[{"type":"command","command":"cat >/dev/null; echo 'needs a ticket' >&2; exit 2"}]}],
	  "WorktreeCreate":[{"hooks":[{"type":"command","command":"cat >/dev/null; echo /srv/wt"}]}]}`)
	e := newEngine(t, w.options(hooks))
	out, err := e.RunNamed(context.Background(), "TaskCreated", `{"task_id":"t1"}`)
	must(t, err)
	if out.BlockReason != "needs a ticket" {
		t.Fatalf("TaskCreated: %s", out.Raw)
	}
	out, err = e.RunNamed(context.Background(), "WorktreeCreate", `{"name":"x"}`)
	must(t, err)
	if out.WorktreePath != "/srv/wt" {
		t.Fatalf("WorktreeCreate: %s", out.Raw)
	}
}

// "Claude Code overrides the hook and ends the turn after 8 consecutive
// blocks" (StopHookBlockCap; here 1), and any SessionStart source ("fork").
func TestStopHookBlockCapAndAnySessionStartSource(t *testing.T) {
	w := newWorkspace(t)
	one := uint32(1)
	opts := w.options(json.RawMessage(`{"Stop":[{"hooks":[{"type":"command","command":"cat >/dev/null; echo again >&2; exit 2"}]}],
	  "SessionStart":[{"matcher":"fork","hooks":[{"type":"command","command":"cat >/dev/null; echo forked"}]}]}`))
	opts.StopHookBlockCap = &one
	opts.Trigger = hookline.SessionStartTrigger("fork")
	e := newEngine(t, opts)
	first, err := e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	second, err := e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	if first.BlockReason != "again" || second.BlockReason != "" {
		t.Fatalf("first = %s, second = %s", first.Raw, second.Raw)
	}
	start, err := e.SessionStart(context.Background())
	must(t, err)
	if len(start.AdditionalContext) != 1 || start.AdditionalContext[0] != "forked" {
		t.Fatalf("SessionStart: %s", start.Raw)
	}
}
