import { describeNotifications } from './notifications.test-cases';
import { openDatabase } from './open-database';

describe('LISTEN/NOTIFY on PGlite', () => {
  describeNotifications(
    () => openDatabase({ dataDir: 'memory://' }),
    (db) => db.close(),
  );
});
