import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeReadRunsV2 } from './read-runs-v2.suite';

describeReadRunsV2('v2 run reads on PGlite', async () => {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  return { db, drop: async () => undefined };
});
