import { describe, expect, it } from '@jest/globals';
import { ConfigValidationError } from './config-validation.error.js';
import { checkAll, type LaptopSetting, refuseLaptopSettings } from './laptop-settings.js';

const plainJwks = (allowed: boolean): LaptopSetting => ({
  present: true,
  risk: 'AUTH_JWKS_URL uses http',
  optOut: 'AUTH_JWKS_HTTP_ALLOWED',
  allowed,
});
const tlsOff = (present: boolean): LaptopSetting => ({
  present,
  risk: 'KAFKA_TLS_ENABLED=false',
  optOut: 'KAFKA_PLAINTEXT_ALLOWED',
  allowed: false,
});

describe('settings only fit for a laptop', () => {
  it('when NODE_ENV is not production, then nothing is refused or warned about', () => {
    expect(refuseLaptopSettings('', [plainJwks(false), tlsOff(true)])).toEqual([]);
    expect(refuseLaptopSettings('development', [plainJwks(false)])).toEqual([]);
  });

  it('when production has settings without their opt-out, then one error names each setting and its opt-out', () => {
    const refuse = () => refuseLaptopSettings('production', [plainJwks(false), tlsOff(true)]);
    expect(refuse).toThrow(ConfigValidationError);
    expect(refuse).toThrow(/AUTH_JWKS_URL uses http; NODE_ENV=production refuses it \(AUTH_JWKS_HTTP_ALLOWED=true allows it on purpose\)/);
    expect(refuse).toThrow(/KAFKA_TLS_ENABLED=false; .*KAFKA_PLAINTEXT_ALLOWED=true/);
  });

  it('when production allows a setting on purpose, then it starts and the opt-out is returned as a warning to log', () => {
    expect(refuseLaptopSettings('production', [plainJwks(true), tlsOff(false)])).toEqual([
      'AUTH_JWKS_URL uses http; allowed in production by AUTH_JWKS_HTTP_ALLOWED=true',
    ]);
  });

  it('when several checks fail, then checkAll reports every problem in one error', () => {
    const failing = (problem: string) => () => {
      throw new ConfigValidationError([problem]);
    };
    expect(() => checkAll([failing('A is wrong'), () => undefined, failing('B is wrong')])).toThrow(
      expect.objectContaining({ problems: ['A is wrong', 'B is wrong'] }),
    );
    expect(() =>
      checkAll([
        () => {
          throw new TypeError('a bug');
        },
      ]),
    ).toThrow(TypeError);
  });
});
