import { silentLogger } from '@platform/logging';
import { Lifecycle } from './lifecycle';
import { startHttpServer } from './start-http-server';

describe('Lifecycle', () => {
  it('runs hooks in reverse order once, even when one fails', async () => {
    const order: string[] = [];
    const lifecycle = new Lifecycle(silentLogger);
    lifecycle.onShutdown('db', () => {
      order.push('db');
    });
    lifecycle.onShutdown('bus', async () => {
      order.push('bus');
      throw new Error('already closed');
    });
    lifecycle.onShutdown('http', () => {
      order.push('http');
    });
    await Promise.all([lifecycle.shutdown(), lifecycle.shutdown()]);
    expect(order).toEqual(['http', 'bus', 'db']);
  });
});

describe('startHttpServer', () => {
  it('binds an ephemeral port and closes', async () => {
    const running = await startHttpServer((_req, res) => res.end('hi'), '127.0.0.1', 0);
    expect(running.port).toBeGreaterThan(0);
    expect(await (await fetch(running.url)).text()).toBe('hi');
    await running.close(100);
    await expect(fetch(running.url)).rejects.toThrow();
  });
});
