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
