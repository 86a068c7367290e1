package hookline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	hookline "github.com/hookline/hookline/bindings/go"
)

func ExampleRegistry() {
	reg, err := hookline.NewRegistry()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()

	_ = reg.OnPreToolCallDecide("no-rm", func(c hookline.PreToolCallDecideContext) hookline.HookResult {
		if c.ToolName == "rm" {
			return hookline.Deny("rm is not allowed")
		}
		return hookline.Allow()
	})
	res, _ := reg.RunPreToolCallDecide(hookline.PreToolCallDecideContext{ToolName: "rm"})
	fmt.Println(res.Allow, res.Message)
	// Output: false rm is not allowed
}

func ExampleEngine_PreToolUse() {
	dir, _ := os.MkdirTemp("", "hookline-example-")
	defer os.RemoveAll(dir)

	engine, err := hookline.NewEngine(hookline.EngineOptions{
		Workspace: dir,
		SessionID: "example",
		Hooks: json.RawMessage(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
			"command":"grep -q 'rm -rf' && { echo 'rm -rf is blocked' >&2; exit 2; }; exit 0"}]}]}`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()

	out, err := engine.PreToolUse(context.Background(), hookline.PreToolUseInput{
		ToolName:  "Bash",
		ToolInput: map[string]any{"command": "rm -rf /"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Decision, out.Reason)
	// Output: deny rm -rf is blocked
}
