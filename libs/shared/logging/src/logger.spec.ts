import { spawn } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, LOG_FLUSH_INTERVAL_MS } from './logger';

const ROOT = path.resolve(__dirname, '../../../..');

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('writes JSON lines with the service, level label, time and fields', () => {
    const { lines, stream } = capture();
    createLogger({ service: 'gateway', destination: stream }).child({ request_id: 'r1' }).info({ status: 200 }, 'done');
    expect(lines[0]).toMatchObject({ service: 'gateway', level: 'info', request_id: 'r1', status: 200, msg: 'done' });
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time);
  });

  it('redacts credentials', () => {
    const { lines, stream } = capture();
    createLogger({ service: 's', destination: stream }).info({ req: { headers: { 'x-api-key': 'lsv2_secret' } } }, 'r');
    expect(JSON.stringify(lines[0])).not.toContain('lsv2_secret');
  });

  it('honours the level', () => {
    const { lines, stream } = capture();
    const log = createLogger({ service: 's', level: 'warn', destination: stream });
    log.info('quiet');
    log.warn('loud');
    expect(lines.map((l) => l.msg)).toEqual(['loud']);
  });
});

describe('createLogger to stdout (batched)', () => {
  const LOGGER = path.join(__dirname, 'logger.ts');

  /** A process that logs with the default destination: `script` runs with `log` in scope. */
  function child(script: string) {
    const code = `const { createLogger } = require(${JSON.stringify(LOGGER)}); const log = createLogger({ service: 'batch' }); ${script}`;
    const proc = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    return { proc, exited, lines: () => output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
  }

  it('writes every line before a SIGTERM exit (process.exit after the signal, as runService does)', async () => {
    const c = child(`
      process.on('SIGTERM', () => process.exit(0));
      for (let i = 0; i < 5000; i++) log.info({ i }, 'request');
      setInterval(() => undefined, 1000);
      process.kill(process.pid, 'SIGTERM');`);
    expect(await c.exited).toBe(0);
    expect(c.lines().map((line) => line.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it('writes a lone line within the flush interval, while the process goes on', async () => {
    const c = child(`log.info('started'); setInterval(() => undefined, 1000);`);
    try {
      const started = Date.now();
      while (c.lines().length === 0 && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_INTERVAL_MS));
      expect(c.lines().map((line) => line.msg)).toEqual(['started']);
      expect(c.proc.exitCode).toBeNull();
    } finally {
      c.proc.kill('SIGKILL');
      await c.exited;
    }
  });
});
