import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStagingFolder, removeDeadStagingFolders, watchDeadStagingFolders, type StagingSweep } from './staging-folders';

/**
 * A real process that makes its staging folder under `dir`, prints it, and stays until killed; on SIGTERM it calls
 * `process.exit(1)` without removing the folder itself (as a failed stop or a second signal does).
 */
function stagingProcess(dir: string): Promise<{ path: string; kill: (signal?: NodeJS.Signals) => Promise<number | null> }> {
  const code = `
    const { createStagingFolder } = require(${JSON.stringify(require.resolve('./staging-folders'))});
    createStagingFolder(${JSON.stringify(dir)}).then((folder) => process.stdout.write(folder.path + '\\n'));
    process.on('SIGTERM', () => process.exit(1));
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`staging process exited early (${code})`)));
    child.stdout.once('data', (chunk: Buffer) => {
      child.removeAllListeners('exit');
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      resolve({ path: chunk.toString().trim(), kill: (signal = 'SIGKILL') => (child.kill(signal), exited) });
    });
  });
}

describe('staging folders of dead writer processes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'staging-spec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const folderOf = (name: string, owner?: object) => {
    const path = join(dir, name);
    mkdirSync(join(path, 'file-x'), { recursive: true });
    if (owner) writeFileSync(join(path, 'owner.json'), JSON.stringify(owner));
    return path;
  };

  it('removes the folder of a process killed with SIGKILL, and keeps those of live processes', async () => {
    const [victim, survivor] = await Promise.all([stagingProcess(dir), stagingProcess(dir)]);
    const mine = await createStagingFolder(dir);
    try {
      writeFileSync(join(victim.path, 'rows.ndjson'), '{}\n');
      await victim.kill();
      expect(existsSync(victim.path)).toBe(true);

      expect(await removeDeadStagingFolders(dir)).toEqual([victim.path]);
      expect(existsSync(victim.path)).toBe(false);
      expect(existsSync(survivor.path)).toBe(true);
      expect(existsSync(mine.path)).toBe(true);
    } finally {
      await mine.remove();
      await survivor.kill();
    }
    expect(existsSync(mine.path)).toBe(false);
  }, 60_000);

  it('is removed by its process on any exit but kill -9, and while it runs by a watch of another one', async () => {
    const exiting = await stagingProcess(dir);
    writeFileSync(join(exiting.path, 'rows.ndjson'), '{}\n');
    expect(await exiting.kill('SIGTERM')).toBe(1);
    expect(existsSync(exiting.path)).toBe(false);

    // A watch in this process: the folder of a process killed with SIGKILL goes at the next sweep.
    const sweeps: StagingSweep[] = [];
    let swept: (() => void) | undefined;
    const stop = await watchDeadStagingFolders(dir, 50, (sweep) => {
      sweeps.push(sweep);
      if ('removed' in sweep && sweep.removed.length) swept?.();
    });
    try {
      const victim = await stagingProcess(dir);
      const removed = new Promise<void>((resolve) => (swept = resolve));
      await victim.kill();
      await removed;
      expect(existsSync(victim.path)).toBe(false);
      expect(sweeps.filter((s) => 'removed' in s && s.removed.length)).toEqual([{ removed: [victim.path] }]);
      expect(sweeps.some((s) => 'error' in s)).toBe(false);
    } finally {
      await stop();
    }
    // Stopped: no sweep after it.
    const count = sweeps.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sweeps.length).toBe(count);
  }, 60_000);

  it('takes a reused pid for dead, trusts only heartbeats for other hosts, and leaves other folders alone', async () => {
    const reused = folderOf('export-parquet-reused', { host: hostname(), pid: process.pid, start: 'not-this-process' });
    const remote = folderOf('export-parquet-remote', { host: 'another-machine', pid: process.pid });
    const ownerless = folderOf('export-parquet-old');
    const unrelated = folderOf('something-else', { host: hostname(), pid: 999_999_999 });

    expect(await removeDeadStagingFolders(dir)).toEqual([reused]);
    expect([remote, ownerless, unrelated].every((p) => existsSync(p))).toBe(true);

    // Fifteen minutes without a heartbeat: the other machine's writer is gone; a day for a folder without an owner.
    const later = Date.now() + 16 * 60_000;
    expect(await removeDeadStagingFolders(dir, { now: () => later })).toEqual([remote]);
    const tomorrow = Date.now() + 25 * 3_600_000;
    expect(await removeDeadStagingFolders(dir, { now: () => tomorrow })).toEqual([ownerless]);
    expect(existsSync(unrelated)).toBe(true);
  });

  it('answers nothing for a directory that does not exist', async () => {
    expect(await removeDeadStagingFolders(join(dir, 'missing'))).toEqual([]);
  });
});
