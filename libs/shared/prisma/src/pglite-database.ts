import fs from 'node:fs/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Database, SqlRunner } from './database.types';
import { createPgliteAdapter, nextTurn } from './pglite-adapter';
import { checkedChannel } from './notification-channel';

// Each statement answers on a turn of the event loop of its own (see nextTurn).
function runner(client: PGlite | Transaction): SqlRunner {
  return {
    exec: async (sql) => {
      await client.exec(sql).finally(nextTurn);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query<Row>(sql, params).finally(nextTurn)).rows,
  };
}

/**
 * Opens PGlite persisted in `dataDir` (created if missing), or in memory for `memory://`.
 * PGlite is a single connection, so a "session" is the instance itself.
 */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) await fs.mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(inMemory ? undefined : dataDir);
  // Advisory locks are re-entrant within one session and PGlite has only one, so sessions (e.g. two
  // migration runs) are queued here instead.
  let queue: Promise<unknown> = Promise.resolve();
  const self: Database = {
    kind: 'pglite',
    adapter: createPgliteAdapter(pglite),
    ...runner(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(runner(tx))),
    withSession: (fn) => {
      const run = queue.then(() => fn(self));
      queue = run.catch(() => undefined);
      return run;
    },
    // PGlite delivers NOTIFY to listeners of the same instance; there is no connection to lose.
    listen: async (channel, handler) => {
      const unlisten = await pglite.listen(checkedChannel(channel), (payload) => handler.onNotify(payload ?? ''));
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    notify: async (channel, payload) => {
      await pglite.query('SELECT pg_notify($1, $2)', [checkedChannel(channel), payload]);
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
    },
  };
  return self;
}
