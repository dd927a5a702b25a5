// One running instance per data folder: `npm start` (DATA_DIR), `agent-platform up` (.agent-platform/) and
// `agent-platform dev` (.langgraph_api/) hold a lock file there before they open a database or a port.
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from './process-tree';

export const LOCK_FILE = 'instance.lock';

export interface LockHolder {
  pid: number;
  /** Where the instance answers (its gateway, its API). */
  url?: string;
  /** What holds it: `npm start`, `agent-platform dev`, ... */
  command?: string;
  started?: string;
}

/** Another live process holds the folder. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${dir} is in use by another instance (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}${holder.command ? `, ${holder.command}` : ''}` +
        `${holder.started ? `, since ${holder.started}` : ''}): stop it first, or give this one a data folder of its own`,
    );
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return Number.isInteger(parsed.pid) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface DataDirLock {
  file: string;
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

/**
 * Takes `<dir>/instance.lock` for this process (creating `dir`), or throws DataDirLockedError naming the live
 * instance that holds it. A lock left by a process that is gone (or unreadable) is taken over. The lock is released
 * when this process exits.
 */
export function lockDataDir(dir: string, holder: Omit<LockHolder, 'pid' | 'started'>): DataDirLock {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, ...holder, started: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw err;
    }
    const current = readHolder(file);
    if (current && current.pid !== process.pid && processAlive(current.pid)) throw new DataDirLockedError(dir, current);
    // Unreadable and new: its writer may be between create and write; look again shortly.
    if (!current && attempt < 4 && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 2_000) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      continue;
    }
    // Stale (its process is gone) or unreadable: take it over. Two takers race on `wx`; one wins.
    fs.rmSync(file, { force: true });
  }
  const release = () => {
    if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return { file, release };
}
