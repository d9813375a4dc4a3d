import { describe, expect, it } from '@jest/globals';
import { batchOutcomes, callsOf } from './batched-calls.layer.js';

const batching = { paths: { '/accruals': '/accruals/batch' }, maxCommands: 2 };
const command = (id: string, path = '/accruals') => ({ id, path });

describe('callsOf', () => {
  it('when there is no batching, then every command is a call of its own', () => {
    expect(callsOf([command('a'), command('b')], undefined)).toEqual([[command('a')], [command('b')]]);
  });

  it('when one command of a batched path is due, then it is sent alone', () => {
    expect(callsOf([command('a')], batching)).toEqual([[command('a')]]);
  });

  it('when several are due, then those of a batched path go together in chunks of maxCommands, the others alone', () => {
    const due = [command('a'), command('r', '/reversals'), command('b'), command('c')];
    expect(callsOf(due, batching)).toEqual([[command('r', '/reversals')], [command('a'), command('b')], [command('c')]]);
  });
});

describe('batchOutcomes', () => {
  const answer = (results: unknown) => JSON.stringify({ results });

  it('when each command is answered, then each outcome is classified as the single call would be', () => {
    const outcomes = batchOutcomes(
      ['ok', 'refused', 'busy', 'expired'],
      answer([
        { id: 'ok', status: 201, body: {} },
        { id: 'refused', status: 422, body: { code: 'LOYALTY.ACCRUAL_MISMATCH' } },
        { id: 'busy', status: 503, body: {} },
        { id: 'expired', status: 401, body: {} },
      ]),
    );
    expect(Object.fromEntries(outcomes)).toEqual({
      ok: { kind: 'accepted', status: 201 },
      refused: { kind: 'rejected', status: 422, error: 'HTTP 422: {"code":"LOYALTY.ACCRUAL_MISMATCH"}' },
      busy: { kind: 'retry', error: 'HTTP 503: {}' },
      expired: { kind: 'retry', error: 'HTTP 401: {}' },
    });
  });

  it('when the answer leaves a command out or gives it no status, then that command is retried', () => {
    const outcomes = batchOutcomes(['ok', 'missing', 'no-status'], answer([{ id: 'ok', status: 200 }, { id: 'no-status' }]));
    expect(outcomes.get('ok')).toEqual({ kind: 'accepted', status: 200 });
    expect(outcomes.get('missing')).toMatchObject({ kind: 'retry' });
    expect(outcomes.get('no-status')).toMatchObject({ kind: 'retry' });
  });

  it('when the answer cannot be read, then every command is retried', () => {
    for (const text of ['not json', '{"results":"no"}', 'null']) {
      expect([...batchOutcomes(['a', 'b'], text).values()].map((outcome) => outcome.kind)).toEqual(['retry', 'retry']);
    }
  });
});
