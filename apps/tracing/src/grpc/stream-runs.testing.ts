// Test and benchmark support for StreamRuns: the data fixtures of the tracing database, and a served client.
import { runsService } from '@platform/contracts';
import { createClient, startGrpcServer } from '@platform/grpc';
import type { PrismaClient, UnsortedCopySql } from '@platform/tracing-data-access';
import { runsHandlers } from './runs.handlers';

export * from '@platform/tracing-data-access/testing';

/** Compares two proto cursors in (start_time, id) order. */
export function compareCursors(a: { start_time: string; id: string }, b: { start_time: string; id: string }): number {
  const dt = BigInt(a.start_time) - BigInt(b.start_time);
  if (dt !== 0n) return dt < 0n ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A real gRPC server on loopback serving `runsHandlers`, and a client of it; with `copy`, NDJSON pages by binary COPY. */
export async function startRunsServer(prisma: PrismaClient, options: { deadlineMs?: number; copy?: UnsortedCopySql } = {}) {
  const service = runsService();
  const server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [service.implement(runsHandlers({ prisma, copy: options.copy }))] });
  const client = createClient(service.Client, `127.0.0.1:${server.port}`, { defaultDeadlineMs: options.deadlineMs ?? 60_000 });
  return {
    client,
    port: server.port,
    close: async () => {
      client.close();
      await server.shutdown(1_000);
    },
  };
}
