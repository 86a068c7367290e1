package hookline_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// Previews carry the files each gated command executes (docs/trust.md, "What the approval pins").
func TestPreviewsCarryTypedPinsOfTheScriptsACommandRuns(t *testing.T) {
	w := newWorkspace(t)
	dir, err := filepath.EvalSymlinks(w.dir)
	must(t, err)
	script := filepath.Join(dir, "guard.sh")
	content := []byte("#!/bin/sh\necho approved >> ran\n")
	must(t, os.WriteFile(script, content, 0o644))
	opts := w.options(claudeHooks(t, map[string][]hookSpec{"PreToolUse": {{command: `sh "$CLAUDE_PROJECT_DIR"/guard.sh`}, {command: `echo no file`}}}))
	opts.WorkspaceGated = true
	e := newEngine(t, opts)
	p, err := e.Previews()
	must(t, err)
	sum := sha256.Sum256(content)
	if len(p) != 2 || len(p[0].Pins) != 1 || p[0].Pins[0].Path != script || p[0].Pins[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("previews = %+v, want guard.sh pinned with its sha256", p)
	}
	if p[1].Pins == nil || len(p[1].Pins) != 0 || !p[0].Env.InheritAll {
		t.Fatalf("second preview %+v: want no pins, inherit all", p[1])
	}

	must(t, e.Approve(false))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Hooks[0].Skipped != "" {
		t.Fatalf("approved: %+v", out.Hooks)
	}
	must(t, os.WriteFile(script, []byte("#!/bin/sh\necho evil >> ran\n"), 0o644))
	if !e.NeedsApproval() {
		t.Fatal("a changed pinned script must need approval")
	}
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash"})
	must(t, err)
	if out.Hooks[0].Skipped != "changed_since_approval" {
		t.Fatalf("changed script: %+v", out.Hooks[0])
	}
	named := false
	for _, m := range out.Messages {
		named = named || strings.Contains(m.Text, script)
	}
	if !named {
		t.Fatalf("messages = %+v, want the file named", out.Messages)
	}
	p, err = e.Previews()
	must(t, err)
	if p[0].Pins[0].SHA256 == hex.EncodeToString(sum[:]) {
		t.Fatal("previews must show the bytes as they are now")
	}
	must(t, e.Approve(false)) // Approve is unchanged: it approves what the previews show
	if e.NeedsApproval() {
		t.Fatal("re-approved")
	}
}

func TestEnvPolicyOptionsReachTheLibraryAndThePreviews(t *testing.T) {
	w := newWorkspace(t)
	opts := w.options(claudeHooks(t, map[string][]hookSpec{"Stop": {{command: `env > env.txt`}}}))
	opts.WorkspaceGated = true
	opts.Env = map[string]string{"GITHUB_TOKEN": "ghp_x", "KEEP": "1"}
	opts.HookEnv = &hookline.EnvPolicy{InheritOnly: []string{"PATH", "LC_*"}}
	opts.UntrustedHookEnv = &hookline.EnvPolicy{ScrubSecrets: true, Set: map[string]string{"CI": "1"}}
	e := newEngine(t, opts)
	p, err := e.Previews()
	must(t, err)
	if len(p[0].Env.InheritOnly) != 2 || len(p[0].Env.Scrub) != 13 || len(p[0].Env.Set) != 1 || p[0].Env.Set[0] != "CI" {
		t.Fatalf("env preview = %+v", p[0].Env)
	}
	must(t, e.Approve(false))
	_, err = e.Stop(context.Background(), hookline.StopInput{})
	must(t, err)
	b, err := os.ReadFile(w.path("env.txt"))
	must(t, err)
	env := string(b)
	if strings.Contains(env, "GITHUB_TOKEN=") || !strings.Contains(env, "KEEP=1") || !strings.Contains(env, "CI=1") || strings.Contains(env, "\nHOME=") {
		t.Fatalf("hook environment:\n%s", env)
	}
	bad := w.options(nil)
	bad.HookEnv = &hookline.EnvPolicy{InheritNone: true, InheritOnly: []string{"PATH"}}
	if _, err := hookline.NewEngine(bad); err == nil {
		t.Fatal("contradictory policy accepted")
	}
}
