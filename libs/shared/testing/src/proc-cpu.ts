// CPU accounting for benchmarks and process tests, from Linux /proc: where a phase's CPU went (a process, a process
// and its children, every process of one name such as Postgres' backends, the whole machine). Off Linux, or for a
// process that is gone, every reading is 0.
import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  name: string;
  ppid: number;
  cpuSeconds: number;
}

function readStat(pid: number | string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(') ');
    const fields = stat.slice(close + 2).split(' ');
    return {
      pid: Number(pid),
      name: stat.slice(stat.indexOf('(') + 1, close),
      ppid: Number(fields[1]),
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

function allStats(): ProcStat[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => readStat(pid))
      .filter((stat): stat is ProcStat => stat !== undefined);
  } catch {
    return [];
  }
}

/** User + system CPU seconds of a process so far, 0 when unknown. */
export function processCpuSeconds(pid: number | undefined): number {
  return pid === undefined ? 0 : (readStat(pid)?.cpuSeconds ?? 0);
}

/** CPU seconds of a process and its live descendants (a launcher that runs the real server as its child). */
export function processTreeCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stats = allStats();
  const inTree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const stat of stats) {
      if (!inTree.has(stat.pid) && inTree.has(stat.ppid)) {
        inTree.add(stat.pid);
        grew = true;
      }
    }
  }
  return stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.cpuSeconds, 0);
}

/** CPU seconds so far of each live process with this name, by pid (e.g. `postgres`: the server and its backends). */
export function namedProcessesCpu(name: string): Map<number, number> {
  return new Map(allStats().filter((stat) => stat.name === name).map((stat) => [stat.pid, stat.cpuSeconds]));
}

/**
 * CPU seconds the processes of a `namedProcessesCpu` reading spent since an earlier reading: a process that started
 * in between counts whole, and one that exited in between adds nothing (its last reading is lost with it), so the
 * figure is never negative. Benchmarks keep the processes they measure (pooled connections) alive across a phase.
 */
export function cpuSecondsBetween(from: ReadonlyMap<number, number>, to: ReadonlyMap<number, number>): number {
  let seconds = 0;
  for (const [pid, cpu] of to) seconds += Math.max(0, cpu - (from.get(pid) ?? 0));
  return seconds;
}

/** Busy and total jiffies of all CPUs so far (/proc/stat). */
export interface MachineCpu {
  busy: number;
  total: number;
}

export function machineCpu(): MachineCpu {
  try {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = values[3] + (values[4] ?? 0);
    const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** How busy the machine was between two readings, in percent. */
export function busyPercent(from: MachineCpu, to: MachineCpu): number {
  return to.total > from.total ? (100 * (to.busy - from.busy)) / (to.total - from.total) : 0;
}
