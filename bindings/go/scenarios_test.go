package hookline

// The scenario corpus (tests/scenarios/<dialect>/<name>.json of the checkout)
// run through this package: each file's options, workspace files, event and
// input, and its expected outcome subset, the same cases the Rust suite runs
// (tests/it/scenarios.rs describes the format).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

type scenario struct {
	Rule    string            `json:"rule"`
	Event   string            `json:"event"`
	Options map[string]any    `json:"options"`
	Files   map[string]string `json:"files"`
	Input   json.RawMessage   `json:"input"`
	Expect  any               `json:"expect"`
}

// subsetMismatch says where actual differs from the subset expect ("": it matches).
func subsetMismatch(expect, actual any, at string) string {
	switch e := expect.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %v", at, actual)
		}
		for k, v := range e {
			av, ok := a[k]
			if !ok {
				return fmt.Sprintf("%s.%s is missing", at, k)
			}
			if m := subsetMismatch(v, av, at+"."+k); m != "" {
				return m
			}
		}
		return ""
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return fmt.Sprintf("%s: expected %v, got %v", at, expect, actual)
		}
		for i := range e {
			if m := subsetMismatch(e[i], a[i], fmt.Sprintf("%s[%d]", at, i)); m != "" {
				return m
			}
		}
		return ""
	default:
		if reflect.DeepEqual(expect, actual) {
			return ""
		}
		return fmt.Sprintf("%s: expected %v, got %v", at, expect, actual)
	}
}

func TestScenarioSubsetMatch(t *testing.T) {
	var out any
	_ = json.Unmarshal([]byte(`{"decision":"deny","hooks":[{"exit_code":2}]}`), &out)
	for _, c := range []struct {
		expect string
		match  bool
	}{
		{`{"decision":"deny"}`, true},
		{`{"decision":"allow"}`, false},
		{`{"hooks":[]}`, false},
		{`{"hooks":[{"exit_code":1}]}`, false},
	} {
		var e any
		_ = json.Unmarshal([]byte(c.expect), &e)
		if got := subsetMismatch(e, out, "o") == ""; got != c.match {
			t.Errorf("%s: match %v, want %v", c.expect, got, c.match)
		}
	}
}

func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "tests", "scenarios", "*", "*.json"))
	if len(files) == 0 {
		t.Skip("outside the hookline checkout (no tests/scenarios)")
	}
	if len(files) < 10 {
		t.Fatalf("the corpus is missing: %v", files)
	}
	for _, file := range files {
		name := filepath.Base(filepath.Dir(file)) + "/" + filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var s scenario
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			ws, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for rel, text := range s.Files {
				p := filepath.Join(ws, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			s.Options["workspace"] = ws
			s.Options["session_id"] = "scenario"
			if f, ok := s.Options["hooks_file"].(string); ok {
				s.Options["hooks_file"] = filepath.Join(ws, f)
			}
			raw, _ := json.Marshal(s.Options)
			var opts EngineOptions
			if err := json.Unmarshal(raw, &opts); err != nil {
				t.Fatal(err)
			}
			event := Event(-1)
			for e := EventSessionStart; e <= EventPostToolUseFailure; e++ {
				if e.String() == s.Event {
					event = e
				}
			}
			if event < 0 {
				t.Fatalf("unknown event %q", s.Event)
			}
			engine, err := NewEngine(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer engine.Close()
			out, err := engine.RunJSON(context.Background(), event, s.Input)
			if err != nil {
				t.Fatal(err)
			}
			var outcome any
			if err := json.Unmarshal(out, &outcome); err != nil {
				t.Fatal(err)
			}
			if m := subsetMismatch(s.Expect, outcome, "outcome"); m != "" {
				t.Errorf("%s\n  outcome: %s", m, out)
			}
		})
	}
}
