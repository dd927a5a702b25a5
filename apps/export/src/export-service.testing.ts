// The export service as `startExport` wires it, on a database of the test's own (scratch Postgres with DATABASE_URL,
// else in-memory PGlite) and a job bus the test can consume, with the HTTP API reachable with signed identities and
// the gRPC progress API reachable with the internal token. Logs are captured so tests can check them for secrets.
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { exportPartitionQueue, exportProgressService, type ExportProgressClient } from '@platform/contracts';
import { TEST_EGRESS_ENV } from '@platform/export-s3/testing';
import { openExportDatabase, type ExportDatabase } from '@platform/export-data-access';
import { createClient } from '@platform/grpc';
import type { RunningService } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { createJobBus, defineQueue, type JetStreamJobBus, type JobBus } from '@platform/job-bus';
import { createLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { loadExportConfig } from './config';
import { startExport } from './service';

export const TEST_SECRET = 'export-test-internal-secret-0123';

/** The partition queue under a subject of the test's own: streams on a shared NATS must not overlap. */
export function testPartitionQueue() {
  const tag = randomUUID().slice(0, 8);
  return defineQueue({ name: `test-export-partitions-${tag}`, subject: `test.${tag}.export.partitions`, schema: exportPartitionQueue.schema });
}

export interface TestExportService {
  url: string;
  db: ExportDatabase;
  bus: JobBus;
  /** The partition-job queue the service publishes on (a subject of this test's own). */
  queue: ReturnType<typeof testPartitionQueue>;
  progress: ExportProgressClient;
  encryptionKey: string;
  /** Every log line written so far. */
  logs(): string;
  /** JSON request as a caller of workspace `tenantId`, through the gateway's signed identity. */
  call(tenantId: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export async function startTestExportService(env: Record<string, string> = {}): Promise<TestExportService> {
  const where: TestDatabase = await createTestDatabase();
  const db = await openExportDatabase({ url: where.url, dataDir: where.dataDir });
  await db.migrate();
  // JetStream (a stream of the test's own) when NATS_URL is set, else the in-process bus.
  const bus = await createJobBus({ natsUrl: process.env['NATS_URL'] || undefined });
  const queue = testPartitionQueue();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const encryptionKey = randomBytes(32).toString('base64');
  let service: RunningService;
  try {
    const config = loadExportConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: '0',
      INTERNAL_SECRET: TEST_SECRET,
      DATA_DIR: 'memory://',
      EXPORT_ENCRYPTION_KEY: encryptionKey,
      EXPORT_DISPATCH_INTERVAL: '50ms',
      EXPORT_SWEEP_INTERVAL: '50ms',
      EXPORT_SCHEDULE_INTERVAL: '50ms',
      EXPORT_DESTINATION_CHECK_TIMEOUT: '5s',
      // s3rver and the fault proxies listen on 127.0.0.1, which only the operator's allowlist opens.
      ...TEST_EGRESS_ENV,
      ...env,
    });
    service = await startExport(config, createLogger({ service: 'export', level: 'debug', destination: sink }), { bus, database: db, partitionQueue: queue });
  } catch (err) {
    await bus.close();
    await db.close();
    await where.drop();
    throw err;
  }
  const progress = createClient(exportProgressService().Client, `127.0.0.1:${service.grpcPort}`, { token: TEST_SECRET });
  return {
    url: service.url,
    db,
    bus,
    queue,
    progress,
    encryptionKey,
    logs: () => lines.join(''),
    async call(tenantId, method, path, body) {
      const requestId = randomUUID();
      const headers = {
        'content-type': 'application/json',
        'x-request-id': requestId,
        ...signIdentity(TEST_SECRET, { tenantId, organizationId: randomUUID(), subject: 'test-key' }, requestId),
      };
      const res = await fetch(`${service.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      progress.close();
      await service.stop();
      if (bus.kind === 'jetstream') await (bus as JetStreamJobBus).deleteQueue(queue);
      await bus.close();
      await db.close();
      await where.drop();
    },
  };
}
