package hookline

/*
#include <stdint.h>
#include "hookline.h"

hl_status hlgo_engine_set_trace_handler(hl_engine *engine, uintptr_t handle, char **errmsg);
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/cgo"
	"strconv"
	"sync/atomic"
	"time"
)

// Span is one finished span of a run or of a hook (hl_engine_set_trace_handler,
// docs/c-api.md §12). A run that runs at least one hook sends one span for
// itself (Level "run") and one per hook (Level "hook", ParentSpanID the
// run's SpanID). Ids are lowercase hex; ParentSpanID of a run is the host's
// span when its input carried a traceparent, else "".
type Span struct {
	TraceID       string
	SpanID        string
	ParentSpanID  string
	TraceFlags    byte   // W3C trace-flags (bit 0: sampled)
	Level         string // "run" or "hook"
	Name          string // "hooks PreToolUse", "hook command", ...
	Start, End    time.Time
	Status        string // "ok" or "error"
	StatusMessage string // why it is an error ("" when it is not)
	// Attributes in OpenTelemetry style ("hook.event", "hook.exit_code",
	// ...): values are string, int64 or bool.
	Attributes map[string]any
	// Raw is the span's JSON as hookline sent it.
	Raw json.RawMessage
}

type wireSpan struct {
	TraceID       string                     `json:"trace_id"`
	SpanID        string                     `json:"span_id"`
	ParentSpanID  *string                    `json:"parent_span_id"`
	TraceFlags    string                     `json:"trace_flags"`
	Level         string                     `json:"level"`
	Name          string                     `json:"name"`
	Start         string                     `json:"start_unix_nano"`
	End           string                     `json:"end_unix_nano"`
	Status        string                     `json:"status"`
	StatusMessage string                     `json:"status_message"`
	Attributes    map[string]json.RawMessage `json:"attributes"`
}

// ParseSpan decodes a span's JSON as hookline sends it.
func ParseSpan(raw []byte) (Span, error) {
	var w wireSpan
	if err := json.Unmarshal(raw, &w); err != nil {
		return Span{}, err
	}
	s := Span{
		TraceID: w.TraceID, SpanID: w.SpanID, Level: w.Level, Name: w.Name, Status: w.Status,
		StatusMessage: w.StatusMessage, Attributes: make(map[string]any, len(w.Attributes)),
		Raw: append(json.RawMessage(nil), raw...),
	}
	if w.ParentSpanID != nil {
		s.ParentSpanID = *w.ParentSpanID
	}
	if f, err := strconv.ParseUint(w.TraceFlags, 16, 8); err == nil {
		s.TraceFlags = byte(f)
	}
	for _, t := range []struct {
		text string
		to   *time.Time
	}{{w.Start, &s.Start}, {w.End, &s.End}} {
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return Span{}, err
		}
		*t.to = time.Unix(0, n)
	}
	for k, v := range w.Attributes {
		s.Attributes[k] = attributeValue(v)
	}
	return s, nil
}

func attributeValue(v json.RawMessage) any {
	switch {
	case bytes.Equal(v, []byte("true")):
		return true
	case bytes.Equal(v, []byte("false")):
		return false
	case len(v) > 0 && v[0] == '"':
		var s string
		_ = json.Unmarshal(v, &s)
		return s
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	return string(v)
}

// traceHandler is what the trace handler's cgo.Handle holds.
type traceHandler struct {
	fn func(Span)
}

// SetTraceHandler sends the spans of this engine's runs to fn: one span per
// run that runs a hook and one per hook, after each ends (runs that match
// no hook send nothing). fn is called on a hookline thread, one span at a
// time; a panic in it is recovered and the span dropped. nil removes the
// handler. Runs already started keep delivering to the handler they
// started with; Close returns after the spans of the runs that ended have
// been delivered. See also SetTraceContext, and the otelhookline package
// for OpenTelemetry.
func (e *Engine) SetTraceHandler(fn func(Span)) error {
	if !e.life.acquire() {
		return errClosed("engine")
	}
	defer e.life.release()
	var h cgo.Handle
	if fn != nil {
		h = newHandle(&traceHandler{fn: fn})
	}
	var em *C.char
	if st := C.hlgo_engine_set_trace_handler(e.ptr, C.uintptr_t(h), &em); st != C.HL_OK {
		if h != 0 {
			deleteHandle(h) // a failed registration leaves user_data with us
		}
		return takeError(st, em)
	}
	return nil
}

//export hlgoTrace
func hlgoTrace(userData C.uintptr_t, spanJSON *C.char) {
	th, ok := cgo.Handle(userData).Value().(*traceHandler)
	if !ok {
		return
	}
	defer func() { _ = recover() }()
	span, err := ParseSpan(goBytes(spanJSON))
	if err != nil {
		return
	}
	th.fn(span)
}

// TraceContext is a W3C trace context: the traceparent and tracestate a
// run joins.
type TraceContext struct {
	Traceparent string
	Tracestate  string
}

// SetTraceContext makes every run of the engine join the trace fn finds in
// the run's context.Context: its input gets the "traceparent" (and
// "tracestate") fields fn returns, unless it has them already or fn
// returns an empty Traceparent. The otelhookline package installs one that
// reads the OpenTelemetry span of the context. nil removes it.
func (e *Engine) SetTraceContext(fn func(ctx context.Context) TraceContext) {
	if fn == nil {
		e.traceCtx.Store(nil)
		return
	}
	e.traceCtx.Store(&fn)
}

// traceContextSlot holds an engine's SetTraceContext function.
type traceContextSlot = atomic.Pointer[func(context.Context) TraceContext]

// withTraceContext adds the trace context of ctx to an input (JSON object
// text) when SetTraceContext installed a function. The fields go first: an
// input that has its own "traceparent" keeps it (the last of duplicate keys
// wins when hookline reads the input).
func (e *Engine) withTraceContext(ctx context.Context, input []byte) []byte {
	f := e.traceCtx.Load()
	if f == nil {
		return input
	}
	tc := (*f)(ctx)
	if tc.Traceparent == "" {
		return input
	}
	i := skipSpace(input, 0)
	if i >= len(input) || input[i] != '{' {
		return input // not an object: hookline rejects it as it is
	}
	out := make([]byte, 0, len(input)+len(tc.Traceparent)+len(tc.Tracestate)+48)
	out = append(out, `{"traceparent":`...)
	out = appendJSONString(out, tc.Traceparent)
	if tc.Tracestate != "" {
		out = append(out, `,"tracestate":`...)
		out = appendJSONString(out, tc.Tracestate)
	}
	if j := skipSpace(input, i+1); j < len(input) && input[j] != '}' {
		out = append(out, ',')
	}
	return append(out, input[i+1:]...)
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
