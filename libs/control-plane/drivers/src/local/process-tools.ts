import fs from 'node:fs';
import net from 'node:net';

/** Whether `pid` runs (a zombie, exited but not yet reaped by its parent, does not count). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Whether `pid` is still the process started as instance `instanceId` (and not a stranger that reused the pid):
 * its environment carries PLATFORM_INSTANCE_ID. Where /proc is missing, a live pid is taken as ours.
 */
export function isOurInstance(pid: number, instanceId: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`PLATFORM_INSTANCE_ID=${instanceId}`);
  } catch {
    return !fs.existsSync('/proc/self');
  }
}

/**
 * Whether `pid` was started with each of these variables (`NAME=value`); where /proc is missing, taken as so. An
 * instance started before the environment changed (a rotated platform secret changes DEPLOYMENT_KEY) does not.
 */
export function startedWith(pid: number, entries: string[]): boolean {
  try {
    const environ = new Set(fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'));
    return entries.every((entry) => environ.has(entry));
  } catch {
    return !fs.existsSync('/proc/self');
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops an instance started detached (its own process group): SIGTERM to the leader, which shuts down gracefully
 * (and passes it on, in the tsx case); after `graceMs` SIGKILL to the whole group.
 */
export async function stopProcessGroup(pid: number, graceMs: number): Promise<void> {
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  signal(-pid, 'SIGKILL');
  signal(pid, 'SIGKILL');
  while (isAlive(pid) && Date.now() < deadline + 5_000) await sleep(50);
}


export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The last lines of a log file, for a failure message. */
export function logTail(file: string, lines = 12): string {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    const length = Math.min(size, 8_192);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    fs.closeSync(fd);
    return buffer.toString('utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
