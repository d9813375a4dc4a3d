import { BadRequestException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import { ProblemException } from './problem.exception.js';
import { RequestErrorCodes } from './request-error-codes.js';

/**
 * Keys refused anywhere in a body: harmless to `JSON.parse` (an own property), but class-transformer
 * drops `__proto__` silently, and any code that copies a body into an object (`Object.assign`, a
 * merge) would set a prototype with them. A client never needs them, so they are refused, not dropped.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
/** Cheap pre-check: a body without these texts (a `\u` escape could spell a key) cannot hold one. */
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|\\u/;

/** The path (`items[0].__proto__`) of the first forbidden key in `value`, walked without recursion. */
function forbiddenKeyPath(value: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: next, path } = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      next.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
      continue;
    }
    for (const [key, child] of Object.entries(next)) {
      const childPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return childPath;
      pending.push({ value: child, path: childPath });
    }
  }
  return undefined;
}

/**
 * The `application/json` body parser, as Express' body-parser parsed it before the move to
 * Fastify (for its lower CPU per request), so that clients see the same answers: plain `JSON.parse` (its messages in
 * `REQUEST.MALFORMED_JSON`), an empty body as none (`undefined`, as Express 5 leaves it), and only an object or an array at the top (body-parser's
 * `strict`). A refusal is a 400 whose cause is the `SyntaxError`, which the problem filter names.
 *
 * `limitBytes` is checked here too: Fastify enforces the parser's `bodyLimit` on matched routes
 * only, and reads a body sent to an unknown route up to its server-wide limit (1 MiB), where
 * Express' body-parser, which ran before routing, answered 413 above `HTTP_BODY_LIMIT_BYTES`.
 *
 * A `__proto__` or `constructor` key at any depth is a 400 `REQUEST.FORBIDDEN_KEY`
 * naming its path (see {@link FORBIDDEN_KEYS}).
 */
export function parseJsonBody(body: Buffer, limitBytes: number): unknown {
  if (body.length > limitBytes) throw new PayloadTooLargeException('request entity too large');
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  const first = /\S/.exec(text)?.[0];
  try {
    if (first !== '{' && first !== '[')
      throw new SyntaxError(`Unexpected token '${first ?? 'end'}': a JSON body must be an object or an array`);
    const parsed: unknown = JSON.parse(text);
    const forbidden = MAY_HOLD_FORBIDDEN_KEY.test(text) ? forbiddenKeyPath(parsed) : undefined;
    if (forbidden !== undefined) {
      const detail = `${forbidden}: the keys __proto__ and constructor are not accepted anywhere in a body`;
      throw new ProblemException(HttpStatus.BAD_REQUEST, RequestErrorCodes.FORBIDDEN_KEY, detail, [{ field: forbidden, detail }]);
    }
    return parsed;
  } catch (error) {
    if (error instanceof ProblemException) throw error;
    const message = (error as Error).message;
    throw new BadRequestException(message, { cause: error instanceof SyntaxError ? error : new SyntaxError(message) });
  }
}
