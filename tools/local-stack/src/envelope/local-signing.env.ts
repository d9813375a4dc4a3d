import { env } from '@libs/config';

/** Where the local tooling keeps the envelope signing keys it hands the apps (local-signing-keys.ts). */
export const localSigningFileEnv = {
  MESSAGE_SIGNING_LOCAL_FILE: env.string({
    description:
      'The local key pair of each producing service (secret), created on first use; empty: <repo>/.local/message-signing/producer-keys.json',
    default: '',
  }),
};
