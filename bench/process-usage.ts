// CPU time and resident memory of the spawned app processes, read from /proc (Linux only).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (almost always 100). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU milliseconds `pid` has used so far; `NaN` once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return ((utime + stime) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Current resident set size of `pid` in MB (VmRSS); `NaN` once it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Finds a group's current pids; called at the start, the end and about once a second between. */
export type PidSource = () => number[] | Promise<number[]>;

/**
 * Samples named groups of processes while a run lasts. CPU: every pid's user + system time, from its
 * first sight (0 for a process born during the run, such as a new Postgres backend) to its last
 * (a process that exits keeps what it used until its last sample). RSS: the group's summed
 * resident memory every `intervalMs`, and its peak (VmHWM would also count the start-up's).
 */
export class ProcessSampler {
  private readonly firstCpu = new Map<string, Map<number, number>>();
  private readonly lastCpu = new Map<string, Map<number, number>>();
  private readonly current = new Map<string, number[]>();
  private readonly peakRss = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private discovery: NodeJS.Timeout | undefined;
  private started = false;

  /** `groups`: a fixed pid per name (an app process), or a source that finds a changing set. */
  constructor(
    private readonly groups: Record<string, number | PidSource>,
    private readonly intervalMs = 250,
    private readonly discoveryIntervalMs = 1000,
  ) {}

  async start(): Promise<void> {
    await this.discover();
    this.started = true;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.discovery = setInterval(() => void this.discover().catch(() => undefined), this.discoveryIntervalMs);
  }

  /** Per group: CPU ms used since {@link start}, and the peak RSS seen. */
  async stop(): Promise<Record<string, { cpuMs: number; peakRssMb: number }>> {
    clearInterval(this.timer);
    clearInterval(this.discovery);
    await this.discover().catch(() => undefined);
    this.sample();
    return Object.fromEntries(
      Object.keys(this.groups).map((name) => {
        const first = this.firstCpu.get(name) ?? new Map<number, number>();
        const last = this.lastCpu.get(name) ?? new Map<number, number>();
        let used = 0;
        for (const [pid, at] of last) used += at - (first.get(pid) ?? 0);
        return [name, { cpuMs: last.size > 0 ? used : Number.NaN, peakRssMb: this.peakRss.get(name) ?? Number.NaN }];
      }),
    );
  }

  private async discover(): Promise<void> {
    for (const [name, source] of Object.entries(this.groups)) {
      const pids = typeof source === 'number' ? [source] : await source();
      const first = this.firstCpu.get(name) ?? new Map<number, number>();
      this.firstCpu.set(name, first);
      for (const pid of pids) {
        if (first.has(pid)) continue;
        // Seen at the start: count from now. Born during the run: count all it has used.
        const cpu = this.started ? 0 : cpuMs(pid);
        if (Number.isFinite(cpu)) first.set(pid, cpu);
      }
      this.current.set(name, pids);
    }
  }

  private sample(): void {
    for (const name of Object.keys(this.groups)) {
      const last = this.lastCpu.get(name) ?? new Map<number, number>();
      this.lastCpu.set(name, last);
      let rss = 0;
      let alive = 0;
      for (const pid of this.current.get(name) ?? []) {
        const cpu = cpuMs(pid);
        if (Number.isFinite(cpu) && this.firstCpu.get(name)?.has(pid)) last.set(pid, cpu);
        const resident = rssMb(pid);
        if (Number.isFinite(resident)) {
          rss += resident;
          alive += 1;
        }
      }
      if (alive > 0) this.peakRss.set(name, Math.max(this.peakRss.get(name) ?? 0, rss));
    }
  }
}
