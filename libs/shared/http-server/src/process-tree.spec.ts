import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { descendants, killDescendants, PARENT_PID_VARIABLE, processAlive } from './process-tree';

const FIXTURE = path.join(__dirname, 'testing', 'watched-service.fixture.ts');
const ROOT = path.resolve(__dirname, '../../../..');

/** Polls `check` every 100 ms until it holds or `timeoutMs` passes; resolves with its last answer. */
async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return check();
}

function outputOf(child: ChildProcess) {
  let text = '';
  child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  return () => text;
}

describe('the process tree of a launcher', () => {
  const started: ChildProcess[] = [];
  const strays: number[] = [];
  afterEach(async () => {
    for (const child of started) if (child.pid) await killDescendants(child.pid);
    for (const child of started.splice(0)) child.kill('SIGKILL');
    for (const pid of strays.splice(0)) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('finds processes below a pid, those in process groups of their own included, and kills them all', async () => {
    // parent -> detached child (its own group) -> grandchild in that group.
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', "require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); setInterval(() => {}, 1000)"], { detached: true, stdio: 'ignore' });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    started.push(parent);
    let below: number[] = [];
    expect(await eventually(() => (below = descendants(parent.pid as number)).length === 2, 20_000)).toBe(true);
    expect(below.every(processAlive)).toBe(true);

    expect(await killDescendants(parent.pid as number, 'SIGKILL', 10_000)).toEqual([]);
    expect(below.some(processAlive)).toBe(false);
    expect(processAlive(parent.pid as number)).toBe(true);
  }, 60_000);

  it('a service started with PLATFORM_PARENT_PID stops itself (gracefully) when that process dies by SIGKILL', async () => {
    const script = `
      const child = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(FIXTURE)}], {
        cwd: ${JSON.stringify(ROOT)}, env: { ...process.env, ${PARENT_PID_VARIABLE}: String(process.pid) }, detached: true, stdio: ['ignore', 'inherit', 'inherit'],
      });
      process.stdout.write('child ' + child.pid + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(parent);
    const output = outputOf(parent);
    expect(await eventually(() => output().includes('watched-service started'), 60_000)).toBe(true);
    const childPid = Number(output().match(/child (\d+)/)?.[1]);
    strays.push(childPid);
    expect(processAlive(childPid)).toBe(true);

    parent.kill('SIGKILL');
    // The watchdog looks every second; a loaded machine gets some slack.
    expect(await eventually(() => !processAlive(childPid), 30_000)).toBe(true);
    // It stopped as on SIGTERM (its stop ran), and said why; its stdout is the pipe the dead parent shared with it.
    expect(await eventually(() => output().includes('watched-service stopped'), 5_000)).toBe(true);
    expect(output()).toContain(`its launcher (pid ${parent.pid}) is gone; stopping`);
  }, 120_000);
});
