import type { Database } from './database.types';
import { describeNotifications, eventually } from './notifications.test-cases';
import { openDatabase } from './open-database';
import { describeOnScratchPostgres } from './scratch-database.testing';

describeOnScratchPostgres('LISTEN/NOTIFY on Postgres', (scratch) => {
  describeNotifications(
    () => openDatabase({ url: scratch().url, dataDir: 'unused' }),
    (db) => db.close(),
  );

  it('listens again after its connection is killed, and says so', async () => {
    const db: Database = await openDatabase({ url: scratch().url, dataDir: 'unused' });
    try {
      const got: string[] = [];
      let reconnects = 0;
      const events: string[] = [];
      await db.listen('runs_test', {
        onNotify: (p) => got.push(p),
        onDisconnect: () => events.push('disconnect'),
        onReconnect: () => {
          reconnects++;
          events.push('reconnect');
        },
      });
      await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "runs_test"' AND pid <> pg_backend_pid()`);
      await eventually(() => reconnects === 1);
      expect(events).toEqual(['disconnect', 'reconnect']);
      await db.notify('runs_test', 'back');
      await eventually(() => got.includes('back'));
    } finally {
      await db.close();
    }
  });
});
