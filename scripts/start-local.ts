// `npm start`: the whole system on this machine. Makes sure Postgres answers (starting the embedded
// one when nothing listens at the local default URL) and a Kafka broker runs,
// migrates each service, starts the three apps with prefixed output, waits for their /health, restarts
// an app that dies once the stack is up (with a backoff), and on Ctrl-C stops them (and the broker and Postgres, only if this script started them). Configuration comes from the
// environment with local defaults filled in (tools/local-stack/src/environment/local-defaults.ts), and `.env`.
// `--watch` (`npm run dev`): also runs the compiler in watch mode and each app under `node --watch`,
// so a saved .ts file is recompiled into dist/ and the apps that import it restart.
import { loadDotEnv } from '@libs/config';
import {
  APP_NODE_FLAGS,
  APP_PROCESS_ENV,
  assertPortFree,
  ensurePostgres,
  type LocalPostgres,
  describeExit,
  ensureKafka,
  findRepoRoot,
  kafkaPrincipalOf,
  kafkaSaslEnv,
  localKafkaCredentials,
  localSigningEnvs,
  localSigningKeysFile,
  usesLocalKafkaCredentials,
  type KafkaSource,
  localIssuer,
  devIssuerPort,
  localEnvironment,
  printableUrl,
  mainEntry,
  NodeProcess,
  partitionByPresence,
  RestartBackoff,
  runMigrations,
  servicePort,
  stopKafkaStartedBy,
  waitFor,
  parseCommandLine,
  localDatabaseName,
  prepareLocalTopics,
} from '@tools/local-stack';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
const commandLine = parseCommandLine({
  name: 'start',
  usage: 'npm start --',
  summary:
    'The whole system on this machine: checks Postgres, makes sure a Kafka broker runs, migrates, starts the three apps and waits for their /health.',
  flags: { watch: { type: 'boolean', description: 'recompile saved .ts files and restart the apps that use them (npm run dev)' } },
});

/** Per app, from spawn to `/health` 200: covers connecting to Postgres and Kafka and creating topics. */
const HEALTH_TIMEOUT_MS = 90_000;
/** Per app, from SIGTERM to SIGKILL: enough for a consumer to leave its group and a relay to finish a batch. */
const STOP_GRACE_MS = 10_000;

/**
 * What `node --watch` prints when the app it runs exits with an error. The watcher itself goes on
 * (it waits for a change to restart the app), so its exit cannot tell us: this line is the sign.
 */
const WATCH_APP_FAILED = /^Failed running '/;
/** Must match WATCH_READY_FILE in scripts/build.mjs. */
const WATCH_READY_FILE = 'dist/.watch-ready';
const log = (message: string) => console.log(`[start] ${message}`);
const watch = commandLine.values.watch === true;
/** Stack traces name the .ts files (the build writes source maps); `--watch` restarts an app when its compiled files change. */
const NODE_ARGS = ['--enable-source-maps', ...APP_NODE_FLAGS, ...(watch ? ['--watch'] : [])];

const repoRoot = findRepoRoot();
// `.env` first (when present): local tooling and the apps read the same file.
loadDotEnv();
// Readable logs in a terminal: the apps' stdout is a pipe here (prefixed lines), so they cannot see the TTY.
const env: NodeJS.ProcessEnv = { LOG_FORMAT: 'pretty', ...localEnvironment() };
const apps: NodeProcess[] = [];
const startUp = new AbortController();
let kafkaSource: KafkaSource | undefined;
let postgres: LocalPostgres | undefined;
let stopping: Promise<void> | undefined;
let up = false;

/**
 * A long-running process of this stack: output streamed line by line with its name as prefix and
 * not kept in memory, in a process group of its own (a Ctrl-C reaches only this script, which then
 * stops every process in order; see `ownProcessGroup`).
 */
function supervised(options: {
  name: string;
  entry: string;
  nodeArgs: string[];
  args?: string[];
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
}): NodeProcess {
  return new NodeProcess({
    ...options,
    env: { ...env, ...options.env },
    cwd: repoRoot,
    echo: true,
    keepOutput: false,
    ownProcessGroup: true,
  });
}

/** Stops everything this script started, once, then exits with `exitCode`. */
function shutdown(reason: string, exitCode: number): Promise<void> {
  stopping ??= (async () => {
    log(`stopping: ${reason}`);
    startUp.abort(); // a migration still running is killed too
    const results = await Promise.all(apps.map(async (app) => [app.name, await app.stop(STOP_GRACE_MS)] as const));
    for (const [name, result] of results) if (result === 'killed') log(`${name} ignored SIGTERM for ${STOP_GRACE_MS} ms; killed`);
    try {
      if (kafkaSource) stopKafkaStartedBy(kafkaSource, repoRoot);
    } catch (error) {
      log(`could not stop the Kafka broker: ${(error as Error).message}`);
      exitCode = 1;
    }
    try {
      await postgres?.stop();
    } catch (error) {
      log(`could not stop the embedded PostgreSQL: ${(error as Error).message}`);
      exitCode = 1;
    }
    log('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}

/**
 * An app under `node --watch` died. Before the stack is up, start-up fails at once, naming it (no
 * wait for a health check that cannot pass). Once up, it is reported loudly and the stack keeps
 * running: in watch mode the usual cause is a saved mistake, and the next save restarts the app.
 */
function appDiedUnderWatch(name: string): void {
  if (!up) {
    void shutdown(`${name} died during start-up (see its output above)`, 1);
    return;
  }
  console.error(
    `[start] ${name} DIED and is not serving (see its output above); node --watch restarts it when a file it uses changes. The stack is not fully up until then.`,
  );
}

/**
 * Keeps an app of the stack running: once the stack is up, an app that dies (a record that kills
 * its consumer, out of memory, a bug) is started again after a backoff ({@link RestartBackoff}: 1 s,
 * doubling to 30 s while it keeps dying), and the log says so; the rest of the stack goes on.
 * During start-up a death still stops the stack, naming the app, so a bad setting shows at once.
 */
function keepRunning(first: NodeProcess): void {
  const backoff = new RestartBackoff();
  const restartWhenItDies = (app: NodeProcess): void => {
    void app.exited.then(async (exit) => {
      if (stopping) return;
      if (!up) {
        await shutdown(`${app.name} exited unexpectedly during start-up (${describeExit(exit)})`, 1);
        return;
      }
      const { delayMs, deathsInARow } = backoff.afterDeath();
      log(`${app.name} exited unexpectedly (${describeExit(exit)}); restarting it in ${delayMs} ms (${deathsInARow} death(s) in a row)`);
      await sleep(delayMs);
      if (stopping) return;
      const next = app.respawn();
      apps[apps.indexOf(app)] = next;
      backoff.started();
      log(`${app.name} restarted`);
      restartWhenItDies(next);
    });
  };
  apps.push(first);
  restartWhenItDies(first);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void shutdown(`received ${signal}`, 0));
}
// Last resort for a crash of this script itself: the apps run in their own process groups and
// would otherwise outlive it, holding their ports.
process.on('exit', () => {
  apps.forEach((app) => app.kill('SIGKILL'));
  postgres?.signalStop();
});

async function start(): Promise<void> {
  postgres = await ensurePostgres(env.DATABASE_URL!, repoRoot, (message) => log(`Postgres: ${message}`), env);
  kafkaSource = await ensureKafka(env.KAFKA_BROKERS!.split(','), repoRoot);
  log(`Postgres at ${printableUrl(env.DATABASE_URL!)} (${postgres.source}); Kafka at ${env.KAFKA_BROKERS} (${kafkaSource})`);
  // Each app authenticates to Kafka as its own principal, with the ACLs ensureKafka created, unless
  // the environment names credentials of its own (a broker of the user's).
  const kafkaCredentials = usesLocalKafkaCredentials(env) ? localKafkaCredentials(env) : undefined;
  if (kafkaCredentials) log('Kafka: SASL/SCRAM, a principal per app (.local/kafka-credentials.properties), ACLs applied');
  // Topics and the group coordinator ready before the apps race to create them (their ERROR lines).
  if (kafkaCredentials) await prepareLocalTopics(env.KAFKA_BROKERS!.split(','), env);
  // Envelopes: each producing app signs with its own local key and each consumer gets only the
  // public keys of the producers it reads, unless the environment names a signing key of its own.
  // Public keys the environment holds (a tool's, for all producers) are not passed on: an app gets
  // exactly the keys it needs, and loyalty none.
  const signingEnvs = env.MESSAGE_SIGNING_KEY ? undefined : localSigningEnvs(env);
  if (signingEnvs) {
    delete env.MESSAGE_VERIFY_KEYS;
    log(`envelopes: signed with a key per producing app, verified with public keys (${localSigningKeysFile(env)})`);
  }
  // Tokens: the development issuer of this clone (key pair in .local/, JWKS and a client-credentials
  // endpoint on DEV_ISSUER_PORT), unless the environment names a real provider (AUTH_JWKS_URL).
  const { issuer, authEnv, external } = await localIssuer(env);
  if (external) log(`tokens: the provider of AUTH_JWKS_URL=${env.AUTH_JWKS_URL}`);
  else {
    const port = devIssuerPort(env);
    await assertPortFree(port, '127.0.0.1', `DEV_ISSUER_PORT=${port}`);
    await issuer.listen(port, '127.0.0.1');
    log(`tokens: development issuer at http://127.0.0.1:${port} (npm run -s token -- --sub c1)`);
  }

  const { present, absent } = partitionByPresence(repoRoot);
  for (const service of absent) log(`${service.name}: skipped, apps/${service.name}/src has no main.ts/migrate.ts yet`);
  const urls = new Map<string, string>();
  for (const service of present) {
    const port = servicePort(service, env);
    await assertPortFree(port, env.HTTP_HOST || '127.0.0.1', `${service.portVariable}=${port}`);
    urls.set(service.name, `http://127.0.0.1:${port}`);
  }
  await runMigrations(present, { env, cwd: repoRoot, signal: startUp.signal });
  if (stopping) return;

  if (watch) {
    // Before the apps: the watcher's first full compile rewrites every file, which would restart
    // each app under `node --watch` right after it started.
    const compiler = supervised({ name: 'build', entry: 'scripts/build.mjs', nodeArgs: [], args: ['--watch'] });
    apps.push(compiler);
    void compiler.exited.then((exit) => shutdown(`the compiler in watch mode exited (${describeExit(exit)})`, 1));
    await waitFor(() => existsSync(join(repoRoot, WATCH_READY_FILE)), {
      timeoutMs: 120_000,
      description: 'the first compile in watch mode',
    });
    if (stopping) return;
  }
  for (const service of present) {
    const principal = kafkaPrincipalOf(service.name);
    const app = supervised({
      name: service.name,
      entry: mainEntry(service),
      nodeArgs: NODE_ARGS,
      // Each app its own audience (DevIssuerClaims): a token for one API is refused by the others.
      env: {
        ...APP_PROCESS_ENV,
        DATABASE_NAME: localDatabaseName(service.name, env),
        ...authEnv[service.name],
        ...signingEnvs?.[service.name],
        ...(principal && kafkaCredentials ? kafkaSaslEnv(kafkaCredentials, principal) : {}),
      },
      onLine: (line) => {
        if (watch && WATCH_APP_FAILED.test(line)) appDiedUnderWatch(service.name);
      },
    });
    keepRunning(app);
  }
  await Promise.all(
    apps.filter((app) => urls.has(app.name)).map((app) => app.waitUntilHealthy(`${urls.get(app.name)}/health`, HEALTH_TIMEOUT_MS)),
  );
  if (stopping) return;
  up = true;

  const width = Math.max(...present.map((service) => service.name.length));
  console.log(
    [
      '',
      'Local stack is up:',
      ...present.map((service) => `  ${service.name.padEnd(width)}  ${urls.get(service.name)}`),
      'API documents: <url>/docs. Health: <url>/health. Metrics: <url>/metrics.',
      'Every API call needs a token: npm run -s token -- --sub c1 (a customer), --admin (may set stock).',
      ...(watch ? ['Watch mode: saved .ts files are recompiled and the apps that use them restart.'] : []),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

start().catch((error: unknown) => shutdown(`start-up failed: ${(error as Error).message}`, 1));
