// A Node process's CPU split between its main thread (JavaScript: gRPC, staging writes' callbacks, the S3 SDK) and
// every other thread (DuckDB's encoder, libuv's file-system pool, V8's GC helpers), from Linux /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuSeconds } from '@platform/testing';

// USER_HZ: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process's main thread so far (/proc/<pid>/task/<pid>/stat); 0 when unknown. */
export function mainThreadCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface ThreadCpu {
  /** The whole process, every thread (exited threads included). */
  total: number;
  main: number;
}

export function threadCpu(pid: number | undefined): ThreadCpu {
  return { total: processCpuSeconds(pid), main: mainThreadCpuSeconds(pid) };
}

export function threadCpuBetween(from: ThreadCpu, to: ThreadCpu): ThreadCpu {
  return { total: to.total - from.total, main: to.main - from.main };
}

/**
 * CPU seconds so far of each Postgres backend connected to `database`, by pid (its process title names the database):
 * unlike every `postgres` process, it leaves out other users of a shared server.
 */
export function databaseBackendsCpu(database: string): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) cpu.set(Number(entry), processCpuSeconds(Number(entry)));
    } catch {
      // gone in between
    }
  }
  return cpu;
}
