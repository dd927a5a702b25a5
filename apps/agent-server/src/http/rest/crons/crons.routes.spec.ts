import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { systemAssistantId } from '@platform/agent-server-assistants';
import { cronsGatewayHeaders, startTestCronsApp, type TestCronsApp } from './crons-app.testing';

// PGlite takes a few seconds to start (WebAssembly), longer when test files run in parallel.
jest.setTimeout(60_000);

const CHAT = systemAssistantId('chat');

describe('crons routes (Postgres when DATABASE_URL is set, else PGlite)', () => {
  let t: TestCronsApp;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(t.app)[method](path).set(cronsGatewayHeaders());
  const detail = async (res: request.Test) => (await res.expect(422)).body.detail as { loc: (string | number)[]; msg: string }[];

  beforeAll(async () => {
    t = await startTestCronsApp();
  });
  afterAll(() => t?.close());

  it('creates, patches, searches, counts and deletes a stateless cron', async () => {
    const created = await call('post', '/runs/crons')
      .send({
        assistant_id: 'chat',
        schedule: '0 9 * * 1-5',
        timezone: 'Europe/Paris',
        input: { messages: [{ role: 'user', content: 'standup' }] },
        config: { tags: ['daily'] },
        metadata: { team: 'core' },
        multitask_strategy: null,
        webhook: null,
      })
      .expect(200);
    expect(created.body).toEqual({
      cron_id: expect.any(String),
      assistant_id: CHAT,
      thread_id: null,
      on_run_completed: 'delete',
      end_time: null,
      schedule: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      payload: { input: { messages: [{ role: 'user', content: 'standup' }] }, config: { tags: ['daily'] }, assistant_id: CHAT, metadata: { team: 'core' } },
      user_id: null,
      next_run_date: expect.any(String),
      metadata: { team: 'core' },
      enabled: true,
    });
    // 09:00 in Paris is 07:00 or 08:00 UTC.
    expect(new Date(created.body.next_run_date).getUTCHours()).toBeGreaterThanOrEqual(7);
    const id: string = created.body.cron_id;

    const patched = await call('patch', `/runs/crons/${id}`)
      .send({ schedule: '30 6 * * *', timezone: null, end_time: '2099-01-01T00:00:00', metadata: { on: 'call' }, input: { messages: [] }, enabled: false })
      .expect(200);
    expect(patched.body).toMatchObject({
      schedule: '30 6 * * *',
      timezone: null,
      end_time: '2099-01-01T00:00:00.000Z',
      enabled: false,
      metadata: { team: 'core', on: 'call' },
      payload: { input: { messages: [] }, config: { tags: ['daily'] }, metadata: { team: 'core', on: 'call' } },
    });
    expect(patched.body.next_run_date).toMatch(/T06:30:00\.000Z$/);

    const search = await call('post', '/runs/crons/search').send({ assistant_id: 'chat', metadata: { on: 'call' }, select: ['cron_id', 'enabled', 'now'] }).expect(200);
    expect(search.body).toEqual([{ cron_id: id, enabled: false, now: expect.any(String) }]);
    expect(search.headers['x-pagination-total']).toBe('1');
    expect((await call('post', '/runs/crons/count').send({ assistant_id: CHAT, metadata: { on: 'call' } }).expect(200)).body).toBe(1);
    expect((await call('post', '/runs/crons/count').send({ enabled: true, metadata: { on: 'call' } }).expect(200)).body).toBe(0);

    await call('delete', `/runs/crons/${id}`).expect(204);
    await call('delete', `/runs/crons/${id}`).expect(404, { detail: `Cron '${id}' not found` });
    await call('patch', `/runs/crons/${id}`).send({ enabled: true }).expect(404);
    await request(t.app).post('/runs/crons/search').send({}).expect(401);
  });

  it('creates a thread cron that fires on its thread', async () => {
    const thread = await t.threads.create({});
    const created = await call('post', `/threads/${thread.thread_id}/runs/crons`)
      .send({ assistant_id: CHAT, schedule: '*/10 * * * *', input: { messages: [{ role: 'user', content: 'hello' }] } })
      .expect(200);
    expect(created.body).toMatchObject({ thread_id: thread.thread_id, on_run_completed: null, assistant_id: CHAT });

    await t.makeDue(created.body.cron_id);
    const [firing] = await t.scheduler.tick();
    expect(firing).toMatchObject({ cron_id: created.body.cron_id, thread_id: thread.thread_id });
    expect((await t.runs.waitForEnd(firing!.run_id!))?.status).toBe('success');
    expect((await t.threads.get(thread.thread_id)).values).toMatchObject({ messages: [{ content: 'hello' }, { content: 'echo: hello' }] });

    const byThread = await call('post', '/runs/crons/search').send({ thread_id: thread.thread_id.toUpperCase() }).expect(200);
    expect(byThread.body.map((c: { cron_id: string }) => c.cron_id)).toEqual([created.body.cron_id]);
  });

  it('answers bad requests with 422 and unknown assistants or threads with 404', async () => {
    const body = { assistant_id: 'chat', schedule: '*/5 * * * *' };
    expect((await detail(call('post', '/runs/crons').send({ ...body, schedule: '61 * * * *' })))[0]).toMatchObject({
      loc: ['body', 'schedule'],
      msg: expect.stringContaining('Invalid cron schedule'),
    });
    expect((await detail(call('post', '/runs/crons').send({ ...body, schedule: 'every day' })))[0]!.loc).toEqual(['body', 'schedule']);
    expect((await detail(call('post', '/runs/crons').send({ assistant_id: 'chat' })))[0]!.loc).toEqual(['body', 'schedule']);
    expect((await detail(call('post', '/runs/crons').send({ ...body, timezone: 'Mars/Olympus' })))[0]!.loc).toEqual(['body', 'timezone']);
    expect((await detail(call('post', '/runs/crons').send({ ...body, end_time: 'tomorrow' })))[0]!.loc).toEqual(['body', 'end_time']);
    expect((await detail(call('post', '/runs/crons').send({ ...body, on_run_completed: 'archive' })))[0]!.loc).toEqual(['body', 'on_run_completed']);
    expect((await detail(call('post', '/runs/crons').send({ ...body, stream_mode: 'nope' })))[0]!.loc).toEqual(['body', 'stream_mode']);
    expect((await detail(call('post', '/runs/crons').send({ schedule: '*/5 * * * *' })))[0]!.loc).toEqual(['body', 'assistant_id']);
    expect((await detail(call('post', '/threads/not-a-uuid/runs/crons').send(body)))[0]!.loc).toEqual(['path', 'thread_id']);
    expect((await detail(call('patch', '/runs/crons/nope').send({})))[0]!.loc).toEqual(['path', 'cron_id']);
    expect((await detail(call('patch', `/runs/crons/${randomUUID()}`).send({ schedule: 'x' })))[0]!.loc).toEqual(['body', 'schedule']);
    expect((await detail(call('post', '/runs/crons/search').send({ sort_by: 'schedule' })))[0]!.loc).toEqual(['body', 'sort_by']);

    await call('post', '/runs/crons').send({ ...body, assistant_id: 'no-such-graph' }).expect(404, { detail: 'Assistant not found' });
    const missing = randomUUID();
    await call('post', `/threads/${missing}/runs/crons`).send(body).expect(404, { detail: `Thread '${missing}' not found` });
  });
});
