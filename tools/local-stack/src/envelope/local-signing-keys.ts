import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../environment/repo-root.js';

interface SigningKeysFile {
  /** The key the local apps sign with. */
  signWith: string;
  /** Every key they accept, `id` and base64 secret: more than one while a rotation is under way. */
  keys: { id: string; secret: string }[];
}

/** Where the local envelope signing keys live: `MESSAGE_SIGNING_LOCAL_FILE`, else `.local/message-signing/keys.json`. */
export function localSigningKeysFile(source: NodeJS.ProcessEnv = process.env): string {
  return source.MESSAGE_SIGNING_LOCAL_FILE || join(findRepoRoot(), '.local', 'message-signing', 'keys.json');
}

function readKeys(file: string): SigningKeysFile | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SigningKeysFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not a signing keys file (${(error as Error).message}); delete it to make a new one`);
  }
}

/**
 * The `MESSAGE_SIGNING_KEYS` and `MESSAGE_SIGNING_KEY_ID` every local app gets, from a key made on
 * first use (256 random bits, mode 600, git-ignored), as the development issuer makes its key pair:
 * the local stack, the tests, chaos and the bench sign and verify every envelope without anyone
 * setting a variable, so the default a user copies is the signed one. `create: false` (a reader
 * such as the ops tool): `{}` when there is no such key yet, rather than a key nobody signs with.
 */
export function localSigningEnv(source: NodeJS.ProcessEnv = process.env, options: { create?: boolean } = {}): Record<string, string> {
  const file = localSigningKeysFile(source);
  let keys = readKeys(file);
  if (!keys && options.create === false) return {};
  if (!keys) {
    const id = `local-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
    const made: SigningKeysFile = { signWith: id, keys: [{ id, secret: randomBytes(32).toString('base64') }] };
    mkdirSync(dirname(file), { recursive: true });
    const scratch = `${file}.${process.pid}.tmp`;
    writeFileSync(scratch, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
    // Two processes making the file at once: the last rename wins and both read it back below.
    renameSync(scratch, file);
    keys = readKeys(file)!;
  }
  return {
    MESSAGE_SIGNING_KEYS: keys.keys.map((key) => `${key.id}:${key.secret}`).join(','),
    MESSAGE_SIGNING_KEY_ID: keys.signWith,
  };
}
