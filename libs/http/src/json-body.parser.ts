import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';

/**
 * The `application/json` body parser, as Express' body-parser parsed it before the move to
 * Fastify (issue 17), so that clients see the same answers: plain `JSON.parse` (its messages in
 * `REQUEST.MALFORMED_JSON`; a `__proto__` key stays an ordinary field, which validation refuses
 * as unknown), an empty body as none (`undefined`, as Express 5 leaves it), and only an object or an array at the top (body-parser's
 * `strict`). A refusal is a 400 whose cause is the `SyntaxError`, which the problem filter names.
 *
 * `limitBytes` is checked here too: Fastify enforces the parser's `bodyLimit` on matched routes
 * only, and reads a body sent to an unknown route up to its server-wide limit (1 MiB), where
 * Express' body-parser, which ran before routing, answered 413 above `HTTP_BODY_LIMIT_BYTES`.
 */
export function parseJsonBody(body: Buffer, limitBytes: number): unknown {
  if (body.length > limitBytes) throw new PayloadTooLargeException('request entity too large');
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  const first = /\S/.exec(text)?.[0];
  try {
    if (first !== '{' && first !== '[')
      throw new SyntaxError(`Unexpected token '${first ?? 'end'}': a JSON body must be an object or an array`);
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    throw new BadRequestException(message, { cause: error instanceof SyntaxError ? error : new SyntaxError(message) });
  }
}
