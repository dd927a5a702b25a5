import { randomUUID } from 'node:crypto';
import { Client as LangGraphClient } from '@langchain/langgraph-sdk';
import { Client as LangSmithClient, type Run } from 'langsmith';
import { silentLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { DATABASE_SERVICES, startPlatform, type DatabaseService, type RunningPlatform } from './platform';
import { TEST_INTERNAL_SECRET } from './test-platform';

// Issue 31: the agent `npm start` and `agent-platform up` serve themselves (not deployed through the control plane)
// sent no traces. The launcher's platform now serves it as a deployment that traces, as a deployed one does, into
// the tracing project of its name in its workspace, with a key the gateway minted for it and kept across restarts.
describe("the launcher's own agent server traces into its deployment's project", () => {
  const NAME = 'react-agent';
  let agentDeploymentId = randomUUID();
  let databases: Record<DatabaseService, TestDatabase>;
  let platform: RunningPlatform | undefined;
  let adminKey: string;
  let workspaceId: string;

  // The launcher's start (launch.ts): the example agent under its kept deployment id, with two replicas.
  const start = () =>
    startPlatform({
      dataDir: 'memory://',
      databaseUrls: Object.fromEntries(DATABASE_SERVICES.map((s) => [s, databases[s].url])),
      natsUrl: process.env.NATS_URL || undefined,
      internalSecret: TEST_INTERNAL_SECRET,
      migrate: true,
      logger: () => silentLogger,
      agentDeploymentId,
      agentDeploymentName: NAME,
      replicas: { 'agent-server': 2 },
    });

  beforeAll(async () => {
    databases = Object.fromEntries(await Promise.all(DATABASE_SERVICES.map(async (s) => [s, await createTestDatabase()] as const))) as Record<DatabaseService, TestDatabase>;
    platform = await start();
    adminKey = platform.gateway.bootstrap!.apiKey;
    workspaceId = platform.gateway.bootstrap!.workspace.id;
  });
  afterAll(async () => {
    await platform?.stop();
    await Promise.all(Object.values(databases ?? {}).map((d) => d.drop()));
  });

  const chat = async (running: RunningPlatform, question: string) => {
    const agent = new LangGraphClient({ apiUrl: `${running.gatewayUrl}/deployments/${running.agentDeployment!.id}`, apiKey: adminKey, defaultHeaders: { 'X-Tenant-Id': workspaceId } });
    const thread = await agent.threads.create();
    return agent.runs.wait(thread.thread_id, 'agent', { input: { messages: [{ role: 'user', content: question }] } });
  };

  /** The root runs of the project whose outputs mention `answer`, once there are some, and the runs of that trace. */
  const tracedAnswer = async (running: RunningPlatform, answer: string): Promise<{ root: Run; runs: Run[] }> => {
    const langsmith = new LangSmithClient({ apiUrl: `${running.gatewayUrl}/api/v1`, apiKey: adminKey, workspaceId });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const roots: Run[] = [];
        for await (const run of langsmith.listRuns({ projectName: NAME, isRoot: true })) roots.push(run);
        const root = roots.find((r) => JSON.stringify(r.outputs ?? {}).includes(answer));
        if (root) {
          const runs: Run[] = [];
          for await (const run of langsmith.listRuns({ projectName: NAME, traceId: root.trace_id })) runs.push(run);
          // The children arrive with (or before) the root's end; wait until every one has ended too.
          if (runs.length > 1 && runs.every((r) => r.end_time)) return { root, runs };
        }
      } catch (err) {
        // The project appears with the first trace.
        if (Date.now() > deadline) throw err;
      }
      if (Date.now() > deadline) throw new Error(`no finished trace answering ${answer} in project ${NAME}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };

  const storedKey = (running: RunningPlatform, id = agentDeploymentId) =>
    running.controlPlane.prisma.deployment.findUniqueOrThrow({ where: { id }, select: { name: true, tenantId: true, organizationId: true, tracingKeyId: true } });

  const liveKeys = async (running: RunningPlatform) => {
    const res = await fetch(`${running.gatewayUrl}/api/v1/api-keys`, { headers: { 'x-api-key': adminKey, 'x-tenant-id': workspaceId } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string; description: string | null; revoked_at?: string | null }[]).filter((k) => !k.revoked_at);
  };

  it('serves the agent as the workspace deployment react-agent, and a chat reads back as a trace with its child runs', async () => {
    const running = platform!;
    expect(running.agentDeployment).toEqual({ id: agentDeploymentId, name: NAME, tenantId: workspaceId });
    const values = (await chat(running, 'What is 6 * 7?')) as { messages: { content: unknown }[] };
    expect(String(values.messages.at(-1)?.content)).toContain('42');

    const { root, runs } = await tracedAnswer(running, '42');
    expect(root).toMatchObject({ run_type: 'chain', name: 'ReAct agent', status: 'success' });
    const children = runs.filter((r) => r.id !== root.id);
    expect(children.every((r) => r.trace_id === root.trace_id)).toBe(true);
    expect(children.filter((r) => r.parent_run_id === root.id).length).toBeGreaterThan(0);
    // The model's call and the calculator's, under the graph's nodes.
    expect(children.map((r) => r.run_type)).toEqual(expect.arrayContaining(['llm', 'tool']));

    const stored = await storedKey(running);
    expect(stored).toMatchObject({ name: NAME, tenantId: workspaceId, organizationId: running.gateway.bootstrap!.organization.id });
    expect((await liveKeys(running)).filter((k) => k.id === stored.tracingKeyId)).toHaveLength(1);
  });

  it('keeps the key across a restart (none minted, none left behind) and still traces', async () => {
    const before = await storedKey(platform!);
    const keysBefore = (await liveKeys(platform!)).map((k) => k.id).sort();
    await platform!.stop();
    platform = undefined;
    platform = await start();
    const running = platform;
    expect(running.gateway.bootstrap).toBeNull();
    expect(running.agentDeployment).toEqual({ id: agentDeploymentId, name: NAME, tenantId: workspaceId });
    expect(await storedKey(running)).toEqual(before);
    expect((await liveKeys(running)).map((k) => k.id).sort()).toEqual(keysBefore);

    // Both replicas (started with the same tracing settings) serve it at their new ports.
    const instances = await running.controlPlane.prisma.instance.findMany({ where: { deploymentId: agentDeploymentId }, select: { url: true } });
    expect(instances.map((i) => i.url).sort()).toEqual(running.replicas['agent-server'].map((r) => r.url).sort());
    await chat(running, 'What is 12 * 12?');
    const { root } = await tracedAnswer(running, '144');
    expect(root).toMatchObject({ run_type: 'chain', status: 'success' });
  });

  const restart = async () => {
    await platform!.stop();
    platform = undefined;
    platform = await start();
    return platform;
  };

  it('moves the name to a new deployment id (its kept id was lost): the old key is revoked, a new one minted', async () => {
    const old = await storedKey(platform!);
    agentDeploymentId = randomUUID();
    const running = await restart();
    expect(running.agentDeployment).toEqual({ id: agentDeploymentId, name: NAME, tenantId: workspaceId });
    expect(await running.controlPlane.prisma.deployment.count({ where: { name: NAME } })).toBe(1);
    const moved = await storedKey(running);
    expect(moved.tracingKeyId).not.toBe(old.tracingKeyId);
    const live = (await liveKeys(running)).map((k) => k.id);
    expect(live).toContain(moved.tracingKeyId);
    expect(live).not.toContain(old.tracingKeyId);
    await chat(running, 'What is 7 * 11?');
    expect((await tracedAnswer(running, '77')).root).toMatchObject({ status: 'success' });
  });

  it('gives a deployment registered before it traced (no key kept) a key on the next start', async () => {
    await platform!.controlPlane.prisma.deployment.update({ where: { id: agentDeploymentId }, data: { organizationId: null, tracingKeyId: null, tracingKey: null } });
    const running = await restart();
    const stored = await storedKey(running);
    expect(stored.tracingKeyId).not.toBeNull();
    expect((await liveKeys(running)).map((k) => k.id)).toContain(stored.tracingKeyId);
    await chat(running, 'What is 9 * 9?');
    expect((await tracedAnswer(running, '81')).root).toMatchObject({ status: 'success' });
  });

  it("starts its servers again with a key of the new workspace when only the gateway's database was reset", async () => {
    const oldDatabase = databases.gateway;
    databases.gateway = await createTestDatabase();
    await oldDatabase.drop();
    const running = await restart();
    // A fresh gateway bootstraps a new workspace: the deployment moves there, and its key is that workspace's.
    adminKey = running.gateway.bootstrap!.apiKey;
    workspaceId = running.gateway.bootstrap!.workspace.id;
    expect(running.agentDeployment).toEqual({ id: agentDeploymentId, name: NAME, tenantId: workspaceId });
    const stored = await storedKey(running);
    expect(stored).toMatchObject({ tenantId: workspaceId, organizationId: running.gateway.bootstrap!.organization.id });
    expect((await liveKeys(running)).map((k) => k.id)).toContain(stored.tracingKeyId);
    expect(running.replicas['agent-server']).toHaveLength(2);
    await chat(running, 'What is 8 * 8?');
    expect((await tracedAnswer(running, '64')).root).toMatchObject({ status: 'success' });
  });
});
