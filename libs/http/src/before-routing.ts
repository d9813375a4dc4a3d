import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';

/** Answers a request itself and returns true, or returns false and leaves it to Fastify. */
export type BeforeRouting = (request: IncomingMessage, response: ServerResponse) => boolean;

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The setter of each server's {@link BeforeRouting}, for the servers {@link createRoutingServer} made. */
const slots = new WeakMap<Server, (answer: BeforeRouting) => void>();

/**
 * A Node HTTP server that hands each request to its {@link BeforeRouting}, once one is set, and
 * to Fastify's `handler` unless that answered. One handler, not a listener added beside Fastify's:
 * an EventEmitter cannot keep the next listener from running.
 */
export function createRoutingServer(options: ServerOptions, handler: RequestHandler): Server {
  let before: BeforeRouting | undefined;
  const server = createServer(options, (request, response) => {
    if (before?.(request, response) !== true) handler(request, response);
  });
  slots.set(server, (answer) => {
    before = answer;
  });
  return server;
}

/**
 * Lets `answer` see every request of `server` before Fastify builds its request and reply, routes
 * it and runs its hooks: for answers that come by the thousand and should cost little more than
 * Node's own handling (the load-shedding door's 503, docs/decisions/0011-refusals-answered-before-routing.md).
 * What it answers meets none of Fastify's hooks, so it sets what they would have. False when
 * `server` was not made by {@link createRoutingServer} (`httpServerOptions`), as with a test's plain
 * `FastifyAdapter`: then Fastify sees every request first.
 */
export function answerBeforeRouting(server: Server, answer: BeforeRouting): boolean {
  const set = slots.get(server);
  set?.(answer);
  return set !== undefined;
}
