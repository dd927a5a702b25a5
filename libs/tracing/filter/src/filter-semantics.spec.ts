import { openTracingDatabase } from '@platform/tracing-data-access';
import { describeFilterSemantics } from './filter-semantics.suite';

describeFilterSemantics('compiled filters on PGlite', async () => {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  return { db, drop: async () => undefined };
});
