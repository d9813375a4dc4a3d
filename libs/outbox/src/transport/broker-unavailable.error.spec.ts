import { describe, expect, it } from '@jest/globals';
import { isBrokerUnavailable } from './broker-unavailable.error.js';

function named(name: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`${name} happened`), { name, ...extra });
}

describe('isBrokerUnavailable', () => {
  it.each([
    'KafkaJSConnectionError',
    'KafkaJSConnectionClosedError',
    'KafkaJSRequestTimeoutError',
    'KafkaJSBrokerNotFound',
    'KafkaJSNumberOfRetriesExceeded',
    'KafkaJSLockTimeout',
    'KafkaJSMetadataNotLoaded',
  ])('when the error is a %s, then the broker counts as unavailable', (name) => {
    expect(isBrokerUnavailable(named(name))).toBe(true);
  });

  it('when a connection error is wrapped in `cause` or `originalError`, then it is found', () => {
    const connection = named('KafkaJSConnectionError');
    expect(isBrokerUnavailable(named('KafkaJSError', { cause: connection }))).toBe(true);
    expect(isBrokerUnavailable(named('KafkaJSError', { originalError: connection }))).toBe(true);
    expect(isBrokerUnavailable(named('Outer', { cause: named('Middle', { originalError: connection }) }))).toBe(true);
  });

  it.each([
    ['a protocol error about the message', named('KafkaJSProtocolError', { type: 'MESSAGE_TOO_LARGE' })],
    ['a plain Error', new Error('boom')],
    ['a TypeError', new TypeError('x is undefined')],
    ['a wrapper of a message error', named('KafkaJSError', { cause: named('KafkaJSProtocolError') })],
  ])('when the error is %s, then it is not a broker outage', (_, error) => {
    expect(isBrokerUnavailable(error)).toBe(false);
  });

  it.each([undefined, null, 'KafkaJSConnectionError', 42, {}])('when the thrown value is %p, then it is not a broker outage', (value) => {
    expect(isBrokerUnavailable(value)).toBe(false);
  });

  it('when retries were exhausted on a partition error (no leader), then it is not a broker outage; on a connection error, it is', () => {
    const leaderGone = named('KafkaJSProtocolError', { type: 'LEADER_NOT_AVAILABLE' });
    expect(isBrokerUnavailable(named('KafkaJSNumberOfRetriesExceeded', { cause: leaderGone, originalError: leaderGone }))).toBe(false);
    expect(isBrokerUnavailable(named('KafkaJSNumberOfRetriesExceeded', { originalError: named('KafkaJSConnectionError') }))).toBe(true);
  });
});
