import { randomUUID } from 'node:crypto';
import { Client } from 'langsmith';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// Per-workspace limits through the whole platform (gateway → tracing), set with the admin API, and the langsmith SDK
// against them: it backs off on 429 and its runs end up stored once.
describe('fair sharing between workspaces (all services in-process)', () => {
  let platform: TestPlatform;
  let a: string;
  let b: string;
  let keyB: string;

  const admin = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const setLimits = async (workspace: string, limits: Record<string, number | null>) => {
    const res = await admin(`/api/v1/workspaces/${workspace}/limits`, 'PATCH', limits);
    expect(res.status).toBe(200);
    return res.json();
  };
  const sessions = (key: string, workspace: string) =>
    fetch(`${platform.gatewayUrl}/api/v1/sessions?limit=1`, { headers: { 'x-api-key': key, 'x-tenant-id': workspace } });

  beforeAll(async () => {
    platform = await startTestPlatform();
    a = platform.workspaceId;
    const created = await admin('/api/v1/workspaces', 'POST', { display_name: `b-${randomUUID().slice(0, 8)}` });
    b = ((await created.json()) as { id: string }).id;
    const key = await admin('/api/v1/api-keys', 'POST', { workspace_id: b, description: 'workspace B' });
    keyB = ((await key.json()) as { key: string }).key;
  });
  afterAll(() => platform?.stop());

  it("answers A's flood past its requests per second with 429 and Retry-After, while B's requests all pass", async () => {
    await setLimits(a, { requests_per_second: 0.5, requests_burst: 5 });
    try {
      const flood = await Promise.all(Array.from({ length: 25 }, () => sessions(platform.adminKey, a)));
      const statuses = flood.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(5);
      const refused = flood.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(15);
      for (const r of refused) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused[0].json()).toEqual({ detail: expect.stringMatching(/requests per second/) });
      const other = await Promise.all(Array.from({ length: 25 }, () => sessions(keyB, b)));
      expect(other.map((r) => r.status)).toEqual(Array(25).fill(200));
    } finally {
      await setLimits(a, { requests_per_second: null, requests_burst: null });
    }
    // Back to the default: A is let through again.
    expect((await sessions(platform.adminKey, a)).status).toBe(200);
  });

  it('lets the langsmith SDK back off on 429 past the ingest rate; every run is stored exactly once, B unaffected', async () => {
    await setLimits(a, { ingest_runs_per_second: 5, ingest_runs_burst: 10 });
    const statuses: number[] = [];
    // The SDK's own fetch, watched: the 429s must reach it, and it must send again.
    const watched: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/runs/multipart') || String(input).endsWith('/runs/batch')) statuses.push(res.status);
      return res;
    };
    const client = new Client({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: platform.adminKey, workspaceId: a, fetchImplementation: watched, autoBatchTracing: false });
    const clientB = new Client({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: keyB, workspaceId: b, autoBatchTracing: false });
    const project = `fair-${randomUUID().slice(0, 8)}`;
    const projectB = `fair-b-${randomUUID().slice(0, 8)}`;
    const batchOf = (name: string) =>
      Array.from({ length: 10 }, (_, i) => {
        const id = randomUUID();
        return { id, trace_id: id, dotted_order: `20240501T120000000001Z${id}`, name: `run-${i}`, run_type: 'chain', inputs: { i }, session_name: name, start_time: Date.now() };
      });
    const batches = [batchOf(project), batchOf(project), batchOf(project)];
    try {
      // 30 runs at once against 10 at once and 5 a second: the second and third batches are refused at first.
      const sent = Promise.all(batches.map((runCreates) => client.multipartIngestRuns({ runCreates })));
      // Meanwhile B ingests at its default limits, untouched.
      await clientB.multipartIngestRuns({ runCreates: batchOf(projectB) });
      await sent;
    } finally {
      await setLimits(a, { ingest_runs_per_second: null, ingest_runs_burst: null });
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);

    const stored: string[] = [];
    for await (const run of client.listRuns({ projectName: project })) stored.push(run.id);
    expect(stored.sort()).toEqual(batches.flat().map((r) => r.id).sort());
    const storedB: string[] = [];
    for await (const run of clientB.listRuns({ projectName: projectB })) storedB.push(run.id);
    expect(storedB).toHaveLength(10);
  });
});
