// Command hlbench-go is the Go driver of hookline's benchmarks (scenario 4 of
// BENCHMARKS.md): the same command hook run by os/exec (what Go agents do
// today) and by hookline through the Go binding, interleaved in rounds.
//
//	hlbench-go -payload FILE [-n N]
//
// It prints one JSON line per measurement, like bench/c/hlbench.c.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	hookline "github.com/hookline/hookline/bindings/go"
)

// hookCmd is the command hook of scenarios 3-5.
const hookCmd = `cat >/dev/null; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`

func emit(name string, s []time.Duration) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	r99 := int(math.Max(1, float64((n*99+99)/100)))
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	fmt.Printf("{\"name\":%q,\"unit\":\"ns\",\"n\":%d,\"median\":%d,\"p99\":%d,\"min\":%d,\"mean\":%d}\n",
		name, n, s[n/2].Nanoseconds(), s[r99-1].Nanoseconds(), s[0].Nanoseconds(), (sum / time.Duration(n)).Nanoseconds())
}

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "hlbench-go: %s: %v\n", what, err)
		os.Exit(1)
	}
}

// hookEnv is the inherited environment plus the variables hookline gives a hook.
func hookEnv(workspace string) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOOKLINE_") && !strings.HasPrefix(kv, "VT_") && !strings.HasPrefix(kv, "CLAUDE_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOOKLINE_PROJECT_DIR="+workspace, "VT_PROJECT_DIR="+workspace, "CLAUDE_PROJECT_DIR="+workspace,
		"HOOKLINE_SESSION_ID=bench-session", "VT_SESSION_ID=bench-session", "CLAUDE_SESSION_ID=bench-session",
		"HOOKLINE_HOOK_EVENT=PreToolUse", "VT_HOOK_EVENT=PreToolUse")
}

// osExec runs the hook the way a Go agent does: exec.Command with the payload
// on stdin and stdout/stderr collected.
func osExec(workspace string, env []string, payload []byte) []byte {
	var out, errb bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", hookCmd)
	cmd.Dir = workspace
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout = &out
	cmd.Stderr = &errb
	must(cmd.Run(), "os/exec hook")
	return out.Bytes()
}

func main() {
	payloadFile := flag.String("payload", "", "the hook payload captured by `hlbench payload`")
	n := flag.Int("n", 500, "iterations of each variant")
	flag.Parse()
	payload, err := os.ReadFile(*payloadFile)
	must(err, "reading the payload")

	workspace, err := os.MkdirTemp("", "hlbench-go")
	must(err, "workspace")
	defer os.RemoveAll(workspace)
	env := hookEnv(workspace)

	hooks := fmt.Sprintf(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":%q}]}]}`, hookCmd)
	engine, err := hookline.NewEngine(hookline.EngineOptions{
		Workspace: workspace, SessionID: "bench-session", Hooks: json.RawMessage(hooks),
	})
	must(err, "NewEngine")
	defer engine.Close()
	ctx := context.Background()
	input := hookline.PreToolUseInput{
		ToolName: "Bash", ToolInput: map[string]any{"command": "git status --porcelain"}, ToolCallID: "call-1",
	}
	run := func() {
		o, err := engine.PreToolUse(ctx, input)
		must(err, "PreToolUse")
		if o.Decision != "allow" {
			must(fmt.Errorf("decision %q", o.Decision), "PreToolUse outcome")
		}
	}
	if !bytes.Contains(osExec(workspace, env, payload), []byte("permissionDecision")) {
		must(fmt.Errorf("unexpected output"), "os/exec hook")
	}
	for i := 0; i < 20; i++ {
		osExec(workspace, env, payload)
		run()
	}
	const rounds = 10
	per := *n / rounds
	if per < 1 {
		per = 1
	}
	// The same engine configuration called with the blocking hl_engine_run
	// through a direct cgo call (no binding), for reference.
	opts, _ := json.Marshal(map[string]any{"workspace": workspace, "session_id": "bench-session", "hooks": json.RawMessage(hooks)})
	direct, err := newDirectEngine(string(opts))
	must(err, "direct engine")
	defer direct.free()
	const inputJSON = `{"tool_name":"Bash","tool_input":{"command":"git status --porcelain"},"tool_call_id":"call-1"}`
	runDirect := func() {
		o, err := direct.runPreToolUse(inputJSON)
		must(err, "direct PreToolUse")
		if !strings.Contains(o, `"decision":"allow"`) {
			must(fmt.Errorf("outcome %s", o), "direct PreToolUse outcome")
		}
	}
	runDirect()
	var native, hl, hlDirect []time.Duration
	for r := 0; r < rounds; r++ {
		for i := 0; i < per; i++ {
			t0 := time.Now()
			runDirect()
			hlDirect = append(hlDirect, time.Since(t0))
		}
		for i := 0; i < per; i++ {
			t0 := time.Now()
			osExec(workspace, env, payload)
			native = append(native, time.Since(t0))
		}
		for i := 0; i < per; i++ {
			t0 := time.Now()
			run()
			hl = append(hl, time.Since(t0))
		}
	}
	emit("spawn_osexec_go", native)
	emit("spawn_hookline_go", hl)
	emit("spawn_hookline_cgo_sync_go", hlDirect)

	// The binding's fixed cost per run: an engine whose only hook is an
	// in-process Go callback that allows (no process is spawned).
	cbEngine, err := hookline.NewEngine(hookline.EngineOptions{Workspace: workspace, SessionID: "bench-session"})
	must(err, "NewEngine")
	defer cbEngine.Close()
	must(cbEngine.AddCallbackHook(hookline.EventPreToolUse, "Bash", "allow-all",
		func(json.RawMessage) (hookline.CallbackReply, error) { return hookline.ReplyAllow(), nil }), "AddCallbackHook")
	var cb []time.Duration
	for i := 0; i < *n*10; i++ {
		t0 := time.Now()
		o, err := cbEngine.PreToolUse(ctx, input)
		must(err, "PreToolUse (callback hook)")
		if o.Decision != "allow" {
			must(fmt.Errorf("decision %q", o.Decision), "callback hook outcome")
		}
		if i >= *n { // the first n are warm-up
			cb = append(cb, time.Since(t0))
		}
	}
	emit("callback_hook_go", cb)

	// The fixed cost of one run without hooks: through the binding (async
	// round trip) and through a direct blocking hl_engine_run.
	empty, err := hookline.NewEngine(hookline.EngineOptions{Workspace: workspace, SessionID: "bench-session"})
	must(err, "NewEngine")
	defer empty.Close()
	emptyOpts, _ := json.Marshal(map[string]any{"workspace": workspace, "session_id": "bench-session"})
	emptyDirect, err := newDirectEngine(string(emptyOpts))
	must(err, "direct engine")
	defer emptyDirect.free()
	var viaBinding, viaDirect []time.Duration
	for i := 0; i < *n*10; i++ {
		t0 := time.Now()
		_, err := empty.PreToolUse(ctx, input)
		t1 := time.Now()
		must(err, "PreToolUse (no hooks)")
		_, err = emptyDirect.runPreToolUse(inputJSON)
		t2 := time.Now()
		must(err, "direct PreToolUse (no hooks)")
		if i >= *n {
			viaBinding = append(viaBinding, t1.Sub(t0))
			viaDirect = append(viaDirect, t2.Sub(t1))
		}
	}
	emit("nohooks_go", viaBinding)
	emit("nohooks_cgo_sync_go", viaDirect)
}
