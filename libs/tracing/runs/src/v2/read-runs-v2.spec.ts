import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeReadRunsV2 } from './read-runs-v2.suite';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

describeReadRunsV2('v2 run reads on PGlite', async () => {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  return { db, drop: async () => undefined };
});
