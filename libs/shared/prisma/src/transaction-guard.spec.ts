import { openDatabase } from './open-database';
import { describeTransactionGuard } from './transaction-guard.test-cases';

describe('transactions that have ended, on PGlite', () => {
  describeTransactionGuard(
    () => openDatabase({ dataDir: 'memory://' }),
    (db) => db.close(),
  );
});
