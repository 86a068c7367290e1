// Command agent is a tiny agent loop driving hookline from Go: it loads a
// hooks config (Claude Code settings dialect), shows what the workspace
// approval gate would allow, approves it for this run, then fires the
// lifecycle events of a scripted session and prints each outcome. A Go
// callback hook and an in-process Registry sit next to the shell hooks.
//
//	go run ./examples/agent                 # the sample hooks.json
//	go run ./examples/agent -hooks my.json  # your own config (.json or .toml)
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

//go:embed hooks.json
var sampleHooks []byte

type toolCall struct {
	name  string
	input map[string]any
}

func main() {
	hooksFile := flag.String("hooks", "", "hooks config file (.json or .toml); default: the sample hooks.json")
	flag.Parse()

	workspace, err := os.MkdirTemp("", "hookline-agent-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(workspace)
	if *hooksFile == "" {
		*hooksFile = filepath.Join(workspace, "hooks.json")
		if err := os.WriteFile(*hooksFile, sampleHooks, 0o600); err != nil {
			log.Fatal(err)
		}
	}

	engine, err := hookline.NewEngine(hookline.EngineOptions{
		Workspace:      workspace,
		SessionID:      "demo-session",
		HooksFile:      *hooksFile,
		WorkspaceGated: true,
		TrustStore:     filepath.Join(workspace, "trust.json"), // keep the demo out of ~/.config
	})
	if err != nil {
		log.Fatalf("loading hooks: %v", err)
	}
	defer engine.Close()

	// The approval gate: a real host would show these and ask the user.
	digest, _ := engine.Digest()
	previews, _ := engine.Previews()
	fmt.Printf("hookline %s: %d configured command(s), digest %s…\n", hookline.Version(), len(previews), digest[:12])
	for _, p := range previews {
		fmt.Printf("  %-20s %s\n", p.Event, p.Command)
	}
	if engine.NeedsApproval() {
		fmt.Println("approving the workspace hooks for this run (not persisted)")
		if err := engine.Approve(false); err != nil {
			log.Fatal(err)
		}
	}

	// A Go callback hook: host policy next to the user's shell hooks.
	err = engine.AddCallbackHook(hookline.EventPreToolUse, "Read", "no-secrets", func(payload json.RawMessage) (hookline.CallbackReply, error) {
		var in struct {
			ToolInput struct {
				Path string `json:"path"`
			} `json:"tool_input"`
		}
		if err := json.Unmarshal(payload, &in); err != nil {
			return hookline.NoOpinion(), err
		}
		if strings.HasSuffix(in.ToolInput.Path, ".env") {
			return hookline.ReplyDeny("reading .env files is not allowed"), nil
		}
		return hookline.ReplyAllow(), nil
	})
	if err != nil {
		log.Fatal(err)
	}

	// An in-process registry: a transform that every tool call goes through.
	registry, err := hookline.NewRegistry()
	if err != nil {
		log.Fatal(err)
	}
	defer registry.Close()
	_ = registry.OnTransformToolInput("default-timeout", func(c hookline.PreToolCallDecideContext) (json.RawMessage, bool) {
		if c.ToolName != "Bash" {
			return nil, false
		}
		var args map[string]any
		if json.Unmarshal(c.ToolArgs, &args) != nil || args["timeout"] != nil {
			return nil, false
		}
		args["timeout"] = 120
		b, _ := json.Marshal(args)
		return b, true
	})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	start, err := engine.SessionStart(ctx)
	check(err)
	fmt.Printf("\nSessionStart: context %q\n", start.AdditionalContext)

	for turn, prompt := range []string{"clean the build directory", "my password is hunter2, log in"} {
		turnID := fmt.Sprintf("turn-%d", turn+1)
		up, err := engine.UserPromptSubmit(ctx, hookline.UserPromptSubmitInput{TurnID: turnID, Prompt: prompt})
		check(err)
		fmt.Printf("\nUserPromptSubmit %q: allowed=%v %s\n", prompt, up.AllowPrompt, up.BlockReason)
		if !up.AllowPrompt {
			continue
		}
		// The "model" asks for a few tools.
		calls := []toolCall{
			{"Bash", map[string]any{"command": "rm -rf build"}},
			{"Bash", map[string]any{"command": "make clean"}},
			{"Read", map[string]any{"path": ".env"}},
			{"Edit", map[string]any{"path": "main.go", "old": "a", "new": "b"}},
		}
		for i, call := range calls {
			args, _ := json.Marshal(call.input)
			tr, err := registry.RunTransformToolInput(hookline.PreToolCallDecideContext{ToolName: call.name, ToolArgs: args})
			check(err)
			if tr.ToolArgs != nil {
				args = tr.ToolArgs
			}
			id := fmt.Sprintf("%s-call-%d", turnID, i)
			pre, err := engine.PreToolUse(ctx, hookline.PreToolUseInput{ToolName: call.name, ToolInput: json.RawMessage(args), ToolCallID: id})
			check(err)
			fmt.Printf("  PreToolUse %-4s %s -> %s %s\n", call.name, args, pre.Decision, pre.Reason)
			if pre.Decision == hookline.DecisionDeny {
				continue
			}
			if pre.UpdatedInput != nil {
				args = pre.UpdatedInput
			}
			post, err := engine.PostToolUse(ctx, hookline.PostToolUseInput{
				ToolName: call.name, ToolInput: json.RawMessage(args), ToolCallID: id, ToolResponse: map[string]any{"ok": true},
			})
			check(err)
			if len(post.AdditionalContext) > 0 {
				fmt.Printf("  PostToolUse %s: context %q\n", call.name, post.AdditionalContext)
			}
		}
	}

	stop, err := engine.Stop(ctx, hookline.StopInput{LastAssistantMessage: "Build directory cleaned."})
	check(err)
	fmt.Printf("\nStop: block=%q messages=%v\n", stop.BlockReason, texts(stop.Messages))
	_, err = engine.SessionEnd(ctx, hookline.SessionEndInput{TurnID: "turn-2", Reason: hookline.SessionEndCompleted})
	check(err)
	fmt.Println("SessionEnd: done")
}

func texts(ms []hookline.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Level+": "+m.Text)
	}
	return out
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
