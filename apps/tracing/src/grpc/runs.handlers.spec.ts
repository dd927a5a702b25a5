import { randomUUID } from 'node:crypto';
import type { RunBatch__Output, RunsClient, StreamRunsRequest } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import { readStream } from '@platform/grpc';
import { openTracingDatabase, type TracingDatabase } from '@platform/tracing-data-access';
import { DAY_US, insertProject, insertRuns, startRunsServer, T0_US } from './stream-runs.testing';

let db: TracingDatabase;
let runs: Awaited<ReturnType<typeof startRunsServer>>;
let client: RunsClient;
const tenantId = randomUUID();
const sessionId = randomUUID();
const window = { tenant_id: tenantId, session_id: sessionId, start_time: T0_US.toString(), end_time: (T0_US + DAY_US).toString() };

beforeAll(async () => {
  db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  await insertProject(db.prisma, tenantId, sessionId);
  await insertRuns(db.prisma, { tenantId, sessionId, count: 120, perTimestamp: 6, payloadChars: 300 });
  runs = await startRunsServer(db.prisma);
  client = runs.client;
});
afterAll(async () => {
  await runs?.close();
  await db?.close();
});

async function read(request: StreamRunsRequest): Promise<RunBatch__Output[]> {
  const batches: RunBatch__Output[] = [];
  for await (const batch of readStream(client, 'StreamRuns', request)) batches.push(batch);
  return batches;
}

describe('tracing.v1.Runs/StreamRuns over gRPC (PGlite)', () => {
  it('streams the window in batches, each with its last run as cursor', async () => {
    const batches = await read({ ...window, batch_size: 50, fields: ['outputs', 'total_tokens'] });
    expect(batches.map((b) => b.runs.length)).toEqual([50, 50, 20]);
    const last = batches[2].runs[19];
    expect(batches[2].cursor).toEqual({ start_time: last.start_time, id: last.id });
    expect(last).toMatchObject({ total_tokens: expect.stringMatching(/^\d+$/), name: '' });
    expect(JSON.parse(last.outputs!)).toHaveProperty('answer');
    expect(last.inputs).toBeUndefined();
  });

  it('resumes from a cursor sent as numbers or strings', async () => {
    const all = (await read(window)).flatMap((b) => b.runs.map((r) => r.id));
    const [first] = await read({ ...window, batch_size: 10 });
    const rest = (await read({ ...window, cursor: { start_time: Number(first.cursor!.start_time), id: first.cursor!.id } })).flatMap((b) =>
      b.runs.map((r) => r.id),
    );
    expect([...first.runs.map((r) => r.id), ...rest]).toEqual(all);
  });

  it('answers INVALID_ARGUMENT naming the bad field or filter, and NOT_FOUND for an unknown project', async () => {
    await expect(read({ ...window, fields: ['name', 'secret'] })).rejects.toThrow(new InputError('fields: unknown or non-exportable field "secret"'));
    await expect(read({ ...window, end_time: window.start_time })).rejects.toThrow(InputError);
    await expect(read({ ...window, session_id: 'nope' })).rejects.toThrow('session_id must be a UUID');
    await expect(read({ ...window, filter: 'eq(run_type,' })).rejects.toThrow(InputError);
    await expect(read({ ...window, session_id: randomUUID() })).rejects.toThrow(NotFoundError);
  });
});
