import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeQueryRuns } from './query-runs.suite';

describeQueryRuns('queryRuns on PGlite', async () => {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  return { db, drop: async () => undefined };
});
