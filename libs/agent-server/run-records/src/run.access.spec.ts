import { randomUUID } from 'node:crypto';
import { parseAccessFilter, type AuthCaller } from '@platform/agent-server-auth';
import type { AgentServerDatabase } from '@platform/agent-server-data-access';
import { NotFoundError } from '@platform/errors';
import { buildRunKwargs, newRunMetadata, requestConfig } from './run-kwargs';
import { runCreateSchema } from './run-request.schema';
import { createRunRepository, type RunRepository } from './run.repository';
import { searchRuns } from './run-search';
import { addRun, openRunsTestDatabase } from './run-records.testing';

const ann = parseAccessFilter({ owner: 'ann' });
const caller: AuthCaller = { user: { identity: 'ann', display_name: 'Ann', is_authenticated: true, permissions: ['write'], team: 'x' }, permissions: ['write'] };

describe("runs under the deployment's auth (Postgres with DATABASE_URL, else PGlite)", () => {
  let db: AgentServerDatabase;
  let close: () => Promise<void>;
  let runs: RunRepository;

  beforeAll(async () => {
    ({ db, close } = await openRunsTestDatabase());
    runs = createRunRepository(db.sql);
  });
  afterAll(() => close?.());

  const threadOf = async (owner: string) => {
    const threadId = randomUUID();
    await db.sql.query(`INSERT INTO threads (thread_id, metadata) VALUES ($1::uuid, $2::jsonb)`, [threadId, JSON.stringify({ owner })]);
    return threadId;
  };
  const metadataOf = async (threadId: string) =>
    (await db.sql.query<{ metadata: Record<string, unknown> }>(`SELECT metadata FROM threads WHERE thread_id = $1::uuid`, [threadId]))[0]?.metadata;

  it('puts the caller in the run config, as LangGraph does, over what the request says', () => {
    const request = runCreateSchema.parse({ assistant_id: 'a', config: { configurable: { langgraph_auth_user_id: 'mallory', model: 'm' } } });
    const kwargs = buildRunKwargs({ assistant_id: 'a1', graph_id: 'g', config: {} }, request, { runId: 'r', threadId: 't', temporary: false }, caller);
    expect(kwargs.config.configurable).toEqual({
      model: 'm',
      langgraph_auth_user: caller.user,
      langgraph_auth_user_id: 'ann',
      langgraph_auth_permissions: ['write'],
      user_id: 'ann',
      run_id: 'r',
      thread_id: 't',
      assistant_id: 'a1',
      graph_id: 'g',
    });
    const own = buildRunKwargs({ assistant_id: 'a1', graph_id: 'g', config: { configurable: { user_id: 'u1' } } }, request, { runId: 'r', threadId: 't', temporary: false }, caller);
    expect(own.config.configurable['user_id']).toBe('u1');
    expect(buildRunKwargs({ assistant_id: 'a1', graph_id: 'g', config: {} }, request, { runId: 'r', threadId: 't', temporary: false }).config.configurable).not.toHaveProperty(
      'langgraph_auth_user',
    );
  });

  it("gives the run's thread the caller in its config, as LangGraph stamps the request's config", () => {
    const request = runCreateSchema.parse({ assistant_id: 'a', config: { tags: ['t'], configurable: { model: 'm', langgraph_auth_user_id: 'mallory' } } });
    expect(requestConfig(request, caller)).toEqual({
      tags: ['t'],
      configurable: { model: 'm', langgraph_auth_user: caller.user, langgraph_auth_user_id: 'ann', langgraph_auth_permissions: ['write'] },
    });
    expect(requestConfig(request)).toEqual(request.config);
  });

  it('creates a run only on a thread the filter lets through; a hidden one is not found, even with if_not_exists', async () => {
    const mine = await threadOf('ann');
    const theirs = await threadOf('bob');
    expect((await addRun(db, mine, { visible: ann })).run.thread_id).toBe(mine);
    await expect(addRun(db, theirs, { visible: ann })).rejects.toThrow(new NotFoundError(`Thread with ID ${theirs} not found`));
    await expect(addRun(db, theirs, { visible: ann, thread: 'create' })).rejects.toThrow(NotFoundError);
    expect(await runs.list(theirs, { limit: 10, offset: 0 })).toEqual([]);
  });

  it("gives the run, and a thread it creates, the run's metadata as the handler left it", async () => {
    const assistant = { assistant_id: randomUUID(), graph_id: 'g', config: {}, metadata: { team: 'x' } };
    const request = runCreateSchema.parse({ assistant_id: 'g', metadata: { purpose: 'x', owner: 'mallory' } });
    // The handler's metadata replaces the request's (it may drop keys too).
    const metadata = newRunMetadata(assistant, request, { owner: 'ann' });
    expect(metadata).toEqual({ assistant: { team: 'x' }, request: { owner: 'ann' }, newThread: { graph_id: 'g', assistant_id: assistant.assistant_id, owner: 'ann' } });
    expect(newRunMetadata(assistant, request).request).toEqual({ purpose: 'x', owner: 'mallory' });

    const created = randomUUID();
    const run = await addRun(db, created, { visible: ann, thread: 'create', metadata, assistantId: assistant.assistant_id });
    expect(await metadataOf(created)).toEqual(metadata.newThread);
    expect(run.run.metadata).toEqual({ team: 'x', owner: 'ann' });
    const stateless = await addRun(db, randomUUID(), { thread: 'new', metadata, assistantId: assistant.assistant_id });
    expect(await metadataOf(stateless.run.thread_id)).toEqual(metadata.newThread);
  });

  it('reads, lists, deletes and cancels only runs of threads the filter lets through', async () => {
    const mine = await threadOf('ann');
    const theirs = await threadOf('bob');
    const myRun = (await addRun(db, mine)).run;
    const theirRun = (await addRun(db, theirs)).run;

    expect((await runs.get(mine, myRun.run_id, ann)).run_id).toBe(myRun.run_id);
    await expect(runs.get(theirs, theirRun.run_id, ann)).rejects.toThrow(new NotFoundError('Run not found'));
    expect(await runs.find(theirRun.run_id, undefined, ann)).toBeNull();
    expect((await runs.list(mine, { limit: 10, offset: 0 }, ann)).map((r) => r.run_id)).toEqual([myRun.run_id]);
    await expect(runs.list(theirs, { limit: 10, offset: 0 }, ann)).rejects.toThrow(new NotFoundError(`Thread with ID ${theirs} not found`));
    expect(await runs.threadExists(theirs, ann)).toBe(false);
    expect(await runs.threadExists(theirs)).toBe(true);

    const cancelled = await runs.cancel({ runIds: [myRun.run_id, theirRun.run_id], status: 'all', visible: ann }, 'interrupt');
    expect(cancelled.map((r) => r.run_id)).toEqual([myRun.run_id]);
    await expect(runs.delete(theirs, theirRun.run_id, ann)).rejects.toThrow(NotFoundError);
    await runs.delete(mine, myRun.run_id, ann);
    expect(await runs.find(myRun.run_id)).toBeNull();
    expect((await runs.find(theirRun.run_id))?.status).toBe('pending');
  });

  it("searches an assistant's runs (A2A ListTasks) only on threads the filter lets through", async () => {
    const assistantId = randomUUID();
    const mine = (await addRun(db, await threadOf('ann'), { assistantId })).run;
    const theirs = (await addRun(db, await threadOf('bob'), { assistantId })).run;

    const all = await searchRuns(db.sql, { assistantId, limit: 10 });
    expect(all.runs.map((r) => r.run_id).sort()).toEqual([mine.run_id, theirs.run_id].sort());
    const visible = await searchRuns(db.sql, { assistantId, limit: 1 }, ann);
    expect(visible).toMatchObject({ runs: [{ run_id: mine.run_id }], next: null, total: 1 });
    expect(await searchRuns(db.sql, { assistantId, threadId: theirs.thread_id, limit: 10 }, ann)).toMatchObject({ runs: [], total: 0 });
  });
});
