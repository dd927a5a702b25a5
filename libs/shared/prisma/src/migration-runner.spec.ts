import { describeMigrationRunner } from './migration-runner.test-cases';
import { openDatabase } from './open-database';

describe('migrate on in-memory PGlite', () => {
  describeMigrationRunner(async () => {
    const db = await openDatabase({ dataDir: 'memory://' });
    // PGlite is one in-process connection: every "open" shares it.
    return { open: async () => db, dispose: () => db.close() };
  });
});
