// Package otelhookline turns hookline's spans (one per run, one per hook)
// into OpenTelemetry spans of a trace.TracerProvider the host gives, and
// makes every run join the span of the context.Context it is run with.
//
//	adapter, err := otelhookline.Install(engine, tracerProvider)
//	...
//	engine.PreToolUse(ctx, input) // a child of ctx's span, with one child per hook
//
// Hook processes receive TRACEPARENT naming their hook's span, so a hook that
// uses an OpenTelemetry SDK continues the same trace. For its spans to hang
// under that very span, the host's SDK must keep the ids hookline chose: give
// its TracerProvider this package's IDGenerator
// (sdktrace.WithIDGenerator(otelhookline.IDGenerator())). Without it the tree
// of hookline's spans is the same, with ids of the SDK's choosing; each span
// then carries hookline's id as the attribute "hookline.span_id".
//
// The package is its own module, so the hookline binding itself depends on
// nothing.
package otelhookline

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sync"

	hookline "github.com/hookline/hookline/bindings/go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the spans this package makes.
const ScopeName = "github.com/hookline/hookline/bindings/go/otelhookline"

// maxPending bounds the runs whose hook spans wait for their run span, and
// maxRecent the ended runs remembered for hook spans that arrive later
// (async hooks outlive the run that started them).
const (
	maxPending = 4096
	maxRecent  = 1024
)

// Adapter is one engine's connection to a TracerProvider.
type Adapter struct {
	engine *hookline.Engine
	tracer trace.Tracer

	mu      sync.Mutex
	pending map[string][]hookline.Span // hook spans by their run's hookline span id
	order   []string                   // pending keys, oldest first
	recent  map[string]trace.SpanContext
	ring    []string // recent keys, oldest first
}

// Install sends engine's spans to tp (nil: otel.GetTracerProvider()) and
// makes each run of engine join the span of its context.Context: the run
// input gets that span's traceparent and tracestate (unless it carries its
// own). It replaces the engine's trace handler and trace context function.
func Install(engine *hookline.Engine, tp trace.TracerProvider) (*Adapter, error) {
	if engine == nil {
		return nil, fmt.Errorf("otelhookline: engine must not be nil")
	}
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	a := &Adapter{
		engine:  engine,
		tracer:  tp.Tracer(ScopeName, trace.WithInstrumentationVersion(hookline.Version())),
		pending: make(map[string][]hookline.Span),
		recent:  make(map[string]trace.SpanContext),
	}
	if err := engine.SetTraceHandler(a.export); err != nil {
		return nil, err
	}
	engine.SetTraceContext(TraceContext)
	return a, nil
}

// Uninstall removes the adapter from its engine: later runs are not traced.
func (a *Adapter) Uninstall() error {
	a.engine.SetTraceContext(nil)
	return a.engine.SetTraceHandler(nil)
}

// TraceContext is the W3C trace context of ctx's OpenTelemetry span (empty
// when ctx has none): what Install gives hookline.Engine.SetTraceContext.
func TraceContext(ctx context.Context) hookline.TraceContext {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return hookline.TraceContext{}
	}
	return hookline.TraceContext{
		Traceparent: fmt.Sprintf("00-%s-%s-%s", sc.TraceID(), sc.SpanID(), sc.TraceFlags()),
		Tracestate:  sc.TraceState().String(),
	}
}

// export receives every span of the engine (on hookline's delivery thread).
// A hook span arrives before its run's span: it waits until the run span
// exists, so that it can be made its child.
func (a *Adapter) export(s hookline.Span) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s.Level == "run" {
		hooks := a.pending[s.SpanID]
		delete(a.pending, s.SpanID)
		a.emitRun(s, hooks)
		return
	}
	if parent, ok := a.recent[s.ParentSpanID]; ok {
		a.emitHook(trace.ContextWithSpanContext(context.Background(), parent), s)
		return
	}
	if _, ok := a.pending[s.ParentSpanID]; !ok {
		if len(a.order) >= maxPending {
			// A run span that never came: emit its hooks under the run's id.
			oldest := a.order[0]
			a.order = a.order[1:]
			for _, h := range a.pending[oldest] {
				a.emitHook(remoteParent(context.Background(), h.TraceID, h.ParentSpanID, h.TraceFlags), h)
			}
			delete(a.pending, oldest)
		}
		a.order = append(a.order, s.ParentSpanID)
	}
	a.pending[s.ParentSpanID] = append(a.pending[s.ParentSpanID], s)
}

func (a *Adapter) emitRun(s hookline.Span, hooks []hookline.Span) {
	ctx := context.Background()
	if s.ParentSpanID != "" {
		ctx = remoteParent(ctx, s.TraceID, s.ParentSpanID, s.TraceFlags)
	}
	runCtx, span := a.start(ctx, s)
	for _, h := range hooks {
		a.emitHook(runCtx, h)
	}
	a.end(span, s)
	a.remember(s.SpanID, span.SpanContext())
	a.dropPending(s.SpanID)
}

func (a *Adapter) emitHook(parent context.Context, s hookline.Span) {
	_, span := a.start(parent, s)
	a.end(span, s)
}

func (a *Adapter) start(parent context.Context, s hookline.Span) (context.Context, trace.Span) {
	ctx := withIDs(parent, s.TraceID, s.SpanID)
	attrs := make([]attribute.KeyValue, 0, len(s.Attributes)+1)
	for k, v := range s.Attributes {
		switch v := v.(type) {
		case string:
			attrs = append(attrs, attribute.String(k, v))
		case int64:
			attrs = append(attrs, attribute.Int64(k, v))
		case bool:
			attrs = append(attrs, attribute.Bool(k, v))
		}
	}
	ctx, span := a.tracer.Start(ctx, s.Name, trace.WithTimestamp(s.Start), trace.WithAttributes(attrs...),
		trace.WithSpanKind(trace.SpanKindInternal))
	if span.SpanContext().SpanID().String() != s.SpanID {
		span.SetAttributes(attribute.String("hookline.span_id", s.SpanID))
	}
	return ctx, span
}

func (a *Adapter) end(span trace.Span, s hookline.Span) {
	if s.Status == "error" {
		span.SetStatus(codes.Error, s.StatusMessage)
	}
	span.End(trace.WithTimestamp(s.End))
}

func (a *Adapter) remember(id string, sc trace.SpanContext) {
	if len(a.ring) >= maxRecent {
		delete(a.recent, a.ring[0])
		a.ring = a.ring[1:]
	}
	a.recent[id] = sc
	a.ring = append(a.ring, id)
}

func (a *Adapter) dropPending(id string) {
	for i, k := range a.order {
		if k == id {
			a.order = append(a.order[:i], a.order[i+1:]...)
			return
		}
	}
}

func remoteParent(ctx context.Context, traceID, spanID string, flags byte) context.Context {
	tid, err1 := trace.TraceIDFromHex(traceID)
	sid, err2 := trace.SpanIDFromHex(spanID)
	if err1 != nil || err2 != nil {
		return ctx
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: tid, SpanID: sid, TraceFlags: trace.TraceFlags(flags), Remote: true,
	})
	return trace.ContextWithRemoteSpanContext(ctx, sc)
}

// ----- ids ------------------------------------------------------------------------

type idsKey struct{}

type presetIDs struct {
	trace trace.TraceID
	span  trace.SpanID
}

func withIDs(ctx context.Context, traceID, spanID string) context.Context {
	var p presetIDs
	t, err1 := hex.DecodeString(traceID)
	s, err2 := hex.DecodeString(spanID)
	if err1 != nil || err2 != nil || len(t) != 16 || len(s) != 8 {
		return ctx
	}
	copy(p.trace[:], t)
	copy(p.span[:], s)
	return context.WithValue(ctx, idsKey{}, p)
}

// IDs is an ID generator for the OpenTelemetry SDK
// (go.opentelemetry.io/otel/sdk/trace.IDGenerator) that gives the spans this
// package makes the ids hookline chose (the ones hook processes were told in
// TRACEPARENT), and random ids to every other span.
type IDs struct{}

// IDGenerator returns the generator to pass to sdktrace.WithIDGenerator.
func IDGenerator() *IDs { return &IDs{} }

// NewIDs returns a trace id and a span id for a root span.
func (*IDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if p, ok := ctx.Value(idsKey{}).(presetIDs); ok {
		return p.trace, p.span
	}
	var t trace.TraceID
	for !t.IsValid() {
		putUint64(t[:8], rand.Uint64())
		putUint64(t[8:], rand.Uint64())
	}
	return t, randomSpanID()
}

// NewSpanID returns a span id for a child span in traceID.
func (*IDs) NewSpanID(ctx context.Context, traceID trace.TraceID) trace.SpanID {
	if p, ok := ctx.Value(idsKey{}).(presetIDs); ok && p.trace == traceID {
		return p.span
	}
	return randomSpanID()
}

func randomSpanID() trace.SpanID {
	var s trace.SpanID
	for !s.IsValid() {
		putUint64(s[:], rand.Uint64())
	}
	return s
}

func putUint64(b []byte, v uint64) {
	for i := 7; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
}
