package hookline

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookline.h"

hl_status hlgo_engine_set_handler(hl_engine *engine, const char *handler_type, uintptr_t handle, char **errmsg);
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/cgo"
	"runtime/debug"
	"time"
	"unsafe"
)

// ModelRequest is what a prompt or agent hook asks the host's model
// (docs/protocol.md, "Prompt, agent and mcp_tool hooks").
type ModelRequest struct {
	// Type is "prompt" or "agent".
	Type string `json:"type"`
	// Event is the event's name ("PreToolUse", "Stop", ...).
	Event string `json:"event"`
	// Prompt is the hook's prompt with $ARGUMENTS replaced by the hook
	// input JSON (appended after a blank line when the prompt has none).
	Prompt string `json:"prompt"`
	// Model is the hook's model, "" when it names none (use a fast one).
	Model string `json:"model"`
	// TimeoutMS is the hook's timeout in milliseconds; the handler's
	// context ends then.
	TimeoutMS int64 `json:"timeout_ms"`
	// Input is the hook input JSON (what a command hook reads on stdin).
	Input json.RawMessage `json:"input"`
}

// ModelReply is the model's verdict: OK true allows; OK false with a
// Reason blocks, denies or feeds the reason back, as the event says
// (docs/protocol.md). Impossible (prompt hooks on Stop and SubagentStop)
// lets the turn end although OK is false.
type ModelReply struct {
	OK         bool   `json:"ok"`
	Reason     string `json:"reason,omitempty"`
	Impossible bool   `json:"impossible,omitempty"`
}

// MCPRequest is what an mcp_tool hook asks the host's MCP client.
type MCPRequest struct {
	// Type is "mcp_tool".
	Type string `json:"type"`
	// Event is the event's name.
	Event string `json:"event"`
	// Server and Tool name the tool to call.
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Input is the tool's arguments, with ${path} strings filled from the
	// hook input.
	Input json.RawMessage `json:"input"`
	// TimeoutMS is the hook's timeout in milliseconds; the handler's
	// context ends then.
	TimeoutMS int64 `json:"timeout_ms"`
}

// MCPReply is the tool's result: its text content (read like a command
// hook's stdout on exit 0), or IsError for a tool error (a non-blocking
// error).
type MCPReply struct {
	Text    string
	IsError bool
}

// handlerFunc answers one request (JSON in, reply JSON out).
type handlerFunc func(ctx context.Context, request []byte) ([]byte, error)

// hostHandler is what a handler's cgo.Handle holds.
type hostHandler struct {
	fn   handlerFunc
	kind string
	sink *failureSink
}

// SetModelHandler sets the handler that answers prompt and agent hooks (nil
// removes it: such hooks then fail with failure "no_handler", fail open).
// Each request runs in its own goroutine with a context that ends at the
// hook's timeout; the run waits for the answer until then. An error, a
// panic (recovered and reported to EngineOptions.OnCallbackError) or an
// answer after the timeout is a non-blocking failure. The handler it
// replaces finishes the requests it already has.
func (e *Engine) SetModelHandler(fn func(ctx context.Context, req ModelRequest) (ModelReply, error)) error {
	var h handlerFunc
	if fn != nil {
		h = func(ctx context.Context, request []byte) ([]byte, error) {
			var req ModelRequest
			if err := json.Unmarshal(request, &req); err != nil {
				return nil, fmt.Errorf("model request: %w", err)
			}
			reply, err := fn(ctx, req)
			if err != nil {
				return nil, err
			}
			return json.Marshal(reply)
		}
	}
	if err := e.setHandler("prompt", h); err != nil {
		return err
	}
	return e.setHandler("agent", h)
}

// SetMCPHandler sets the handler that answers mcp_tool hooks (nil removes
// it), with the contract of SetModelHandler.
func (e *Engine) SetMCPHandler(fn func(ctx context.Context, req MCPRequest) (MCPReply, error)) error {
	var h handlerFunc
	if fn != nil {
		h = func(ctx context.Context, request []byte) ([]byte, error) {
			var req MCPRequest
			if err := json.Unmarshal(request, &req); err != nil {
				return nil, fmt.Errorf("mcp_tool request: %w", err)
			}
			reply, err := fn(ctx, req)
			if err != nil {
				return nil, err
			}
			type content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			return json.Marshal(struct {
				Content []content `json:"content"`
				IsError bool      `json:"isError"`
			}{[]content{{"text", reply.Text}}, reply.IsError})
		}
	}
	return e.setHandler("mcp_tool", h)
}

func (e *Engine) setHandler(kind string, fn handlerFunc) error {
	if !e.life.acquire() {
		return errClosed("engine")
	}
	defer e.life.release()
	ck, err := cString(kind, "handler type")
	if err != nil {
		return err
	}
	defer freeC(ck)
	var h cgo.Handle
	if fn != nil {
		h = newHandle(&hostHandler{fn: fn, kind: kind, sink: e.sink})
	}
	var em *C.char
	if st := C.hlgo_engine_set_handler(e.ptr, ck, C.uintptr_t(h), &em); st != C.HL_OK {
		if h != 0 {
			deleteHandle(h) // a failed registration leaves user_data with us
		}
		return takeError(st, em)
	}
	return nil
}

//export hlgoHandler
func hlgoHandler(userData C.uintptr_t, requestJSON *C.char, requestLen C.size_t, reply *C.hl_reply) C.int32_t {
	hh, ok := cgo.Handle(userData).Value().(*hostHandler)
	if !ok {
		return 1
	}
	n := int(requestLen)
	request := make([]byte, n)
	if n > 0 {
		copy(request, unsafe.Slice((*byte)(unsafe.Pointer(requestJSON)), n))
	}
	var probe struct {
		Event     string `json:"event"`
		TimeoutMS int64  `json:"timeout_ms"`
	}
	_ = json.Unmarshal(request, &probe)
	var deferred *C.hl_deferred
	var em *C.char
	if st := C.hl_reply_defer(reply, &deferred, &em); st != C.HL_OK {
		hh.sink.report(CallbackFailure{Name: hh.kind, Where: probe.Event, Err: takeError(st, em)})
		return 1
	}
	// The answer comes from a goroutine: the hookline thread is free at
	// once, and the run stops waiting at the hook's timeout even when the
	// handler does not honour its context.
	go hh.answer(deferred, request, probe.Event, time.Duration(probe.TimeoutMS)*time.Millisecond)
	return 0
}

// finishFailed gives a handler's failure and its reason (hl_deferred_finish
// with a non-zero rc: the reply text is the reason).
func finishFailed(deferred *C.hl_deferred, reason string) {
	cs := C.CString(failureText(reason))
	defer freeC(cs)
	C.hl_deferred_finish(deferred, 1, cs, nil)
}

func (hh *hostHandler) answer(deferred *C.hl_deferred, request []byte, event string, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var (
		out      []byte
		err      error
		panicked bool
		reason   string
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				panicked = true
				reason = fmt.Sprintf("panic: %v", p)
				hh.sink.report(CallbackFailure{
					Name: hh.kind, Where: event, Err: fmt.Errorf("panic: %v", p), Panic: p, Stack: debug.Stack(),
				})
			}
		}()
		out, err = hh.fn(ctx, request)
	}()
	if panicked || err != nil {
		if err != nil {
			reason = err.Error()
			hh.sink.report(CallbackFailure{Name: hh.kind, Where: event, Err: err})
		}
		finishFailed(deferred, reason)
		return
	}
	cs, cerr := cString(string(out), "handler reply")
	if cerr != nil {
		finishFailed(deferred, cerr.Error())
		return
	}
	defer freeC(cs)
	C.hl_deferred_finish(deferred, 0, cs, nil)
}
