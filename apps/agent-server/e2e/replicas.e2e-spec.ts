import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Client } from '@langchain/langgraph-sdk';
import { freePort, type RunningService } from '@platform/http-server';
import { describeWithService } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { registerDeployment, serving, startTestPlatform, testDeploymentEnv, type TestPlatform } from '../../../tools/dev/test-platform';
import {
  contents,
  deploymentClient,
  deploymentFor,
  FAST_RUN_SETTINGS,
  slowConfig,
  startReplica,
  TEST_LANGGRAPH_CONFIG,
  userMessage,
  waitFor,
  type StreamChunk,
} from './agent-server.e2e.testing';

const ROOT = path.resolve(__dirname, '../../..');

/** Signals a spawned replica's whole process group (the tsx launcher and the server it runs); resolves on exit. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return Promise.resolve();
  }
  return exited;
}

/**
 * An agent server in a process of its own (`tsx apps/agent-server/src/main.ts`), so it can be killed for real,
 * serving deployment `deploymentId` (replicas of one deployment share it).
 */
async function spawnReplica(platform: TestPlatform, deploymentId: string = randomUUID()): Promise<{ url: string; child: ChildProcess }> {
  const databaseUrl = platform.databases['agent-server'].url!;
  const port = await freePort();
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'apps/agent-server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      INTERNAL_SECRET: undefined,
      ...testDeploymentEnv(deploymentId),
      DATABASE_URL: databaseUrl,
      DATA_DIR: 'memory://',
      LANGGRAPH_CONFIG_PATH: TEST_LANGGRAPH_CONFIG,
      LOG_LEVEL: 'error',
      ...FAST_RUN_SETTINGS,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    // Its own process group: the tsx launcher runs the server in a child process, and a kill must reach both.
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(`${url}/ok`).then(
        (res) => res.ok,
        () => false,
      ),
    (ok) => ok || child.exitCode !== null,
    60_000,
  );
  if (child.exitCode !== null) throw new Error(`replica exited with ${child.exitCode}`);
  serving(platform, url, deploymentId);
  return { url, child };
}

describeWithService('DATABASE_URL', 'Postgres (agent server replicas e2e)')('agent server replicas sharing one database', () => {
  let platform: TestPlatform;
  let replica: RunningService;
  let a: Client;
  let b: Client;

  beforeAll(async () => {
    platform = await startTestPlatform({ langgraphConfigPath: TEST_LANGGRAPH_CONFIG, agentServerEnv: FAST_RUN_SETTINGS });
    replica = await startReplica(platform);
    a = (await deploymentFor(platform, platform.services['agent-server'].url)).client;
    b = (await deploymentFor(platform, replica.url)).client;
  });

  afterAll(async () => {
    await replica?.stop();
    await platform?.stop();
  });

  it('streams, joins and waits on one replica for a run executing on the other', async () => {
    const thread = await a.threads.create();
    const run = await a.runs.create(thread.thread_id, 'slow', { input: userMessage('across'), config: slowConfig(150), streamMode: ['values', 'updates'] });
    const [streamed, joined] = await Promise.all([
      (async () => {
        const chunks: StreamChunk[] = [];
        for await (const chunk of b.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1' })) chunks.push(chunk);
        return chunks;
      })(),
      b.runs.join(thread.thread_id, run.run_id),
    ]);
    expect(streamed.map((c) => c.event)).toEqual(['metadata', 'values', 'updates', 'values', 'updates', 'values', 'updates', 'values']);
    expect(streamed.map((c) => Number(c.id))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(contents(joined)).toEqual(['across', 'step 1', 'step 2', 'step 3']);
    expect(contents(streamed.at(-1)!.data)).toEqual(contents(joined));
  });

  it('cancels, from one replica, a run executing on the other', async () => {
    const thread = await a.threads.create();
    const run = await a.runs.create(thread.thread_id, 'slow', { input: userMessage('stop me'), config: slowConfig(1_000) });
    await waitFor(() => b.runs.get(thread.thread_id, run.run_id), (r) => r.status === 'running');
    await b.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await a.runs.get(thread.thread_id, run.run_id)).status).toBe('interrupted');
    expect((await b.threads.get(thread.thread_id)).status).toBe('idle');
  });

  it('keeps runs of one thread in arrival order whichever replica takes them', async () => {
    const thread = await a.threads.create();
    const runs = [
      await a.runs.create(thread.thread_id, 'slow', { input: userMessage('one'), config: slowConfig(80) }),
      await b.runs.create(thread.thread_id, 'slow', { input: userMessage('two'), config: slowConfig(10) }),
      await a.runs.create(thread.thread_id, 'slow', { input: userMessage('three'), config: slowConfig(10) }),
      await b.runs.create(thread.thread_id, 'slow', { input: userMessage('four'), config: slowConfig(10) }),
    ];
    await b.runs.join(thread.thread_id, runs[3].run_id);
    const steps = ['step 1', 'step 2', 'step 3'];
    expect(contents((await a.threads.getState(thread.thread_id)).values)).toEqual(['one', ...steps, 'two', ...steps, 'three', ...steps, 'four', ...steps]);
  });

  it('shares the queue: more runs than one replica has slots all complete, each once', async () => {
    const threads = await Promise.all(Array.from({ length: 24 }, () => a.threads.create()));
    const runs = await Promise.all(
      threads.map((t, i) => (i % 2 ? a : b).runs.create(t.thread_id, 'slow', { input: userMessage(`n${i}`), config: slowConfig(60) })),
    );
    for (const [i, run] of runs.entries()) {
      expect(contents(await a.runs.join(threads[i].thread_id, run.run_id))).toEqual([`n${i}`, 'step 1', 'step 2', 'step 3']);
    }
  });

  it('hands its runs back when it stops (SIGTERM): another replica resumes them after the last step', async () => {
    const leaving = await startReplica(platform);
    const onLeaving = (await deploymentFor(platform, leaving.url)).client;
    const thread = await onLeaving.threads.create();
    const run = await onLeaving.runs.create(thread.thread_id, 'slow', { input: userMessage('hand over'), config: slowConfig(600) });
    const followed = (async () => {
      const chunks: StreamChunk[] = [];
      for await (const chunk of a.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1' })) chunks.push(chunk);
      return chunks;
    })();
    await waitFor(() => a.threads.getState(thread.thread_id), (state) => contents(state.values).includes('step 1'));
    await leaving.stop();
    const values = await a.runs.join(thread.thread_id, run.run_id);
    expect(contents(values)).toEqual(['hand over', 'step 1', 'step 2', 'step 3']);
    const attempts = (await followed).filter((c) => c.event === 'metadata').map((c) => (c.data as { attempt: number }).attempt);
    expect(attempts).toEqual([1, 2]);
  });

  describe('a replica killed with SIGKILL mid-run', () => {
    const children: ChildProcess[] = [];
    afterAll(() => Promise.all(children.map((child) => killGroup(child, 'SIGTERM'))));

    it('loses its run to the other replica, which resumes it from the last checkpoint', async () => {
      const [doomed, survivor] = await Promise.all([spawnReplica(platform), spawnReplica(platform)]);
      children.push(doomed.child, survivor.child);
      const onDoomed = (await deploymentFor(platform, doomed.url)).client;
      const onSurvivor = (await deploymentFor(platform, survivor.url)).client;

      const thread = await onDoomed.threads.create();
      // Created on the doomed replica, which has free slots: it executes the run itself.
      const run = await onDoomed.runs.create(thread.thread_id, 'slow', { input: userMessage('survive'), config: slowConfig(1_200) });
      const followed = (async () => {
        const chunks: StreamChunk[] = [];
        for await (const chunk of onSurvivor.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: '-1' })) chunks.push(chunk);
        return chunks;
      })();
      await waitFor(() => onSurvivor.threads.getState(thread.thread_id), (s) => contents(s.values).includes('step 1'));
      await killGroup(doomed.child, 'SIGKILL');

      const values = await onSurvivor.runs.join(thread.thread_id, run.run_id);
      // Step 1 ran once: the retry resumed after it instead of starting over.
      expect(contents(values)).toEqual(['survive', 'step 1', 'step 2', 'step 3']);
      expect((await onSurvivor.runs.get(thread.thread_id, run.run_id)).status).toBe('success');
      expect((await onSurvivor.threads.get(thread.thread_id)).status).toBe('idle');
      const chunks = await followed;
      const attempts = chunks.filter((c) => c.event === 'metadata').map((c) => (c.data as { attempt: number }).attempt);
      expect(attempts).toEqual([1, 2]);
      const ids = chunks.map((c) => Number(c.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(ids).size).toBe(ids.length);
      expect(contents(chunks.filter((c) => c.event === 'values').at(-1)!.data)).toEqual(['survive', 'step 1', 'step 2', 'step 3']);
    });

    it('a client waiting through the killed replica gets the run result from the other, with one run made', async () => {
      const shared = randomUUID();
      const [doomed, survivor] = await Promise.all([spawnReplica(platform, shared), spawnReplica(platform, shared)]);
      children.push(doomed.child, survivor.child);
      // One deployment served by both: the gateway sends it to the first, and knows the second.
      const id = await registerDeployment(platform, { upstreamUrl: doomed.url, replicaUrls: [doomed.url, survivor.url] });
      const client = deploymentClient(platform, id);

      const thread = await client.threads.create();
      const waited = client.runs.wait(thread.thread_id, 'slow', { input: userMessage('wait on'), config: slowConfig(1_200) });
      await waitFor(() => client.threads.getState(thread.thread_id), (s) => contents(s.values).includes('step 1'));
      const [run] = await client.runs.list(thread.thread_id);
      const joined = client.runs.join(thread.thread_id, run.run_id);
      await killGroup(doomed.child, 'SIGKILL');

      expect(contents(await waited)).toEqual(['wait on', 'step 1', 'step 2', 'step 3']);
      expect(contents(await joined)).toEqual(['wait on', 'step 1', 'step 2', 'step 3']);
      // Later requests go to the replica that is left; the wait was never sent twice.
      const runs = await client.runs.list(thread.thread_id);
      expect(runs.map((r) => [r.run_id, r.status])).toEqual([[run.run_id, 'success']]);
      expect(contents(await client.runs.wait(thread.thread_id, 'slow', { input: userMessage('again'), config: slowConfig(10) })).at(-4)).toBe('again');
    });
  });
});
