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

// geminiOptions are options reading settings as a Gemini CLI settings.json.
func geminiOptions(w testWorkspace, settings string) hookline.EngineOptions {
	o := w.options(json.RawMessage(settings))
	o.Dialect = hookline.DialectGemini
	return o
}

// Gemini CLI: "only a top-level decision counts", "plain text with an exit
// code other than 0 and 1 denies", and every hook's reason is joined.
func TestGeminiBeforeToolDecisionsArePreToolUseOutcomes(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, geminiOptions(w, `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[
		{"type":"command","command":"cat >/dev/null; echo '{\"decision\":\"allow\",\"reason\":\"looked\"}'"},
		{"type":"command","command":"input=$(cat); [[ $input == *rm* ]] && { echo 'no rm' >&2; exit 2; }; exit 0"}]}]}}`))
	out, err := e.PreToolUse(context.Background(), hookline.PreToolUseInput{
		ToolName: "run_shell_command", ToolInput: map[string]any{"command": "rm -rf /"}})
	must(t, err)
	if out.Decision != hookline.DecisionDeny || out.Reason != "looked\nno rm" {
		t.Fatalf("decision %q reason %q: %s", out.Decision, out.Reason, out.Raw)
	}
	if out.Hooks[1].Failure != "exit" {
		t.Fatalf("failure = %q", out.Hooks[1].Failure)
	}
	out, err = e.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "run_shell_command", ToolInput: map[string]any{"command": "ls"}})
	must(t, err)
	if out.Decision != hookline.DecisionContinue || out.DialectFields != nil {
		t.Fatalf("an allow never approves: %s", out.Raw)
	}
}

// BeforeModel and BeforeToolSelection fire by name; their overrides are
// typed under Gemini().
func TestGeminiModelHooksReturnTypedDialectFields(t *testing.T) {
	w := newWorkspace(t)
	e := newEngine(t, geminiOptions(w, `{"hooks":{
		"BeforeModel":[{"hooks":[{"type":"command","command":"cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"quiet hours\",\"hookSpecificOutput\":{\"llm_response\":{\"text\":\"later\"}}}'"}]}],
		"BeforeToolSelection":[{"hooks":[
			{"type":"command","command":"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"toolConfig\":{\"mode\":\"ANY\",\"allowedFunctionNames\":[\"read_file\"]}}}'"},
			{"type":"command","command":"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"toolConfig\":{\"mode\":\"AUTO\",\"allowedFunctionNames\":[\"glob\"]}}}'"}]}]}}`))
	out, err := e.RunNamed(context.Background(), "BeforeModel", map[string]any{"llm_request": map[string]any{"model": "gemini-2.5-pro"}})
	must(t, err)
	g := out.Gemini()
	if g == nil || g.GeminiDecision != "deny" || g.Reason != "quiet hours" || !strings.Contains(string(g.LLMResponse), "later") {
		t.Fatalf("BeforeModel: %s", out.Raw)
	}
	// "block → no model call": the canonical deny, as PreToolUse's.
	var canonical struct{ Decision, Reason string }
	must(t, json.Unmarshal(out.Raw, &canonical))
	if canonical.Decision != "deny" || canonical.Reason != "quiet hours" {
		t.Fatalf("BeforeModel canonical decision: %s", out.Raw)
	}
	out, err = e.RunNamed(context.Background(), "BeforeToolSelection", `{"llm_request":{}}`)
	must(t, err)
	tc := out.Gemini().ToolConfig
	if tc == nil || tc.Mode != "ANY" || strings.Join(tc.AllowedFunctionNames, ",") != "glob,read_file" {
		t.Fatalf("BeforeToolSelection: %s", out.Raw)
	}
}

// AfterTool: "block → result **replaced** by `Tool result blocked: <r>`"
// (and a blocked run runs no tail call), a tail call of a run that does not
// block is typed under Gemini(); AfterAgent: "block → reason sent as the
// next prompt" (Stop's BlockReason); a .gemini/settings.json is read as
// Gemini CLI's by its path; previews name the dialect and milliseconds.
func TestGeminiSettingsFileAfterToolAndAfterAgent(t *testing.T) {
	w := newWorkspace(t)
	must(t, os.MkdirAll(w.path(".gemini"), 0o755))
	settings := `{"hooks":{
		"AfterTool":[
			{"matcher":"read_file","hooks":[{"type":"command","timeout":3000,"command":"cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"leaked\",\"hookSpecificOutput\":{\"tailToolCallRequest\":{\"name\":\"read_file\",\"args\":{\"file_path\":\"b\"}}}}'"}]},
			{"matcher":"glob","hooks":[{"type":"command","command":"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"tailToolCallRequest\":{\"name\":\"read_file\",\"args\":{\"file_path\":\"c\"}}}}'"}]}],
		"AfterAgent":[{"hooks":[{"type":"command","command":"cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"run the tests\"}'"}]}]}}`
	must(t, os.WriteFile(filepath.Join(w.path(".gemini"), "settings.json"), []byte(settings), 0o644))
	e := newEngine(t, hookline.EngineOptions{Workspace: w.dir, SessionID: "s", HooksFile: filepath.Join(w.path(".gemini"), "settings.json")})
	post, err := e.PostToolUse(context.Background(), hookline.PostToolUseInput{ToolName: "read_file", ToolResponse: map[string]any{}})
	must(t, err)
	if post.BlockReason != "leaked" || !post.BlockReplacesResult || post.Gemini() != nil {
		t.Fatalf("AfterTool: %s", post.Raw)
	}
	post, err = e.PostToolUse(context.Background(), hookline.PostToolUseInput{ToolName: "glob", ToolResponse: map[string]any{}})
	must(t, err)
	// The tail call names its tool canonically (Gemini CLI's read_file is Read).
	if g := post.Gemini(); post.BlockReason != "" || g == nil || g.TailToolCallRequest == nil || g.TailToolCallRequest.Name != "Read" {
		t.Fatalf("AfterTool tail call: %s", post.Raw)
	}
	stop, err := e.Stop(context.Background(), hookline.StopInput{LastAssistantMessage: "done"})
	must(t, err)
	if stop.BlockReason != "run the tests" {
		t.Fatalf("AfterAgent: %s", stop.Raw)
	}
	previews, err := e.Previews()
	must(t, err)
	if previews[0].Dialect != "gemini" || previews[0].TimeoutMs == nil || *previews[0].TimeoutMs != 3000 || previews[0].TimeoutSeconds != nil {
		t.Fatalf("previews: %+v", previews[0])
	}
}
