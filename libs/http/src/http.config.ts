import { env } from '@app/config';

/** HTTP settings shared by every app; the port variable is the app's own (`ORDERS_PORT`, ...). */
export const httpEnv = {
  HTTP_HOST: env.string({ description: 'Interface the HTTP server binds to', default: '0.0.0.0' }),
  HTTP_BODY_LIMIT_BYTES: env.integer({
    description: 'Largest accepted request body; larger bodies get 413',
    default: 65_536,
    min: 1024,
    max: 10_485_760,
  }),
  HTTP_SHUTDOWN_TIMEOUT_MS: env.integer({
    description:
      "Longest a SIGTERM shutdown (draining consumers, the relay's last cycle, closing pools) may take before the process exits with code 1; keep the orchestrator's grace period above it",
    default: 20_000,
    min: 1000,
    max: 600_000,
  }),
};
