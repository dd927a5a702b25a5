import { Writable } from 'node:stream';
import { createLogger } from './logger';

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
