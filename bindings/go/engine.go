package hookline

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookline.h"

hl_status hlgo_engine_run_async(hl_engine *engine, hl_event event, const char *input_json, uintptr_t handle,
                                uint64_t *run_id, char **errmsg);
hl_status hlgo_engine_run_named_async(hl_engine *engine, const char *event_name, const char *input_json,
                                      uintptr_t handle, uint64_t *run_id, char **errmsg);
hl_status hlgo_engine_add_callback_hook(hl_engine *engine, hl_event event, const char *matcher, const char *name,
                                        uintptr_t handle, char **errmsg);
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Event is an hl_event: an agent lifecycle event.
type Event int32

// The twelve lifecycle events (docs/protocol.md), numbered as in the C header.
const (
	EventSessionStart       Event = C.HL_EVENT_SESSION_START
	EventSessionEnd         Event = C.HL_EVENT_SESSION_END
	EventSubagentStart      Event = C.HL_EVENT_SUBAGENT_START
	EventSubagentStop       Event = C.HL_EVENT_SUBAGENT_STOP
	EventUserPromptSubmit   Event = C.HL_EVENT_USER_PROMPT_SUBMIT
	EventPreToolUse         Event = C.HL_EVENT_PRE_TOOL_USE
	EventPostToolUse        Event = C.HL_EVENT_POST_TOOL_USE
	EventPermissionRequest  Event = C.HL_EVENT_PERMISSION_REQUEST
	EventPreCompact         Event = C.HL_EVENT_PRE_COMPACT
	EventStop               Event = C.HL_EVENT_STOP
	EventNotification       Event = C.HL_EVENT_NOTIFICATION
	EventPostToolUseFailure Event = C.HL_EVENT_POST_TOOL_USE_FAILURE
)

// String returns the event's name ("PreToolUse", ...), as given by
// hl_event_name.
func (ev Event) String() string {
	if s := C.hl_event_name(C.hl_event(ev)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("hl_event(%d)", int32(ev))
}

// cancelGrace bounds how long an asynchronous run (the fallback used on
// hookline threads) whose context ended, or whose engine is closing, waits
// for hookline to confirm the cancellation. Command hooks are killed at once;
// only a callback hook still running (host code cannot be interrupted) can
// make the confirmation late. A blocking run returns when hookline does: a
// callback hook that is running when the context ends finishes first.
const cancelGrace = 2 * time.Second

// Engine runs configured shell hooks and Go callback hooks at agent
// lifecycle events. All methods are safe for concurrent use, also from
// inside callback hooks.
type Engine struct {
	ptr      *C.hl_engine
	life     *life
	sink     *failureSink
	blocking blockingRuns
	traceCtx traceContextSlot // SetTraceContext
}

// blockingRuns is the set of reserved runs in progress on callers'
// goroutines (hl_engine_run_reserved), so that Close can cancel them. An id
// is in the set only while its run holds a reference on the handle, so
// cancelling it under mu never touches a freed handle.
type blockingRuns struct {
	mu     sync.Mutex
	closed bool
	ids    map[C.uint64_t]struct{}
}

// add registers a reserved run; false once Close has begun (the run must
// then be cancelled before it starts).
func (b *blockingRuns) add(id C.uint64_t) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	if b.ids == nil {
		b.ids = make(map[C.uint64_t]struct{})
	}
	b.ids[id] = struct{}{}
	return true
}

func (b *blockingRuns) remove(id C.uint64_t) {
	b.mu.Lock()
	delete(b.ids, id)
	b.mu.Unlock()
}

func (b *blockingRuns) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// closeAll marks the set closed and cancels every run in it (their
// processes are killed; each returns an error matching ErrClosed).
func (b *blockingRuns) closeAll(ptr *C.hl_engine) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for id := range b.ids {
		C.hl_engine_cancel(ptr, id, nil)
	}
}

// NewEngine creates an engine from options (docs/protocol.md). Invalid options are
// ErrInvalidArgument, a bad hooks config ErrInvalidConfig, an unreadable
// HooksFile ErrIO.
func NewEngine(opts EngineOptions) (*Engine, error) {
	text, err := json.Marshal(opts)
	if err != nil {
		return nil, err
	}
	cs, err := cBytes(text, "options")
	if err != nil {
		return nil, err
	}
	defer freeC(cs)
	var p *C.hl_engine
	var em *C.char
	if st := C.hl_engine_new(cs, &p, &em); st != C.HL_OK {
		return nil, takeError(st, em)
	}
	return &Engine{ptr: p, life: newLife(func() { C.hl_engine_free(p) }), sink: newFailureSink(opts.OnCallbackError)}, nil
}

// Close frees the engine. Runs in flight are cancelled (their hook
// processes killed) and return an error matching ErrClosed; every callback
// hook's handle is released. Close waits until that is done, except when
// called from inside a callback hook. Calling it again is a no-op.
//
// Close has no error result because nothing in it can fail: freeing the
// library handle cannot, and what a close interrupts is reported to the runs
// themselves (ErrClosed). So Engine is not an io.Closer (wrap it if you need
// one), and t.Cleanup(engine.Close) works as is.
func (e *Engine) Close() {
	// Blocking runs first, while the owner's reference keeps the handle alive.
	e.blocking.closeAll(e.ptr)
	e.life.close()
}

// Reload swaps the hooks configuration (a failed reload changes nothing).
// The approval carries over only when the command digest is unchanged.
// Runs in flight finish with the configuration they started with. A
// non-nil opts.OnCallbackError replaces the engine's handler.
func (e *Engine) Reload(opts EngineOptions) error {
	text, err := json.Marshal(opts)
	if err != nil {
		return err
	}
	err = e.withStringArg(string(text), "options", func(cs *C.char, em **C.char) C.hl_status {
		return C.hl_engine_reload(e.ptr, cs, em)
	})
	if err == nil {
		e.sink.set(opts.OnCallbackError)
	}
	return err
}

func (e *Engine) withStringArg(s, what string, call func(*C.char, **C.char) C.hl_status) error {
	if !e.life.acquire() {
		return errClosed("engine")
	}
	defer e.life.release()
	cs, err := cString(s, what)
	if err != nil {
		return err
	}
	defer freeC(cs)
	var em *C.char
	if st := call(cs, &em); st != C.HL_OK {
		return takeError(st, em)
	}
	return nil
}

// AddCallbackHook adds (or, for an existing (event, name), replaces in
// place) a Go callback hook. It runs after the configured hooks of events
// whose matcher it matches ("" or "*" match all; else the Claude Code
// matcher rule). It receives the payload JSON a command hook would read on
// stdin and replies like a command: [ReplyJSON] with the JSON a command
// would print, [ReplyDeny] for "exit 2 with message on stderr", [ReplyAllow]
// for permissionDecision "allow" (PreToolUse). Callback hooks have no
// timeout and run on hookline threads, concurrently.
//
// An error return, a panic or a reply that cannot be applied is a callback
// failure: hookline sees a hook that exited with code 1 and printed
// nothing, so the event goes on as if the hook had no opinion (fail open):
// PreToolUse gets a warning and no decision (the tool call proceeds unless
// another hook denies), UserPromptSubmit is not blocked, PostToolUse and
// Stop are not blocked, PermissionRequest gets no decision, and the other
// events get an error message. A callback that must fail closed returns
// [ReplyDeny] instead of an error. EngineOptions.OnCallbackError receives
// each failure with the Go error or panic value.
func (e *Engine) AddCallbackHook(event Event, matcher, name string, fn func(payload json.RawMessage) (CallbackReply, error)) error {
	if fn == nil {
		return errf(StatusNullArgument, "callback must not be nil")
	}
	if !e.life.acquire() {
		return errClosed("engine")
	}
	defer e.life.release()
	cm, err := cString(matcher, "matcher")
	if err != nil {
		return err
	}
	defer freeC(cm)
	cn, err := cString(name, "name")
	if err != nil {
		return err
	}
	defer freeC(cn)
	h := newCallbackHandle(func(payload []byte) (CallbackReply, error) { return fn(payload) }, name, event.String(), e.sink)
	var em *C.char
	if st := C.hlgo_engine_add_callback_hook(e.ptr, C.hl_event(event), cm, cn, C.uintptr_t(h), &em); st != C.HL_OK {
		deleteCallbackHandle(h) // a failed registration leaves user_data with us
		return takeError(st, em)
	}
	return nil
}

// SetTranscriptPath sets the transcript path hooks receive ("" clears it).
func (e *Engine) SetTranscriptPath(path string) error {
	if path == "" {
		if !e.life.acquire() {
			return errClosed("engine")
		}
		defer e.life.release()
		var em *C.char
		if st := C.hl_engine_set_transcript_path(e.ptr, nil, &em); st != C.HL_OK {
			return takeError(st, em)
		}
		return nil
	}
	return e.withStringArg(path, "path", func(cs *C.char, em **C.char) C.hl_status {
		return C.hl_engine_set_transcript_path(e.ptr, cs, em)
	})
}

// TranscriptPath returns the current transcript path ("" when none).
func (e *Engine) TranscriptPath() (string, error) {
	b, err := e.getString(func(out, em **C.char) C.hl_status { return C.hl_engine_transcript_path(e.ptr, out, em) })
	return string(b), err
}

// Digest returns the lowercase hex SHA-256 of the configured command set
// (what an approval is bound to).
func (e *Engine) Digest() (string, error) {
	b, err := e.getString(func(out, em **C.char) C.hl_status { return C.hl_engine_command_digest(e.ptr, out, em) })
	return string(b), err
}

// Previews lists the configured commands in digest order, for showing the
// user what an approval would allow.
func (e *Engine) Previews() ([]CommandPreview, error) {
	b, err := e.getString(func(out, em **C.char) C.hl_status { return C.hl_engine_command_previews(e.ptr, out, em) })
	if err != nil {
		return nil, err
	}
	var previews []CommandPreview
	if err := json.Unmarshal(b, &previews); err != nil {
		return nil, err
	}
	return previews, nil
}

// ConfigWarnings returns the entries of the hooks configuration that were
// skipped the way the agent skips them (hl_engine_config_warnings): a
// malformed entry or an unknown handler type in a Claude Code settings
// file does not reject the file; every other hook loads. Empty when none.
func (e *Engine) ConfigWarnings() ([]ConfigWarning, error) {
	b, err := e.getString(func(out, em **C.char) C.hl_status { return C.hl_engine_config_warnings(e.ptr, out, em) })
	if err != nil {
		return nil, err
	}
	warnings := []ConfigWarning{}
	if err := json.Unmarshal(b, &warnings); err != nil {
		return nil, err
	}
	return warnings, nil
}

func (e *Engine) getString(call func(out, em **C.char) C.hl_status) ([]byte, error) {
	if !e.life.acquire() {
		return nil, errClosed("engine")
	}
	defer e.life.release()
	var out, em *C.char
	if st := call(&out, &em); st != C.HL_OK {
		return nil, takeError(st, em)
	}
	return takeString(out), nil
}

// Approve approves the current command set; with persist it is also
// recorded in the trust store, so later engines on this workspace with the
// same digest start approved.
func (e *Engine) Approve(persist bool) error {
	if !e.life.acquire() {
		return errClosed("engine")
	}
	defer e.life.release()
	var em *C.char
	if st := C.hl_engine_approve_workspace_hooks(e.ptr, C.bool(persist), &em); st != C.HL_OK {
		return takeError(st, em)
	}
	return nil
}

// NeedsApproval reports whether a gated engine has commands that are not
// approved (false on an ungated engine and on a closed one).
func (e *Engine) NeedsApproval() bool {
	if !e.life.acquire() {
		return false
	}
	defer e.life.release()
	return bool(C.hl_engine_workspace_hooks_need_approval(e.ptr))
}

// WorkspaceGated reports whether the engine was created with
// WorkspaceGated (false on a closed engine).
func (e *Engine) WorkspaceGated() bool {
	if !e.life.acquire() {
		return false
	}
	defer e.life.release()
	return bool(C.hl_engine_workspace_gated(e.ptr))
}

// RunJSON runs event with an input given as JSON (a json.RawMessage,
// []byte, string, or any value that marshals to a JSON object) and returns
// the outcome JSON. The typed methods are built on it.
func (e *Engine) RunJSON(ctx context.Context, event Event, input any) (json.RawMessage, error) {
	text, err := inputText(input)
	if err != nil {
		return nil, err
	}
	return e.runText(ctx, event, text)
}

// inputText is an input given as JSON text (json.RawMessage, []byte,
// string) or as a value to marshal.
func inputText(input any) ([]byte, error) {
	switch v := input.(type) {
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	case string:
		return []byte(v), nil
	default:
		return json.Marshal(v)
	}
}

// runText runs one event. The run executes on the calling goroutine's
// thread (a blocking cgo call of hl_engine_run_reserved), so a run that
// matches no hook, or only runs callback hooks, costs no thread hand-off.
// It is cancellable all the same: the run's id is reserved first, a
// goroutine waiting on ctx.Done() (started only when ctx can be cancelled)
// calls hl_engine_cancel, and Close cancels every such run. hookline decides
// cancel-versus-completion under its run-table lock: when a cancel returned
// HL_OK the run returns HL_ERR_CANCELLED, otherwise its real outcome. Called
// from a callback hook on a hookline thread (where blocking calls are
// refused), it falls back to hl_engine_run_async.
func (e *Engine) runText(ctx context.Context, event Event, input []byte) (json.RawMessage, error) {
	label := event.String()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(label, err)
	}
	if !e.life.acquire() {
		return nil, errClosed("engine")
	}
	defer e.life.release()
	cs, err := cBytes(e.withTraceContext(ctx, input), "input")
	if err != nil {
		return nil, err
	}
	defer freeC(cs)
	var runID C.uint64_t
	var em *C.char
	st := C.hl_engine_reserve_run(e.ptr, &runID, &em)
	if st == C.HL_ERR_WRONG_THREAD {
		takeString(em)
		return e.runEventAsync(ctx, event, cs)
	}
	if st != C.HL_OK {
		return nil, takeError(st, em)
	}
	if !e.blocking.add(runID) {
		// Close has begun: the reservation is cancelled, so the run below
		// returns HL_ERR_CANCELLED at once (and consumes it).
		C.hl_engine_cancel(e.ptr, runID, nil)
	}
	var w *ctxWatch
	if done := ctx.Done(); done != nil {
		w = watchContext(e.ptr, runID, done)
	}
	var out *C.char
	st = C.hl_engine_run_reserved(e.ptr, runID, C.hl_event(event), cs, &out, &em)
	ctxCancelled := w != nil && w.finish()
	e.blocking.remove(runID)
	switch {
	case st == C.HL_OK:
		return takeString(out), nil
	case st == C.HL_ERR_CANCELLED && ctxCancelled:
		takeString(em)
		return nil, cancelled(label, ctx.Err())
	case st == C.HL_ERR_CANCELLED && e.blocking.isClosed():
		takeString(em)
		return nil, &Error{Status: StatusClosed, Message: label + " run interrupted: engine closed"}
	}
	return nil, takeError(st, em)
}

// RunNamed fires an event by its config key (hl_engine_run_named_async):
// "PreToolUse" and the other known events keep their rules; any other
// key (PostCompact, Setup, events Claude Code adds later) runs that key's
// hooks with observer rules. The matcher is tested against the input's
// "matcher_value" field, if any. Cancelling ctx cancels the run.
//
// Unlike RunJSON, a named run always goes through the asynchronous path
// (hl_engine_run_named_async, waited for on a channel): the C ABI has no
// reserved variant of a named run, and the asynchronous run is in
// hookline's run table all the same, so ctx cancellation and Close keep
// the same linearizable cancel-versus-completion rule. It costs one thread
// hand-off per named run, which fire rarely (compaction, setup).
func (e *Engine) RunNamed(ctx context.Context, name string, input any) (NamedOutcome, error) {
	var out NamedOutcome
	text, err := inputText(input)
	if err != nil {
		return out, err
	}
	cname, err := cBytes([]byte(name), "event name")
	if err != nil {
		return out, err
	}
	defer freeC(cname)
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return out, cancelled(name, err)
	}
	if !e.life.acquire() {
		return out, errClosed("engine")
	}
	defer e.life.release()
	cs, err := cBytes(e.withTraceContext(ctx, text), "input")
	if err != nil {
		return out, err
	}
	defer freeC(cs)
	raw, err := e.runAsync(ctx, name, cs, func(cs *C.char, h C.uintptr_t, id *C.uint64_t, em **C.char) C.hl_status {
		return C.hlgo_engine_run_named_async(e.ptr, cname, cs, h, id, em)
	})
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("hookline: decoding %s outcome: %w", name, err)
	}
	out.Raw = raw
	return out, nil
}

// ctxWatch cancels a reserved run when its context ends.
type ctxWatch struct {
	stop, exited chan struct{}
	ok           bool // hl_engine_cancel returned HL_OK (read after exited)
}

func watchContext(ptr *C.hl_engine, runID C.uint64_t, done <-chan struct{}) *ctxWatch {
	w := &ctxWatch{stop: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		defer close(w.exited)
		select {
		case <-done:
			// NOT_FOUND: the run finished first and keeps its outcome.
			w.ok = C.hl_engine_cancel(ptr, runID, nil) == C.HL_OK
		case <-w.stop:
		}
	}()
	return w
}

// finish stops the watcher and waits for it (so it never touches the handle
// after the run released it); true when its cancel took effect.
func (w *ctxWatch) finish() bool {
	close(w.stop)
	<-w.exited
	return w.ok
}

// runEventAsync runs event through hl_engine_run_async (see runAsync).
func (e *Engine) runEventAsync(ctx context.Context, event Event, cs *C.char) (json.RawMessage, error) {
	return e.runAsync(ctx, event.String(), cs, func(cs *C.char, h C.uintptr_t, id *C.uint64_t, em **C.char) C.hl_status {
		return C.hlgo_engine_run_async(e.ptr, C.hl_event(event), cs, h, id, em)
	})
}

// runAsync starts an asynchronous run with start (hl_engine_run_async or
// hl_engine_run_named_async) and waits for its done on a channel; the
// context and Close cancel it. Used from callback hooks on hookline threads
// and by RunNamed. The caller holds the engine (life.acquire) and owns cs.
func (e *Engine) runAsync(ctx context.Context, label string, cs *C.char,
	start func(cs *C.char, h C.uintptr_t, id *C.uint64_t, em **C.char) C.hl_status) (json.RawMessage, error) {
	done := make(chan asyncResult, 1)
	h := newHandle(done)
	var runID C.uint64_t
	var em *C.char
	st := start(cs, C.uintptr_t(h), &runID, &em)
	if st != C.HL_OK {
		deleteHandle(h) // done is never called for a run that did not start
		return nil, takeError(st, em)
	}
	var stopErr error
	select {
	case r := <-done:
		return finish(r)
	case <-ctx.Done():
		stopErr = cancelled(label, ctx.Err())
	case <-e.life.closing:
		stopErr = &Error{Status: StatusClosed, Message: label + " run interrupted: engine closed"}
	}
	// hl_engine_cancel is linearizable: HL_OK means the cancel won (the
	// run's processes are killed and its done gets HL_ERR_CANCELLED);
	// HL_ERR_NOT_FOUND means the run had already finished, and its done
	// carries the real result, which is returned instead of an error.
	if C.hl_engine_cancel(e.ptr, runID, nil) != C.HL_OK {
		return finish(<-done)
	}
	t := time.NewTimer(cancelGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	return nil, stopErr
}

func cancelled(label string, cause error) error {
	return &Error{Status: StatusCancelled, Message: label + " run cancelled: " + cause.Error(), cause: cause}
}

func finish(r asyncResult) (json.RawMessage, error) {
	if r.status != StatusOK {
		return nil, &Error{Status: r.status, Message: r.errmsg}
	}
	return r.outcome, nil
}

// outcome is implemented by the typed outcomes (through Outcome).
type outcome interface {
	setRaw(json.RawMessage)
	ranNoHook() bool
}

func (o *Outcome) setRaw(b json.RawMessage) { o.Raw = b }

// ranNoHook reports an outcome of a run in which no hook ran (and so no
// hook output reached it: every event-specific field has its default).
func (o *Outcome) ranNoHook() bool { return len(o.Hooks) == 0 && len(o.Messages) == 0 }

func runTyped[T any, PT interface {
	*T
	outcome
}](e *Engine, ctx context.Context, event Event, input any, extra map[string]any) (T, error) {
	var out T
	text, err := marshalWithExtra(input, extra)
	if err != nil {
		return out, err
	}
	raw, err := e.runText(ctx, event, text)
	if err != nil {
		return out, err
	}
	// When no hook ran, the outcome is the same text every time (the common
	// case: no hook matches); its decoded form is kept per event and copied.
	slot := &noHookOutcomes[event&15]
	if c := slot.Load(); c != nil && c.raw == string(raw) {
		if v, ok := c.value.(T); ok {
			PT(&v).setRaw(raw)
			return v, nil
		}
	}
	if d, ok := any(&out).(fieldDecoder); !ok || !decodeOutcome(raw, d) {
		// Not the shape hookline writes (decode.go): encoding/json decides.
		out = *new(T)
		if err := json.Unmarshal(raw, &out); err != nil {
			return out, fmt.Errorf("hookline: decoding %s outcome: %w", event, err)
		}
	}
	if PT(&out).ranNoHook() {
		// Nothing in it is shared mutable state: its slices are empty (a
		// caller's append allocates anew) and its pointers nil.
		slot.Store(&decodedOutcome{raw: string(raw), value: out})
	}
	PT(&out).setRaw(raw)
	return out, nil
}

// decodedOutcome is a decoded outcome of a run in which no hook ran, with
// the exact text it was decoded from.
type decodedOutcome struct {
	raw   string
	value any
}

// noHookOutcomes holds, per event, the decoded outcome of a run where no
// hook ran (indexed by Event; unknown events never produce an outcome).
var noHookOutcomes [16]atomic.Pointer[decodedOutcome]

func nullToNil(m json.RawMessage) json.RawMessage {
	if string(m) == "null" {
		return nil
	}
	return m
}

// SessionStart runs the SessionStart hooks (source: the engine's trigger).
func (e *Engine) SessionStart(ctx context.Context) (SessionStartOutcome, error) {
	return runTyped[SessionStartOutcome](e, ctx, EventSessionStart, struct{}{}, nil)
}

// SessionEnd runs the SessionEnd hooks.
func (e *Engine) SessionEnd(ctx context.Context, in SessionEndInput) (Outcome, error) {
	return runTyped[Outcome](e, ctx, EventSessionEnd, in, in.Extra)
}

// SubagentStart runs the SubagentStart hooks. With a Claude Code config
// AdditionalContext is what the hooks add to the subagent's context.
func (e *Engine) SubagentStart(ctx context.Context, in SubagentInput) (SubagentStartOutcome, error) {
	return runTyped[SubagentStartOutcome](e, ctx, EventSubagentStart, in, in.Extra)
}

// SubagentStop runs the SubagentStop hooks. With a Claude Code config a
// non-empty BlockReason means a hook asks the subagent to go on (it is
// always empty with a VT Code config, where SubagentStop only observes).
func (e *Engine) SubagentStop(ctx context.Context, in SubagentInput) (StopOutcome, error) {
	return runTyped[StopOutcome](e, ctx, EventSubagentStop, in, in.Extra)
}

// UserPromptSubmit runs the UserPromptSubmit hooks; AllowPrompt false means
// a hook blocked the prompt (BlockReason says why).
func (e *Engine) UserPromptSubmit(ctx context.Context, in UserPromptSubmitInput) (UserPromptSubmitOutcome, error) {
	return runTyped[UserPromptSubmitOutcome](e, ctx, EventUserPromptSubmit, in, in.Extra)
}

// PreToolUse runs the PreToolUse hooks and returns their decision. A hook
// that times out denies (fail closed). UpdatedInput is the tool input to
// use instead of the original, when a hook substituted one.
func (e *Engine) PreToolUse(ctx context.Context, in PreToolUseInput) (PreToolUseOutcome, error) {
	out, err := runTyped[PreToolUseOutcome](e, ctx, EventPreToolUse, in, in.Extra)
	out.UpdatedInput = nullToNil(out.UpdatedInput)
	return out, err
}

// PostToolUse runs the PostToolUse hooks.
func (e *Engine) PostToolUse(ctx context.Context, in PostToolUseInput) (PostToolUseOutcome, error) {
	return runTyped[PostToolUseOutcome](e, ctx, EventPostToolUse, in, in.Extra)
}

// PostToolUseFailure runs the PostToolUseFailure hooks.
func (e *Engine) PostToolUseFailure(ctx context.Context, in PostToolUseFailureInput) (PostToolUseOutcome, error) {
	return runTyped[PostToolUseOutcome](e, ctx, EventPostToolUseFailure, in, in.Extra)
}

// PermissionRequest runs the PermissionRequest hooks; Decision is nil when
// no hook decided.
func (e *Engine) PermissionRequest(ctx context.Context, in PermissionRequestInput) (PermissionRequestOutcome, error) {
	out, err := runTyped[PermissionRequestOutcome](e, ctx, EventPermissionRequest, in, in.Extra)
	if out.Decision != nil {
		out.Decision.UpdatedInput = nullToNil(out.Decision.UpdatedInput)
	}
	return out, err
}

// PreCompact runs the PreCompact hooks. With a Claude Code config a
// non-empty BlockReason means a hook blocks the compaction (always empty
// with a VT Code config).
func (e *Engine) PreCompact(ctx context.Context, in PreCompactInput) (StopOutcome, error) {
	return runTyped[StopOutcome](e, ctx, EventPreCompact, in, in.Extra)
}

// Stop runs the Stop hooks; a non-empty BlockReason means a hook asks the
// agent to keep going.
func (e *Engine) Stop(ctx context.Context, in StopInput) (StopOutcome, error) {
	return runTyped[StopOutcome](e, ctx, EventStop, in, in.Extra)
}

// Notification runs the Notification hooks.
func (e *Engine) Notification(ctx context.Context, in NotificationInput) (Outcome, error) {
	return runTyped[Outcome](e, ctx, EventNotification, in, in.Extra)
}
