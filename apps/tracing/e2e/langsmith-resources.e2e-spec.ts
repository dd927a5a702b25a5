import { randomUUID } from 'node:crypto';
import { Client, NotFoundError } from 'langsmith';
import { getCurrentRunTree, traceable } from 'langsmith/traceable';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// The in-process platform on PGlite (no DATABASE_URL) starts slowly.
jest.setTimeout(120_000);

const PHOTO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 300 }, (_, i) => (i * 31) % 256)]);
const REPORT = Buffer.from('%PDF-1.4 a small report\n');

/**
 * The `langsmith` SDK 0.12 resource API (`client.runs`, `client.traces`) and run attachments, end to end: traces
 * sent by `traceable` through the gateway, read back with the SDK's own calls, attachments downloaded from the
 * links it hands out.
 */
describe('langsmith SDK resource API and attachments through the gateway', () => {
  let platform: TestPlatform;
  let client: Client;
  let projectId: string;
  const warnings: string[] = [];
  const ids: Record<string, string> = {};
  const project = `e2e-resources-${randomUUID().slice(0, 8)}`;
  const window = { min_start_time: new Date(Date.now() - 3_600_000).toISOString() };

  beforeAll(async () => {
    jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    platform = await startTestPlatform();
    client = new Client({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: platform.adminKey, workspaceId: platform.workspaceId });

    const config = { client, project_name: project, tracingEnabled: true };
    const chat = traceable(
      async (prompt: string) => {
        ids.chat = getCurrentRunTree().id;
        return { content: `answer to ${prompt}`, usage_metadata: { input_tokens: 12, output_tokens: 8, total_tokens: 20 } };
      },
      { ...config, name: 'chat', run_type: 'llm' },
    );
    const agent = traceable(
      async (_photo: Uint8Array, question: string) => {
        const run = getCurrentRunTree();
        ids.agent = run.id;
        await chat(question);
        await chat('again');
        // Added while the run works: sent with its update rather than its create.
        run.attachments = { ...run.attachments, report: { mimeType: 'application/pdf', data: REPORT } };
        return { answer: 'done' };
      },
      {
        ...config,
        name: 'agent',
        run_type: 'chain',
        // The photo goes with the run's create as an attachment, not as an input.
        extractAttachments: (photo: Uint8Array, question: string) => [{ photo: ['image/png', photo] as [string, Uint8Array] }, { question }],
      },
    );
    await agent(new Uint8Array(PHOTO), 'what is in the picture?');
    await client.awaitPendingTraceBatches();
    projectId = (await client.readProject({ projectName: project })).id;
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await platform?.stop();
  });

  it('queries runs with selected fields, paging through the cursor as the SDK does', async () => {
    const runs = [];
    for await (const run of client.runs.query({ project_ids: [projectId], ...window, page_size: 1, selects: ['NAME', 'RUN_TYPE', 'TOTAL_TOKENS', 'PARENT_RUN_IDS'] })) {
      runs.push(run);
    }
    expect(runs.map((r) => [r.name, r.run_type])).toEqual([
      ['chat', 'LLM'],
      ['chat', 'LLM'],
      ['agent', 'CHAIN'],
    ]);
    expect(runs[2]).toEqual({ id: ids.agent, name: 'agent', run_type: 'CHAIN', total_tokens: 0, parent_run_ids: [] });
    expect(runs[0].parent_run_ids).toEqual([ids.agent]);

    const llms = [];
    for await (const run of client.runs.query({ project_ids: [projectId], ...window, filter: 'eq(run_type, "llm")', is_root: false })) llms.push(run);
    expect(llms).toHaveLength(2);
    expect(Object.keys(llms[0] as object)).toEqual(['id']);

    const rolledUp = await client.runs.query({ project_ids: [projectId], ...window, ids: [ids.agent], selects: ['TOTAL_TOKENS'], include_subtree_usage: true });
    expect(rolledUp.items).toEqual([{ id: ids.agent, total_tokens: 40 }]);

    const streamed = [];
    for await (const run of client.runs.streaming.queryV2Items({ project_ids: [projectId], ...window, page_size: 2, selects: ['NAME'] })) streamed.push(run.name);
    expect(streamed).toEqual(['chat', 'chat', 'agent']);
  });

  it('retrieves one run, and answers an unknown one with NotFoundError', async () => {
    const run = await client.runs.retrieve(ids.chat, { project_id: projectId, selects: ['NAME', 'STATUS', 'PROMPT_TOKENS', 'TRACE_ID', 'OUTPUTS'] });
    expect(run).toEqual({
      id: ids.chat,
      name: 'chat',
      status: 'SUCCESS',
      prompt_tokens: 12,
      trace_id: ids.agent,
      outputs: { content: 'answer to again', usage_metadata: { input_tokens: 12, output_tokens: 8, total_tokens: 20 } },
    });
    await expect(client.runs.retrieve(randomUUID(), { project_id: projectId })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('queries traces with their aggregates, and lists the runs of one trace', async () => {
    const traces = [];
    for await (const trace of client.traces.query({ project_id: projectId, ...window, selects: ['NAME', 'TOTAL_TOKENS'] })) traces.push(trace);
    expect(traces).toEqual([{ root_run: { id: ids.agent, name: 'agent' }, trace_aggregates: { total_tokens: 40 }, query_metadata: null }]);
    const noTool = await client.traces.query({ project_id: projectId, ...window, tree_filter: 'eq(run_type, "tool")' });
    expect(noTool.items).toEqual([]);

    const { items } = await client.traces.listRuns(ids.agent, { project_id: projectId, selects: ['NAME', 'IS_ROOT'] });
    expect(items?.map((r) => [r.name, r.is_root])).toEqual([
      ['agent', true],
      ['chat', false],
      ['chat', false],
    ]);
  });

  it('keeps attachments sent with a run create and update, and serves them from the links it hands out', async () => {
    const run = await client.runs.retrieve(ids.agent, { project_id: projectId, selects: ['ATTACHMENTS', 'INPUTS'] });
    // The photo was taken out of the inputs.
    expect(run.inputs).toEqual({ question: 'what is in the picture?' });
    expect(Object.keys(run.attachments ?? {}).sort()).toEqual(['photo', 'report']);
    for (const [name, bytes, type] of [
      ['photo', PHOTO, 'image/png'],
      ['report', REPORT, 'application/pdf'],
    ] as const) {
      const url = (run.attachments ?? {})[name] as string;
      expect(url.startsWith(`${platform.gatewayUrl}/api/v1/public/download?jwt=`)).toBe(true);
      // A pre-signed link needs no API key.
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    }
    const forged = (run.attachments?.['photo'] as string).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetch(forged)).status).toBe(403);
  });

  it('announces a backend version the SDK accepts for these resources', async () => {
    const info = (await (await fetch(`${platform.gatewayUrl}/api/v1/info`, { headers: { 'x-api-key': platform.adminKey } })).json()) as { version: string };
    expect(info.version).toBe('0.16.0');
    expect(warnings.filter((w) => w.includes('older than the minimum version'))).toEqual([]);
    expect(warnings.filter((w) => w.includes('LANGSMITH'))).toEqual([]);
  });
});
