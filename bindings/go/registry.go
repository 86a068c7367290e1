package hookline

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookline.h"

hl_status hlgo_registry_register(hl_registry *registry, hl_hook_point point, const char *name,
                                 uintptr_t handle, char **errmsg);
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// HookPoint is an hl_hook_point: where a registry callback runs.
type HookPoint int32

// The ten registry hook points (docs/c-api.md), numbered as in the C header.
const (
	PointPreTurn            HookPoint = C.HL_POINT_PRE_TURN
	PointPostTurn           HookPoint = C.HL_POINT_POST_TURN
	PointPreToolCallDecide  HookPoint = C.HL_POINT_PRE_TOOL_CALL_DECIDE
	PointPostToolCall       HookPoint = C.HL_POINT_POST_TOOL_CALL
	PointOnCompaction       HookPoint = C.HL_POINT_ON_COMPACTION
	PointOnSessionStart     HookPoint = C.HL_POINT_ON_SESSION_START
	PointOnSessionEnd       HookPoint = C.HL_POINT_ON_SESSION_END
	PointOnToolError        HookPoint = C.HL_POINT_ON_TOOL_ERROR
	PointOnInteraction      HookPoint = C.HL_POINT_ON_INTERACTION
	PointTransformToolInput HookPoint = C.HL_POINT_TRANSFORM_TOOL_INPUT
	// PointStop: the agent is about to stop; the first callback replying
	// {"decision":"continue","reason":...} (or ReplyDeny(reason)) keeps it
	// going: RunResult.Allow false, Message the reason.
	PointStop HookPoint = C.HL_POINT_STOP
)

// Contract is the hook contract a registry follows (hl_registry_contract):
// how a point's replies and failures combine (docs/c-api.md).
type Contract int32

const (
	// ContractAgyBridge is agy-bridge's Hooks (the default).
	ContractAgyBridge Contract = C.HL_CONTRACT_AGY_BRIDGE
	// ContractAntigravitySDK is the Antigravity Python SDK's HookRunner: a
	// failure stops the run; on_tool_error and on_interaction answer (the
	// first non-null ReplyJSON is RunResult.Answer); an allowed tool call
	// keeps the last allowing message; a pre_turn prompt may be any JSON.
	ContractAntigravitySDK Contract = C.HL_CONTRACT_ANTIGRAVITY_SDK
)

// String returns the wire label ("pre_turn", ..., "transform_tool_input"),
// as given by hl_point_name.
func (p HookPoint) String() string {
	if s := C.hl_point_name(C.hl_hook_point(p)); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("hook_point(%d)", int32(p))
}

// MarshalText encodes the point as its wire label.
func (p HookPoint) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a wire label.
func (p *HookPoint) UnmarshalText(b []byte) error {
	for i := HookPoint(0); i <= PointStop; i++ {
		if i.String() == string(b) {
			*p = i
			return nil
		}
	}
	return fmt.Errorf("hookline: unknown hook point %q", b)
}

// HookResult is a decide callback's answer (pre_tool_call_decide, pre_turn,
// on_interaction). The zero value denies with an empty message, so a
// callback that forgets to set Allow fails closed; use [Allow] and [Deny].
type HookResult struct {
	Allow   bool   `json:"allow"`
	Message string `json:"message"`
	// ModifiedArgs (pre_tool_call_decide only) is shallow-merged into the
	// tool args that later callbacks see and that the run returns.
	ModifiedArgs json.RawMessage `json:"modified_args,omitempty"`
}

// Allow is HookResult{Allow: true}.
func Allow() HookResult { return HookResult{Allow: true} }

// Deny is HookResult{Allow: false, Message: message}.
func Deny(message string) HookResult { return HookResult{Message: message} }

// PreTurnContext is the pre_turn context.
type PreTurnContext struct {
	Prompt     string `json:"prompt"`
	TurnNumber uint32 `json:"turn_number"`
	// Extra fields sent along with a run (kept and passed to callbacks).
	Extra map[string]any `json:"-"`
	// Raw is the whole context JSON a callback received (with extra fields).
	Raw json.RawMessage `json:"-"`
}

// PostTurnContext is the post_turn context.
type PostTurnContext struct {
	ResponseText string          `json:"response_text"`
	TurnNumber   uint32          `json:"turn_number"`
	Extra        map[string]any  `json:"-"`
	Raw          json.RawMessage `json:"-"`
}

// PreToolCallDecideContext is the context of pre_tool_call_decide and
// transform_tool_input.
type PreToolCallDecideContext struct {
	ToolName string `json:"tool_name"`
	// ToolArgs is any JSON (usually an object); nil sends null.
	ToolArgs json.RawMessage `json:"tool_args,omitempty"`
	Extra    map[string]any  `json:"-"`
	Raw      json.RawMessage `json:"-"`
}

// PostToolCallContext is the post_tool_call context.
type PostToolCallContext struct {
	ToolName string          `json:"tool_name"`
	ToolArgs json.RawMessage `json:"tool_args,omitempty"`
	Result   string          `json:"result"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Extra    map[string]any  `json:"-"`
	Raw      json.RawMessage `json:"-"`
}

// ToolErrorContext is the on_tool_error context.
type ToolErrorContext struct {
	ToolName string          `json:"tool_name"`
	ToolArgs json.RawMessage `json:"tool_args,omitempty"`
	Error    string          `json:"error"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Extra    map[string]any  `json:"-"`
	Raw      json.RawMessage `json:"-"`
}

// SessionInfo describes the session of on_session_start / on_session_end.
type SessionInfo struct {
	SessionID string          `json:"session_id"`
	AgentID   uint64          `json:"agent_id"`
	StartedAt json.RawMessage `json:"started_at,omitempty"`
}

// SessionContext is the on_session_start / on_session_end context.
type SessionContext struct {
	Session SessionInfo     `json:"session"`
	Extra   map[string]any  `json:"-"`
	Raw     json.RawMessage `json:"-"`
}

// CompactionContext is the on_compaction context (no required fields).
type CompactionContext struct {
	Extra map[string]any  `json:"-"`
	Raw   json.RawMessage `json:"-"`
}

// InteractionContext is the on_interaction context.
type InteractionContext struct {
	Message string          `json:"message"`
	Extra   map[string]any  `json:"-"`
	Raw     json.RawMessage `json:"-"`
}

// StopContext is the stop context: the agent is about to stop (the
// Antigravity SDK's StopArgs). Every field is optional.
type StopContext struct {
	// ResponseText is the most recent assistant response of the turn.
	ResponseText string `json:"response_text"`
	// TrajectoryID names the trajectory that is stopping.
	TrajectoryID string `json:"trajectory_id"`
	// ContinuationCount is how many times stop callbacks kept this turn
	// going so far.
	ContinuationCount uint64 `json:"continuation_count"`
	// StopReason is why it stopped (the SDK's StopReason value); nil sends null.
	StopReason json.RawMessage `json:"stop_reason,omitempty"`
	// ErrorMessage is the error when it stopped on a fatal error.
	ErrorMessage string          `json:"error_message"`
	Extra        map[string]any  `json:"-"`
	Raw          json.RawMessage `json:"-"`
}

// StopDecision is a stop callback's answer: Continue keeps the agent going
// with Reason as what it is told; the zero value lets it stop (no opinion).
type StopDecision struct {
	Continue bool
	Reason   string
}

// CallbackError names a callback that failed during a run.
type CallbackError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// RunResult is the merged result of a registry run.
type RunResult struct {
	// Allow is false when a decide callback denied (or failed, at
	// pre_tool_call_decide).
	Allow   bool   `json:"allow"`
	Message string `json:"message"`
	// ToolArgs is the final args for transform_tool_input, and for
	// pre_tool_call_decide when any modified_args applied; nil when null.
	ToolArgs json.RawMessage `json:"tool_args"`
	// Errors lists every callback that failed.
	Errors []CallbackError `json:"errors"`
	// Answer is what answered at the points that answer (nil elsewhere and
	// when none did): the {"decision":"continue","reason"} of stop; under
	// ContractAntigravitySDK the recovery of on_tool_error and the answer
	// of on_interaction (the first non-null reply).
	Answer json.RawMessage `json:"answer,omitempty"`
}

// Entry is one registered callback, as listed by [Registry.Entries].
type Entry struct {
	Name       string    `json:"name"`
	Point      HookPoint `json:"point"`
	CallbackID string    `json:"callback_id"`
}

// Registry is an in-process registry of named Go callbacks per hook point.
// Callbacks at a point run in registration order; registering an existing
// (point, name) replaces it in place. All methods are safe for concurrent
// use, also from inside callbacks.
type Registry struct {
	ptr  *C.hl_registry
	life *life
	sink *failureSink
}

// RegistryOptions are the optional settings of [NewRegistry].
type RegistryOptions struct {
	// OnCallbackError, when set, is called with every callback failure (an
	// error return, a panic, a reply that cannot be applied) on the
	// goroutine that ran the callback, before hookline applies the failure
	// rule of the point (pre_tool_call_decide: deny; others: listed in
	// RunResult.Errors). It must not block for long.
	OnCallbackError func(CallbackFailure)
	// Contract is the hook contract the registry follows
	// (ContractAgyBridge, the zero value, by default).
	Contract Contract
}

// NewRegistry creates an empty registry (at most one RegistryOptions may be
// given). Close it when done. It fails only when the library cannot create
// one (hl_registry_new returned NULL).
func NewRegistry(opts ...RegistryOptions) (*Registry, error) {
	if len(opts) > 1 {
		return nil, errf(StatusInvalidArgument, "NewRegistry takes at most one RegistryOptions")
	}
	var o RegistryOptions
	if len(opts) == 1 {
		o = opts[0]
	}
	var p *C.hl_registry
	var em *C.char
	if st := C.hl_registry_new_with_contract(C.hl_registry_contract(o.Contract), &p, &em); st != C.HL_OK {
		return nil, takeError(st, em)
	}
	return &Registry{ptr: p, life: newLife(func() { C.hl_registry_free(p) }), sink: newFailureSink(o.OnCallbackError)}, nil
}

// Close frees the registry; every callback's handle is released. It waits
// for runs in progress on other goroutines (not when called from inside a
// callback). Calling it again is a no-op. Like [Engine.Close] it has no
// error result: nothing in it can fail.
func (r *Registry) Close() {
	r.life.close()
}

// Register adds (or replaces) a callback at point working on raw JSON: it
// receives the context JSON and returns a reply (see [ReplyJSON]); an
// error return or a panic is a callback failure. The typed On* methods
// are built on it.
func (r *Registry) Register(point HookPoint, name string, fn func(context json.RawMessage) (CallbackReply, error)) error {
	if fn == nil {
		return errf(StatusNullArgument, "callback must not be nil")
	}
	return r.register(point, name, func(ctx []byte) (CallbackReply, error) { return fn(ctx) })
}

func (r *Registry) register(point HookPoint, name string, fn callbackFunc) error {
	where := point.String()
	if !r.life.acquire() {
		return errClosed("registry")
	}
	defer r.life.release()
	cname, err := cString(name, "name")
	if err != nil {
		return err
	}
	defer freeC(cname)
	h := newCallbackHandle(fn, name, where, r.sink)
	var em *C.char
	if st := C.hlgo_registry_register(r.ptr, C.hl_hook_point(point), cname, C.uintptr_t(h), &em); st != C.HL_OK {
		deleteCallbackHandle(h) // a failed registration leaves user_data with us
		return takeError(st, em)
	}
	return nil
}

// Unregister removes the callback (point, name); ErrNotFound if absent.
func (r *Registry) Unregister(point HookPoint, name string) error {
	if !r.life.acquire() {
		return errClosed("registry")
	}
	defer r.life.release()
	cname, err := cString(name, "name")
	if err != nil {
		return err
	}
	defer freeC(cname)
	var em *C.char
	if st := C.hl_registry_unregister(r.ptr, C.hl_hook_point(point), cname, &em); st != C.HL_OK {
		return takeError(st, em)
	}
	return nil
}

// Entries lists every registered callback in global registration order.
func (r *Registry) Entries() ([]Entry, error) {
	if !r.life.acquire() {
		return nil, errClosed("registry")
	}
	defer r.life.release()
	var out, em *C.char
	if st := C.hl_registry_entries(r.ptr, &out, &em); st != C.HL_OK {
		return nil, takeError(st, em)
	}
	var entries []Entry
	if err := json.Unmarshal(takeString(out), &entries); err != nil {
		return nil, err
	}
	return entries, nil
}

// Run runs the callbacks at point with a context given as raw JSON text
// (or any value that marshals to a JSON object).
func (r *Registry) Run(point HookPoint, context any) (RunResult, error) {
	var text []byte
	switch v := context.(type) {
	case json.RawMessage:
		text = v
	case []byte:
		text = v
	case string:
		text = []byte(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return RunResult{}, err
		}
		text = b
	}
	return r.runText(point, text)
}

func (r *Registry) run(point HookPoint, context any, extra map[string]any) (RunResult, error) {
	text, err := marshalWithExtra(context, extra)
	if err != nil {
		return RunResult{}, err
	}
	return r.runText(point, text)
}

func (r *Registry) runText(point HookPoint, text []byte) (RunResult, error) {
	if !r.life.acquire() {
		return RunResult{}, errClosed("registry")
	}
	defer r.life.release()
	cs, err := cBytes(text, "context")
	if err != nil {
		return RunResult{}, err
	}
	defer freeC(cs)
	var out, em *C.char
	if st := C.hl_registry_run(r.ptr, C.hl_hook_point(point), cs, &out, &em); st != C.HL_OK {
		return RunResult{}, takeError(st, em)
	}
	var res RunResult
	if err := json.Unmarshal(takeString(out), &res); err != nil {
		return RunResult{}, err
	}
	if string(res.ToolArgs) == "null" {
		res.ToolArgs = nil
	}
	return res, nil
}

// decode is the common front of typed callbacks: parse the context into
// its struct (a context that does not parse is a callback failure).
func decode[T any](ctx []byte, set func(*T, json.RawMessage)) (T, error) {
	var v T
	if err := json.Unmarshal(ctx, &v); err != nil {
		return v, err
	}
	set(&v, ctx)
	return v, nil
}

func decideReply(res HookResult) CallbackReply { return ReplyJSON(res) }

// registerDecide registers a typed decide callback: the context is decoded
// into T (with Raw set) and the HookResult becomes the reply.
func registerDecide[T any](r *Registry, point HookPoint, name string, fn func(T) HookResult, setRaw func(*T, json.RawMessage)) error {
	return r.register(point, name, func(ctx []byte) (CallbackReply, error) {
		c, err := decode(ctx, setRaw)
		if err != nil {
			return CallbackReply{}, err
		}
		return decideReply(fn(c)), nil
	})
}

// registerObserver registers a typed observer: the context is decoded into T
// (with Raw set); observers have no reply.
func registerObserver[T any](r *Registry, point HookPoint, name string, fn func(T), setRaw func(*T, json.RawMessage)) error {
	return r.register(point, name, func(ctx []byte) (CallbackReply, error) {
		c, err := decode(ctx, setRaw)
		if err != nil {
			return CallbackReply{}, err
		}
		fn(c)
		return NoOpinion(), nil
	})
}

// OnPreTurn registers a pre_turn decide callback: the first deny stops the
// run; a failure is listed in errors and the next callback runs.
func (r *Registry) OnPreTurn(name string, fn func(PreTurnContext) HookResult) error {
	return registerDecide(r, PointPreTurn, name, fn, func(c *PreTurnContext, raw json.RawMessage) { c.Raw = raw })
}

// OnPostTurn registers a post_turn observer.
func (r *Registry) OnPostTurn(name string, fn func(PostTurnContext)) error {
	return registerObserver(r, PointPostTurn, name, fn, func(c *PostTurnContext, raw json.RawMessage) { c.Raw = raw })
}

// OnPreToolCallDecide registers a pre_tool_call_decide callback: the first
// deny stops the run; ModifiedArgs merge into the args later callbacks see;
// a failure (including a panic) denies with "hook '<name>' failed".
func (r *Registry) OnPreToolCallDecide(name string, fn func(PreToolCallDecideContext) HookResult) error {
	return registerDecide(r, PointPreToolCallDecide, name, fn, func(c *PreToolCallDecideContext, raw json.RawMessage) { c.Raw = raw })
}

// OnTransformToolInput registers a transform_tool_input callback. It returns
// the new tool args and true, or false to keep the args it was given.
// Transforms chain: each sees the previous one's result. A failure is
// skipped (args kept) and listed in errors.
func (r *Registry) OnTransformToolInput(name string, fn func(PreToolCallDecideContext) (json.RawMessage, bool)) error {
	return r.register(PointTransformToolInput, name, func(ctx []byte) (CallbackReply, error) {
		c, err := decode(ctx, func(c *PreToolCallDecideContext, raw json.RawMessage) { c.Raw = raw })
		if err != nil {
			return CallbackReply{}, err
		}
		args, ok := fn(c)
		if !ok {
			return NoOpinion(), nil
		}
		if args == nil {
			args = json.RawMessage("null")
		}
		return ReplyJSON(args), nil
	})
}

// OnPostToolCall registers a post_tool_call observer.
func (r *Registry) OnPostToolCall(name string, fn func(PostToolCallContext)) error {
	return registerObserver(r, PointPostToolCall, name, fn, func(c *PostToolCallContext, raw json.RawMessage) { c.Raw = raw })
}

// OnCompaction registers an on_compaction observer.
func (r *Registry) OnCompaction(name string, fn func(CompactionContext)) error {
	return r.register(PointOnCompaction, name, func(ctx []byte) (CallbackReply, error) {
		fn(CompactionContext{Raw: ctx})
		return NoOpinion(), nil
	})
}

// OnSessionStart registers an on_session_start observer.
func (r *Registry) OnSessionStart(name string, fn func(SessionContext)) error {
	return r.onSession(PointOnSessionStart, name, fn)
}

// OnSessionEnd registers an on_session_end observer.
func (r *Registry) OnSessionEnd(name string, fn func(SessionContext)) error {
	return r.onSession(PointOnSessionEnd, name, fn)
}

func (r *Registry) onSession(point HookPoint, name string, fn func(SessionContext)) error {
	return registerObserver(r, point, name, fn, func(c *SessionContext, raw json.RawMessage) { c.Raw = raw })
}

// OnToolError registers an on_tool_error observer.
func (r *Registry) OnToolError(name string, fn func(ToolErrorContext)) error {
	return registerObserver(r, PointOnToolError, name, fn, func(c *ToolErrorContext, raw json.RawMessage) { c.Raw = raw })
}

// OnInteraction registers an on_interaction decide callback: the first deny
// stops the run; a failure is skipped (does not block) and listed in errors.
func (r *Registry) OnInteraction(name string, fn func(InteractionContext) HookResult) error {
	return registerDecide(r, PointOnInteraction, name, fn, func(c *InteractionContext, raw json.RawMessage) { c.Raw = raw })
}

// OnStop registers a stop callback: the first that answers Continue keeps
// the agent going (the run's Allow is false and its Message the reason, its
// Answer {"decision":"continue","reason":…}); a failure is listed in errors
// and lets the agent stop.
func (r *Registry) OnStop(name string, fn func(StopContext) StopDecision) error {
	return r.register(PointStop, name, func(ctx []byte) (CallbackReply, error) {
		c, err := decode(ctx, func(c *StopContext, raw json.RawMessage) { c.Raw = raw })
		if err != nil {
			return CallbackReply{}, err
		}
		d := fn(c)
		switch {
		case d.Continue:
			return ReplyJSON(map[string]string{"decision": "continue", "reason": d.Reason}), nil
		case d.Reason != "":
			return ReplyJSON(map[string]string{"decision": "allow_stop", "reason": d.Reason}), nil
		default:
			return NoOpinion(), nil
		}
	})
}

// RunStop runs the stop callbacks.
func (r *Registry) RunStop(c StopContext) (RunResult, error) {
	return r.run(PointStop, c, c.Extra)
}

// RunPreTurn runs the pre_turn callbacks.
func (r *Registry) RunPreTurn(c PreTurnContext) (RunResult, error) {
	return r.run(PointPreTurn, c, c.Extra)
}

// RunPostTurn runs the post_turn observers.
func (r *Registry) RunPostTurn(c PostTurnContext) (RunResult, error) {
	return r.run(PointPostTurn, c, c.Extra)
}

// RunPreToolCallDecide runs the pre_tool_call_decide callbacks.
func (r *Registry) RunPreToolCallDecide(c PreToolCallDecideContext) (RunResult, error) {
	return r.run(PointPreToolCallDecide, c, c.Extra)
}

// RunTransformToolInput runs the transform chain; the result's ToolArgs are
// the final args.
func (r *Registry) RunTransformToolInput(c PreToolCallDecideContext) (RunResult, error) {
	return r.run(PointTransformToolInput, c, c.Extra)
}

// RunPostToolCall runs the post_tool_call observers.
func (r *Registry) RunPostToolCall(c PostToolCallContext) (RunResult, error) {
	return r.run(PointPostToolCall, c, c.Extra)
}

// RunOnCompaction runs the on_compaction observers.
func (r *Registry) RunOnCompaction(c CompactionContext) (RunResult, error) {
	return r.run(PointOnCompaction, struct{}{}, c.Extra)
}

// RunOnSessionStart runs the on_session_start observers.
func (r *Registry) RunOnSessionStart(c SessionContext) (RunResult, error) {
	return r.run(PointOnSessionStart, c, c.Extra)
}

// RunOnSessionEnd runs the on_session_end observers.
func (r *Registry) RunOnSessionEnd(c SessionContext) (RunResult, error) {
	return r.run(PointOnSessionEnd, c, c.Extra)
}

// RunOnToolError runs the on_tool_error observers.
func (r *Registry) RunOnToolError(c ToolErrorContext) (RunResult, error) {
	return r.run(PointOnToolError, c, c.Extra)
}

// RunOnInteraction runs the on_interaction callbacks.
func (r *Registry) RunOnInteraction(c InteractionContext) (RunResult, error) {
	return r.run(PointOnInteraction, c, c.Extra)
}

// marshalWithExtra marshals v (a struct) and adds the extra fields that v
// does not already define (the struct's fields win).
func marshalWithExtra(v any, extra map[string]any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, ok := fields[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// The struct's fields keep their order; the extra fields follow, by name.
	out := bytes.TrimRight(b, " \t\r\n")
	out = append([]byte(nil), out[:len(out)-1]...) // drop the closing brace
	empty := len(fields) == 0
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		xb, err := json.Marshal(extra[k])
		if err != nil {
			return nil, err
		}
		if !empty {
			out = append(out, ',')
		}
		empty = false
		out = append(out, kb...)
		out = append(out, ':')
		out = append(out, xb...)
	}
	return append(out, '}'), nil
}
