import { describe, expect, it } from '@jest/globals';
import { type CommandSpec, commandHelp, readCommandLine } from './command-line.js';

const spec: CommandSpec = {
  name: 'bench',
  usage: 'npm run bench --',
  summary: 'Measures the patterns.',
  flags: {
    quick: { type: 'boolean', description: 'the short profile' },
    only: { type: 'string', placeholder: 'sections', description: 'comma-separated sections' },
  },
};

describe('readCommandLine', () => {
  it('when flags are given in either form, then their values are returned', () => {
    expect(readCommandLine(spec, ['--quick', '--only', 'e2e'])).toEqual({
      kind: 'run',
      values: { quick: true, only: 'e2e' },
      positionals: [],
    });
    expect(readCommandLine(spec, ['--only=e2e,drain'])).toMatchObject({ kind: 'run', values: { only: 'e2e,drain' } });
  });

  it('when --help or -h is given, then the help lists every flag with its description', () => {
    for (const argv of [['--help'], ['-h'], ['--quick', '--help']]) {
      const line = readCommandLine(spec, argv);
      expect(line.kind).toBe('help');
    }
    const text = commandHelp(spec);
    expect(text).toContain('usage: npm run bench -- [options]');
    expect(text).toMatch(/--only <sections>\s+comma-separated sections/);
    expect(text).toMatch(/--quick\s+the short profile/);
    expect(text).toMatch(/--help\s+print this text and exit/);
  });

  it('when a flag is unknown, then the error names it and lists the valid flags', () => {
    const line = readCommandLine(spec, ['--quik']);
    expect(line).toMatchObject({ kind: 'error' });
    expect(line.kind === 'error' && line.message).toMatch(/'--quik'.*valid flags: --quick, --only, --help$/);
  });

  it('when a value is missing or a boolean flag gets one, then it is an error naming the flag', () => {
    expect(readCommandLine(spec, ['--only'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--only') });
    expect(readCommandLine(spec, ['--quick=yes'])).toMatchObject({ kind: 'error', message: expect.stringContaining('--quick') });
  });

  it('when positionals are not declared, then one is refused; when declared, then they are returned', () => {
    expect(readCommandLine(spec, ['e2e'])).toMatchObject({ kind: 'error', message: expect.stringContaining("'e2e'") });
    const withFiles = { ...spec, positionals: '[file.json]' };
    expect(readCommandLine(withFiles, ['stock.json'])).toMatchObject({ kind: 'run', positionals: ['stock.json'] });
    expect(commandHelp(withFiles)).toContain('usage: npm run bench -- [file.json] [options]');
  });
});
