import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Prefix of the staging folder each writer process keeps under its temp directory. */
export const STAGING_PREFIX = 'export-parquet-';
const OWNER_FILE = 'owner.json';

/** Who a staging folder belongs to: the process, on the host it runs on, since when. */
interface Owner {
  host: string;
  pid: number;
  /** The process's start time as the kernel counts it (`/proc/<pid>/stat`), so a reused pid is not taken for it. */
  start?: string;
}

export interface StagingFolder {
  path: string;
  /**
   * Stops the heartbeat and removes the folder with everything in it. Until then, a process that exits (a second
   * signal, a failed stop, `process.exit` anywhere) removes it on its way out; only kill -9 or a crash leaves it, for
   * {@link removeDeadStagingFolders} of another process.
   */
  remove(): Promise<void>;
}

export interface StaleStagingOptions {
  /**
   * A folder of another host (a volume shared by machines) counts as dead once its heartbeat is this old. Default
   * 15 minutes; owners beat every {@link HEARTBEAT_MS}.
   */
  staleAfterMs?: number;
  /** A folder without an owner (made by a worker of an older version, which may still run) after this long: 1 day. */
  ownerlessAfterMs?: number;
  now?: () => number;
}

export const HEARTBEAT_MS = 60_000;

function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted from the state field that follows the parenthesised command name.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates this process's staging folder (`export-parquet-*`) under `dir`, with an owner file naming the process,
 * touched every minute while the process lives, so that a worker starting later can tell it from a dead one's.
 */
export async function createStagingFolder(dir: string): Promise<StagingFolder> {
  const path = await mkdtemp(join(dir, STAGING_PREFIX));
  const owner: Owner = { host: hostname(), pid: process.pid, start: startOf(process.pid) };
  const file = join(path, OWNER_FILE);
  await writeFile(file, JSON.stringify(owner));
  const beat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  // Synchronous: nothing asynchronous runs once the process is exiting. DuckDB threads may still write in it, hence
  // the retries (a file created while the folder is emptied makes its removal fail with ENOTEMPTY).
  const onExit = () => rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 10 });
  process.once('exit', onExit);
  return {
    path,
    remove: async () => {
      clearInterval(beat);
      await rm(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      process.removeListener('exit', onExit);
    },
  };
}

async function readOwner(path: string): Promise<{ owner?: Owner; beatAt: number } | undefined> {
  try {
    const file = join(path, OWNER_FILE);
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { owner: JSON.parse(text) as Owner, beatAt: info.mtimeMs };
  } catch {
    // No (readable) owner file: a folder of an older worker, or one killed while creating it.
    const info = await stat(path).catch(() => undefined);
    return info && { beatAt: info.mtimeMs };
  }
}

/**
 * Whether the folder's process is gone. On this host: its pid no longer runs, or runs another process (reused).
 * Elsewhere: its heartbeat stopped `staleAfterMs` ago; without an owner, the folder is `ownerlessAfterMs` old.
 */
function dead(found: { owner?: Owner; beatAt: number }, options: Required<StaleStagingOptions>): boolean {
  const { owner } = found;
  if (owner?.host === hostname() && Number.isInteger(owner.pid)) {
    if (!running(owner.pid)) return true;
    const start = startOf(owner.pid);
    return owner.start !== undefined && start !== undefined && start !== owner.start;
  }
  return options.now() - found.beatAt > (owner ? options.staleAfterMs : options.ownerlessAfterMs);
}

/**
 * Removes the staging folders under `dir` whose writer process died (kill -9, a crash, a lost machine) and so
 * never removed them; folders of live processes, on this host or another sharing the volume, are left alone.
 * Returns the folders removed.
 */
export async function removeDeadStagingFolders(dir: string, options: StaleStagingOptions = {}): Promise<string[]> {
  const settings = { staleAfterMs: 15 * HEARTBEAT_MS, ownerlessAfterMs: 24 * 3_600_000, now: Date.now, ...options };
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const path = join(dir, name);
    const found = await readOwner(path);
    if (!found || !dead(found, settings)) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** A sweep of {@link watchDeadStagingFolders}: what it removed, or why it could not look. */
export type StagingSweep = { removed: string[] } | { error: unknown };

/**
 * Sweeps `dir` at once and then every `intervalMs` for the staging folders of dead processes
 * ({@link removeDeadStagingFolders}), so that a worker killed with kill -9 leaves nothing for longer than an interval
 * while any other worker on the volume runs (not only until one restarts). Sweeps never overlap. Resolves after the
 * first sweep with the function that stops the watch (waiting for a sweep in progress).
 */
export async function watchDeadStagingFolders(
  dir: string,
  intervalMs: number,
  onSweep: (sweep: StagingSweep) => void,
  options: StaleStagingOptions = {},
): Promise<() => Promise<void>> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      onSweep({ removed: await removeDeadStagingFolders(dir, options) });
    } catch (error) {
      onSweep({ error });
    }
  };
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      sweeping = sweep().then(next);
    }, intervalMs);
    timer.unref();
  };
  await (sweeping = sweep());
  next();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await sweeping;
  };
}
