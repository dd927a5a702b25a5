import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from './run-command';

const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('runCommand', () => {
  let dir: string;
  const options = (signal = new AbortController().signal) => ({ cwd: dir, env: { PATH: process.env.PATH }, signal, timeoutMs: 10_000 });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-command-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('returns the exit code and output, and names a command that does not exist', async () => {
    expect(await runCommand('echo hello; exit 3', [], { ...options(), shell: true })).toMatchObject({ code: 3, output: 'hello\n', timedOut: false, aborted: false });
    const missing = await runCommand('no-such-command-here', ['x'], options());
    expect(missing.code).toBe(127);
    expect(missing.output).toContain('ENOENT');
  });

  it('kills the whole process group on abort (children of the command included)', async () => {
    const controller = new AbortController();
    const running = runCommand('sleep 30 & echo $! > child.pid; wait', [], { ...options(controller.signal), shell: true });
    await until(() => fs.existsSync(path.join(dir, 'child.pid')) && fs.readFileSync(path.join(dir, 'child.pid'), 'utf8').trim() !== '');
    const child = Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf8'));
    expect(alive(child)).toBe(true);
    controller.abort();
    expect(await running).toMatchObject({ aborted: true });
    await until(() => !alive(child));
  });

  // The control plane killed with kill -9 mid-build: its build must not keep running (a successor would start the
  // same build beside it). Here the "control plane" is a node process running runCommand, killed with SIGKILL.
  it('kills the command when the process that started it dies, even by SIGKILL', async () => {
    const script = `require('./run-command').runCommand('sleep 30 & echo $! > child.pid; wait', [], { cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, signal: new AbortController().signal, timeoutMs: 60000, shell: true });`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: __dirname, stdio: 'ignore' });
    try {
      await until(() => fs.existsSync(path.join(dir, 'child.pid')) && fs.readFileSync(path.join(dir, 'child.pid'), 'utf8').trim() !== '', 30_000);
      const child = Number(fs.readFileSync(path.join(dir, 'child.pid'), 'utf8'));
      expect(alive(child)).toBe(true);
      parent.kill('SIGKILL');
      await until(() => !alive(child));
    } finally {
      parent.kill('SIGKILL');
    }
  }, 60_000);
});
