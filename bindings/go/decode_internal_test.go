package hookline

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The direct outcome decoder (decode.go) must give exactly what
// encoding/json gives, or decline. Each case decodes one text into every
// outcome type both ways.

type decodeCase struct {
	name string
	text string
}

// decodeBothWays decodes text into a fresh T with the direct decoder and
// with encoding/json; when the direct decoder accepts it, encoding/json must
// accept it too and produce the same value. Reports whether it accepted.
func decodeBothWays[T any, PT interface {
	*T
	fieldDecoder
}](t *testing.T, label, text string) bool {
	t.Helper()
	var fast, std T
	accepted := decodeOutcome([]byte(text), PT(&fast))
	stdErr := json.Unmarshal([]byte(text), &std)
	if !accepted {
		return false
	}
	if stdErr != nil {
		t.Errorf("%s: %T: the direct decoder accepted what encoding/json rejects (%v): %s", label, fast, stdErr, text)
		return true
	}
	if !reflect.DeepEqual(fast, std) {
		t.Errorf("%s: %T differs\n direct: %#v\n   json: %#v\n   text: %s", label, fast, fast, std, text)
	}
	return true
}

// decodeEveryType runs decodeBothWays for every outcome type; returns how
// many types accepted the text.
func decodeEveryType(t *testing.T, label, text string) int {
	t.Helper()
	n := 0
	for _, ok := range []bool{
		decodeBothWays[Outcome](t, label, text),
		decodeBothWays[SessionStartOutcome](t, label, text),
		decodeBothWays[UserPromptSubmitOutcome](t, label, text),
		decodeBothWays[PreToolUseOutcome](t, label, text),
		decodeBothWays[PostToolUseOutcome](t, label, text),
		decodeBothWays[PermissionRequestOutcome](t, label, text),
		decodeBothWays[StopOutcome](t, label, text),
		decodeBothWays[SubagentStartOutcome](t, label, text),
	} {
		if ok {
			n++
		}
	}
	return n
}

// realOutcomes runs hooks that produce every field an outcome has and
// returns the outcome texts hookline wrote, by event.
func realOutcomes(t *testing.T) map[Event][]string {
	t.Helper()
	dir := t.TempDir()
	hooks := `{
	  "PreToolUse": [{"matcher": "Bash", "hooks": [
	    {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no \\\"rm\\\" here \\u00e9\\u4e2d\\t\\\\ /x\",\"updatedInput\":{\"command\":\"ls\",\"n\":[1,2.5,-3e2,null,true]}}}'", "statusMessage": "checking…"},
	    {"type": "command", "command": "echo 'warn: ünïcode \u0001' >&2; exit 1"}]}],
	  "PostToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"tests failed\",\"hookSpecificOutput\":{\"additionalContext\":\"see log\"}}'"}]}],
	  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo 'context line'"}]}],
	  "SessionStart": [{"hooks": [{"type": "command", "command": "echo 'export A=1' >> \"$CLAUDE_ENV_FILE\"; echo 'B=two words' >> \"$CLAUDE_ENV_FILE\"; echo started"}]}],
	  "PermissionRequest": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"allow\",\"updatedInput\":{\"x\":1},\"updatedPermissions\":[{\"type\":\"addRules\",\"rules\":[{\"toolName\":\"Bash\"}],\"destination\":\"session\"}],\"message\":\"ok\"}}}'"}]}],
	  "Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"keep going\",\"systemMessage\":\"note\"}'"}]}],
	  "Notification": [{"hooks": [{"type": "command", "command": "sleep 5", "timeout": 1}]}]
	}`
	e, err := NewEngine(EngineOptions{Workspace: dir, SessionID: "s", Hooks: json.RawMessage(hooks)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	inputs := map[Event]string{
		EventPreToolUse:        `{"tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`,
		EventPostToolUse:       `{"tool_name":"Bash","tool_input":{},"tool_response":"x"}`,
		EventUserPromptSubmit:  `{"prompt":"hi"}`,
		EventSessionStart:      `{}`,
		EventPermissionRequest: `{"tool_name":"Bash","tool_input":{}}`,
		EventStop:              `{}`,
		EventNotification:      `{"message":"m"}`,
		EventSessionEnd:        `{}`,
	}
	out := map[Event][]string{}
	for ev, in := range inputs {
		raw, err := e.RunJSON(context.Background(), ev, json.RawMessage(in))
		if err != nil {
			t.Fatalf("%s: %v", ev, err)
		}
		out[ev] = append(out[ev], string(raw))
	}
	return out
}

func TestDirectOutcomeDecoderMatchesEncodingJSONOnRealOutcomes(t *testing.T) {
	for ev, texts := range realOutcomes(t) {
		for _, text := range texts {
			if n := decodeEveryType(t, ev.String(), text); n == 0 {
				t.Errorf("%s: no outcome type took the direct path for hookline's own output: %s", ev, text)
			}
		}
	}
	// Each event's own type takes the direct path (so the fast path is the
	// one the binding really uses).
	for ev, texts := range realOutcomes(t) {
		text := []byte(texts[0])
		var ok bool
		switch ev {
		case EventPreToolUse:
			ok = decodeOutcome(text, &PreToolUseOutcome{})
		case EventPostToolUse:
			ok = decodeOutcome(text, &PostToolUseOutcome{})
		case EventUserPromptSubmit:
			ok = decodeOutcome(text, &UserPromptSubmitOutcome{})
		case EventSessionStart:
			ok = decodeOutcome(text, &SessionStartOutcome{})
		case EventPermissionRequest:
			ok = decodeOutcome(text, &PermissionRequestOutcome{})
		case EventStop:
			ok = decodeOutcome(text, &StopOutcome{})
		default:
			ok = decodeOutcome(text, &Outcome{})
		}
		if !ok {
			t.Errorf("%s: the direct decoder declined hookline's outcome: %s", ev, texts[0])
		}
	}
}

// Texts hookline does not write: each must be declined or decoded exactly
// as encoding/json does.
var unusualOutcomes = []decodeCase{
	{"empty object", `{}`},
	{"whitespace", " \n{ \"continue\" : true , \"messages\" : [ ] }\t"},
	{"nulls everywhere", `{"messages":null,"continue":true,"stop_reason":null,"hooks":null,"decision":null,"reason":null,"updated_input":null,"additional_context":null,"block_reason":null,"env":null}`},
	{"null in a bool", `{"continue":null}`},
	{"unknown key", `{"continue":true,"new_field":1}`},
	{"case-folded key", `{"Continue":true}`},
	{"repeated key", `{"stop_reason":"a","stop_reason":null}`},
	{"repeated env key", `{"env":{"A":"1","A":"2"}}`},
	{"many env keys", `{"env":{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8","i":"9","j":"10","k":"11","l":"12","m":"13","n":"14","o":"15","p":"16","q":"17","r":null}}`},
	{"wrong type string", `{"stop_reason":5}`},
	{"wrong type bool", `{"continue":"yes"}`},
	{"exit code float", `{"hooks":[{"exit_code":1.0}]}`},
	{"exit code exponent", `{"hooks":[{"exit_code":1e2}]}`},
	{"exit code huge", `{"hooks":[{"exit_code":99999999999999999999999}]}`},
	{"exit code negative zero", `{"hooks":[{"exit_code":-0,"duration_ms":-0.0e+0}]}`},
	{"bad number", `{"hooks":[{"duration_ms":01}]}`},
	{"bad number sign", `{"hooks":[{"duration_ms":+1}]}`},
	{"escapes", `{"stop_reason":"a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u4e2d\u0000"}`},
	{"surrogate pair", `{"stop_reason":"\ud83d\ude00"}`},
	{"lone surrogate", `{"stop_reason":"\ud83d"}`},
	{"bad escape", `{"stop_reason":"\q"}`},
	{"raw utf8", "{\"stop_reason\":\"ünïcode 中文 😀\"}"},
	{"invalid utf8", "{\"stop_reason\":\"\xff\xfe\"}"},
	{"control character", "{\"stop_reason\":\"a\x01b\"}"},
	{"trailing garbage", `{"continue":true} x`},
	{"trailing comma", `{"continue":true,}`},
	{"not an object", `[1,2]`},
	{"null text", `null`},
	{"truncated", `{"messages":[{"level":"info","text":"x"}`},
	{"raw values", `{"updated_input":{"a":[1,{"b":null}],"a":2,"s":"\u00e9"},"decision":{"behavior":"allow","scope":"once","updated_input":  [ 1 , 2 ] ,"permission_updates":[{"type":"addRules"},null,"x"],"interrupt":false,"message":null}}`},
	{"decision string vs object", `{"decision":"allow"}`},
	{"messages with extra key", `{"messages":[{"level":"info","text":"x","extra":1}]}`},
	{"dialect fields", `{"continue":true,"dialect_fields":{"copilot":{"modifiedResult":{"resultType":"success","textResultForLlm":"x"}},"vscode":{"additionalContext":"c"}}}`},
	{"dialect fields null", `{"dialect_fields":null}`},
	{"dialect fields repeated", `{"dialect_fields":{"copilot":{},"copilot":{"a":1}}}`},
	{"dialect fields not an object", `{"dialect_fields":[1]}`},
	{"hooks every field", `{"hooks":[{"kind":"command","command":"c","name":null,"exit_code":null,"signal":9,"timed_out":true,"duration_ms":12.5,"stdout_truncated":true,"stderr_truncated":false,"skipped":"not_approved","failure":"signal","status_message":"s"}]}`},
}

func TestDirectOutcomeDecoderMatchesEncodingJSONOnUnusualTexts(t *testing.T) {
	accepted := 0
	for _, c := range unusualOutcomes {
		accepted += decodeEveryType(t, c.name, c.text)
	}
	if accepted == 0 {
		t.Fatal("the direct decoder declined every case: the comparison proved nothing")
	}
}

func FuzzDirectOutcomeDecoder(f *testing.F) {
	for _, c := range unusualOutcomes {
		f.Add(c.text)
	}
	f.Add(`{"decision":"deny","reason":"r","updated_input":{"x":1},"additional_context":["a","b"],"messages":[{"level":"warning","text":"t"}],"continue":false,"stop_reason":"s","hooks":[{"kind":"callback","command":"","name":"n","exit_code":2,"timed_out":false,"duration_ms":0.25,"stdout_truncated":false,"stderr_truncated":false,"skipped":null,"failure":"exit"}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Count(text, "[")+strings.Count(text, "{") > 1000 {
			return // deep nesting: encoding/json's own limits, not ours
		}
		decodeEveryType(t, "fuzz", text)
	})
}
