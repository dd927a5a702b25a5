import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { signIdentity } from '@platform/identity';
import { silentLogger } from '@platform/logging';
import { openTracingDatabase, prismaIngestSql, TracingProjectsRepository, type TracingDatabase } from '@platform/tracing-data-access';
import { AttachmentLinks, IngestAdmission, IngestRuns, RunAttachmentsRepository, RunQueryRepository, RunsRepository } from '@platform/tracing-runs';
import { createTracingApp, type TracingBodyLimits } from '../app';

export const TEST_SECRET = 'test-internal-secret-123';

/** The tracing app on in-memory PGlite, as `startTracing` wires it (with small limits for tests: 1 MiB, or as given). */
export async function startTestTracingApp(
  options: { bodyLimits?: Partial<TracingBodyLimits>; maxAttachmentBytes?: number; admission?: (runs: RunsRepository) => IngestAdmission } = {},
): Promise<{ app: Express; db: TracingDatabase }> {
  const db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  const projects = new TracingProjectsRepository(db.prisma);
  const sql = prismaIngestSql(db.prisma);
  const runs = new RunsRepository(sql);
  const app = createTracingApp({
    logger: silentLogger,
    internalSecret: TEST_SECRET,
    projects,
    ingest: new IngestRuns(projects, runs, { admission: options.admission?.(runs) }),
    runs,
    queries: new RunQueryRepository(sql),
    attachments: new RunAttachmentsRepository(sql),
    links: new AttachmentLinks({ secret: TEST_SECRET, ttlSeconds: 60 }),
    version: 'test',
    batchSizeLimitBytes: 1000,
    batchSizeLimit: 100,
    bodyLimits: { multipart: 1 << 20, jsonIngest: 1 << 20, other: 1 << 20, ...options.bodyLimits },
    maxAttachmentBytes: options.maxAttachmentBytes ?? 1 << 20,
  });
  return { app, db };
}

/** Headers the gateway would add for a caller of workspace `tenantId`. */
export function asTenant(tenantId: string): Record<string, string> {
  const requestId = randomUUID();
  return { 'x-request-id': requestId, ...signIdentity(TEST_SECRET, { tenantId, organizationId: 'org', subject: 'key' }, requestId) };
}
