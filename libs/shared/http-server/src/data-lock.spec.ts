import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-lock';

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

describe('lockDataDir: one instance per data folder', () => {
  let dir: string;
  let holder: ChildProcess | undefined;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-lock-'))));
  afterEach(async () => {
    if (holder && holder.exitCode === null) {
      holder.kill('SIGKILL');
      await exited(holder);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a folder a live process holds, naming its pid and URL, and leaves its lock alone', () => {
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const other = { pid: holder.pid, url: 'http://127.0.0.1:8080', command: 'npm start', started: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(other));
    expect(() => lockDataDir(dir, { url: 'http://127.0.0.1:9090' })).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir, { url: 'http://127.0.0.1:9090' })).toThrow(`in use by another instance (pid ${holder.pid}, http://127.0.0.1:8080, npm start`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'))).toEqual(other);
  });

  it('takes over the lock of a process that is gone, and releases its own', async () => {
    holder = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const deadPid = holder.pid;
    await exited(holder);
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid, url: 'http://127.0.0.1:8080' }));
    const lock = lockDataDir(dir, { url: 'http://127.0.0.1:9090', command: 'test' });
    expect(JSON.parse(fs.readFileSync(lock.file, 'utf8'))).toMatchObject({ pid: process.pid, url: 'http://127.0.0.1:9090' });
    // This process holds it: a second taker in this process (a restart in place) gets it too; then it is released.
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it('creates the folder, and a second lock of a held folder fails until the first is released', () => {
    const nested = path.join(dir, 'a', 'b');
    const first = lockDataDir(nested, {});
    // Our own pid in the file: taken again by this process (the same instance), not refused.
    fs.writeFileSync(first.file, JSON.stringify({ pid: 1, url: 'http://init' }));
    expect(() => lockDataDir(nested, {})).toThrow(/pid 1, http:\/\/init/);
    fs.rmSync(first.file);
    const second = lockDataDir(nested, {});
    second.release();
    first.release();
  });
});
