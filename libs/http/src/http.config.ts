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
};
