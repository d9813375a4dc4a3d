import { spawn } from 'node:child_process';

export interface RunNodeScriptOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Kill the script when it runs longer. Default 120 s: a migration that takes longer is stuck on a lock. */
  timeoutMs?: number;
  /** Aborting kills the script (SIGTERM), e.g. when the user presses Ctrl-C during start-up. */
  signal?: AbortSignal;
}

/**
 * Runs `node <entry>` to completion, for one-off commands such as an app's `migrate` entry.
 * Resolves with the combined stdout and stderr when it exits 0; otherwise rejects with an error
 * that carries that output, so the caller can fail fast and show why without re-running anything.
 */
export function runNodeScript(entry: string, options: RunNodeScriptOptions): Promise<string> {
  const { env, cwd, timeoutMs = 120_000, signal } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { cwd, env, signal, timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // 'error' covers a failed spawn and an abort; 'close' fires after the output streams ended.
    child.once('error', (error) => reject(new Error(`node ${entry} failed: ${error.message}\n${output}`)));
    child.once('close', (code, killedBy) => {
      if (code === 0) resolve(output);
      else reject(new Error(`node ${entry} exited with ${killedBy ?? `code ${code}`}:\n${output.trimEnd()}`));
    });
  });
}
