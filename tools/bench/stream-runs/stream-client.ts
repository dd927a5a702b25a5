// The benchmark's StreamRuns client, in a process of its own (as an exporter would be), so decoding
// does not share the server's event loop. Driven over IPC by run.ts: one message per stream to read.
import type { NdjsonRuns, Run, RunsClient, StreamRunsRequest } from '@platform/contracts';
import { runsService } from '@platform/contracts';
import { createClient, readStream } from '@platform/grpc';

export interface StreamJob {
  address: string;
  request: StreamRunsRequest;
}

export interface StreamResult {
  rows: number;
  /**
   * UTF-8 bytes of the field values received (protobuf framing adds a few bytes per field); for NDJSON batches,
   * the bytes of the lines (keys, quotes and escapes included).
   */
  bytes: number;
  seconds: number;
}

function payloadBytes(run: Run): number {
  let bytes = 0;
  for (const value of Object.values(run)) {
    if (typeof value === 'string') bytes += Buffer.byteLength(value);
    else if (Array.isArray(value)) for (const item of value) bytes += Buffer.byteLength(String(item));
    else bytes += 8;
  }
  return bytes;
}

/** Reads a whole stream, counting rows and payload bytes. */
export async function measure(source: AsyncIterable<{ runs?: Run[]; ndjson?: NdjsonRuns | null }>): Promise<StreamResult> {
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  for await (const batch of source) {
    for (const run of batch.runs ?? []) bytes += payloadBytes(run);
    rows += batch.runs?.length ?? 0;
    rows += batch.ndjson?.count ?? 0;
    bytes += batch.ndjson?.lines?.length ?? 0;
  }
  return { rows, bytes, seconds: (performance.now() - started) / 1000 };
}

const clients = new Map<string, RunsClient>();

async function read(job: StreamJob): Promise<StreamResult> {
  let client = clients.get(job.address);
  if (!client) {
    client = createClient(runsService().Client, job.address, { defaultDeadlineMs: 30 * 60_000 });
    clients.set(job.address, client);
  }
  return measure(readStream(client, 'StreamRuns', job.request));
}

// Only as the forked child; run.ts imports `measure` from here too.
if (require.main === module && process.send) {
  process.on('message', (job: StreamJob) => {
    read(job).then(
      (result) => process.send?.({ result }),
      (err: unknown) => process.send?.({ error: String(err) }),
    );
  });
  process.on('disconnect', () => {
    for (const client of clients.values()) client.close();
  });
}
