import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { createAssistantRepository, syncSystemAssistants } from '@platform/agent-server-assistants';
import { PrismaCheckpointSaver } from '@platform/agent-server-checkpointer';
import { createGraphRegistry, type GraphExport } from '@platform/agent-server-graphs';
import { runCreateSchema } from '@platform/agent-server-run-records';
import { openRunsTestDatabase } from '@platform/agent-server-run-records/testing';
import { silentLogger } from '@platform/logging';
import type { SqlSession } from '@platform/prisma';
import { createRunService, type RunService, type RunTarget } from './runs.service';
import { TEST_RUN_SETTINGS } from './runs.testing';

/** A gate the `held` graph waits on: runs stay running until the test opens it. */
let open: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
const closeGate = () => {
  gate = new Promise((resolve) => (open = resolve));
};

function heldGraph() {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async () => {
      await gate;
      return { messages: [new AIMessage('done')] };
    })
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__')
    .compile();
}

/**
 * A started run service with one slot, and no poll or sweep within a test: what starts a queued run is the queue's
 * own signal (a run that ends claims the next), not the safety nets.
 */
async function startOneSlotService(): Promise<{ runs: RunService; close(): Promise<void> }> {
  const database = await openRunsTestDatabase();
  const { prisma, sql, notifications } = database.db;
  const checkpointer = new PrismaCheckpointSaver(prisma);
  const registry = createGraphRegistry({ graphs: { held: { source: heldGraph() as unknown as GraphExport } }, checkpointer });
  const assistants = createAssistantRepository(prisma);
  await syncSystemAssistants(assistants, registry);
  const settings = { ...TEST_RUN_SETTINGS, concurrency: 1, pollMs: 600_000, sweepMs: 600_000, leaseMs: 600_000 };
  const runs = createRunService({ sql, notifications, registry, checkpointer, assistants, logger: silentLogger, settings });
  await runs.start();
  return {
    runs,
    close: async () => {
      open();
      await runs.stop();
      await database.close();
    },
  };
}

describe('RunService on its replica queue: the fast path (one slot, no poll, no sweep)', () => {
  let service: Awaited<ReturnType<typeof startOneSlotService>>;
  let runs: RunService;
  beforeAll(async () => {
    service = await startOneSlotService();
    runs = service.runs;
  });
  afterAll(() => service.close());
  afterEach(() => open());

  const create = (target: RunTarget, request: Record<string, unknown> = {}) =>
    runs.create(target, runCreateSchema.parse({ assistant_id: 'held', input: { messages: [{ role: 'user', content: 'hi' }] }, ...request }));
  const stateless: RunTarget = { threadId: null };

  /**
   * Waits until this replica has its slot free and no claim of its own in flight (one runs on start, and after a run
   * ended while others were queued): until then a new run is queued rather than started. Creates runs until one
   * starts at once, each to its end. A run's end is announced just before its executor returns and frees the slot.
   */
  async function settled(): Promise<void> {
    for (let i = 0; i < 50; i++) {
      const run = await create(stateless);
      await runs.waitForEnd(run.run_id);
      await new Promise((resolve) => setTimeout(resolve, run.status === 'running' ? 0 : 50));
      if (run.status === 'running') return;
    }
    throw new Error('no run created on the idle replica started at once');
  }

  it('starts a run created while a slot is free on this replica at once, and queues one created while none is', async () => {
    await settled();
    closeGate();
    const first = await create(stateless);
    expect(first).toMatchObject({ status: 'running', lease_owner: runs.owner, attempt: 1 });
    const second = await create(stateless);
    expect(second).toMatchObject({ status: 'pending', lease_owner: null, attempt: 0 });
    open();
    // The slot the first frees goes to the second (claimed with the first's end), which then runs here too.
    expect(await runs.waitForEnd(first.run_id)).toMatchObject({ status: 'success' });
    expect(await runs.waitForEnd(second.run_id)).toMatchObject({ status: 'success' });
  });

  it("starts a run queued behind its thread's run when that one ends", async () => {
    await settled();
    closeGate();
    const first = await create(stateless, { on_completion: 'keep' });
    expect(first.status).toBe('running');
    const next = await create({ threadId: first.thread_id });
    expect(next).toMatchObject({ status: 'pending', thread_id: first.thread_id });
    open();
    expect(await runs.waitForEnd(first.run_id)).toMatchObject({ status: 'success' });
    expect(await runs.waitForEnd(next.run_id)).toMatchObject({ status: 'success' });
  });

  it('leaves a delayed run pending, and starts it here once it is due', async () => {
    await settled();
    const delayed = await create(stateless, { after_seconds: 0.3 });
    expect(delayed).toMatchObject({ status: 'pending', lease_owner: null });
    const started = Date.now();
    expect(await runs.waitForEnd(delayed.run_id)).toMatchObject({ status: 'success' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives the slot back when creating the run fails', async () => {
    await settled();
    await expect(create({ threadId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow('not found');
    const run = await create(stateless);
    expect(run).toMatchObject({ status: 'running', lease_owner: runs.owner });
    expect(await runs.waitForEnd(run.run_id)).toMatchObject({ status: 'success' });
  });
});

/** Runs that each wait on the gate their message names, on replicas sharing one database. */
async function startGatedReplicas(count: number) {
  const database = await openRunsTestDatabase();
  const { prisma, sql, notifications } = database.db;
  const opens = new Map<string, () => void>();
  const gates = new Map<string, Promise<void>>();
  const gate = (name: string) => {
    if (!gates.has(name)) gates.set(name, new Promise<void>((resolve) => opens.set(name, resolve)));
    return gates.get(name)!;
  };
  const openGate = (name: string) => {
    void gate(name);
    opens.get(name)!();
  };
  openGate('go');
  const gated = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state: typeof MessagesAnnotation.State) => {
      await gate(String(state.messages.at(-1)?.content));
      return { messages: [new AIMessage('done')] };
    })
    .addEdge('__start__', 'agent')
    .addEdge('agent', '__end__')
    .compile();
  const checkpointer = new PrismaCheckpointSaver(prisma);
  const registry = createGraphRegistry({ graphs: { gated: { source: gated as unknown as GraphExport } }, checkpointer });
  const assistants = createAssistantRepository(prisma);
  await syncSystemAssistants(assistants, registry);
  // The first replica's claims, alone or ending a run, name the runs they prefer in their last parameter.
  const preferred: string[][] = [];
  const recording: SqlSession = {
    exec: (text) => sql.exec(text),
    transaction: (fn) => sql.transaction(fn),
    query: (text, params) => {
      const last = params?.at(-1);
      if (text.includes('SKIP LOCKED') && Array.isArray(last)) preferred.push(last as string[]);
      return sql.query(text, params);
    },
  };
  const settings = { ...TEST_RUN_SETTINGS, concurrency: 1, pollMs: 600_000, sweepMs: 600_000, leaseMs: 600_000 };
  const replicas = Array.from({ length: count }, (_, i) =>
    createRunService({ sql: i === 0 ? recording : sql, notifications, registry, checkpointer, assistants, logger: silentLogger, settings }),
  );
  const create = (service: RunService, gateName: string) =>
    service.create({ threadId: null }, runCreateSchema.parse({ assistant_id: 'gated', input: { messages: [{ role: 'user', content: gateName }] } }));
  const statusOf = async (runId: string) => (await sql.query<{ status: string }>(`SELECT status FROM runs WHERE run_id = $1::uuid`, [runId]))[0]?.status;
  /** Starts `service` and waits until it starts a run at once (until its start-up claim is done, runs queue). */
  const startSettled = async (service: RunService) => {
    await service.start();
    for (let i = 0; ; i++) {
      const run = await create(service, 'go');
      await service.waitForEnd(run.run_id);
      // The end is announced just before the executor returns and frees the slot.
      await new Promise((resolve) => setTimeout(resolve, run.status === 'running' ? 0 : 50));
      if (run.status === 'running') return;
      if (i > 50) throw new Error('the replica never started a run at once');
    }
  };
  const close = async () => {
    for (const open of opens.values()) open();
    for (const service of replicas) await service.stop();
    await database.close();
  };
  return { replicas, preferred, openGate, create, statusOf, startSettled, close };
}

describe('RunService preferring its own queued runs when it claims', () => {
  it('forgets a queued run of its own once another replica ran it: its next claims no longer prefer it', async () => {
    const { replicas, preferred, openGate, create, statusOf, startSettled, close } = await startGatedReplicas(2);
    const [a, b] = replicas;
    try {
      await startSettled(a);
      const first = await create(a, 'first');
      expect(first.status).toBe('running');
      const queued = await create(a, 'queued');
      expect(queued.status).toBe('pending');
      // B starts with a free slot and takes A's queued run.
      await b.start();
      for (let i = 0; (await statusOf(queued.run_id)) !== 'running'; i++) {
        if (i > 100) throw new Error('replica B did not take the queued run');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      openGate('queued');
      expect(await a.waitForEnd(queued.run_id)).toMatchObject({ status: 'success' });
      await b.stop();

      const later = await create(a, 'later');
      expect(later.status).toBe('pending');
      openGate('first');
      openGate('later');
      expect(await a.waitForEnd(later.run_id)).toMatchObject({ status: 'success' });
      const preferringLater = preferred.filter((ids) => ids.includes(later.run_id));
      expect(preferringLater.length).toBeGreaterThan(0);
      for (const ids of preferringLater) expect(ids).not.toContain(queued.run_id);
    } finally {
      await close();
    }
  });

  it('prefers its oldest queued runs, a few more than the claim can take, not its whole backlog', async () => {
    const { replicas, preferred, openGate, create, startSettled, close } = await startGatedReplicas(1);
    const [a] = replicas;
    try {
      await startSettled(a);
      const first = await create(a, 'first');
      expect(first.status).toBe('running');
      const queued = [];
      for (let i = 0; i < 30; i++) queued.push((await create(a, 'queued')).run_id);
      preferred.length = 0;
      openGate('first');
      expect(await a.waitForEnd(first.run_id)).toMatchObject({ status: 'success' });
      openGate('queued');
      for (const runId of queued) await a.waitForEnd(runId);
      // The end of the first claims one run (one slot), preferring the 17 oldest queued.
      expect(preferred[0]).toEqual(queued.slice(0, 17));
      expect(Math.max(...preferred.map((ids) => ids.length))).toBeLessThanOrEqual(17);
    } finally {
      await close();
    }
  });
});
