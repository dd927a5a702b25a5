import { randomUUID } from 'node:crypto';
import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { openTestAgentServerDatabase, type TestAgentServerDatabase } from '@platform/agent-server-data-access/testing';
import type { RunKwargs } from './run';
import { insertRun, type NewRun } from './run-create.sql';
import { uuid7 } from './uuid7';

/** The Postgres server tests may create databases on, if any (REQUIRE_SERVICES=1 insists on one). */
export function testPostgresUrl(): string | undefined {
  const url = process.env['DATABASE_URL']?.trim();
  if (!url && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  return url || undefined;
}

/** A migrated agent-server database of the test's own (a scratch Postgres database with DATABASE_URL, else in-memory PGlite). */
export const openRunsTestDatabase: () => Promise<TestAgentServerDatabase> = openTestAgentServerDatabase;

export const testKwargs = (input: unknown = null): RunKwargs => ({
  input,
  config: { configurable: { graph_id: 'g' } },
  context: {},
  stream_mode: ['values'],
  temporary: false,
  subgraphs: false,
  resumable: false,
  on_disconnect: 'continue',
});

/** A thread row to run on. */
export async function createThreadRow(db: AgentServerDatabase): Promise<string> {
  const threadId = randomUUID();
  await db.sql.query(`INSERT INTO threads (thread_id) VALUES ($1::uuid)`, [threadId]);
  return threadId;
}

/** Inserts a run the way run creation does (multitask strategy applied, arrival order stamped). */
export function addRun(db: AgentServerDatabase, threadId: string, overrides: Partial<NewRun> = {}) {
  return insertRun(db.sql, {
    runId: uuid7(),
    threadId,
    assistantId: randomUUID(),
    graphId: 'g',
    metadata: { assistant: {}, request: {}, newThread: {} },
    kwargs: testKwargs(),
    configs: { assistant: {}, request: {} },
    multitaskStrategy: 'enqueue',
    afterMs: 0,
    thread: 'existing',
    temporaryThread: false,
    ...overrides,
  });
}
