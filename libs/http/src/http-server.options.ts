import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { type EnvConfig, envDefault } from '@libs/config';
import { answerClientError } from './client-error.answer.js';
import { capConnectionsPerClient } from './connections-per-client.js';
import { createRoutingServer } from './before-routing.js';
import { httpEnv } from './http.config.js';
import { PROBLEM_JSON, type ProblemDetails, problemType } from './problem-details.js';
import { RequestErrorCodes } from './request-error-codes.js';
import { securityHeaders } from './security-headers.hook.js';

/** The part of the HTTP configuration the server itself takes (bounds on connections, not on bodies). */
export type HttpServerConfig = Pick<
  EnvConfig<typeof httpEnv>,
  'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_CONNECTION_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS' | 'HTTP_MAX_CONNECTIONS'
> &
  /** Default: the variable's default. */
  Partial<Pick<EnvConfig<typeof httpEnv>, 'HTTP_MAX_CONNECTIONS_PER_CLIENT'>>;

/** How often Node checks the request timeout; its default (30 s) would let a slow client outlive it by that much. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

const setSecurityHeaders = securityHeaders();

/**
 * The errors Fastify answers before any hook or route runs (a path parameter longer than
 * `maxParamLength`: 414; a URL that does not decode: 400). By default Fastify writes its own JSON
 * there, without the security headers; this answers them as every other error: problem+json,
 * naming `url`, with the headers.
 */
function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (error.statusCode ?? 400);
  const code = status === 414 ? RequestErrorCodes.URI_TOO_LONG : RequestErrorCodes.REFUSED;
  const detail = status === 414 ? 'A path segment is longer than this API accepts' : 'The URL is not valid';
  const body: ProblemDetails = {
    type: problemType(code),
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    fields: ['url'],
    errors: [{ field: 'url', detail }],
  };
  setSecurityHeaders(request, reply, () => void reply.status(status).type(PROBLEM_JSON).send(JSON.stringify(body)));
}

/**
 * What every app passes to `new FastifyAdapter(...)`: the Node HTTP server with bounds on how long
 * and how many connections a client may hold (Fastify's defaults: no request or connection
 * timeout, no cap; a cap per client address), {@link frameworkError} for the answers Fastify writes
 * itself and {@link answerClientError} for those Node's parser refuses (431, 408). The server
 * lets a request be answered before Fastify routes it (`answerBeforeRouting`).
 */
export function httpServerOptions(config: HttpServerConfig): FastifyServerOptions {
  return {
    frameworkErrors: frameworkError,
    clientErrorHandler: answerClientError,
    serverFactory: (handler) => {
      const server = createRoutingServer(
        {
          requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
          headersTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
          keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
          connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        },
        handler,
      );
      server.setTimeout(config.HTTP_CONNECTION_TIMEOUT_MS);
      server.maxConnections = config.HTTP_MAX_CONNECTIONS;
      capConnectionsPerClient(server, config.HTTP_MAX_CONNECTIONS_PER_CLIENT ?? envDefault(httpEnv.HTTP_MAX_CONNECTIONS_PER_CLIENT)!);
      return server;
    },
  };
}
