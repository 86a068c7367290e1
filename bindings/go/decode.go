//go:build cgo

package hookline

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A direct decoder for outcome_json, the compact JSON hookline itself writes
// with a fixed set of keys. encoding/json decodes an outcome in about 5 µs
// (twice that and more right after a hook process ran, with cold caches):
// a visible part of a command-hook run, and most of a callback-hook run.
// This reader fills the outcome structs field by field in one pass.
//
// It accepts only what it fully understands: a key it does not know, a
// value of an unexpected type, a string with invalid UTF-8 or a surrogate
// escape, or any syntax it does not expect makes it give up, and the caller
// decodes the same text with encoding/json instead. So for every input the
// result is exactly encoding/json's (the tests compare the two).

// outcomeReader reads one JSON text; ok turns false at the first surprise.
type outcomeReader struct {
	b  []byte
	i  int
	ok bool
}

// fieldDecoder is implemented by every outcome type: decodeField reads the
// value of key into the matching field and reports whether it knew the key.
type fieldDecoder interface {
	decodeField(r *outcomeReader, key string) bool
}

// decodeOutcome fills out from text; false means "use encoding/json".
func decodeOutcome(text []byte, out fieldDecoder) bool {
	r := outcomeReader{b: text, ok: true}
	r.object(func(key string) bool { return out.decodeField(&r, key) })
	r.space()
	return r.ok && r.i == len(r.b)
}

func (r *outcomeReader) fail() { r.ok = false }

func (r *outcomeReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte (0 at the end).
func (r *outcomeReader) peek() byte {
	r.space()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *outcomeReader) literal(word string) bool {
	if len(r.b)-r.i >= len(word) && string(r.b[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// null consumes a null and reports whether there was one.
func (r *outcomeReader) null() bool {
	return r.peek() == 'n' && r.literal("null")
}

// object reads {"key": value, ...}, calling field for each key with the
// reader positioned at the value; field must consume the value. A key seen
// twice in one object is a surprise (encoding/json merges repeated keys
// into what the first one decoded).
func (r *outcomeReader) object(field func(key string) bool) {
	r.members(true, field)
}

// members reads an object; with unique, a repeated key is a surprise.
func (r *outcomeReader) members(unique bool, field func(key string) bool) {
	if !r.ok || r.peek() != '{' {
		r.fail()
		return
	}
	r.i++
	if r.peek() == '}' {
		r.i++
		return
	}
	var seen [16]string
	n := 0
	for r.ok {
		if r.peek() != '"' {
			r.fail()
			return
		}
		key := r.key()
		if unique {
			for _, k := range seen[:n] {
				if k == key {
					r.fail()
					return
				}
			}
			if n == len(seen) {
				r.fail() // more keys than any outcome struct has
				return
			}
			seen[n] = key
			n++
		}
		if !r.ok || r.peek() != ':' {
			r.fail()
			return
		}
		r.i++
		if !field(key) {
			r.fail()
			return
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.fail()
		}
	}
}

// array reads [value, ...], calling item for each element.
func (r *outcomeReader) array(item func()) {
	if !r.ok || r.peek() != '[' {
		r.fail()
		return
	}
	r.i++
	if r.peek() == ']' {
		r.i++
		return
	}
	for r.ok {
		item()
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return
		default:
			r.fail()
		}
	}
}

// key reads an object key. A key without escapes is returned without a
// copy (a view of the text, which is not changed while it is decoded):
// keys are only compared, except map keys, which are cloned.
func (r *outcomeReader) key() string {
	if r.ok && r.peek() == '"' {
		start := r.i + 1
		for j := start; j < len(r.b); j++ {
			c := r.b[j]
			if c == '"' {
				r.i = j + 1
				if j == start {
					return ""
				}
				return unsafe.String(&r.b[start], j-start)
			}
			if c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
		}
	}
	return r.str()
}

// str reads a string (the reader at its opening quote).
func (r *outcomeReader) str() string {
	if !r.ok || r.peek() != '"' {
		r.fail()
		return ""
	}
	r.i++
	start := r.i
	// The common case: no escapes and plain ASCII.
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c == '"' {
			s := string(r.b[start:r.i])
			r.i++
			return s
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		r.i++
	}
	buf := append([]byte(nil), r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			if !utf8.Valid(buf) {
				r.fail() // encoding/json replaces invalid bytes: let it
			}
			return string(buf)
		case c < 0x20:
			r.fail()
			return ""
		case c == '\\':
			if r.i+1 >= len(r.b) {
				r.fail()
				return ""
			}
			r.i += 2
			switch r.b[r.i-1] {
			case '"', '\\', '/':
				buf = append(buf, r.b[r.i-1])
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				if r.i+4 > len(r.b) {
					r.fail()
					return ""
				}
				v, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
				if err != nil || utf16.IsSurrogate(rune(v)) {
					r.fail() // surrogate pairs: encoding/json's rules
					return ""
				}
				r.i += 4
				buf = utf8.AppendRune(buf, rune(v))
			default:
				r.fail()
				return ""
			}
		default:
			buf = append(buf, c)
			r.i++
		}
	}
	r.fail()
	return ""
}

// optStr reads a string or null (null gives "": the fields it fills start
// empty and are set once, so this is what encoding/json leaves there).
func (r *outcomeReader) optStr() string {
	if r.null() {
		return ""
	}
	return r.str()
}

func (r *outcomeReader) boolean() bool {
	switch {
	case r.peek() == 't' && r.literal("true"):
		return true
	case r.peek() == 'f' && r.literal("false"):
		return false
	}
	r.fail()
	return false
}

// number returns the text of a JSON number (strict JSON syntax).
func (r *outcomeReader) number() string {
	r.space()
	start := r.i
	digits := func() int {
		n := 0
		for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
			r.i++
			n++
		}
		return n
	}
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case digits() == 0:
		r.fail()
		return ""
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if digits() == 0 {
			r.fail()
			return ""
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if digits() == 0 {
			r.fail()
			return ""
		}
	}
	return string(r.b[start:r.i])
}

func (r *outcomeReader) float() float64 {
	f, err := strconv.ParseFloat(r.number(), 64)
	if err != nil {
		r.fail()
	}
	return f
}

// optInt reads an integer or null (nil).
func (r *outcomeReader) optInt() *int {
	if r.null() {
		return nil
	}
	n, err := strconv.Atoi(r.number())
	if err != nil {
		r.fail()
		return nil
	}
	return &n
}

// raw reads any value and returns a copy of its text (json.RawMessage
// keeps a null as the text "null", as encoding/json does).
func (r *outcomeReader) raw() json.RawMessage {
	r.space()
	start := r.i
	r.skip()
	if !r.ok {
		return nil
	}
	return append(json.RawMessage(nil), r.b[start:r.i]...)
}

// skip consumes any value.
func (r *outcomeReader) skip() {
	switch r.peek() {
	case '{':
		r.members(false, func(string) bool { r.skip(); return r.ok })
	case '[':
		r.array(r.skip)
	case '"':
		r.str()
	case 't', 'f':
		r.boolean()
	case 'n':
		if !r.null() {
			r.fail()
		}
	default:
		r.number()
	}
}

// strings reads an array of strings or null (nil).
func (r *outcomeReader) strings() []string {
	if r.null() {
		return nil
	}
	out := []string{}
	r.array(func() { out = append(out, r.str()) })
	return out
}

// decodeList reads an array of objects of type T, or null (nil).
func decodeList[T any, PT interface {
	*T
	fieldDecoder
}](r *outcomeReader) []T {
	if r.null() {
		return nil
	}
	list := []T{}
	r.array(func() {
		var zero T
		list = append(list, zero)
		item := PT(&list[len(list)-1])
		r.object(func(k string) bool { return item.decodeField(r, k) })
	})
	return list
}

func (m *Message) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "level":
		m.Level = r.optStr()
	case "text":
		m.Text = r.optStr()
	default:
		return false
	}
	return true
}

func (h *HookReport) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "kind":
		h.Kind = r.optStr()
	case "command":
		h.Command = r.optStr()
	case "name":
		h.Name = r.optStr()
	case "exit_code":
		h.ExitCode = r.optInt()
	case "signal":
		h.Signal = r.optInt()
	case "timed_out":
		h.TimedOut = r.boolean()
	case "duration_ms":
		h.DurationMs = r.float()
	case "stdout_truncated":
		h.StdoutTruncated = r.boolean()
	case "stderr_truncated":
		h.StderrTruncated = r.boolean()
	case "skipped":
		h.Skipped = r.optStr()
	case "failure":
		h.Failure = r.optStr()
	case "status_message":
		h.StatusMessage = r.optStr()
	case "url":
		h.URL = r.optStr()
	case "server":
		h.Server = r.optStr()
	case "tool":
		h.Tool = r.optStr()
	case "prompt":
		h.Prompt = r.optStr()
	case "model":
		h.Model = r.optStr()
	case "status":
		if n := r.optInt(); n != nil {
			h.Status = *n
		}
	default:
		return false
	}
	return true
}

func (o *Outcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "messages":
		o.Messages = decodeList[Message](r)
	case "continue":
		o.Continue = r.boolean()
	case "stop_reason":
		o.StopReason = r.optStr()
	case "hooks":
		o.Hooks = decodeList[HookReport](r)
	default:
		return false
	}
	return true
}

func (o *SessionStartOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "additional_context":
		o.AdditionalContext = r.strings()
	case "env":
		if r.null() {
			o.Env = nil
			break
		}
		env := map[string]string{}
		r.members(false, func(k string) bool {
			if _, dup := env[k]; dup {
				return false // encoding/json's rule for a repeated key: let it decide
			}
			env[strings.Clone(k)] = r.optStr()
			return true
		})
		o.Env = env
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (o *UserPromptSubmitOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "allow_prompt":
		o.AllowPrompt = r.boolean()
	case "block_reason":
		o.BlockReason = r.optStr()
	case "additional_context":
		o.AdditionalContext = r.strings()
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (o *PreToolUseOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "decision":
		o.Decision = PreToolUseDecision(r.optStr())
	case "reason":
		o.Reason = r.optStr()
	case "updated_input":
		o.UpdatedInput = r.raw()
	case "additional_context":
		o.AdditionalContext = r.strings()
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (o *PostToolUseOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "block_reason":
		o.BlockReason = r.optStr()
	case "additional_context":
		o.AdditionalContext = r.strings()
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (d *PermissionDecision) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "behavior":
		d.Behavior = r.optStr()
	case "scope":
		d.Scope = r.optStr()
	case "updated_input":
		d.UpdatedInput = r.raw()
	case "permission_updates":
		if r.null() {
			d.PermissionUpdates = nil
			break
		}
		d.PermissionUpdates = []json.RawMessage{}
		r.array(func() { d.PermissionUpdates = append(d.PermissionUpdates, r.raw()) })
	case "interrupt":
		d.Interrupt = r.boolean()
	case "message":
		d.Message = r.optStr()
	default:
		return false
	}
	return true
}

func (o *PermissionRequestOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "decision":
		if r.null() {
			o.Decision = nil
			break
		}
		d := &PermissionDecision{}
		r.object(func(k string) bool { return d.decodeField(r, k) })
		o.Decision = d
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (o *StopOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "block_reason":
		o.BlockReason = r.optStr()
	case "additional_context":
		o.AdditionalContext = r.strings()
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}

func (o *SubagentStartOutcome) decodeField(r *outcomeReader, key string) bool {
	switch key {
	case "additional_context":
		o.AdditionalContext = r.strings()
	default:
		return o.Outcome.decodeField(r, key)
	}
	return true
}
