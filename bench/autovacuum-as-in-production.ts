// Autovacuum as production runs it, for the length of a bench run. This machine's Postgres runs
// with `autovacuum = off` (a CI setting); a bench on it measures tables that only grow, and the
// figures taken last in a run (overload, drain) paid for the dead tuples of every run before.
import pg from 'pg';

/** Whether autovacuum ran during a run, and whether the server's setting was put back afterwards. */
export interface AutovacuumState {
  on: boolean;
  wasOn: boolean;
  restored: boolean;
  note: string;
}

/**
 * Turns the server's autovacuum on for a run when it is off (a per-table `autovacuum_enabled = on`
 * does nothing while the server's is off). `autovacuum` is a sighup setting: `ALTER SYSTEM` plus
 * `pg_reload_conf()` applies it without a restart. The bench connects as a superuser; without the
 * privilege the state says autovacuum stayed off. Returns how to restore the server's setting:
 * `restore()` puts it back once however often it is called (the end of a run and its Ctrl-C
 * clean-up both call it), never rejects, logs a failure, and records the outcome in `state.restored`.
 */
export async function autovacuumAsInProduction(
  serverUrl: string,
  log: (text: string) => void,
): Promise<{ state: AutovacuumState; restore: () => Promise<boolean> }> {
  const client = new pg.Client({ connectionString: serverUrl, application_name: 'bench-autovacuum' });
  await client.connect();
  const show = async () => (await client.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum === 'on';
  try {
    const wasOn = await show();
    if (wasOn) return { state: { on: true, wasOn, restored: true, note: 'autovacuum was already on' }, restore: async () => true };
    const [{ sourcefile }] = (
      await client.query<{ sourcefile: string | null }>("SELECT sourcefile FROM pg_settings WHERE name = 'autovacuum'")
    ).rows;
    const setInAutoConf = sourcefile?.endsWith('postgresql.auto.conf') ?? false;
    await client.query('ALTER SYSTEM SET autovacuum = on');
    await client.query('SELECT pg_reload_conf()');
    // The postmaster re-reads the file asynchronously; a new session sees the new value.
    let on = false;
    for (let attempt = 0; attempt < 50 && !on; attempt += 1) {
      const probe = new pg.Client({ connectionString: serverUrl, application_name: 'bench-autovacuum' });
      await probe.connect();
      on = (await probe.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum === 'on';
      await probe.end();
      if (!on) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const state: AutovacuumState = {
      on,
      wasOn,
      restored: false,
      note: on
        ? 'the server had autovacuum = off: turned on for this run (ALTER SYSTEM SET autovacuum = on; pg_reload_conf()), restored afterwards'
        : 'the server has autovacuum = off and it could not be turned on: tables only grew during this run',
    };
    const putBack = async () => {
      const again = new pg.Client({ connectionString: serverUrl, application_name: 'bench-autovacuum' });
      await again.connect();
      try {
        await again.query(setInAutoConf ? 'ALTER SYSTEM SET autovacuum = off' : 'ALTER SYSTEM RESET autovacuum');
        await again.query('SELECT pg_reload_conf()');
        return true;
      } finally {
        await again.end();
      }
    };
    let restoring: Promise<boolean> | undefined;
    const restore = () =>
      (restoring ??= putBack().then(
        (restored) => (state.restored = restored),
        (error: Error) => {
          log(`autovacuum NOT restored: ${error.message}`);
          return (state.restored = false);
        },
      ));
    return { state, restore };
  } catch (error) {
    return {
      state: {
        on: false,
        wasOn: false,
        restored: true,
        note: `autovacuum could not be checked or turned on (${(error as Error).message}): tables only grew during this run`,
      },
      restore: async () => true,
    };
  } finally {
    await client.end();
  }
}
