// The Go counterpart of consumer.c, built in a module outside the checkout
// against an installed library or a release tarball (make test-install,
// make test-dist): one engine event whose shell hook denies must be denied.
// APP_WORKSPACE names an existing directory.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	hookline "github.com/hookline/hookline/bindings/go"
)

func main() {
	engine, err := hookline.NewEngine(hookline.EngineOptions{
		Workspace:  os.Getenv("APP_WORKSPACE"),
		SessionID:  "install-test-go",
		TrustStore: os.Getenv("APP_WORKSPACE") + "/trust.json",
		Hooks:      json.RawMessage(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}`),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "engine:", err)
		os.Exit(1)
	}
	defer engine.Close()
	out, err := engine.PreToolUse(context.Background(), hookline.PreToolUseInput{ToolName: "Bash", ToolInput: map[string]any{"command": "ls"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
	if out.Decision != hookline.DecisionDeny {
		fmt.Fprintf(os.Stderr, "decision %q, want deny\n", out.Decision)
		os.Exit(1)
	}
	fmt.Println("hookline", hookline.Version(), "ok (go)")
}
