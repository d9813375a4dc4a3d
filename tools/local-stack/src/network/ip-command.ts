import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs `command args...` (ip, iptables) and resolves with its stdout; rejects with its stderr in the message. */
export async function runCommand(command: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(command, [...args], { timeout: 30_000 });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${(stderr ?? (error as Error).message).trim()}`);
  }
}

/** Like {@link runCommand}, for clean-up steps: a failure (the thing is already gone) is ignored. */
export async function runQuietly(command: string, args: readonly string[]): Promise<void> {
  await runCommand(command, args).catch(() => undefined);
}
