import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStagingFolder, removeDeadStagingFolders } from './staging-folders';

/** A real process that makes its staging folder under `dir`, prints it, and stays until killed. */
function stagingProcess(dir: string): Promise<{ path: string; kill: () => Promise<void> }> {
  const code = `
    const { createStagingFolder } = require(${JSON.stringify(require.resolve('./staging-folders'))});
    createStagingFolder(${JSON.stringify(dir)}).then((folder) => process.stdout.write(folder.path + '\\n'));
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`staging process exited early (${code})`)));
    child.stdout.once('data', (chunk: Buffer) => {
      child.removeAllListeners('exit');
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({ path: chunk.toString().trim(), kill: () => (child.kill('SIGKILL'), exited) });
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
      mine.release();
      await survivor.kill();
    }
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
