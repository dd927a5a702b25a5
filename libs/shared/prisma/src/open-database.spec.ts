import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './open-database';
import { createScratchPostgresDatabase } from './scratch-database';

describe('openDatabase', () => {
  it('persists PGlite in dataDir, creating the directory', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pglite-'));
    const dataDir = path.join(root, 'nested', 'service');
    try {
      const first = await openDatabase({ dataDir });
      expect(first.kind).toBe('pglite');
      await first.exec('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7);');
      await first.close();

      const second = await openDatabase({ dataDir });
      expect(await second.query('SELECT id FROM kept')).toEqual([{ id: 7 }]);
      await second.close();
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('rolls back a PGlite transaction that throws', async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    await db.exec('CREATE TABLE t (id int)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES ($1)', [1]);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await db.query('SELECT * FROM t')).toEqual([]);
    await db.close();
  });

  // A run's statements follow one another for as long as it runs; meanwhile the server must go on answering (the
  // commands, the streams that follow the run). On Postgres each statement waits for its socket; PGlite answers from
  // WebAssembly without any I/O, so its statements have to give the event loop its turn themselves.
  it.each(process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])('lets the event loop turn between statements on %s, raw and through Prisma', async (kind) => {
    const scratch = kind === 'postgres' ? await createScratchPostgresDatabase(process.env.DATABASE_URL as string) : undefined;
    const db = await openDatabase({ url: scratch?.url, dataDir: 'memory://' });
    const prisma = await db.adapter.connect();
    try {
      const statements = [() => db.query('SELECT 1'), () => prisma.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] } as never)];
      for (const statement of statements) {
        let turned = false;
        setImmediate(() => (turned = true));
        for (let i = 0; i < 10; i++) await statement();
        expect(turned).toBe(true);
      }
    } finally {
      await prisma.dispose();
      await db.close();
      await scratch?.drop();
    }
  });

  it('uses Postgres for a postgres:// url without connecting until used', async () => {
    const db = await openDatabase({ url: 'postgres://nobody@127.0.0.1:1/none', dataDir: 'unused' });
    expect(db.kind).toBe('postgres');
    expect(db.adapter.adapterName).toBe('@prisma/adapter-pg');
    await db.close();
  });

  it('rejects a url that is not postgres', async () => {
    await expect(openDatabase({ url: 'mysql://x', dataDir: 'unused' })).rejects.toThrow(/postgres/);
  });
});
