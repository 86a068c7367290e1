package hookline_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hookline "github.com/hookline/hookline/bindings/go"
)

// writeClineHook writes a hook file into the workspace's .clinerules/hooks
// with `mode` (the executable bit turns a Cline hook on).
func writeClineHook(t *testing.T, w testWorkspace, name, body string, mode os.FileMode) string {
	t.Helper()
	dir := w.path(".clinerules/hooks")
	must(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name)
	must(t, os.WriteFile(path, []byte(body), mode))
	must(t, os.Chmod(path, mode))
	return dir
}

// Cline's rules through Go: "a hook is an executable file named after the
// event" in .clinerules/hooks (HooksFile names the folder); "must be a
// regular file and X_OK", so a non-executable one is skipped and reported,
// as is a .ps1 off Windows; {cancel: true, errorMessage} cancels: the tool
// call is denied and the task stops (continue false).
func TestClineFolderWithExecutableNonExecutableAndPs1Files(t *testing.T) {
	w := newWorkspace(t)
	writeClineHook(t, w, "PreToolUse", "#!/bin/sh\ncat >/dev/null\necho '{\"cancel\": true, \"errorMessage\": \"no rm\"}'\n", 0o755)
	writeClineHook(t, w, "PostToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0o644)
	dir := writeClineHook(t, w, "TaskStart.ps1", "Write-Output '{}'\n", 0o755)
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s-go", HooksFile: dir, Dialect: hookline.DialectCline})
	warnings, err := e.ConfigWarnings()
	must(t, err)
	var text []string
	for _, wa := range warnings {
		text = append(text, wa.Path+": "+wa.Message)
	}
	all := strings.Join(text, "\n")
	if len(warnings) != 2 || !strings.Contains(all, "PostToolUse: is not executable") || !strings.Contains(all, "TaskStart.ps1") {
		t.Fatalf("warnings = %s", all)
	}
	ctx := context.Background()
	out, err := e.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "rm -rf /"}})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "no rm" || out.Continue {
		t.Fatalf("outcome = %s", out.Raw)
	}
	post, err := e.PostToolUse(ctx, hookline.PostToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}, ToolResponse: "ok"})
	must(t, err)
	if len(post.Hooks) != 0 || !post.Continue {
		t.Fatalf("the non-executable PostToolUse ran: %s", post.Raw)
	}
}
