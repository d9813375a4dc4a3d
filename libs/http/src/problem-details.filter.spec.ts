import { type ArgumentsHost, BadRequestException, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { problemAnswer } from '@test/fixtures';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { ProblemException, validationFailed } from './problem.exception.js';

describe('ProblemDetailsFilter', () => {
  // The filter logs a fault's stack; the test output does not need them.
  const logged = jest.spyOn(Logger.prototype, 'error');
  beforeAll(() => {
    logged.mockImplementation(() => undefined);
  });
  afterAll(() => {
    jest.restoreAllMocks();
  });

  it('when a ProblemException is thrown, then the body is problem+json with its code, detail and extension members', () => {
    const checks = { error: { database: { status: 'down' } } };
    expect(
      problemAnswer(new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'HEALTH.DEPENDENCY_DOWN', 'Not answering: database', [], checks)),
    ).toEqual({
      status: 503,
      contentType: 'application/problem+json',
      body: {
        type: 'urn:problem-type:HEALTH.DEPENDENCY_DOWN',
        title: 'Service Unavailable',
        status: 503,
        detail: 'Not answering: database',
        code: 'HEALTH.DEPENDENCY_DOWN',
        ...checks,
      },
    });
  });

  it('when extension members collide with the standard ones, then the standard ones win', () => {
    const { body } = problemAnswer(new ProblemException(HttpStatus.CONFLICT, 'X.Y', 'detail', [], { status: 'error', code: 'OTHER' }));
    expect(body).toMatchObject({ status: 409, code: 'X.Y' });
  });

  it('when validation fails on a field twice, then `fields` names it once and `errors` lists both problems', () => {
    const { body } = problemAnswer(
      validationFailed([
        { field: 'a', detail: 'a is short' },
        { field: 'a', detail: 'a is odd' },
        { field: 'b', detail: 'b is missing' },
      ]),
    );
    expect(body).toMatchObject({
      status: 400,
      code: 'REQUEST.VALIDATION_FAILED',
      detail: 'a is short; a is odd; b is missing',
      fields: ['a', 'b'],
      errors: [
        { field: 'a', detail: 'a is short' },
        { field: 'a', detail: 'a is odd' },
        { field: 'b', detail: 'b is missing' },
      ],
    });
  });

  it.each([
    ['the router does not know the path', new NotFoundException('Cannot GET /nowhere'), 404, 'REQUEST.ROUTE_NOT_FOUND'],
    [
      'the body parser refuses broken JSON',
      new BadRequestException('Unexpected end', { cause: new SyntaxError('Unexpected end') }),
      400,
      'REQUEST.MALFORMED_JSON',
    ],
    ['the body parser refuses a large body', new HttpException('request entity too large', 413), 413, 'REQUEST.BODY_TOO_LARGE'],
    ['another 4xx comes from the framework', new HttpException('Method Not Allowed', 405), 405, 'REQUEST.REFUSED'],
  ])('when %s, then it gets a code of its own', (_case, exception, status, code) => {
    expect(problemAnswer(exception)).toMatchObject({
      status,
      contentType: 'application/problem+json',
      body: { status, code, type: `urn:problem-type:${code}` },
    });
  });

  it('when something that is not an HttpException escapes, then 500 SERVER.INTERNAL_ERROR says nothing of it', () => {
    const { status, body } = problemAnswer(new Error('duplicate key value violates unique constraint "orders_pkey" on host db-7'));
    expect({ status, code: body.code }).toEqual({ status: 500, code: 'SERVER.INTERNAL_ERROR' });
    expect(JSON.stringify(body)).not.toMatch(/orders_pkey|db-7|duplicate/);
  });

  it.each([
    ['every pool connection stayed busy', new Error('timeout exceeded when trying to connect')],
    ['the database refused the connection', Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' })],
  ])(
    'when no database connection could be had (%s), then 503 SERVER.UNAVAILABLE with Retry-After, saying nothing of the cause',
    (_case, error) => {
      const { status, headers, body } = problemAnswer(error);
      expect({ status, code: body.code, retryAfter: headers?.['retry-after'] }).toEqual({
        status: 503,
        code: 'SERVER.UNAVAILABLE',
        retryAfter: '1',
      });
      expect(JSON.stringify(body)).not.toMatch(/10\.0\.0\.7|ECONNREFUSED|timeout exceeded/);
    },
  );

  it('when a fault escapes, then its stack is logged; when our code chose a 5xx or a 4xx, then nothing is (the request line records it)', () => {
    const fault = new Error('relation "orders" does not exist');
    logged.mockClear();
    problemAnswer(fault);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toBe(fault.stack);

    logged.mockClear();
    problemAnswer(new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'SERVER.OVERLOADED', 'Too much work is waiting', [], {}, 1));
    problemAnswer(new ProblemException(HttpStatus.CONFLICT, 'ORDER.NOT_CANCELLABLE', 'already shipped'));
    problemAnswer(new NotFoundException('Cannot GET /nowhere'));
    expect(logged).not.toHaveBeenCalled();
  });

  it('when the error happens in a Kafka handler of a hybrid app, then the filter hands it back unchanged', () => {
    const error = new Error('handler failed');
    const host = { getType: () => 'rpc' } as unknown as ArgumentsHost;
    expect(() => new ProblemDetailsFilter().catch(error, host)).toThrow(error);
  });
});
