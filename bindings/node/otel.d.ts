// hookline/otel: hookline's spans as OpenTelemetry spans (needs @opentelemetry/api).
import type { Engine, TraceContext } from './index';
import type { TracerProvider } from '@opentelemetry/api';

/** The instrumentation scope of the spans the adapter makes. */
export declare const SCOPE_NAME: string;

/** An installed adapter. */
export interface Adapter {
  /** Detach from the engine: runs started from now on are not traced. */
  uninstall(): void;
}

/**
 * Send `engine`'s spans to `tracerProvider` (default: the global one), each run under the span of
 * the active context. Replaces the engine's trace handler and trace context function.
 */
export declare function install(engine: Engine, options?: { tracerProvider?: TracerProvider }): Adapter;

/** The structure of the OpenTelemetry SDK's IdGenerator. */
export interface IdGenerator {
  generateTraceId(): string;
  generateSpanId(): string;
}

/**
 * An IdGenerator for the SDK's TracerProvider that keeps the ids hookline chose for its spans (the
 * ones hook processes got in TRACEPARENT), and gives random ids (or `base`'s) to every other span.
 */
export declare function idGenerator(base?: IdGenerator | null): IdGenerator;

/** The W3C trace context of the active context's span, or null. */
export declare function activeTraceContext(): TraceContext | null;

declare const otel: {
  install: typeof install;
  idGenerator: typeof idGenerator;
  activeTraceContext: typeof activeTraceContext;
  SCOPE_NAME: string;
};
export default otel;
