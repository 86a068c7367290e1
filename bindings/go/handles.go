package hookline

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookline.h"

int hlgo_in_callback(void);
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"unsafe"
)

// outstanding counts the cgo.Handles this package has created and not yet
// deleted (callbacks owned by the library, pending async runs).
var outstanding atomic.Int64

// outstandingHandles returns how many runtime/cgo handles the binding holds
// right now: one per registered callback (until the library releases it on
// replacement, unregistration or Close) and one per async run whose
// completion has not arrived yet. It drops back to zero once every engine and
// registry is closed; the tests use it (through export_test.go) to prove
// nothing leaks. It is not part of the API.
func outstandingHandles() int64 { return outstanding.Load() }

func newHandle(v any) cgo.Handle {
	outstanding.Add(1)
	return cgo.NewHandle(v)
}

func deleteHandle(h cgo.Handle) {
	h.Delete()
	outstanding.Add(-1)
}

// callbackFunc is every Go callback at the JSON level: it receives the
// context (or payload) JSON and returns a reply; an error or a panic is a
// callback failure, and its text is the failure's reason hookline reports.
type callbackFunc func(context []byte) (CallbackReply, error)

// hostCallback is what a callback's cgo.Handle holds: the function and what
// a failure report needs (its name, event or point, and the owner's failure
// handler). hookline calls its free_user_data (which deletes the handle)
// exactly once, and before hl_engine_free / hl_registry_free return, so
// Close needs no bookkeeping of its own.
type hostCallback struct {
	fn    callbackFunc
	name  string
	where string
	sink  *failureSink
}

// newCallbackHandle makes the handle passed as user_data for fn.
func newCallbackHandle(fn callbackFunc, name, where string, sink *failureSink) cgo.Handle {
	return newHandle(&hostCallback{fn: fn, name: name, where: where, sink: sink})
}

// CallbackFailure describes a Go callback that failed: it returned an error,
// panicked, or returned a reply that could not be applied. hookline learns
// that the callback failed and the error's text ("panic: <value>" for a
// panic): a registry callback's entry in RunResult.Errors (and the deny of a
// failed pre_tool_call_decide callback) reads "hook '<name>' failed: <text>",
// an engine callback hook exits 1 with the text as its stderr. A handler set
// with EngineOptions.OnCallbackError or RegistryOptions.OnCallbackError
// receives the Go details (the error value, a panic's value and stack).
type CallbackFailure struct {
	// Name is the callback's name.
	Name string
	// Where is the engine event ("PreToolUse") or the registry hook point
	// ("pre_tool_call_decide") the callback ran at.
	Where string
	// Err is the error the callback returned, the reason its reply could not
	// be applied, or, for a panic, an error describing the panic.
	Err error
	// Panic is the value recovered from a panicking callback (nil otherwise).
	Panic any
	// Stack is the panicking goroutine's stack (nil when it did not panic).
	Stack []byte
}

// Error makes a CallbackFailure usable as an error.
func (f CallbackFailure) Error() string {
	return fmt.Sprintf("hookline: callback %q at %s failed: %v", f.Name, f.Where, f.Err)
}

// Unwrap returns the callback's error.
func (f CallbackFailure) Unwrap() error { return f.Err }

// failureSink holds an owner's OnCallbackError handler (replaceable).
type failureSink struct {
	fn atomic.Pointer[func(CallbackFailure)]
}

func newFailureSink(fn func(CallbackFailure)) *failureSink {
	s := &failureSink{}
	s.set(fn)
	return s
}

func (s *failureSink) set(fn func(CallbackFailure)) {
	if fn != nil {
		s.fn.Store(&fn)
	}
}

// report calls the handler, if any; a handler that panics is ignored (it
// must not turn one failure into a crash).
func (s *failureSink) report(f CallbackFailure) {
	if s == nil {
		return
	}
	p := s.fn.Load()
	if p == nil {
		return
	}
	defer func() { _ = recover() }()
	(*p)(f)
}

func (hc *hostCallback) fail(err error, panicValue any, stack []byte) {
	hc.sink.report(CallbackFailure{Name: hc.name, Where: hc.where, Err: err, Panic: panicValue, Stack: stack})
}

// deleteCallbackHandle releases a callback's handle (from free_user_data, or
// after a failed registration).
func deleteCallbackHandle(h cgo.Handle) {
	deleteHandle(h)
}

// inCallback reports whether the calling goroutine is running inside a
// hookline callback (on the thread hookline called it on). Blocking waits
// that could need the callback to return first are skipped there.
func inCallback() bool { return C.hlgo_in_callback() != 0 }

//export hlgoCallback
func hlgoCallback(userData C.uintptr_t, contextJSON *C.char, contextLen C.size_t, reply *C.hl_reply) (rc C.int32_t) {
	hc, ok := cgo.Handle(userData).Value().(*hostCallback)
	if !ok {
		return 1
	}
	defer func() {
		if p := recover(); p != nil {
			rc = 1
			err := fmt.Errorf("panic: %v", p)
			replyFail(reply, err)
			hc.fail(err, p, debug.Stack())
		}
	}()
	n := int(contextLen)
	ctx := make([]byte, n)
	if n > 0 {
		copy(ctx, unsafe.Slice((*byte)(unsafe.Pointer(contextJSON)), n))
	}
	r, err := hc.fn(ctx)
	if err != nil {
		replyFail(reply, err)
		hc.fail(err, nil, nil)
		return 1
	}
	if err := r.apply(reply); err != nil {
		err = fmt.Errorf("invalid reply: %w", err)
		replyFail(reply, err)
		hc.fail(err, nil, nil)
		return 1
	}
	return 0
}

// replyFail tells hookline why the callback failed (hl_reply_fail with the
// error's text): a registry run reports "hook '<name>' failed: <text>", an
// engine callback hook exits 1 with the text as its stderr.
func replyFail(reply *C.hl_reply, err error) {
	cs := C.CString(failureText(err.Error()))
	defer freeC(cs)
	C.hl_reply_fail(reply, cs)
}

// failureText is a failure's reason as C accepts it: valid UTF-8 with no
// NUL bytes.
func failureText(text string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(text, "\uFFFD"), "\x00", " ")
}

//export hlgoFree
func hlgoFree(userData C.uintptr_t) {
	deleteCallbackHandle(cgo.Handle(userData))
}

// asyncResult is what hl_engine_run_async's done callback delivers.
type asyncResult struct {
	status  Status
	outcome []byte
	errmsg  string
}

//export hlgoDone
func hlgoDone(userData C.uintptr_t, status C.hl_status, outcomeJSON *C.char, errmsg *C.char) {
	h := cgo.Handle(userData)
	if ch, ok := h.Value().(chan asyncResult); ok {
		// Buffered (capacity 1) and done is called exactly once: never blocks.
		ch <- asyncResult{status: Status(status), outcome: goBytes(outcomeJSON), errmsg: string(goBytes(errmsg))}
	}
	deleteHandle(h)
}

// CallbackReply is what a Go callback answers. The zero value is "no
// opinion" (the callback did not touch its reply).
type CallbackReply struct {
	kind    replyKind
	message string
	value   any
}

type replyKind int

const (
	replyNone replyKind = iota
	replyAllow
	replyDeny
	replyJSON
)

// NoOpinion is the reply of a callback that has nothing to say (the zero
// CallbackReply).
func NoOpinion() CallbackReply { return CallbackReply{} }

// ReplyAllow is hl_reply_allow: for an engine PreToolUse callback hook it
// means permissionDecision "allow"; elsewhere nothing.
func ReplyAllow() CallbackReply { return CallbackReply{kind: replyAllow} }

// ReplyDeny is hl_reply_deny: for an engine callback hook it means exit
// code 2 with message on stderr (a PreToolUse deny, a UserPromptSubmit block).
func ReplyDeny(message string) CallbackReply { return CallbackReply{kind: replyDeny, message: message} }

// ReplyJSON is hl_reply_set_json: the same JSON a command hook would print.
// v may be a json.RawMessage (or []byte) holding JSON text, or any value
// encoding/json can marshal. A value that does not marshal, or text that is
// not JSON, makes the callback fail.
func ReplyJSON(v any) CallbackReply { return CallbackReply{kind: replyJSON, value: v} }

func (r CallbackReply) apply(reply *C.hl_reply) error {
	switch r.kind {
	case replyAllow:
		if st := C.hl_reply_allow(reply); st != C.HL_OK {
			return &Error{Status: Status(st)}
		}
	case replyDeny:
		msg, err := cString(r.message, "deny message")
		if err != nil {
			return err
		}
		defer freeC(msg)
		if st := C.hl_reply_deny(reply, msg); st != C.HL_OK {
			return &Error{Status: Status(st)}
		}
	case replyJSON:
		var text []byte
		switch v := r.value.(type) {
		case json.RawMessage:
			text = v
		case []byte:
			text = v
		default:
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			text = b
		}
		if len(text) == 0 {
			text = []byte("null")
		}
		cs, err := cBytes(text, "reply JSON")
		if err != nil {
			return err
		}
		defer freeC(cs)
		var em *C.char
		if st := C.hl_reply_set_json(reply, cs, &em); st != C.HL_OK {
			return takeError(st, em)
		}
	}
	return nil
}
