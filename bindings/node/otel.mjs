// ESM entry point of hookline/otel: the same objects as the CommonJS module.
import otel from './lib/otel.js';

export const { install, idGenerator, activeTraceContext, SCOPE_NAME } = otel;

export default otel;
