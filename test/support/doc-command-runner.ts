import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot, services, servicePort, type ServiceName } from '@tools/local-stack';

/** What one command of a page did. */
export interface CommandRun {
  stdout: string;
  stderr: string;
  /** The shell's exit code. */
  code: number;
  /** The status line of the last HTTP answer curl received during the command, if any. */
  httpStatus?: number;
}

/** The names a command assigns at its top level (`TOKEN=$(...); ADMIN=$(...)`): kept for the block's later commands. */
function assignedNames(command: string): string[] {
  return [...command.matchAll(/(?:^|[;&]\s*)([A-Z_][A-Z0-9_]*)=/g)].map((match) => match[1]);
}

const npmShim = fileURLToPath(new URL('./npm-run-without-build.mjs', import.meta.url));

/**
 * Runs a page's commands as a reader's shell would (bash, the real curl), against services whose
 * ports and databases are the run's own: `localhost:<default port>` in a command becomes the
 * service's address, and the run's database names and addresses in what is printed become the
 * defaults the page shows. Commands of one block share the variables they assign. `npm run` runs
 * the package.json script without its build step ({@link npmShim}).
 */
export class DocCommandRunner {
  private readonly directory = mkdtempSync(join(tmpdir(), 'docs-examples-'));
  private readonly state = join(this.directory, 'state.sh');
  private readonly headers = join(this.directory, 'headers.txt');
  private readonly addresses: { documented: string; actual: string }[];
  private readonly databases: { documented: string; actual: string }[];

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    ports: Record<ServiceName, string>,
    databases: Record<ServiceName, string>,
  ) {
    this.addresses = services.map((service) => ({
      documented: `localhost:${servicePort(service, {})}`,
      actual: `127.0.0.1:${ports[service.name]}`,
    }));
    this.databases = services.map((service) => ({ documented: service.name, actual: databases[service.name] }));
    const npm = join(this.directory, 'npm');
    writeFileSync(npm, `#!/bin/sh\nexec "${process.execPath}" "${npmShim}" "$@"\n`);
    chmodSync(npm, 0o755);
    this.newBlock();
  }

  /** Forgets the variables of the previous block. */
  newBlock(): void {
    writeFileSync(this.state, '');
  }

  /** `command` as it runs here: the documented addresses replaced by the run's. */
  localized(command: string): string {
    return this.addresses.reduce((text, { documented, actual }) => text.replaceAll(documented, actual), command);
  }

  /** Printed text in the page's terms: the run's addresses and database names replaced by the defaults. */
  documented(text: string): string {
    const addressed = this.addresses.reduce((out, { documented, actual }) => out.replaceAll(actual, documented), text);
    return this.databases.reduce((out, { documented, actual }) => out.replaceAll(actual, documented), addressed);
  }

  async run(command: string, timeoutMs: number): Promise<CommandRun> {
    rmSync(this.headers, { force: true });
    const names = assignedNames(command);
    const script = [
      `. ${JSON.stringify(this.state)}`,
      // -D writes the answer's status line and headers to a file and changes nothing curl prints.
      `curl() { command curl -D ${JSON.stringify(this.headers)} "$@"; }`,
      this.localized(command),
      'docs_test_code=$?',
      ...names.map((name) => `printf 'export %s=%q\\n' ${name} "$${name}" >> ${JSON.stringify(this.state)}`),
      'exit $docs_test_code',
    ].join('\n');
    const file = join(this.directory, 'command.sh');
    writeFileSync(file, script);
    const result = await new Promise<CommandRun>((resolve) => {
      execFile(
        'bash',
        [file],
        {
          cwd: findRepoRoot(),
          env: { ...this.env, PATH: `${this.directory}:${this.env.PATH ?? ''}` },
          timeout: timeoutMs,
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ stdout: this.documented(stdout), stderr, code });
        },
      );
    });
    let statuses: string[] = [];
    try {
      statuses = [...readFileSync(this.headers, 'utf8').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => match[1]);
    } catch {
      // No curl ran.
    }
    return statuses.length > 0 ? { ...result, httpStatus: Number(statuses.at(-1)) } : result;
  }

  close(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}
