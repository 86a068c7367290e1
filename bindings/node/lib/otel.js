'use strict';
// hookline/otel: hookline's spans (one per run, one per hook) as OpenTelemetry
// spans of a TracerProvider, each run under the span of the active context.
// Needs the optional peer dependency @opentelemetry/api; the main package
// never loads this file.
//
// Hook processes get TRACEPARENT naming their hook's span. For a hook's own
// spans to hang under that very span, the SDK must keep the ids hookline
// chose: give the TracerProvider `idGenerator()` from this module. Without
// it the tree of hookline's spans is the same, with ids of the SDK's choosing
// (each span then carries hookline's id as the attribute `hookline.span_id`).

const crypto = require('node:crypto');
const api = require('@opentelemetry/api');
const { version } = require('../package.json');

/** The instrumentation scope of the spans this module makes. */
const SCOPE_NAME = 'hookline/otel';

const MAX_PENDING = 4096; // runs whose hook spans wait for the run's span
const MAX_RECENT = 1024; // ended runs kept for hook spans that come later (async hooks)

/**
 * The W3C trace context of the active context's span (null when none), as
 * `Engine.setTraceContext` wants it.
 */
function activeTraceContext() {
  const sc = api.trace.getSpanContext(api.context.active());
  if (!sc || !api.isSpanContextValid(sc)) return null;
  const flags = (sc.traceFlags & 0xff).toString(16).padStart(2, '0');
  const tracestate = sc.traceState ? sc.traceState.serialize() : '';
  return { traceparent: `00-${sc.traceId}-${sc.spanId}-${flags}`, tracestate };
}

/** BigInt nanoseconds since the epoch as an OpenTelemetry HrTime. */
function hrTime(ns) {
  return [Number(ns / 1000000000n), Number(ns % 1000000000n)];
}

// The ids the next span the SDK makes must get (set right before
// tracer.startSpan, which asks the generator synchronously).
let preset = null;

function randomHex(bytes) {
  for (;;) {
    const id = crypto.randomBytes(bytes).toString('hex');
    if (!/^0+$/.test(id)) return id;
  }
}

/**
 * An IdGenerator for the OpenTelemetry SDK (`new BasicTracerProvider({
 * idGenerator: idGenerator() })`) that gives the spans this module makes
 * the ids hookline chose, and random ids to every other span (from `base`
 * when given).
 */
function idGenerator(base = null) {
  return {
    generateTraceId() {
      if (preset !== null) return preset.traceId;
      return base ? base.generateTraceId() : randomHex(16);
    },
    generateSpanId() {
      if (preset !== null) return preset.spanId;
      return base ? base.generateSpanId() : randomHex(8);
    },
  };
}

class Adapter {
  #engine;
  #tracer;
  #pending = new Map(); // run span id (hookline's) -> [hook spans], oldest first
  #recent = new Map(); // run span id (hookline's) -> SpanContext of the span made for it

  constructor(engine, tracer) {
    this.#engine = engine;
    this.#tracer = tracer;
  }

  /** Receive one hookline span (on the JS thread). */
  export(s) {
    if (s.level === 'run') {
      const hooks = this.#pending.get(s.spanId) || [];
      this.#pending.delete(s.spanId);
      this.#emitRun(s, hooks);
      return;
    }
    const parent = this.#recent.get(s.parentSpanId);
    if (parent) {
      this.#emit(api.trace.setSpanContext(api.ROOT_CONTEXT, parent), s);
      return;
    }
    let list = this.#pending.get(s.parentSpanId);
    if (!list) {
      if (this.#pending.size >= MAX_PENDING) {
        // A run span that never came: its hooks go under the run's id.
        const [oldest, hooks] = this.#pending.entries().next().value;
        this.#pending.delete(oldest);
        for (const h of hooks) this.#emit(remoteParent(h.traceId, h.parentSpanId, h.traceFlags), h);
      }
      list = [];
      this.#pending.set(s.parentSpanId, list);
    }
    list.push(s);
  }

  #emitRun(s, hooks) {
    const parent = s.parentSpanId ? remoteParent(s.traceId, s.parentSpanId, s.traceFlags) : api.ROOT_CONTEXT;
    const span = this.#start(parent, s);
    const runCtx = api.trace.setSpan(api.ROOT_CONTEXT, span);
    for (const h of hooks) this.#emit(runCtx, h);
    this.#end(span, s);
    if (this.#recent.size >= MAX_RECENT) this.#recent.delete(this.#recent.keys().next().value);
    this.#recent.set(s.spanId, span.spanContext());
  }

  #emit(parent, s) {
    this.#end(this.#start(parent, s), s);
  }

  #start(parent, s) {
    preset = { traceId: s.traceId, spanId: s.spanId };
    let span;
    try {
      span = this.#tracer.startSpan(
        s.name,
        { kind: api.SpanKind.INTERNAL, startTime: hrTime(s.startUnixNano), attributes: s.attributes },
        parent,
      );
    } finally {
      preset = null;
    }
    if (span.spanContext().spanId !== s.spanId) span.setAttribute('hookline.span_id', s.spanId);
    return span;
  }

  #end(span, s) {
    if (s.status === 'error') span.setStatus({ code: api.SpanStatusCode.ERROR, message: s.statusMessage || '' });
    span.end(hrTime(s.endUnixNano));
  }

  /** Detach from the engine: runs started from now on are not traced. */
  uninstall() {
    this.#engine.setTraceContext(null);
    this.#engine.setTraceHandler(null);
  }
}

function remoteParent(traceId, spanId, traceFlags) {
  return api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId, spanId, traceFlags, isRemote: true });
}

/**
 * Send `engine`'s spans to `tracerProvider` (default: the global one) and
 * make each run join the span of the active context (its input gets that
 * span's traceparent and tracestate, unless it has its own). Replaces the
 * engine's trace handler and trace context function. Returns the adapter
 * (`uninstall()` detaches it).
 */
function install(engine, { tracerProvider } = {}) {
  if (!engine || typeof engine.setTraceHandler !== 'function') {
    throw new TypeError('install(engine): engine must be a hookline Engine');
  }
  const tp = tracerProvider || api.trace.getTracerProvider();
  const adapter = new Adapter(engine, tp.getTracer(SCOPE_NAME, version));
  engine.setTraceHandler((span) => adapter.export(span));
  engine.setTraceContext(activeTraceContext);
  return adapter;
}

module.exports = { install, idGenerator, activeTraceContext, SCOPE_NAME };
