// Which operating-system processes make up "the loop" besides the three apps: the Postgres server
// (its postmaster, background workers and the backends of the run's own databases) and the Kafka
// broker(s) (whatever listens on the broker ports). Read from pg_stat_activity and /proc (Linux only),
// so the benchmark can count the CPU of every process an order costs, not only the Node ones.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import pg from 'pg';

/** The parent pid of `pid` (field 4 of /proc/<pid>/stat); undefined once it is gone. */
function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * The Postgres processes that serve the run: the postmaster, every background process (checkpointer,
 * WAL writer, autovacuum launcher: shared by every database, so a busy neighbour on the same server
 * inflates the figure) and the backends (and autovacuum workers) of `databases`. Backends of other
 * databases, such as another test run's, are left out.
 */
export async function postgresPids(serverUrl: string, databases: readonly string[]): Promise<number[]> {
  const client = new pg.Client({ connectionString: serverUrl, database: 'postgres', application_name: 'bench-process-discovery' });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number; datname: string | null; own: boolean }>(
      'SELECT pid, datname, pid = pg_backend_pid() AS own FROM pg_stat_activity',
    );
    const pids = rows.filter((row) => !row.own && (row.datname === null || databases.includes(row.datname))).map((row) => row.pid);
    const postmaster = rows.length > 0 ? parentPid(rows[0].pid) : undefined;
    return postmaster ? [postmaster, ...pids] : pids;
  } finally {
    await client.end();
  }
}

/** The socket inodes listening on `ports` on IPv4 or IPv6 (/proc/net/tcp{,6}, state 0A = LISTEN). */
function listeningInodes(ports: readonly number[]): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue;
      const port = Number.parseInt(fields[1].split(':').pop()!, 16);
      if (ports.includes(port)) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * The pids of the processes listening on `ports`: the broker JVMs behind `KAFKA_BROKERS`, one per
 * node of a local cluster. Reads every process's descriptors, so it runs once per run, not per sample.
 */
export function listeningPids(ports: readonly number[]): number[] {
  const inodes = listeningInodes(ports);
  const pids = new Set<number>();
  if (inodes.size === 0) return [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${descriptor}`));
        if (match && inodes.has(match[1])) {
          pids.add(Number(entry));
          break;
        }
      } catch {
        // A descriptor closed while we read: not a listener we lose, the next one is read.
      }
    }
  }
  return [...pids];
}

/** The ports of a `host:port,host:port` broker list. */
export function brokerPorts(brokers: readonly string[]): number[] {
  return brokers.map((broker) => Number(broker.split(':').pop())).filter((port) => Number.isInteger(port) && port > 0);
}
