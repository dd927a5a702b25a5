import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { Client } from 'langsmith';
import { getCurrentRunTree, traceable } from 'langsmith/traceable';
import { runsService } from '@platform/contracts';
import { createClient, readStream } from '@platform/grpc';
import { zstdRawFrame } from '@platform/tracing-runs';
import { TEST_INTERNAL_SECRET, startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

/** The fields of `GET /runs/{id}` these tests look into. */
interface RunBody {
  dotted_order: string;
  parent_run_id: string;
  parent_run_ids: string[];
  session_id: string;
  detail?: { loc: unknown[] }[];
}

/** A chat model with fixed answers that reports token usage, as real providers' integrations do. */
class UsageChatModel extends BaseChatModel {
  _llmType(): string {
    return 'usage-fake';
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = new AIMessage({
      content: `echo: ${String(messages.at(-1)?.content)}`,
      usage_metadata: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    });
    return { generations: [{ text: String(message.content), message }] };
  }
}

describe('run ingestion with the langsmith SDK (all services in-process)', () => {
  let platform: TestPlatform;
  let apiUrl: string;
  let apiKey: string;
  let workspace: string;
  let client: Client;

  beforeAll(async () => {
    platform = await startTestPlatform();
    apiUrl = `${platform.gatewayUrl}/api/v1`;
    apiKey = platform.adminKey;
    workspace = platform.workspaceId;
    // The SDK sends X-Tenant-Id from `workspaceId` (LANGSMITH_WORKSPACE_ID).
    client = new Client({ apiUrl, apiKey, workspaceId: workspace });
  });

  afterAll(() => platform?.stop());

  const headers = (tenant = workspace) => ({ 'x-api-key': apiKey, 'x-tenant-id': tenant });
  const getRun = async (id: string, tenant = workspace) => {
    const res = await fetch(`${apiUrl}/runs/${id}`, { headers: headers(tenant) });
    return { status: res.status, body: (await res.json()) as RunBody };
  };
  const send = (path: string, body: string | Buffer, extra: Record<string, string> = {}, method = 'POST') =>
    fetch(`${apiUrl}${path}`, { method, headers: { ...headers(), 'content-type': 'application/json', ...extra }, body });

  it('reads /info and sends nested traceable calls over multipart; runs read back as one tree with rolled-up tokens', async () => {
    const ids: Record<string, string> = {};
    const project = `e2e-traceable-${randomUUID().slice(0, 8)}`;
    const config = { client, project_name: project, tracingEnabled: true };
    const llm = traceable(
      async (prompt: string) => {
        ids.llm = getCurrentRunTree().id;
        return { content: `answer to ${prompt}`, usage_metadata: { input_tokens: 12, output_tokens: 8, total_tokens: 20 } };
      },
      { ...config, name: 'chat-model', run_type: 'llm' },
    );
    const tool = traceable(
      async (query: string) => {
        ids.tool = getCurrentRunTree().id;
        return { hits: [query] };
      },
      { ...config, name: 'search', run_type: 'tool' },
    );
    const agent = traceable(
      async (question: string) => {
        ids.root = getCurrentRunTree().id;
        await tool(question);
        const first = await llm(question);
        await llm(first.content);
        return { answer: first.content };
      },
      { ...config, name: 'agent', run_type: 'chain' },
    );
    await agent('what is 2 + 2?');
    await client.awaitPendingTraceBatches();

    const root = await getRun(ids.root);
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({
      id: ids.root,
      name: 'agent',
      run_type: 'chain',
      trace_id: ids.root,
      parent_run_id: null,
      parent_run_ids: [],
      is_root: true,
      status: 'success',
      inputs: { input: 'what is 2 + 2?' },
      outputs: { answer: 'answer to what is 2 + 2?' },
      prompt_tokens: 24,
      completion_tokens: 16,
      total_tokens: 40,
      dotted_order: expect.stringMatching(new RegExp(`^\\d{8}T\\d{12}Z${ids.root}$`)),
      start_time: expect.stringMatching(/\.\d{6}Z$/),
    });
    const [project_] = (await (await fetch(`${apiUrl}/sessions?name=${project}`, { headers: headers() })).json()) as { id: string }[];
    expect(root.body.session_id).toBe(project_.id);

    const child = await getRun(ids.llm);
    expect(child.body).toMatchObject({
      run_type: 'llm',
      trace_id: ids.root,
      parent_run_id: ids.root,
      parent_run_ids: [ids.root],
      is_root: false,
      status: 'success',
      total_tokens: 20,
      session_id: project_.id,
    });
    expect(child.body.dotted_order.startsWith(`${root.body.dotted_order}.`)).toBe(true);
    expect((await getRun(ids.tool)).body).toMatchObject({ run_type: 'tool', total_tokens: 0, parent_run_ids: [ids.root] });

    // The SDK took the multipart path /info announced (this is the first test to send runs).
    const metrics = await (await fetch(`${platform.services.tracing.url}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/runs\/multipart"[^}]*status="202"[^}]*\} [1-9]/);
    expect(metrics).not.toMatch(/route="\/api\/v1\/runs\/batch"/);
  });

  it('traces a LangGraph graph through LangChainTracer into one trace', async () => {
    const State = Annotation.Root({
      messages: Annotation<BaseMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      done: Annotation<boolean>(),
    });
    const model = new UsageChatModel({});
    const graph = new StateGraph(State)
      .addNode('model', async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addNode('finish', async () => ({ done: true }))
      .addEdge(START, 'model')
      .addEdge('model', 'finish')
      .addEdge('finish', END)
      .compile();

    const rootId = randomUUID();
    const llmRuns: string[] = [];
    const tracer = new LangChainTracer({ client, projectName: 'e2e-langgraph' });
    const result = await graph.invoke(
      { messages: [new HumanMessage('ping')] },
      {
        runId: rootId,
        callbacks: [tracer, { handleChatModelStart: (_llm, _messages, runId) => void llmRuns.push(runId) }],
      },
    );
    expect(result.done).toBe(true);
    await awaitAllCallbacks();
    await client.awaitPendingTraceBatches();

    const root = await getRun(rootId);
    expect(root.body).toMatchObject({ id: rootId, is_root: true, trace_id: rootId, status: 'success', total_tokens: 10, prompt_tokens: 7 });
    expect(llmRuns).toHaveLength(1);
    const llm = await getRun(llmRuns[0]);
    expect(llm.body).toMatchObject({ run_type: 'llm', trace_id: rootId, is_root: false, total_tokens: 10, status: 'success' });
    // The model's run sits under the graph and its "model" node.
    expect(llm.body.parent_run_ids[0]).toBe(rootId);
    expect(llm.body.parent_run_ids.length).toBeGreaterThanOrEqual(2);
    const node = await getRun(llm.body.parent_run_id);
    expect(node.body).toMatchObject({ name: 'model', trace_id: rootId, total_tokens: 10 });
  });

  it('lists the runs of a project with the SDK (POST /runs/query) and streams them to exporters over gRPC StreamRuns', async () => {
    const traceRuns = traceable(async (n: number) => `done ${n}`, { name: 'listed', client, project_name: 'e2e-listing', tracingEnabled: true });
    await Promise.all([1, 2, 3].map((n) => traceRuns(n)));
    await client.awaitPendingTraceBatches();

    const listed: string[] = [];
    for await (const run of client.listRuns({ projectName: 'e2e-listing', filter: 'eq(name, "listed")' })) listed.push(run.id);
    expect(listed).toHaveLength(3);
    const [project] = (await (await fetch(`${apiUrl}/sessions?name=e2e-listing`, { headers: headers() })).json()) as { id: string }[];

    const runs = createClient(runsService().Client, `127.0.0.1:${platform.services.tracing.grpcPort}`, { token: TEST_INTERNAL_SECRET });
    try {
      const now = BigInt(Date.now()) * 1000n;
      const streamed: string[] = [];
      for await (const batch of readStream(runs, 'StreamRuns', {
        tenant_id: workspace,
        session_id: project.id,
        start_time: String(now - 3_600_000_000n),
        end_time: String(now + 3_600_000_000n),
        filter: 'eq(is_root, true)',
        fields: ['id', 'name', 'status', 'start_time'],
        batch_size: 2,
      })) {
        streamed.push(...batch.runs.map((r) => r.id));
      }
      expect(streamed.sort()).toEqual([...listed].sort());
    } finally {
      runs.close();
    }
  });

  it('converges creates and updates sent out of order across batches, and ignores a duplicate create', async () => {
    const id = randomUUID();
    const run = { id, trace_id: id, dotted_order: `20240501T120000000001Z${id}` };
    expect((await send('/runs/batch', JSON.stringify({ patch: [{ ...run, outputs: { a: 1 }, end_time: '2024-05-01T12:00:02Z' }] }))).status).toBe(202);
    expect((await getRun(id)).status).toBe(404);
    expect((await send('/runs/batch', JSON.stringify({ post: [{ ...run, name: 'first', inputs: { q: 1 }, start_time: '2024-05-01T12:00:00.000001' }] }))).status).toBe(202);
    expect((await send('/runs/batch', JSON.stringify({ post: [{ ...run, name: 'second', inputs: { q: 2 } }] }))).status).toBe(202);
    expect((await getRun(id)).body).toMatchObject({
      name: 'first',
      inputs: { q: 1 },
      outputs: { a: 1 },
      status: 'success',
      start_time: '2024-05-01T12:00:00.000001Z',
      end_time: '2024-05-01T12:00:02.000000Z',
    });
  });

  it('decodes gzip and zstd multipart bodies', async () => {
    const boundary = 'e2eBoundary';
    const body = (id: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="post.${id}"\r\nContent-Type: application/json\r\n\r\n` +
          `${JSON.stringify({ id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: 'compressed' })}\r\n--${boundary}--\r\n`,
      );
    const type = `multipart/form-data; boundary=${boundary}`;
    const [a, b] = [randomUUID(), randomUUID()];
    expect((await send('/runs/multipart', gzipSync(body(a)), { 'content-type': type, 'content-encoding': 'gzip' })).status).toBe(202);
    expect((await send('/runs/multipart', zstdRawFrame(body(b)), { 'content-type': type, 'content-encoding': 'zstd' })).status).toBe(202);
    expect((await getRun(a)).body).toMatchObject({ name: 'compressed' });
    expect((await getRun(b)).body).toMatchObject({ name: 'compressed' });
  });

  it('answers bad input with a 4xx naming the field, never a 500', async () => {
    const id = randomUUID();
    const cases: [Promise<Response>, number, unknown][] = [
      [send('/runs', JSON.stringify({ id: 'nope' })), 422, ['body', 'id']],
      [send('/runs', JSON.stringify({ id, start_time: 'tomorrow' })), 422, ['body', 'start_time']],
      [send('/runs/batch', JSON.stringify({ post: [{ id, dotted_order: 'bad' }] })), 422, ['body', 'post', 0, 'dotted_order']],
      [send('/runs/batch', '{"post": ['), 422, undefined],
      [send(`/runs/${id}`, JSON.stringify({ end_time: 1714564800000 }), {}, 'PATCH'), 404, undefined],
      [send('/runs/multipart', 'garbage', { 'content-type': 'multipart/form-data; boundary=x' }), 400, undefined],
      [send('/runs/multipart', Buffer.from('garbage'), { 'content-type': 'multipart/form-data; boundary=x', 'content-encoding': 'gzip' }), 400, undefined],
      [fetch(`${apiUrl}/runs/not-a-uuid`, { headers: headers() }), 422, ['path', 'run_id']],
    ];
    for (const [pending, status, loc] of cases) {
      const res = await pending;
      const body = (await res.json()) as RunBody;
      expect({ status: res.status, loc: loc && body.detail?.[0].loc }).toEqual({ status, loc });
    }
  });

  it('keeps runs to their workspace: another one can neither read nor update them', async () => {
    const other = (await (
      await fetch(`${platform.gatewayUrl}/api/v1/workspaces`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body: JSON.stringify({ display_name: 'Elsewhere' }) })
    ).json()) as { id: string };
    const id = randomUUID();
    expect((await send('/runs', JSON.stringify({ id, name: 'private' }))).status).toBe(202);
    expect((await getRun(id, other.id)).status).toBe(404);
    const patch = await fetch(`${apiUrl}/runs/${id}`, { method: 'PATCH', headers: { ...headers(other.id), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'stolen' }) });
    expect(patch.status).toBe(404);
    // A batch update from the other workspace lands in that workspace only (as an update without its create).
    await fetch(`${apiUrl}/runs/batch`, { method: 'POST', headers: { ...headers(other.id), 'content-type': 'application/json' }, body: JSON.stringify({ patch: [{ id, name: 'stolen' }] }) });
    expect((await getRun(id)).body).toMatchObject({ name: 'private' });
  });
});
