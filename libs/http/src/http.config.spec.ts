import { describe, expect, it } from '@jest/globals';
import { envDefault } from '@libs/config';
import { httpEnv, httpLaptopSettings } from './http.config.js';

describe('HTTP_HOST', () => {
  it('when unset, then the server binds loopback only (npm start, the tests and a bare `node main.js`)', () => {
    expect(envDefault(httpEnv.HTTP_HOST)).toBe('127.0.0.1');
  });

  it.each(['0.0.0.0', '::', '[::]'])(
    'when it is %s (every interface), then it is a setting production refuses without its opt-out',
    (host) => {
      expect(httpLaptopSettings({ HTTP_HOST: host, HTTP_ALL_INTERFACES_ALLOWED: false })).toEqual([
        expect.objectContaining({ present: true, optOut: 'HTTP_ALL_INTERFACES_ALLOWED', allowed: false }),
      ]);
    },
  );

  it('when it names one interface, then nothing is refused', () => {
    expect(httpLaptopSettings({ HTTP_HOST: '10.0.0.5', HTTP_ALL_INTERFACES_ALLOWED: false })[0].present).toBe(false);
  });
});
