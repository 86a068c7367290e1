package hookline

// The binding against the ABI schema (include/hookline.schema.json, written
// from the Rust model): every status, event, hook point, dialect, option,
// input enum, report field and C function the library has, this package has
// too. A value added in Rust and forgotten here fails this test.

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// C functions this package does not call, on purpose: the blocking runs (it
// uses reserved runs, which a context can cancel), hl_registry_new (it
// creates every registry with hl_registry_new_with_contract) and
// hl_registry_run_brief (a run's result is always read whole here). A new C
// function fails the test until the package calls it or names it here.
var notBound = []string{"hl_engine_run", "hl_engine_run_named", "hl_engine_try_run_inline", "hl_registry_new", "hl_registry_run_brief"}

type abiSchema struct {
	Statuses []struct {
		Name   string `json:"name"`
		Number int    `json:"number"`
	} `json:"statuses"`
	Events []struct {
		Name     string `json:"name"`
		Number   int    `json:"number"`
		Constant string `json:"constant"`
	} `json:"events"`
	HookPoints []struct {
		Name     string `json:"name"`
		Constant string `json:"constant"`
	} `json:"hook_points"`
	Contracts []struct {
		Name     string `json:"name"`
		Constant string `json:"constant"`
	} `json:"registry_contracts"`
	Enums    map[string][]string `json:"enums"`
	Outcomes struct {
		Shapes map[string][]struct {
			Name string `json:"name"`
		} `json:"shapes"`
	} `json:"outcomes"`
	Options []struct {
		Name string `json:"name"`
	} `json:"options"`
	HookSource []struct {
		Name string `json:"name"`
	} `json:"hook_source"`
	Functions []struct {
		Name string `json:"name"`
	} `json:"functions"`
}

func loadSchema(t *testing.T) abiSchema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "include", "hookline.schema.json"))
	if os.IsNotExist(err) {
		t.Skip("outside the hookline checkout (no include/hookline.schema.json)")
	}
	if err != nil {
		t.Fatal(err)
	}
	var s abiSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// packageSource: the non-test Go files of this package, parsed, and the text
// of its C shims.
func packageSource(t *testing.T) ([]*ast.File, string) {
	t.Helper()
	fset := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	shims, _ := filepath.Glob("*.c")
	var text strings.Builder
	for _, n := range shims {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(b)
	}
	return files, text.String()
}

// cNames: every C.<name> the Go files use.
func cNames(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "C" {
					out[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	return out
}

// stringConsts: the values of the string constants of type typ.
func stringConsts(files []*ast.File, typ string) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				id, ok := v.Type.(*ast.Ident)
				if !ok || id.Name != typ {
					continue
				}
				for _, val := range v.Values {
					if lit, ok := val.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out = append(out, s)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}

// jsonKeys: the JSON names of a struct type's fields (those sent or read).
func jsonKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	sort.Strings(out)
	return out
}

func TestSchemaConstants(t *testing.T) {
	s := loadSchema(t)
	files, _ := packageSource(t)
	used := cNames(files)
	for _, st := range s.Statuses {
		if !used[st.Name] {
			t.Errorf("the package does not use status %s", st.Name)
		}
	}
	for _, e := range s.Events {
		if !used[e.Constant] {
			t.Errorf("the package has no Event for %s (%s)", e.Name, e.Constant)
		}
	}
	for _, p := range s.HookPoints {
		if !used[p.Constant] {
			t.Errorf("the package has no HookPoint for %s (%s)", p.Name, p.Constant)
		}
	}
	for _, c := range s.Contracts {
		if !used[c.Constant] {
			t.Errorf("the package has no Contract for %s (%s)", c.Name, c.Constant)
		}
	}
	for typ, enum := range map[string]string{
		"Dialect":             "dialect",
		"SessionStartTrigger": "session_start_trigger",
		"SessionEndReason":    "session_end_reason",
		"CompactTrigger":      "compaction_trigger",
		"CompactMode":         "compaction_mode",
		"PreToolUseDecision":  "pre_tool_use_decision",
		"ToolNames":           "tool_names",
	} {
		if got, want := stringConsts(files, typ), sortedCopy(s.Enums[enum]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s constants %v, the library's %s %v", typ, got, enum, want)
		}
	}
}

func TestSchemaOptionsAndReports(t *testing.T) {
	s := loadSchema(t)
	var options []string
	for _, o := range s.Options {
		options = append(options, o.Name)
	}
	if got, want := jsonKeys(reflect.TypeOf(EngineOptions{})), sortedCopy(options); !reflect.DeepEqual(got, want) {
		t.Errorf("EngineOptions has %v, the library's options are %v", got, want)
	}
	var source []string
	for _, o := range s.HookSource {
		source = append(source, o.Name)
	}
	if got, want := jsonKeys(reflect.TypeOf(HookSource{})), sortedCopy(source); !reflect.DeepEqual(got, want) {
		t.Errorf("HookSource has %v, the library's hook_sources entries have %v", got, want)
	}
	var report []string
	for _, f := range s.Outcomes.Shapes["hook_report"] {
		report = append(report, f.Name)
	}
	if got, want := jsonKeys(reflect.TypeOf(HookReport{})), sortedCopy(report); !reflect.DeepEqual(got, want) {
		t.Errorf("HookReport has %v, the library's report has %v", got, want)
	}
}

func TestSchemaFunctions(t *testing.T) {
	s := loadSchema(t)
	files, shims := packageSource(t)
	called := cNames(files)
	for _, m := range regexp.MustCompile(`\b(hl_[a-z_]+)\(`).FindAllStringSubmatch(shims, -1) {
		called[m[1]] = true
	}
	var missing []string
	for _, f := range s.Functions {
		if !called[f.Name] {
			missing = append(missing, f.Name)
		}
	}
	sort.Strings(missing)
	if want := sortedCopy(notBound); !reflect.DeepEqual(missing, want) {
		t.Errorf("C functions the package does not call: %v; expected exactly %v (call it, or name it in notBound)", missing, want)
	}
}
