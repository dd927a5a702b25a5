import { randomUUID } from 'node:crypto';
import { systemAssistantId } from '@platform/agent-server-assistants';
import { parseAccessFilter, type AuthCaller } from '@platform/agent-server-auth';
import { InputError, NotFoundError } from '@platform/errors';
import { createCron, type CreateCronInput } from './create-cron.usecase';
import { openCronsFixture, type CronsFixture } from './crons.testing';
import { countCrons, searchCrons } from './search-crons.usecase';
import { updateCron } from './update-cron.usecase';

// PGlite starts in a few seconds (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const CHAT = systemAssistantId('chat');
const stateless = (overrides: Partial<CreateCronInput> = {}): CreateCronInput => ({
  thread_id: null,
  assistant_id: 'chat',
  schedule: '*/5 * * * *',
  run: { input: { messages: [{ role: 'user', content: 'tick' }] } },
  ...overrides,
});

describe('cron use cases (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let fx: CronsFixture;

  beforeAll(async () => {
    fx = await openCronsFixture();
  });
  afterAll(() => fx?.close());

  it('creates stateless and thread crons with their first run time', async () => {
    const now = new Date('2026-05-01T10:02:00Z');
    const cron = await createCron({ ...fx.deps, now: () => now }, stateless({ metadata: { team: 'ops' }, timezone: 'Europe/Paris' }));
    expect(cron).toEqual({
      cron_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      assistant_id: CHAT,
      thread_id: null,
      on_run_completed: 'delete',
      end_time: null,
      schedule: '*/5 * * * *',
      timezone: 'Europe/Paris',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      payload: { input: { messages: [{ role: 'user', content: 'tick' }] }, assistant_id: CHAT, metadata: { team: 'ops' } },
      user_id: null,
      next_run_date: '2026-05-01T10:05:00.000Z',
      metadata: { team: 'ops' },
      enabled: true,
    });
    expect(await fx.crons.get(cron.cron_id)).toEqual(cron);

    const thread = await fx.threads.create({});
    const onThread = await createCron(fx.deps, stateless({ thread_id: thread.thread_id, assistant_id: CHAT, on_run_completed: 'keep' }));
    expect(onThread).toMatchObject({ thread_id: thread.thread_id, assistant_id: CHAT, on_run_completed: null, enabled: true });

    const ended = await createCron(fx.deps, stateless({ end_time: new Date(Date.now() - 60_000), enabled: false, on_run_completed: 'keep' }));
    expect(ended).toMatchObject({ next_run_date: null, enabled: false, on_run_completed: 'keep' });
  });

  it('refuses bad schedules and time zones, unknown assistants and threads', async () => {
    await expect(createCron(fx.deps, stateless({ schedule: '61 * * * *' }))).rejects.toThrow(InputError);
    await expect(createCron(fx.deps, stateless({ timezone: 'Mars/Olympus' }))).rejects.toThrow(new InputError("Unknown time zone 'Mars/Olympus'"));
    await expect(createCron(fx.deps, stateless({ assistant_id: 'nope' }))).rejects.toThrow(new NotFoundError('Assistant not found'));
    const missing = randomUUID();
    await expect(createCron(fx.deps, stateless({ thread_id: missing }))).rejects.toThrow(new NotFoundError(`Thread '${missing}' not found`));
  });

  it('updates a cron: the schedule and re-enabling recompute the next run, metadata merges, payload keys replace', async () => {
    const t0 = new Date('2026-05-01T10:02:00Z');
    const cron = await createCron({ ...fx.deps, now: () => t0 }, stateless({ metadata: { a: 1 }, run: { input: { x: 1 }, config: { tags: ['t'] } } }));
    const t1 = new Date('2026-05-01T11:10:00Z');
    const rescheduled = await updateCron({ ...fx.deps, now: () => t1 }, cron.cron_id, {
      schedule: '0 * * * *',
      metadata: { b: 2 },
      payload: { input: { x: 2 } },
    });
    expect(rescheduled).toMatchObject({
      schedule: '0 * * * *',
      next_run_date: '2026-05-01T12:00:00.000Z',
      metadata: { a: 1, b: 2 },
      payload: { input: { x: 2 }, config: { tags: ['t'] }, assistant_id: CHAT, metadata: { a: 1, b: 2 } },
    });
    expect(Date.parse(rescheduled.updated_at)).toBeGreaterThanOrEqual(Date.parse(cron.updated_at));

    const disabled = await updateCron({ ...fx.deps, now: () => t1 }, cron.cron_id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, next_run_date: '2026-05-01T12:00:00.000Z' });
    const t2 = new Date('2026-05-01T15:30:00Z');
    const enabled = await updateCron({ ...fx.deps, now: () => t2 }, cron.cron_id, { enabled: true, on_run_completed: 'keep' });
    expect(enabled).toMatchObject({ enabled: true, next_run_date: '2026-05-01T16:00:00.000Z', on_run_completed: 'keep' });

    const bounded = await updateCron({ ...fx.deps, now: () => t2 }, cron.cron_id, { end_time: new Date('2026-05-01T15:45:00Z') });
    expect(bounded).toMatchObject({ end_time: '2026-05-01T15:45:00.000Z', next_run_date: null });
    const unbounded = await updateCron({ ...fx.deps, now: () => t2 }, cron.cron_id, { end_time: null, timezone: 'Asia/Kolkata' });
    // 15:30 UTC is 21:00 in Kolkata (UTC+5:30): the next full hour there, 22:00, is 16:30 UTC (not 16:00).
    expect(unbounded).toMatchObject({ end_time: null, timezone: 'Asia/Kolkata', next_run_date: '2026-05-01T16:30:00.000Z' });

    await expect(updateCron(fx.deps, cron.cron_id, { schedule: 'bad' })).rejects.toThrow(InputError);
    await expect(updateCron(fx.deps, randomUUID(), { enabled: false })).rejects.toThrow(NotFoundError);
  });

  it('searches and counts by assistant (id or graph id), thread, enabled and metadata, sorted and paged', async () => {
    const thread = await fx.threads.create({});
    const made = [];
    for (let i = 0; i < 3; i += 1) {
      made.push(await createCron(fx.deps, stateless({ thread_id: thread.thread_id, metadata: { batch: 'search', i }, enabled: i !== 1 })));
    }
    const byThread = await searchCrons(fx.deps, { thread_id: thread.thread_id, limit: 10, offset: 0 });
    expect(byThread.total).toBe(3);
    expect(byThread.crons.map((c) => c.cron_id)).toEqual([made[2]!.cron_id, made[1]!.cron_id, made[0]!.cron_id]);
    const oldestFirst = await searchCrons(fx.deps, { thread_id: thread.thread_id, sortBy: 'created_at', sortOrder: 'asc', limit: 2, offset: 1 });
    expect(oldestFirst.crons.map((c) => c.cron_id)).toEqual([made[1]!.cron_id, made[2]!.cron_id]);
    expect((await searchCrons(fx.deps, { thread_id: thread.thread_id, enabled: false, limit: 10, offset: 0 })).crons.map((c) => c.cron_id)).toEqual([made[1]!.cron_id]);
    expect(await countCrons(fx.deps, { metadata: { batch: 'search', i: 2 } })).toBe(1);
    expect(await countCrons(fx.deps, { assistant_id: 'chat', thread_id: thread.thread_id })).toBe(3);
    expect(await countCrons(fx.deps, { assistant_id: CHAT, thread_id: thread.thread_id })).toBe(3);
    expect(await countCrons(fx.deps, { assistant_id: 'other-graph' })).toBe(0);
  });

  it('deletes crons, and with their thread or assistant', async () => {
    const cron = await createCron(fx.deps, stateless());
    await fx.crons.delete(cron.cron_id);
    await expect(fx.crons.get(cron.cron_id)).rejects.toThrow(new NotFoundError(`Cron '${cron.cron_id}' not found`));
    await expect(fx.crons.delete(cron.cron_id)).rejects.toThrow(NotFoundError);

    const thread = await fx.threads.create({});
    const onThread = await createCron(fx.deps, stateless({ thread_id: thread.thread_id }));
    await fx.threads.delete(thread.thread_id);
    await expect(fx.crons.get(onThread.cron_id)).rejects.toThrow(NotFoundError);

    const assistant = await fx.assistants.insert({ assistant_id: randomUUID(), graph_id: 'chat', name: 'temp', description: null, config: {}, context: {}, metadata: {} });
    const ofAssistant = await createCron(fx.deps, stateless({ assistant_id: assistant.assistant.assistant_id }));
    await fx.assistants.delete(assistant.assistant.assistant_id);
    await expect(fx.crons.get(ofAssistant.cron_id)).rejects.toThrow(NotFoundError);
  });
  it("applies the caller's filter (the deployment's auth) to reads, searches, updates and deletes, and runs firings as their creator", async () => {
    const batch = randomUUID();
    const ann = parseAccessFilter({ owner: 'ann' });
    const caller: AuthCaller = { user: { identity: 'ann', display_name: 'Ann', is_authenticated: true, permissions: ['w'] }, permissions: ['w'] };
    const mine = await createCron(fx.deps, stateless({ metadata: { batch, owner: 'ann' }, runAs: caller, run: { config: { configurable: { model: 'm' } } } }));
    const theirs = await createCron(fx.deps, stateless({ metadata: { batch, owner: 'bob' } }));
    expect(mine.user_id).toBe('ann');
    expect(mine.payload['config']).toEqual({
      configurable: { model: 'm', langgraph_auth_user: caller.user, langgraph_auth_user_id: 'ann', langgraph_auth_permissions: ['w'] },
    });

    expect(await fx.crons.get(mine.cron_id, ann)).toEqual(mine);
    await expect(fx.crons.get(theirs.cron_id, ann)).rejects.toThrow(NotFoundError);
    const found = await searchCrons(fx.deps, { metadata: { batch }, limit: 10, offset: 0 }, ann);
    expect({ ids: found.crons.map((c) => c.cron_id), total: found.total }).toEqual({ ids: [mine.cron_id], total: 1 });
    expect(await countCrons(fx.deps, { metadata: { batch } }, ann)).toBe(1);
    await expect(updateCron(fx.deps, theirs.cron_id, { enabled: false }, ann)).rejects.toThrow(NotFoundError);
    expect(await updateCron(fx.deps, mine.cron_id, { enabled: false }, ann)).toMatchObject({ enabled: false });
    await expect(fx.crons.delete(theirs.cron_id, ann)).rejects.toThrow(NotFoundError);
    await fx.crons.delete(mine.cron_id, ann);
    expect(await countCrons(fx.deps, { metadata: { batch } })).toBe(1);
  });
});
