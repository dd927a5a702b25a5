// A launcher's hold on the processes it starts: the tree below it (from /proc), a last-resort kill of that tree,
// and the watchdog a child runs so that it never outlives its launcher (node has no prctl(PR_SET_PDEATHSIG)).
import fs from 'node:fs';

/** The variable a launcher sets in its children's environment: its pid, which they watch (see watchParent). */
export const PARENT_PID_VARIABLE = 'PLATFORM_PARENT_PID';

interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses: read after the last ')'.
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' || state === 'X' };
  } catch {
    return undefined;
  }
}

function allProcesses(): ProcStat[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => readStat(Number(n)) ?? []);
}

/** Live processes below `root` (its children, theirs, ...), read from /proc; empty where there is no /proc. */
export function descendants(root: number): number[] {
  const children = new Map<number, ProcStat[]>();
  for (const p of allProcesses()) {
    if (p.zombie) continue;
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child.pid);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether `pid` runs (a zombie, exited but not yet reaped, does not). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = readStat(pid);
  return stat ? !stat.zombie : true;
}

const send = (target: number, signal: NodeJS.Signals) => {
  try {
    process.kill(target, signal);
  } catch {
    // Gone already.
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills every process below `root` with `signal`, and each process group one of them leads (children started
 * `detached` lead their own; what they start stays in it), then waits up to `timeoutMs` for them to be gone.
 * Resolves with the pids still alive then (none, normally).
 */
export async function killDescendants(root = process.pid, signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 5_000): Promise<number[]> {
  const own = readStat(root)?.pgid;
  const pids = descendants(root);
  for (const pid of pids) {
    const group = readStat(pid)?.pgid;
    if (group === pid && group !== own) send(-group, signal);
    send(pid, signal);
  }
  const deadline = Date.now() + timeoutMs;
  let left = pids.filter(processAlive);
  while (left.length && Date.now() < deadline) {
    await sleep(50);
    left = left.filter(processAlive);
  }
  return left;
}

/**
 * Calls `onGone` once when process `parentPid` is no longer alive, checked every `intervalMs`: a child started
 * by a launcher (PLATFORM_PARENT_PID) stops itself when the launcher dies, even by SIGKILL. Returns a function
 * that stops watching. The timer does not keep the process alive.
 */
export function watchParent(parentPid: number, onGone: () => void, intervalMs = 1_000): () => void {
  const timer = setInterval(() => {
    if (processAlive(parentPid)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The pid in PLATFORM_PARENT_PID, when set to one. */
export function parentPidFrom(env: Record<string, string | undefined>): number | undefined {
  const pid = Number(env[PARENT_PID_VARIABLE]);
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}
