import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { eventInModes, resumeFrom } from './run-responses';
import { SseWriter } from './sse';

describe('SseWriter', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.get('/stream', async (_req, res) => {
      const sse = new SseWriter(res, 40);
      sse.open({ Location: '/threads/t/runs/r/stream' });
      await sse.send({ event: 'metadata', data: '{"run_id":"r"}', id: 0 });
      await new Promise((resolve) => setTimeout(resolve, 150));
      await sse.send({ event: 'values|child:1', data: '{"a":[1,"two"]}', id: 1 });
      sse.end();
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('writes event, one data line and id per event, with heartbeats while idle and the given headers', async () => {
    const res = await fetch(`${url}/stream`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('location')).toBe('/threads/t/runs/r/stream');
    const text = await res.text();
    const blocks = text.split('\n\n').filter(Boolean);
    expect(blocks[0]).toBe('event: metadata\ndata: {"run_id":"r"}\nid: 0');
    expect(blocks.at(-1)).toBe('event: values|child:1\ndata: {"a":[1,"two"]}\nid: 1');
    const heartbeats = blocks.slice(1, -1);
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    expect(new Set(heartbeats)).toEqual(new Set([': heartbeat']));
  });
});

describe('stream helpers', () => {
  it('reads Last-Event-ID: absent → live, -1 → from the start, n → after n', () => {
    const req = (value?: string) => ({ get: () => value }) as never;
    expect(resumeFrom(req())).toBe('live');
    expect(resumeFrom(req('-1'))).toBe(-1);
    expect(resumeFrom(req('7'))).toBe(7);
    expect(resumeFrom(req('garbage'))).toBe('live');
  });

  it('filters joined events by the modes asked for, keeping metadata and errors', () => {
    expect(eventInModes('updates|sub:1', ['updates'])).toBe(true);
    expect(eventInModes('values', ['updates'])).toBe(false);
    expect(eventInModes('metadata', ['updates'])).toBe(true);
    expect(eventInModes('error', ['values'])).toBe(true);
    expect(eventInModes('messages', ['messages-tuple'])).toBe(true);
    expect(eventInModes('messages/partial', ['messages'])).toBe(true);
    expect(eventInModes('messages', ['messages'])).toBe(false);
    expect(eventInModes('custom', undefined)).toBe(true);
  });
});
