// The official checkpointer conformance suite's initializer, run by `validate-checkpointer` (see
// tools/test/run.mjs): on a scratch Postgres database when DATABASE_URL is set, else on in-memory PGlite.
// The suite keeps one checkpointer alive at a time, so one database serves all of them, emptied per instance.
import type { CheckpointSaverTestInitializer } from '@langchain/langgraph-checkpoint-validation';
import { openAgentServerDatabase, type AgentServerDatabase } from '@platform/agent-server-data-access';
import { createScratchPostgresDatabase, type ScratchDatabase } from '@platform/prisma';
import { PrismaCheckpointSaver } from '../src';

let scratch: ScratchDatabase | undefined;
let db: AgentServerDatabase | undefined;

function database(): AgentServerDatabase {
  if (!db) throw new Error('conformance initializer: beforeAll did not open the database');
  return db;
}

const initializer: CheckpointSaverTestInitializer<PrismaCheckpointSaver> = {
  checkpointerName: '@platform/agent-server-checkpointer',
  beforeAllTimeout: 60_000,
  async beforeAll() {
    const adminUrl = process.env['DATABASE_URL'];
    scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
    db = await openAgentServerDatabase(scratch ? { url: scratch.url, dataDir: '' } : { dataDir: 'memory://' });
    await db.migrate();
  },
  async afterAll() {
    await db?.close();
    await scratch?.drop();
  },
  async createCheckpointer() {
    const { prisma } = database();
    await prisma.$executeRawUnsafe('TRUNCATE checkpoints, checkpoint_blobs, checkpoint_writes');
    return new PrismaCheckpointSaver(prisma);
  },
};

export default initializer;
