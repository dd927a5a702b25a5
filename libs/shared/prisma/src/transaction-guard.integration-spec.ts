import { openDatabase } from './open-database';
import { describeOnScratchPostgres } from './scratch-database.testing';
import { describeTransactionGuard } from './transaction-guard.test-cases';

describeOnScratchPostgres('transactions that have ended, on Postgres', (scratch) => {
  describeTransactionGuard(
    () => openDatabase({ url: scratch().url, dataDir: 'unused' }),
    (db) => db.close(),
  );
});
