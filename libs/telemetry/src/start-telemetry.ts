import { configureLogging } from './app-logger.js';
import { startTracing } from './tracing.js';

/**
 * What each app's `main.ts` calls first, before Nest is built: the logger (JSON or pretty, at
 * `LOG_LEVEL`) and tracing (OTLP export only when an endpoint is set;
 * await it: the exporter is imported then).
 */
export function startTelemetry(
  service: string,
  config: { OTEL_EXPORTER_OTLP_ENDPOINT: string; OTEL_TRACES_SAMPLE_PERCENT: number; LOG_LEVEL: string; LOG_FORMAT: string },
) {
  configureLogging({ service, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  return startTracing({
    serviceName: service,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    samplePercent: config.OTEL_TRACES_SAMPLE_PERCENT,
  });
}
