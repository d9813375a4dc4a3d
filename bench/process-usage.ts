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
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Samples named processes while a run lasts: CPU at start and stop, RSS every `intervalMs` (its
 * peak is the run's peak; VmHWM would also count the start-up's).
 */
export class ProcessSampler {
  private readonly startCpu = new Map<string, number>();
  private readonly peakRss = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pids: Record<string, number>,
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      this.startCpu.set(name, cpuMs(pid));
      this.peakRss.set(name, rssMb(pid));
    }
    this.timer = setInterval(() => this.sampleRss(), this.intervalMs);
  }

  /** Per process: CPU ms used since {@link start}, and the peak RSS seen. */
  stop(): Record<string, { cpuMs: number; peakRssMb: number }> {
    clearInterval(this.timer);
    this.sampleRss();
    return Object.fromEntries(
      Object.entries(this.pids).map(([name, pid]) => [
        name,
        { cpuMs: cpuMs(pid) - this.startCpu.get(name)!, peakRssMb: this.peakRss.get(name)! },
      ]),
    );
  }

  private sampleRss(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const rss = rssMb(pid);
      if (Number.isFinite(rss)) this.peakRss.set(name, Math.max(this.peakRss.get(name) ?? 0, rss));
    }
  }
}
