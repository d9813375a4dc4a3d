export { telemetryEnv } from './telemetry.config.js';
export { startTracing, isExportingSpans, appTracer, endWithError, flushSpans, SpanKind, type TracingOptions } from './tracing.js';
export {
  currentTraceparent,
  currentTraceId,
  contextFromTraceparent,
  formatTraceparent,
  spanContextOf,
  traceIdOf,
  withContext,
} from './trace-context.js';
export { annotateLog, currentLogFields, runWithLogFields, type LogFields } from './log-fields.js';
export { appLogger, configureLogging, NestPinoLogger, type LoggingOptions } from './app-logger.js';
export { httpTelemetry, omitRequestLine } from './http-telemetry.hooks.js';
export { startTelemetry } from './start-telemetry.js';
export { TelemetryModule } from './telemetry.module.js';
