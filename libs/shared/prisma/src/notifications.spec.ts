import { describeNotifications } from './notifications.test-cases';
import { openDatabase } from './open-database';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(30_000);

describe('LISTEN/NOTIFY on PGlite', () => {
  describeNotifications(
    () => openDatabase({ dataDir: 'memory://' }),
    (db) => db.close(),
  );
});
