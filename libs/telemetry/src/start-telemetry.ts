import { configureLogging } from './app-logger.js';
import { startTracing } from './tracing.js';

/**
 * What each app's `main.ts` calls first, before Nest is built: the logger (JSON or pretty, at
 * `LOG_LEVEL`) and tracing (OTLP export only when an endpoint is set).
 */
export function startTelemetry(service: string, config: { OTEL_EXPORTER_OTLP_ENDPOINT: string; LOG_LEVEL: string; LOG_FORMAT: string }) {
  configureLogging({ service, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  return startTracing({ serviceName: service, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
}
