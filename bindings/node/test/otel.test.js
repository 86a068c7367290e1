'use strict';
// hookline/otel with the OpenTelemetry SDK's in-memory exporter: each run under the active
// context's span, one child per hook, ids kept by the adapter's IdGenerator.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const api = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { Engine } = require('..');
const otel = require('../lib/otel');
const { claudePreToolUse, engineOptions } = require('./helpers');

api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const BASH = { toolName: 'Bash', toolInput: { command: 'ls' } };

function provider({ keepIds = true } = {}) {
  const exporter = new InMemorySpanExporter();
  const tp = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(keepIds ? { idGenerator: otel.idGenerator() } : {}),
  });
  return { tp, exporter };
}

const nanos = ([s, ns]) => BigInt(s) * 1000000000n + BigInt(ns);

test('a_run_is_a_child_of_the_active_span_and_each_hook_of_the_run', async (t) => {
  const { tp, exporter } = provider();
  const opts = engineOptions(t, { hooks: claudePreToolUse([`printf '%s' "$TRACEPARENT" > tp.txt`, 'exit 1']) });
  const e = new Engine(opts);
  otel.install(e, { tracerProvider: tp });
  const tracer = tp.getTracer('host');
  const host = tracer.startSpan('tool call');
  await api.context.with(api.trace.setSpan(api.context.active(), host), () => e.preToolUse(BASH));
  host.end();
  await e.close();
  const spans = exporter.getFinishedSpans();
  const run = spans.find((s) => s.name === 'hooks PreToolUse');
  assert.ok(run, spans.map((s) => s.name).join(', '));
  assert.equal(run.parentSpanContext.spanId, host.spanContext().spanId);
  assert.equal(run.spanContext().traceId, host.spanContext().traceId);
  assert.equal(run.instrumentationScope.name, otel.SCOPE_NAME);
  const hooks = spans.filter((s) => s.name === 'hook command');
  assert.equal(hooks.length, 2);
  for (const h of hooks) {
    assert.equal(h.parentSpanContext.spanId, run.spanContext().spanId);
    assert.ok(nanos(run.startTime) <= nanos(h.startTime) && nanos(h.endTime) <= nanos(run.endTime));
    assert.equal(h.attributes['hook.event'], 'PreToolUse');
    assert.equal(h.attributes['hookline.span_id'], undefined, 'the ids were kept');
  }
  const failed = hooks.find((h) => h.attributes['hook.command'] === 'exit 1');
  assert.equal(failed.status.code, api.SpanStatusCode.ERROR);
  assert.equal(failed.attributes['hook.failure'], 'exit');
  const printer = hooks.find((h) => h !== failed);
  const printed = fs.readFileSync(path.join(opts.workspace, 'tp.txt'), 'utf8');
  assert.equal(printed, `00-${host.spanContext().traceId}-${printer.spanContext().spanId}-01`);
});

test('without_the_id_generator_the_tree_holds_and_hooklines_ids_are_attributes', async (t) => {
  const { tp, exporter } = provider({ keepIds: false });
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  otel.install(e, { tracerProvider: tp });
  const host = tp.getTracer('host').startSpan('tool call');
  api.context.with(api.trace.setSpan(api.context.active(), host), () => e.preToolUseSync(BASH));
  host.end();
  await e.close();
  const spans = exporter.getFinishedSpans();
  const run = spans.find((s) => s.name === 'hooks PreToolUse');
  const hook = spans.find((s) => s.name === 'hook command');
  assert.equal(run.parentSpanContext.spanId, host.spanContext().spanId);
  assert.equal(hook.parentSpanContext.spanId, run.spanContext().spanId);
  assert.match(hook.attributes['hookline.span_id'], /^[0-9a-f]{16}$/);
  assert.notEqual(hook.attributes['hookline.span_id'], hook.spanContext().spanId);
});

test('a_run_outside_any_span_is_a_root_and_uninstall_stops_tracing', async (t) => {
  const { tp, exporter } = provider();
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  const adapter = otel.install(e, { tracerProvider: tp });
  await e.preToolUse(BASH);
  adapter.uninstall();
  await e.preToolUse(BASH);
  await e.close();
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 2, 'the first run only');
  const run = spans.find((s) => s.name === 'hooks PreToolUse');
  assert.equal(run.parentSpanContext, undefined);
});

test('concurrent_runs_each_get_their_own_tree', async (t) => {
  const { tp, exporter } = provider();
  const e = new Engine(engineOptions(t, { hooks: claudePreToolUse(['true']) }));
  otel.install(e, { tracerProvider: tp });
  const tracer = tp.getTracer('host');
  const hosts = [];
  await Promise.all(
    Array.from({ length: 8 }, () => {
      const host = tracer.startSpan('tool call');
      hosts.push(host);
      return api.context.with(api.trace.setSpan(api.context.active(), host), () => e.preToolUse(BASH));
    }),
  );
  hosts.forEach((h) => h.end());
  await e.close();
  const spans = exporter.getFinishedSpans();
  const runs = spans.filter((s) => s.name === 'hooks PreToolUse');
  assert.deepEqual(
    runs.map((r) => r.parentSpanContext.spanId).sort(),
    hosts.map((h) => h.spanContext().spanId).sort(),
  );
  const runIds = new Set(runs.map((r) => r.spanContext().spanId));
  for (const h of spans.filter((s) => s.name === 'hook command')) assert.ok(runIds.has(h.parentSpanContext.spanId));
});
