import { randomUUID } from 'node:crypto';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';

// Bulk export through the gateway with every service in-process: the export service checks filters and projects
// with the tracing service (which owns both) when an export is created.
describe('bulk exports through the gateway', () => {
  let platform: TestPlatform;
  let s3: TestS3Server;
  let api: string;
  let destinationId: string;
  let sessionId: string;

  const call = async (method: string, path: string, body?: unknown, tenant?: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-api-key': platform.adminKey, 'x-tenant-id': tenant ?? platform.workspaceId },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: ['exports'] });
    platform = await startTestPlatform();
    api = `${platform.gatewayUrl}/api/v1`;
    const project = await call('POST', '/sessions', { name: `export-e2e-${randomUUID()}` });
    sessionId = project.body.id;
    const dest = await call('POST', '/bulk-exports/destinations', {
      destination_type: 's3',
      display_name: 'e2e',
      config: { bucket_name: 'exports', prefix: 'e2e', endpoint_url: s3.endpoint, config_kwargs_s3: { addressing_style: 'path' } },
      credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER' },
    });
    expect(dest.status).toBe(200);
    destinationId = dest.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
    await s3?.close();
  });

  const until = async (read: () => Promise<unknown>, wanted: unknown, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    while ((last = await read()) !== wanted) {
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(last)} after ${timeoutMs} ms, waiting for ${JSON.stringify(wanted)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const exportBody = (overrides: Record<string, unknown> = {}) => ({
    bulk_export_destination_id: destinationId,
    session_id: sessionId,
    start_time: '2024-05-01T00:00:00Z',
    end_time: '2024-05-02T00:00:00Z',
    ...overrides,
  });

  it('creates an export with a valid filter; routes destinations, runs and exports', async () => {
    const created = await call('POST', '/bulk-exports', exportBody({ filter: 'and(eq(run_type, "llm"), gt(total_tokens, 5))' }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ session_id: sessionId, filter: 'and(eq(run_type, "llm"), gt(total_tokens, 5))' });
    expect((await call('GET', `/bulk-exports/${created.body.id}/runs`)).body).toHaveLength(1);
    expect((await call('GET', '/bulk-exports/destinations')).body.map((d: { id: string }) => d.id)).toContain(destinationId);
    // Its one day has no runs: the in-process worker completes it at once, so a cancel now would race with that.
    // Once it is final, a cancel is refused as the conflict it is (a final export is never restarted or changed).
    await until(async () => (await call('GET', `/bulk-exports/${created.body.id}`)).body.status, 'Completed');
    const late = await call('PATCH', `/bulk-exports/${created.body.id}`, { status: 'Cancelled' });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/is Completed and cannot be cancelled/);
  });

  it('cancels an export that has not finished (a schedule, in any casing of the status)', async () => {
    const schedule = await call('POST', '/bulk-exports', exportBody({ end_time: undefined, interval_hours: 24, start_time: '2099-01-01T00:00:00Z' }));
    expect(schedule.body.status).toBe('IntervalScheduled');
    const cancelled = await call('PATCH', `/bulk-exports/${schedule.body.id}`, { status: 'CANCELLED' });
    expect(cancelled).toMatchObject({ status: 200, body: { id: schedule.body.id, status: 'Cancelled' } });
    expect((await call('GET', `/bulk-exports/${schedule.body.id}`)).body.status).toBe('Cancelled');
  });

  it('rejects a bad filter with a 422 naming the problem, checked by the tracing service', async () => {
    const bad = await call('POST', '/bulk-exports', exportBody({ filter: 'and(eq(run_type, "llm"),' }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'filter'], type: 'value_error' });
    expect(bad.body.detail[0].msg).toBe('Unexpected end of input at position 24: expected a value');
    const unknownField = await call('POST', '/bulk-exports', exportBody({ filter: 'eq(colour, "red")' }));
    expect(unknownField.status).toBe(422);
  });

  it('404 for a tracing project that is not in the workspace', async () => {
    const missing = await call('POST', '/bulk-exports', exportBody({ session_id: randomUUID() }));
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/Tracing project .* not found/);
  });
});
