// One pooled database and its LISTEN connection on a scratch Postgres that is restarted and stopped: the pool
// reconnects, LISTEN is taken up again and subscribers are told to re-read (onReconnect), a transaction cut before
// its COMMIT runs again, and while the server is down statements fail fast with ServiceUnavailableError.
import { ServiceUnavailableError } from '@platform/errors';
import { openDatabase, type Database } from '@platform/prisma';
import { scratchPostgresAvailable, startScratchPostgresCluster, type ScratchPostgresCluster } from '@platform/testing';

jest.setTimeout(120_000);

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

(scratchPostgresAvailable('Postgres restart tests') ? describe : describe.skip)('a database whose server restarts', () => {
  let cluster: ScratchPostgresCluster;
  let db: Database;

  beforeAll(async () => {
    cluster = await startScratchPostgresCluster();
    db = await openDatabase({ url: cluster.url, dataDir: '' });
    await db.exec('CREATE TABLE ticks (n int)');
  });

  afterAll(async () => {
    await db?.close();
    await cluster?.destroy();
  });

  it.each(['fast', 'immediate'] as const)('re-listens after restart -m %s, tells subscribers to resync, and delivers again', async (mode) => {
    const heard: string[] = [];
    let reconnects = 0;
    let disconnects = 0;
    const unlisten = await db.listen(`faults_${mode}`, {
      onNotify: (payload) => heard.push(payload),
      onDisconnect: () => disconnects++,
      onReconnect: () => reconnects++,
    });
    await cluster.restart(mode);
    await until(() => reconnects > 0, 20_000);
    expect(disconnects).toBeGreaterThan(0);
    await db.notify(`faults_${mode}`, 'after');
    await until(() => heard.includes('after'), 10_000);
    await unlisten();
  });

  it('runs again a transaction whose session the server ended (57P01) before COMMIT, once', async () => {
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts++;
      await tx.query('INSERT INTO ticks (n) VALUES ($1)', [attempts]);
      if (attempts === 1) {
        // What a fast shutdown does to every session, here to this one alone (from another pooled connection).
        const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await db.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.query('SELECT 1');
      }
    });
    expect(attempts).toBe(2);
    expect(await db.query<{ n: number }>('SELECT n FROM ticks')).toEqual([{ n: 2 }]);
  });

  it('fails fast with ServiceUnavailableError while the server is down, and serves again once it is back', async () => {
    await cluster.stop('fast');
    const started = Date.now();
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(6_000);
    await cluster.start();
    await expect(db.query<{ one: number }>('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });
});
