import { runsService, type RunBatch, type RunsClient, type StreamRunsRequest__Output } from '@platform/contracts';
import { createClient, serverStream, startGrpcServer, type GrpcServerHandle } from '@platform/grpc';
import type { RunQuery } from '../ports';
import { GrpcRunSource } from './grpc-run-source';

const runs = Array.from({ length: 5 }, (_, i) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  start_time: String(1_714_521_600_000_000 + i),
  name: `run-${i}`,
  inputs: JSON.stringify({ q: `"quoted" ${i}` }),
}));
const cursorOf = (run: (typeof runs)[number]) => ({ start_time: run.start_time, id: run.id });
const query: RunQuery = { tenantId: 't', sessionId: 's', startUs: '0', endUs: '1', filter: '', fields: ['name', 'inputs'] };

// A loopback StreamRuns server: today's (NDJSON when asked) or one that predates the encoding (messages always).
async function serve(honoursEncoding: boolean) {
  const requests: StreamRunsRequest__Output[] = [];
  const service = runsService();
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [
      service.implement({
        StreamRuns: serverStream(async function* (request: StreamRunsRequest__Output): AsyncGenerator<RunBatch> {
          requests.push(request);
          for (const page of [runs.slice(0, 3), runs.slice(3)]) {
            const cursor = cursorOf(page[page.length - 1]);
            if (honoursEncoding && request.encoding === 'RUN_ENCODING_NDJSON') {
              const lines = page.map((run) => JSON.stringify(run));
              const ndjson = { lines: Buffer.from(lines.map((line) => `${line}\n`).join('')), count: page.length, max_line_bytes: Math.max(...lines.map((l) => l.length)) };
              yield { ndjson, cursor };
            } else {
              yield { runs: page, cursor };
            }
          }
          yield { cursor: cursorOf(runs[4]) }; // an empty batch is skipped
        }),
      }),
    ],
  });
  const client: RunsClient = createClient(service.Client, `127.0.0.1:${server.port}`);
  return { requests, client, server };
}

describe('GrpcRunSource', () => {
  let handles: { client: RunsClient; server: GrpcServerHandle }[] = [];
  afterEach(async () => {
    for (const { client, server } of handles) {
      client.close();
      await server.shutdown(1_000);
    }
    handles = [];
  });

  async function read(honoursEncoding: boolean) {
    const served = await serve(honoursEncoding);
    handles.push(served);
    const pages = [];
    for await (const page of new GrpcRunSource(served.client, { deadlineMs: 10_000 }).stream(query, new AbortController().signal)) pages.push(page);
    return { pages, requests: served.requests };
  }

  it('asks for NDJSON and hands the lines on as they came, with count, longest line and cursor', async () => {
    const { pages, requests } = await read(true);
    expect(requests[0]).toMatchObject({ encoding: 'RUN_ENCODING_NDJSON', fields: ['name', 'inputs'] });
    expect(pages.map((p) => p.rows.count)).toEqual([3, 2]);
    expect(pages[0].rows.lines.toString()).toBe(runs.slice(0, 3).map((run) => `${JSON.stringify(run)}\n`).join(''));
    expect(pages[0].rows.maxLineBytes).toBe(Math.max(...runs.slice(0, 3).map((run) => JSON.stringify(run).length)));
    expect(pages.map((p) => p.cursor)).toEqual([
      { startTime: runs[2].start_time, id: runs[2].id },
      { startTime: runs[4].start_time, id: runs[4].id },
    ]);
  });

  it('serializes the Run messages of a tracing server that predates the encoding, rather than skipping them', async () => {
    const { pages } = await read(false);
    expect(pages.map((p) => p.rows.count)).toEqual([3, 2]);
    const rows = pages.flatMap((p) => p.rows.lines.toString().trimEnd().split('\n').map((line) => JSON.parse(line)));
    expect(rows).toEqual(runs.map((run) => expect.objectContaining(run)));
    expect(pages[1].cursor).toEqual({ startTime: runs[4].start_time, id: runs[4].id });
  });
});
