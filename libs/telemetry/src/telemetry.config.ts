import { env } from '@libs/config';

/** Tracing and logging settings shared by every app. */
export const telemetryEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url({
    description:
      'OTLP/HTTP collector base URL (spans go to <url>/v1/traces as JSON, e.g. http://127.0.0.1:4318); empty: trace context still propagates, nothing is exported',
    default: '',
    protocols: ['http', 'https'],
  }),
  OTEL_TRACES_SAMPLE_PERCENT: env.integer({
    description:
      'With an OTLP endpoint: percentage of new traces recorded and exported (0-100), parent-based (a sampled incoming traceparent is always recorded, so traces stay whole); lower it to save the recording and export of the spans left out',
    default: 100,
    min: 0,
    max: 100,
  }),
  LOG_LEVEL: env.string({
    description:
      'Lowest level logged: fatal, error, warn, info (one line per HTTP request, shed 503s counted together, and per handled message), debug, trace or silent',
    default: 'info',
    pattern: /^(fatal|error|warn|info|debug|trace|silent)$/,
  }),
  LOG_FORMAT: env.string({
    description: 'json (one JSON object per line), pretty (readable, for a terminal) or auto (pretty when stdout is a terminal)',
    default: 'auto',
    pattern: /^(json|pretty|auto)$/,
  }),
};
