import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, withoutRedaction } from './logger';

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

describe('withoutRedaction', () => {
  it('writes the lines the logger writes, to its destination, with its bindings and level', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 'gateway', level: 'warn', destination: stream }).child({ component: 'http' });
    const fields = { request_id: 'r1', method: 'GET', path: '/ok?x="1"', status: 200, duration_ms: 3 };
    logger.warn(fields, 'request');
    const plain = withoutRedaction(logger);
    plain.info(fields, 'quiet');
    plain.warn(fields, 'request');
    expect(lines).toHaveLength(2);
    const [redacting, unredacted] = lines.map(({ time, ...rest }) => (expect(new Date(String(time)).toISOString()).toBe(time), rest));
    expect(unredacted).toEqual(redacting);
    expect(Object.keys(unredacted)).toEqual(Object.keys(redacting));
  });

  it('leaves the logger it was made from redacting', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ service: 's', destination: stream });
    withoutRedaction(logger);
    logger.info({ req: { headers: { authorization: 'Bearer secret' } } }, 'r');
    expect(JSON.stringify(lines[0])).not.toContain('Bearer secret');
  });
});

/** Runs `body` in a node process with `createLogger` in scope (`log`, a logger of service `child`). */
function loggingProcess(body: string) {
  const script = `const log = require('./logger').createLogger({ service: 'child' }); ${body}`;
  return [process.execPath, ['--import', 'tsx', '-e', script], { cwd: __dirname }] as const;
}

describe('createLogger to standard output', () => {
  it('has written every line to a file when the call returns: a process killed at once loses none', () => {
    const [node, args, options] = loggingProcess(`for (let i = 0; i < 2000; i++) log.info({ i }, 'line'); process.kill(process.pid, 'SIGKILL');`);
    const dir = mkdtempSync(path.join(tmpdir(), 'logger-'));
    try {
      const out = openSync(path.join(dir, 'out.log'), 'w');
      const child = spawnSync(node, args, { ...options, stdio: ['ignore', out, 'inherit'] });
      closeSync(out);
      expect(child.signal).toBe('SIGKILL');
      const text = readFileSync(path.join(dir, 'out.log'), 'utf8');
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as { i: number; service: string });
      expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
      expect(lines[0].service).toBe('child');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('goes on when the reader of its output went away (EPIPE)', async () => {
    const [node, args, options] = loggingProcess(
      `setTimeout(() => { for (let i = 0; i < 20000; i++) log.info({ i }, 'into a closed pipe'); process.stderr.write('still here'); }, 500);`,
    );
    const child = spawn(node, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toBe('still here');
    expect(code).toBe(0);
  }, 30_000);
});
