import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeQueryRuns } from './query-runs.suite';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describeQueryRuns('queryRuns on PGlite', async () => {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  return { db, drop: async () => undefined };
});
