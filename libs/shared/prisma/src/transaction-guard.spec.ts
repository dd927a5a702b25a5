import { openDatabase } from './open-database';
import { describeTransactionGuard } from './transaction-guard.test-cases';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(30_000);

describe('transactions that have ended, on PGlite', () => {
  describeTransactionGuard(
    () => openDatabase({ dataDir: 'memory://' }),
    (db) => db.close(),
  );
});
