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

describe('Lifecycle.start', () => {
  it('closes what was opened when start fails, and stops in reverse order when it succeeds', async () => {
    const closed: string[] = [];
    await expect(
      Lifecycle.start(silentLogger, async (lifecycle) => {
        await lifecycle.use('db', 'db', (r) => closed.push(r));
        throw new Error('port in use');
      }),
    ).rejects.toThrow('port in use');
    expect(closed).toEqual(['db']);

    closed.length = 0;
    const running = await Lifecycle.start(silentLogger, async (lifecycle) => {
      const db = await lifecycle.use('db', Promise.resolve('db'), (r) => closed.push(r));
      const http = await lifecycle.use('http', 'http', (r) => closed.push(r));
      return { url: `${db}+${http}` };
    });
    expect(running.url).toBe('db+http');
    await running.stop();
    expect(closed).toEqual(['http', 'db']);
  });
});
