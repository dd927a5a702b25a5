// StreamRuns throughput: inserts N realistic runs into a scratch Postgres database, then streams them
// over real gRPC on loopback with all fields and with a small field set, as Run messages and as NDJSON (what
// the export worker asks for), printing rows/s and MB/s.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/stream-runs/run.ts [--runs=200000] [--batch-size=1000]
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { StreamRunsRequest } from '@platform/contracts';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { openPostgresCopySql, openTracingDatabase, prismaUnsortedSql, TracingProjectsRepository, type PostgresCopySql, type TracingDatabase } from '@platform/tracing-data-access';
import { RunPageRepository, selectedRunFields, streamRunBatches, type RunStreamQuery } from '@platform/tracing-runs';
import { DAY_US, insertProject, insertRuns, startRunsServer, T0_US } from '../../../apps/tracing/src/grpc/stream-runs.testing';
import { intOption } from '../options';
import { measure, type StreamJob, type StreamResult } from './stream-client';

const MAX_RUNS = 2_000_000; // bounded: the scratch database stays a few GB at most
const INSERT_CHUNK = 25_000;
const SMALL_FIELDS = ['name', 'run_type', 'status', 'end_time', 'total_tokens', 'total_cost', 'tags'];
const FILTER = 'eq(run_type, "llm")'; // a third of the runs

function report(label: string, { rows, bytes, seconds }: StreamResult): void {
  const rate = Math.round(rows / seconds).toLocaleString('en-US');
  const mb = (bytes / 1e6 / seconds).toFixed(1);
  console.log(`${label.padEnd(48)} ${rows.toLocaleString('en-US').padStart(9)} rows  ${seconds.toFixed(2).padStart(6)} s  ${rate.padStart(8)} rows/s  ${mb.padStart(6)} MB/s`);
}

/** The client process (stream-client.ts): one stream per call, read there, measured there. */
function clientProcess() {
  // fork reuses this process's execArgv, i.e. tsx's loader.
  const child: ChildProcess = fork(path.join(__dirname, 'stream-client.ts'), { stdio: 'inherit' });
  const read = (job: StreamJob) =>
    new Promise<StreamResult>((resolve, reject) => {
      child.once('message', (reply: { result?: StreamResult; error?: string }) => (reply.result ? resolve(reply.result) : reject(new Error(reply.error))));
      child.send(job);
    });
  return { read, close: () => child.disconnect() };
}

async function seed(db: TracingDatabase, tenantId: string, sessionId: string, runs: number): Promise<void> {
  await insertProject(db.prisma, tenantId, sessionId);
  const started = performance.now();
  for (let done = 0; done < runs; done += INSERT_CHUNK) {
    const count = Math.min(INSERT_CHUNK, runs - done);
    // 4 runs per start time, spread over the day: ties exercise the (start_time, id) order.
    await insertRuns(db.prisma, { tenantId, sessionId, count, firstUs: T0_US + BigInt(done / 4) * 100n, stepUs: 100, perTimestamp: 4, payloadChars: 1500 });
    process.stdout.write(`\rinserted ${(done + count).toLocaleString('en-US')} runs`);
  }
  await db.prisma.$executeRawUnsafe('VACUUM ANALYZE runs');
  const [{ size }] = await db.prisma.$queryRawUnsafe<{ size: string }[]>(`SELECT pg_size_pretty(pg_total_relation_size('runs')) AS size`);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(1)} s (runs table ${size})`);
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('Set DATABASE_URL (a Postgres role allowed to CREATE DATABASE)');
  const runs = Math.min(intOption('runs', 200_000), MAX_RUNS);
  const batchSize = intOption('batch-size', 1000);
  const scratch = await createScratchPostgresDatabase(adminUrl);
  // Ctrl-C still drops the scratch database (the connections are closed by DROP ... WITH (FORCE)).
  process.once('SIGINT', () => void scratch.drop().finally(() => process.exit(130)));
  let db: TracingDatabase | undefined;
  let server: Awaited<ReturnType<typeof startRunsServer>> | undefined;
  let copyServer: Awaited<ReturnType<typeof startRunsServer>> | undefined;
  let copy: PostgresCopySql | undefined;
  let client: ReturnType<typeof clientProcess> | undefined;
  try {
    db = await openTracingDatabase({ url: scratch.url, dataDir: 'memory://' });
    await db.migrate();
    const tenantId = randomUUID();
    const sessionId = randomUUID();
    await seed(db, tenantId, sessionId, runs);

    server = await startRunsServer(db.prisma);
    // As the tracing service serves on Postgres: NDJSON pages by binary COPY.
    copy = openPostgresCopySql(scratch.url);
    copyServer = await startRunsServer(db.prisma, { copy });
    client = clientProcess();
    const address = `127.0.0.1:${server.port}`;
    const request: StreamRunsRequest = {
      tenant_id: tenantId,
      session_id: sessionId,
      start_time: T0_US.toString(),
      end_time: (T0_US + DAY_US).toString(),
      batch_size: batchSize,
    };
    const query: RunStreamQuery = { tenantId, sessionId, startUs: T0_US, endUs: T0_US + DAY_US, fields: [], batchSize };
    const deps = { runs: new RunPageRepository(prismaUnsortedSql(db.prisma)), projects: new TracingProjectsRepository(db.prisma) };
    const copyDeps = { ...deps, runs: new RunPageRepository(prismaUnsortedSql(db.prisma), copy) };
    const copyAddress = `127.0.0.1:${copyServer.port}`;

    console.log(`StreamRuns: ${runs.toLocaleString('en-US')} runs, batch_size ${batchSize}, gRPC on ${address}, client in a child process`);
    await client.read({ address, request }); // warm-up: JIT, page cache
    report('gRPC, all 29 fields', await client.read({ address, request }));
    report('gRPC, all 29 fields, NDJSON', await client.read({ address, request: { ...request, encoding: 'RUN_ENCODING_NDJSON' } }));
    report('gRPC, all 29 fields, NDJSON, pages by COPY', await client.read({ address: copyAddress, request: { ...request, encoding: 'RUN_ENCODING_NDJSON' } }));
    report(`gRPC, ${SMALL_FIELDS.length + 2} fields (no inputs/outputs/extra/events)`, await client.read({ address, request: { ...request, fields: SMALL_FIELDS } }));
    const llm = await client.read({ address, request: { ...request, fields: SMALL_FIELDS, filter: FILTER } });
    report(`gRPC, ${SMALL_FIELDS.length + 2} fields, filter ${FILTER}`, llm);
    report('stream query only (no gRPC), all fields', await measure(streamRunBatches(deps, query)));
    report('stream query only (no gRPC), all fields, NDJSON', await measure(streamRunBatches(deps, { ...query, encoding: 'ndjson' })));
    report('stream query only (no gRPC), NDJSON by COPY', await measure(streamRunBatches(copyDeps, { ...query, encoding: 'ndjson' })));
    const plan = await deps.runs.explain({ ...query, filter: undefined, fields: selectedRunFields([]), limit: batchSize });
    console.log(`page plan: ${plan.split('\n')[1]?.trim()}`);
  } finally {
    client?.close();
    await copyServer?.close();
    await copy?.close();
    await server?.close();
    await db?.close();
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
