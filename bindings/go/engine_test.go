package hookline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

// claudeHooks builds a Claude Code settings hooks config: event → list of
// (matcher, command, timeout seconds; 0 = default).
type hookSpec struct {
	matcher string
	command string
	timeout int
}

func claudeHooks(t *testing.T, byEvent map[string][]hookSpec) json.RawMessage {
	t.Helper()
	cfg := map[string]any{}
	for ev, specs := range byEvent {
		var groups []any
		for _, s := range specs {
			h := map[string]any{"type": "command", "command": s.command}
			if s.timeout > 0 {
				h["timeout"] = s.timeout
			}
			groups = append(groups, map[string]any{"matcher": s.matcher, "hooks": []any{h}})
		}
		cfg[ev] = groups
	}
	b, err := json.Marshal(cfg)
	must(t, err)
	return b
}

// vtHooks builds the same as a VT Code "lifecycle" config (snake_case
// event keys, timeout_seconds): the VT Code profile's rules (sequential
// PreToolUse stopping at the first decision, updatedInput chaining, a
// timeout denying) are tested in this dialect.
func vtHooks(t *testing.T, byEvent map[string][]hookSpec) json.RawMessage {
	t.Helper()
	lifecycle := map[string]any{}
	for ev, specs := range byEvent {
		var groups []any
		for _, s := range specs {
			h := map[string]any{"type": "command", "command": s.command}
			if s.timeout > 0 {
				h["timeout_seconds"] = s.timeout
			}
			g := map[string]any{"hooks": []any{h}}
			if s.matcher != "" {
				g["matcher"] = s.matcher
			}
			groups = append(groups, g)
		}
		lifecycle[ev] = groups
	}
	b, err := json.Marshal(map[string]any{"lifecycle": lifecycle})
	must(t, err)
	return b
}

type testWorkspace struct {
	dir   string
	trust string
}

func newWorkspace(t *testing.T) testWorkspace {
	t.Helper()
	dir := t.TempDir()
	return testWorkspace{dir: dir, trust: filepath.Join(t.TempDir(), "trust.json")}
}

func (w testWorkspace) options(hooks json.RawMessage) hookline.EngineOptions {
	return hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", Hooks: hooks, TrustStore: w.trust}
}

func (w testWorkspace) path(name string) string { return filepath.Join(w.dir, name) }

func newEngine(t *testing.T, opts hookline.EngineOptions) *hookline.Engine {
	t.Helper()
	e, err := hookline.NewEngine(opts)
	must(t, err)
	t.Cleanup(e.Close)
	return e
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// waitFile waits (generously) for a file a hook writes, returning its text.
func waitFile(t *testing.T, p string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(p); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("hook never wrote %s", p)
	return ""
}

// processGone reports whether pid no longer runs (absent, or a zombie
// waiting for a reaper that is not us).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z' || s[i+2] == 'X'
	}
	return false
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running %v after the run ended", pid, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPreToolUseUpdatedInputChainsToTheNextHook(t *testing.T) {
	w := newWorkspace(t)
	hooks := vtHooks(t, map[string][]hookSpec{"pre_tool_use": {
		{matcher: "Bash", command: `printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la","sandbox":true}}}'`},
		{matcher: "Bash", command: `cat > seen.json`},
	}})
	e := newEngine(t, w.options(hooks))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{
		ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}, ToolCallID: "call-1",
	})
	must(t, err)
	jsonEqual(t, out.UpdatedInput, `{"command":"ls -la","sandbox":true}`)
	if out.Decision != hookline.DecisionContinue {
		t.Fatalf("decision = %q, want continue", out.Decision)
	}
	var payload struct {
		ToolInput     json.RawMessage `json:"tool_input"`
		ToolUseID     string          `json:"tool_use_id"`
		HookEventName string          `json:"hook_event_name"`
		SessionID     string          `json:"session_id"`
	}
	b, err := os.ReadFile(w.path("seen.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &payload))
	jsonEqual(t, payload.ToolInput, `{"command":"ls -la","sandbox":true}`)
	if payload.ToolUseID != "call-1" || payload.HookEventName != "PreToolUse" || payload.SessionID != "s-go" {
		t.Fatalf("payload = %s", b)
	}
	if len(out.Hooks) != 2 || out.Hooks[1].ExitCode == nil || *out.Hooks[1].ExitCode != 0 {
		t.Fatalf("hooks = %+v", out.Hooks)
	}
}

func TestPreToolUseExit2WithStderrDenies(t *testing.T) {
	w := newWorkspace(t)
	hooks := vtHooks(t, map[string][]hookSpec{"pre_tool_use": {
		{matcher: "Bash", command: `echo 'rm -rf is blocked' >&2; exit 2`},
		{matcher: "Bash", command: `touch second-ran`},
	}})
	e := newEngine(t, w.options(hooks))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "rm -rf /"}})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "rm -rf is blocked" {
		t.Fatalf("decision = %q reason = %q, want deny with the stderr text", out.Decision, out.Reason)
	}
	if exists(w.path("second-ran")) || len(out.Hooks) != 1 {
		t.Fatal("a hook after the deny ran")
	}
	if c := out.Hooks[0].ExitCode; c == nil || *c != 2 {
		t.Fatalf("report = %+v, want exit code 2", out.Hooks[0])
	}

	// A tool the matcher does not select runs no hook.
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Edit"})
	must(t, err)
	if out.Decision != hookline.DecisionContinue || len(out.Hooks) != 0 {
		t.Fatalf("unmatched tool: %+v", out)
	}
}

func TestPreToolUseTimeoutDenies(t *testing.T) {
	w := newWorkspace(t)
	hooks := vtHooks(t, map[string][]hookSpec{"pre_tool_use": {{command: `sleep 30`, timeout: 1}}})
	e := newEngine(t, w.options(hooks))
	start := time.Now()
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if elapsed := time.Since(start); elapsed > 4*time.Second {
		t.Fatalf("run took %v, want about the 1 s timeout", elapsed)
	}
	if out.Decision != hookline.DecisionDeny {
		t.Fatalf("decision = %q, want deny (fail closed)", out.Decision)
	}
	h := out.Hooks[0]
	if !h.TimedOut || h.ExitCode != nil {
		t.Fatalf("report = %+v, want timed_out and no exit code", h)
	}
	found := false
	for _, m := range out.Messages {
		found = found || strings.Contains(m.Text, "timed out")
	}
	if !found {
		t.Fatalf("messages = %+v, want one containing 'timed out'", out.Messages)
	}
}

func TestGatedEngineRunsNoCommandBeforeApprove(t *testing.T) {
	w := newWorkspace(t)
	hooks := claudeHooks(t, map[string][]hookSpec{"PreToolUse": {{command: `touch ran`}}})
	opts := w.options(hooks)
	opts.WorkspaceGated = true
	e := newEngine(t, opts)
	if !e.WorkspaceGated() || !e.NeedsApproval() {
		t.Fatalf("gated = %v, needs approval = %v; want both true", e.WorkspaceGated(), e.NeedsApproval())
	}
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	time.Sleep(100 * time.Millisecond)
	if exists(w.path("ran")) {
		t.Fatal("the command ran before approval")
	}
	if len(out.Hooks) != 1 || out.Hooks[0].Skipped != "not_approved" || out.Hooks[0].ExitCode != nil {
		t.Fatalf("hooks = %+v, want one skipped not_approved", out.Hooks)
	}
	if out.Decision != hookline.DecisionContinue {
		t.Fatalf("a skipped command decided %q", out.Decision)
	}
	notApproved := false
	for _, m := range out.Messages {
		notApproved = notApproved || strings.Contains(m.Text, "not approved")
	}
	if !notApproved {
		t.Fatalf("messages = %+v, want 'not approved'", out.Messages)
	}

	must(t, e.Approve(false))
	if e.NeedsApproval() {
		t.Fatal("still needs approval after Approve")
	}
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if !exists(w.path("ran")) || out.Hooks[0].Skipped != "" {
		t.Fatalf("after Approve the command did not run: %+v", out.Hooks)
	}
	if _, err := os.Stat(w.trust); err == nil {
		t.Fatal("Approve(false) wrote the trust store")
	}
}

func TestPersistedApprovalCarriesToANewEngineAndReloadWithNewCommandsRevokesIt(t *testing.T) {
	w := newWorkspace(t)
	opts := w.options(claudeHooks(t, map[string][]hookSpec{"Stop": {{command: `true`}}}))
	opts.WorkspaceGated = true
	e1 := newEngine(t, opts)
	must(t, e1.Approve(true))
	e2 := newEngine(t, opts)
	if e2.NeedsApproval() {
		t.Fatal("a new engine with the persisted digest needs approval")
	}
	d1, err := e2.Digest()
	must(t, err)
	opts.Hooks = claudeHooks(t, map[string][]hookSpec{"Stop": {{command: `true # changed`}}})
	must(t, e2.Reload(opts))
	d2, err := e2.Digest()
	must(t, err)
	if d1 == d2 || !e2.NeedsApproval() {
		t.Fatalf("digest %s -> %s, needs approval %v: changed commands must need approval", d1, d2, e2.NeedsApproval())
	}
	bad := opts
	// A VT Code config rejects a malformed entry (a Claude Code one skips it).
	bad.Hooks = json.RawMessage(`{"lifecycle":{"pre_tool_use":[{"matcher":"Bash","hooks":[]}]}}`)
	if err := e2.Reload(bad); !errors.Is(err, hookline.ErrInvalidConfig) {
		t.Fatalf("bad reload: err = %v, want ErrInvalidConfig", err)
	}
	d3, err := e2.Digest()
	must(t, err)
	if d3 != d2 {
		t.Fatal("a failed reload changed the configuration")
	}
}

func TestDigestMatchesTheSpecExample(t *testing.T) {
	w := newWorkspace(t)
	opts := w.options(json.RawMessage(`{"lifecycle":{"pre_tool_use":[{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh","timeout_seconds":10}]}]}}`))
	e := newEngine(t, opts)
	d, err := e.Digest()
	must(t, err)
	if d != "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89" {
		t.Fatalf("digest = %s", d)
	}
	p, err := e.Previews()
	must(t, err)
	if len(p) != 1 || p[0].Event != "pre_tool_use" || p[0].Command != "./check.sh" ||
		p[0].Matcher == nil || *p[0].Matcher != "Bash" || p[0].TimeoutSeconds == nil || *p[0].TimeoutSeconds != 10 {
		t.Fatalf("previews = %+v", p)
	}
	if e.WorkspaceGated() || e.NeedsApproval() {
		t.Fatal("an ungated engine reports gated / needs approval")
	}
}

func TestEngineOptionErrorsCarryStatuses(t *testing.T) {
	w := newWorkspace(t)
	_, err := hookline.NewEngine(hookline.EngineOptions{Workspace: filepath.Join(w.dir, "missing"), SessionID: "s"})
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("missing workspace: err = %v, want ErrInvalidArgument", err)
	}
	_, err = hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir, SessionID: "s",
		Hooks: json.RawMessage(`{"lifecycle":{"pre_tool_use":[{"matcher":"Bash","hooks":[{"type":"command","command":"  "}]}]}}`)})
	var he *hookline.Error
	if !errors.As(err, &he) || he.Status != hookline.StatusInvalidConfig || !strings.Contains(he.Message, "hooks.pre_tool_use[0]") {
		t.Fatalf("blank command: err = %v, want ErrInvalidConfig naming hooks.pre_tool_use[0]", err)
	}
	_, err = hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir, SessionID: "s", HooksFile: filepath.Join(w.dir, "nope.json")})
	if !errors.Is(err, hookline.ErrIO) {
		t.Fatalf("unreadable hooks file: err = %v, want ErrIO", err)
	}
	// The VT Code profile accepts only its trigger values (the Claude Code
	// profile, and an engine without hooks, accept any source).
	_, err = hookline.NewEngine(hookline.EngineOptions{Workspace: w.dir, SessionID: "s", Trigger: "sometime",
		Hooks: json.RawMessage(`{"lifecycle":{"stop":[{"hooks":[{"command":"true"}]}]}}`)})
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("bad trigger: err = %v, want ErrInvalidArgument", err)
	}

	// The VT Code profile's strict inputs (a Claude Code config, or none, accepts any reason).
	e := newEngine(t, w.options(vtHooks(t, map[string][]hookSpec{"stop": {{command: "true"}}})))
	_, err = e.SessionEnd(context.Background(), hookline.SessionEndInput{TurnID: "t", Reason: "bored"})
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("bad reason: err = %v, want ErrInvalidArgument", err)
	}
	_, err = e.RunJSON(context.Background(), hookline.Event(42), `{}`)
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("unknown event: err = %v, want ErrInvalidArgument", err)
	}
	_, err = e.RunJSON(context.Background(), hookline.EventStop, `{"last_assistant_message":`)
	if !errors.Is(err, hookline.ErrInvalidJSON) {
		t.Fatalf("malformed input: err = %v, want ErrInvalidJSON", err)
	}
	err = e.AddCallbackHook(hookline.EventStop, "(", "bad-matcher", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), nil
	})
	if !errors.Is(err, hookline.ErrInvalidArgument) {
		t.Fatalf("invalid callback matcher: err = %v, want ErrInvalidArgument", err)
	}
}

func TestHooksTOMLAndHooksFileAreAccepted(t *testing.T) {
	w := newWorkspace(t)
	opts := w.options(nil)
	opts.HooksTOML = "[hooks.lifecycle]\nsession_start = [{ hooks = [{ command = \"echo from toml\" }] }]\n"
	e := newEngine(t, opts)
	out, err := e.SessionStart(context.Background())
	must(t, err)
	if len(out.AdditionalContext) != 1 || out.AdditionalContext[0] != "from toml" {
		t.Fatalf("additional context = %q", out.AdditionalContext)
	}

	file := w.path("hooks.json")
	must(t, os.WriteFile(file, claudeHooks(t, map[string][]hookSpec{"SessionStart": {{command: `echo from file`}}}), 0o600))
	opts = w.options(nil)
	opts.HooksFile = file
	e2 := newEngine(t, opts)
	out, err = e2.SessionStart(context.Background())
	must(t, err)
	if len(out.AdditionalContext) != 1 || out.AdditionalContext[0] != "from file" {
		t.Fatalf("additional context = %q", out.AdditionalContext)
	}
}

func TestUserPromptSubmitExit2WithStderrBlocks(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"UserPromptSubmit": {{command: `grep -q password && { echo 'no passwords' >&2; exit 2; }; exit 0`}}})))
	out, err := e.UserPromptSubmit(context.Background(), hookline.UserPromptSubmitInput{TurnID: "t1", Prompt: "my password is hunter2"})
	must(t, err)
	if out.AllowPrompt || out.BlockReason != "no passwords" {
		t.Fatalf("outcome = %+v, want blocked 'no passwords'", out)
	}
	out, err = e.UserPromptSubmit(context.Background(), hookline.UserPromptSubmitInput{TurnID: "t2", Prompt: "hello"})
	must(t, err)
	if !out.AllowPrompt {
		t.Fatalf("outcome = %+v, want allowed", out)
	}
}

func TestStopAndPostToolUseBlockReasonsAndObserverEvents(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{
		"Stop":               {{command: `echo '{"decision":"block","reason":"tests still fail"}'`}},
		"PostToolUse":        {{command: `echo '{"decision":"block","reason":"output looks wrong"}'`}},
		"PostToolUseFailure": {{command: `echo '{"hookSpecificOutput":{"additionalContext":"retry with sudo"}}'`}},
		"Notification":       {{command: `echo notified`}},
		"PreCompact":         {{command: `cat > compact.json`}},
		"SubagentStart":      {{command: `cat > subagent.json`}},
		"SessionEnd":         {{command: `exit 0`}},
		"SubagentStop":       {{command: `exit 0`}},
		"PermissionRequest":  {{command: `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`}},
	})))
	ctx := context.Background()
	stop, err := e.Stop(ctx, hookline.StopInput{LastAssistantMessage: "done", StopHookActive: false})
	must(t, err)
	if stop.BlockReason != "tests still fail" {
		t.Fatalf("stop = %+v", stop)
	}
	post, err := e.PostToolUse(ctx, hookline.PostToolUseInput{ToolName: "Bash", ToolResponse: map[string]any{"stdout": "x"}})
	must(t, err)
	if post.BlockReason != "output looks wrong" {
		t.Fatalf("post = %+v", post)
	}
	fail, err := e.PostToolUseFailure(ctx, hookline.PostToolUseFailureInput{ToolName: "Bash", Error: "EPERM"})
	must(t, err)
	if len(fail.AdditionalContext) != 1 || fail.AdditionalContext[0] != "retry with sudo" {
		t.Fatalf("failure = %+v", fail)
	}
	note, err := e.Notification(ctx, hookline.NotificationInput{NotificationType: "idle_prompt", Title: "t", Message: "m"})
	must(t, err)
	if len(note.Messages) != 1 || note.Messages[0].Text != "notified" || note.Messages[0].Level != "info" {
		t.Fatalf("notification = %+v", note.Messages)
	}
	_, err = e.PreCompact(ctx, hookline.PreCompactInput{Trigger: hookline.CompactAuto, Mode: hookline.CompactModeLocal, OriginalMessageCount: 40, CompactedMessageCount: 8})
	must(t, err)
	var compact map[string]any
	must(t, json.Unmarshal([]byte(waitFile(t, w.path("compact.json"))+"\n"), &compact))
	if compact["trigger"] != "auto" || compact["original_message_count"] != float64(40) {
		t.Fatalf("compact payload = %v", compact)
	}
	_, err = e.SubagentStart(ctx, hookline.SubagentInput{ParentSessionID: "s-go", ChildThreadID: "c1", AgentName: "reviewer",
		DisplayLabel: "Reviewer", Background: true, Status: "running", Extra: map[string]any{"agent_id": "a-7"}})
	must(t, err)
	var sub map[string]any
	must(t, json.Unmarshal([]byte(waitFile(t, w.path("subagent.json"))+"\n"), &sub))
	if sub["agent_name"] != "reviewer" || sub["agent_id"] != "a-7" || sub["background"] != true {
		t.Fatalf("subagent payload = %v", sub)
	}
	_, err = e.SubagentStop(ctx, hookline.SubagentInput{ParentSessionID: "s-go", ChildThreadID: "c1", AgentName: "reviewer", DisplayLabel: "Reviewer", Status: "done"})
	must(t, err)
	_, err = e.SessionEnd(ctx, hookline.SessionEndInput{TurnID: "t9", Reason: hookline.SessionEndCompleted})
	must(t, err)
	perm, err := e.PermissionRequest(ctx, hookline.PermissionRequestInput{ToolName: "Bash", PermissionRequest: map[string]any{"reason": "x"}})
	must(t, err)
	if perm.Decision == nil || perm.Decision.Behavior != "allow" || perm.Decision.Scope != "once" {
		t.Fatalf("permission decision = %+v", perm.Decision)
	}
}

func TestTranscriptPathRoundTripsAndReachesHooks(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"Notification": {{command: `printf '%s\n' "$HOOKLINE_TRANSCRIPT_PATH" > tp.txt`}}})))
	p, err := e.TranscriptPath()
	must(t, err)
	if p != "" {
		t.Fatalf("initial transcript path = %q", p)
	}
	must(t, e.SetTranscriptPath("/var/tmp/transcript.jsonl"))
	p, err = e.TranscriptPath()
	must(t, err)
	if p != "/var/tmp/transcript.jsonl" {
		t.Fatalf("transcript path = %q", p)
	}
	_, err = e.Notification(context.Background(), hookline.NotificationInput{NotificationType: "idle_prompt", Title: "t", Message: "m"})
	must(t, err)
	if got := waitFile(t, w.path("tp.txt")); got != "/var/tmp/transcript.jsonl" {
		t.Fatalf("hook saw HOOKLINE_TRANSCRIPT_PATH = %q", got)
	}
	must(t, e.SetTranscriptPath(""))
	p, err = e.TranscriptPath()
	must(t, err)
	if p != "" {
		t.Fatalf("cleared transcript path = %q", p)
	}
}

func TestCallbackHookReplies(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(nil))
	var payloadTool atomic.Value
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Bash", "deny-bash", func(p json.RawMessage) (hookline.CallbackReply, error) {
		var in struct {
			ToolName string `json:"tool_name"`
		}
		if err := json.Unmarshal(p, &in); err != nil {
			return hookline.NoOpinion(), err
		}
		payloadTool.Store(in.ToolName)
		return hookline.ReplyDeny("bash is off"), nil
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Read", "allow-read", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyAllow(), nil
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Edit", "json-edit", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.ReplyJSON(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "check edits"}}), nil
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Panic", "panics", func(json.RawMessage) (hookline.CallbackReply, error) {
		panic("callback hook exploded")
	}))
	ctx := context.Background()
	cases := []struct {
		tool     string
		decision hookline.PreToolUseDecision
		reason   string
		exit     int
	}{
		{"Bash", hookline.DecisionDeny, "bash is off", 2},
		{"Read", hookline.DecisionAllow, "", 0},
		{"Edit", hookline.DecisionAsk, "check edits", 0},
		{"Panic", hookline.DecisionContinue, "", 1},
	}
	for _, c := range cases {
		out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: c.tool})
		must(t, err)
		if out.Decision != c.decision || out.Reason != c.reason {
			t.Errorf("%s: decision %q reason %q, want %q %q", c.tool, out.Decision, out.Reason, c.decision, c.reason)
		}
		if len(out.Hooks) != 1 || out.Hooks[0].Kind != "callback" || out.Hooks[0].ExitCode == nil || *out.Hooks[0].ExitCode != c.exit {
			t.Errorf("%s: hooks = %+v, want one callback with exit %d", c.tool, out.Hooks, c.exit)
		}
	}
	if payloadTool.Load() != "Bash" {
		t.Fatalf("callback payload tool_name = %v", payloadTool.Load())
	}
}

func TestCallbackHookErrorTextIsItsStderr(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(nil))
	must(t, e.AddCallbackHook(hookline.EventStop, "", "boom", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), errors.New("policy file unreadable")
	}))
	out, err := e.Stop(context.Background(), hookline.StopInput{LastAssistantMessage: "done"})
	must(t, err)
	want := "Stop hook `boom` exited with code 1: policy file unreadable"
	if len(out.Messages) != 1 || out.Messages[0].Text != want {
		t.Fatalf("messages = %+v, want %q", out.Messages, want)
	}
}

func TestTwoHundredConcurrentRunsWithGoCallbacksOnHooklineThreads(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {{matcher: "Bash", command: `exit 0`}}})))
	var calls atomic.Int64
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "*", "policy", func(p json.RawMessage) (hookline.CallbackReply, error) {
		calls.Add(1)
		var in struct {
			ToolInput struct {
				N int `json:"n"`
			} `json:"tool_input"`
		}
		if err := json.Unmarshal(p, &in); err != nil {
			return hookline.NoOpinion(), err
		}
		if in.ToolInput.N%2 == 1 {
			return hookline.ReplyDeny("odd " + strconv.Itoa(in.ToolInput.N)), nil
		}
		return hookline.ReplyAllow(), nil
	}))
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tool := "Read"
			if i%4 == 0 {
				tool = "Bash"
			}
			out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: tool, ToolInput: map[string]any{"n": i}})
			if err != nil {
				errs <- err
				return
			}
			want, reason := hookline.DecisionAllow, ""
			if i%2 == 1 {
				want, reason = hookline.DecisionDeny, "odd "+strconv.Itoa(i)
			}
			if out.Decision != want || out.Reason != reason {
				errs <- fmt.Errorf("run %d: decision %q reason %q, want %q %q", i, out.Decision, out.Reason, want, reason)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if calls.Load() != n {
		t.Fatalf("callback ran %d times, want %d", calls.Load(), n)
	}
}

func TestContextCancelKillsASleepingHookPromptly(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {
		{command: `echo $$ > sh.pid; sleep 60 & echo $! > sleep.pid; wait`},
	}})))
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		err error
		at  time.Time
	}
	done := make(chan result, 1)
	go func() {
		_, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Bash"})
		done <- result{err, time.Now()}
	}()
	shPid, err := strconv.Atoi(waitFile(t, w.path("sh.pid")))
	must(t, err)
	sleepPid, err := strconv.Atoi(waitFile(t, w.path("sleep.pid")))
	must(t, err)
	cancelled := time.Now()
	cancel()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("PreToolUse did not return after its context was cancelled")
	}
	if d := r.at.Sub(cancelled); d > 3*time.Second {
		t.Fatalf("returned %v after cancel, want promptly", d)
	}
	if !errors.Is(r.err, context.Canceled) || !errors.Is(r.err, hookline.ErrCancelled) {
		t.Fatalf("err = %v, want context.Canceled and ErrCancelled", r.err)
	}
	waitGone(t, shPid, 3*time.Second)
	waitGone(t, sleepPid, 3*time.Second)

	// A context that is already done starts nothing.
	_, err = e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Bash"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run with a done context: err = %v", err)
	}
}

func TestContextDeadlineEndsARunWithDeadlineExceeded(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"Notification": {{command: `sleep 60`}}})))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := e.Notification(ctx, hookline.NotificationInput{NotificationType: "idle_prompt", Title: "t", Message: "m"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if time.Since(start) > 4*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
}

func TestCloseWithRunsInFlightCancelsThemAndReleasesEverything(t *testing.T) {
	base := hookline.OutstandingHandles()
	w := newWorkspace(t)
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {
		{command: `cat > /dev/null; sleep 60 & echo $! > "sleep-$(date +%s%N).pid"; wait`},
	}})))
	must(t, err)
	must(t, e.AddCallbackHook(hookline.EventStop, "", "cb", func(json.RawMessage) (hookline.CallbackReply, error) {
		return hookline.NoOpinion(), nil
	}))
	const runs = 5
	errs := make(chan error, runs)
	for i := 0; i < runs; i++ {
		go func() {
			_, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
			errs <- err
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	var pids []string
	for time.Now().Before(deadline) {
		pids, _ = filepath.Glob(w.path("sleep-*.pid"))
		if len(pids) == runs {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(pids) != runs {
		t.Fatalf("only %d of %d hooks started", len(pids), runs)
	}
	start := time.Now()
	e.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v with runs in flight", d)
	}
	for i := 0; i < runs; i++ {
		select {
		case err := <-errs:
			if !errors.Is(err, hookline.ErrClosed) {
				t.Errorf("in-flight run: err = %v, want ErrClosed", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("an in-flight run did not return after Close")
		}
	}
	for _, p := range pids {
		pid, err := strconv.Atoi(waitFile(t, p))
		must(t, err)
		waitGone(t, pid, 3*time.Second)
	}
	if got := hookline.OutstandingHandles(); got != base {
		t.Fatalf("handles after Close = %d, want %d", got, base)
	}
	if _, err := e.Stop(context.Background(), hookline.StopInput{}); !errors.Is(err, hookline.ErrClosed) {
		t.Fatalf("run after Close: err = %v, want ErrClosed", err)
	}
	if err := e.Approve(false); !errors.Is(err, hookline.ErrClosed) {
		t.Fatalf("Approve after Close: err = %v, want ErrClosed", err)
	}
	e.Close()
}

// bindingGoroutines counts goroutines with a frame in the binding (runs
// waiting for hookline, timers of cancelled runs, ...). The runtime's own
// goroutines for foreign threads that made cgo callbacks have no such frame
// (runtime.NumGoroutine counts them, so it cannot be compared).
func bindingGoroutines() int {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "hookline/bindings/go.") {
			n++
		}
	}
	return n
}

func TestNoGoroutineOrHandleLeakAfterClose(t *testing.T) {
	baseHandles := hookline.OutstandingHandles()
	for round := 0; round < 3; round++ {
		w := newWorkspace(t)
		e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{
			"Stop":         {{command: `exit 0`}},
			"Notification": {{command: `sleep 60`}},
		})))
		must(t, err)
		for i := 0; i < 4; i++ {
			must(t, e.AddCallbackHook(hookline.EventStop, "", "cb"+strconv.Itoa(i), func(json.RawMessage) (hookline.CallbackReply, error) {
				return hookline.ReplyJSON(json.RawMessage(`{"systemMessage":"hi"}`)), nil
			}))
		}
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ { // runs that complete
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := e.Stop(context.Background(), hookline.StopInput{LastAssistantMessage: "x"}); err != nil {
					t.Error(err)
				}
			}()
		}
		for i := 0; i < 5; i++ { // runs whose context ends
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
				if _, err := e.Notification(ctx, hookline.NotificationInput{NotificationType: "n", Title: "t", Message: "m"}); !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("err = %v, want DeadlineExceeded", err)
				}
			}()
		}
		wg.Wait()
		inFlight := make(chan error, 5)
		for i := 0; i < 5; i++ { // runs still going at Close
			go func() {
				_, err := e.Notification(context.Background(), hookline.NotificationInput{NotificationType: "n", Title: "t", Message: "m"})
				inFlight <- err
			}()
		}
		time.Sleep(100 * time.Millisecond)
		e.Close()
		for i := 0; i < 5; i++ {
			if err := <-inFlight; !errors.Is(err, hookline.ErrClosed) {
				t.Errorf("in-flight run: err = %v, want ErrClosed", err)
			}
		}
		if got := hookline.OutstandingHandles(); got != baseHandles {
			t.Fatalf("round %d: handles = %d after Close, want %d", round, got, baseHandles)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for bindingGoroutines() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := bindingGoroutines(); n > 0 {
		_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
		t.Fatalf("%d goroutines still in binding code after Close", n)
	}
}

func TestCallbackHookMayCallTheEngineAndCloseItFromInside(t *testing.T) {
	w := newWorkspace(t)
	base := hookline.OutstandingHandles()
	e, err := hookline.NewEngine(w.options(claudeHooks(t, map[string][]hookSpec{"Notification": {{command: `exit 0`}}})))
	must(t, err)
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Nested", "nested", func(json.RawMessage) (hookline.CallbackReply, error) {
		if _, err := e.Digest(); err != nil {
			return hookline.NoOpinion(), err
		}
		out, err := e.Notification(context.Background(), hookline.NotificationInput{NotificationType: "idle_prompt", Title: "t", Message: "m"})
		if err != nil {
			return hookline.NoOpinion(), err
		}
		return hookline.ReplyDeny(fmt.Sprintf("nested run saw %d hook(s)", len(out.Hooks))), nil
	}))
	must(t, e.AddCallbackHook(hookline.EventPreToolUse, "Closer", "closer", func(json.RawMessage) (hookline.CallbackReply, error) {
		e.Close()
		return hookline.ReplyDeny("closed"), nil
	}))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Nested"})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "nested run saw 1 hook(s)" {
		t.Fatalf("outcome = %+v", out)
	}
	finished := make(chan error, 1)
	go func() {
		_, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Closer"})
		finished <- err
	}()
	select {
	case <-finished: // the outcome or ErrClosed: either is fine, no deadlock is the point
	case <-time.After(10 * time.Second):
		t.Fatal("Close from inside a callback hook deadlocked")
	}
	e.Close()
	waitHandles(t, base)
}

func TestEngineLogHandlerReceivesMessages(t *testing.T) {
	var got atomic.Int64
	hookline.SetLogHandler(func(level hookline.LogLevel, msg string) {
		if level >= hookline.LogError && msg != "" {
			got.Add(1)
		}
	}, hookline.LogTrace)
	defer hookline.SetLogHandler(nil, 0)
	r, err := hookline.NewRegistry()
	must(t, err)
	defer r.Close()
	// Replacing a callback logs a warning.
	for i := 0; i < 2; i++ {
		must(t, r.OnPreTurn("same", func(hookline.PreTurnContext) hookline.HookResult { return hookline.Allow() }))
	}
	if got.Load() == 0 {
		t.Fatal("log handler received nothing")
	}
}

func TestHookClosingStdinOnALargePayloadDoesNotHurtTheGoHost(t *testing.T) {
	// A SIGPIPE raised on a hookline thread would kill a cgo program; the
	// library must write without raising it.
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {
		{command: `exec 0<&-; echo closed-stdin`},
		{command: `head -c 10 > /dev/null; exit 0`},
	}})))
	big := strings.Repeat("x", 8<<20)
	for i := 0; i < 3; i++ {
		out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Write", ToolInput: map[string]any{"content": big}})
		must(t, err)
		if len(out.Hooks) != 2 || out.Decision != hookline.DecisionContinue {
			t.Fatalf("outcome = %+v", out.Outcome)
		}
	}
}

// Cancelling a context while its run completes: hookline decides the race
// (hl_engine_cancel is linearizable), and the binding reports exactly what
// was decided — the cancelled error when the cancel won, else the run's real
// outcome. Never another error, never a lost result.
func TestContextCancelRacingWithCompletionIsConsistent(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {{command: `true`}}})))
	const n = 300
	cancelledRuns, completedRuns := 0, 0
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		type res struct {
			out hookline.PreToolUseOutcome
			err error
		}
		ch := make(chan res, 1)
		go func() {
			out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Bash"})
			ch <- res{out, err}
		}()
		// Vary where the cancel lands: before, during and after the run
		// (a `true` hook takes about a millisecond).
		if d := i % 40; d > 0 {
			time.Sleep(time.Duration(d) * 100 * time.Microsecond)
		} else {
			runtime.Gosched()
		}
		cancel()
		var r res
		select {
		case r = <-ch:
		case <-time.After(30 * time.Second):
			t.Fatalf("run %d did not return after its context was cancelled", i)
		}
		switch {
		case r.err == nil:
			if len(r.out.Hooks) != 1 || r.out.Hooks[0].ExitCode == nil || *r.out.Hooks[0].ExitCode != 0 {
				t.Fatalf("run %d: completed with an incomplete outcome: %+v", i, r.out)
			}
			completedRuns++
		case errors.Is(r.err, hookline.ErrCancelled) && errors.Is(r.err, context.Canceled):
			cancelledRuns++
		default:
			t.Fatalf("run %d: err = %v, want nil or ErrCancelled", i, r.err)
		}
	}
	t.Logf("%d cancelled, %d completed", cancelledRuns, completedRuns)
}
