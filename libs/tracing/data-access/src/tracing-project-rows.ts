import type { PrismaClient } from './generated/prisma/client';
import type { TracingProject } from './tracing-project';

type Row = Awaited<ReturnType<PrismaClient['tracingSession']['findUniqueOrThrow']>>;

export function toProject(row: Row): TracingProject {
  return { ...row, extra: (row.extra ?? null) as Record<string, unknown> | null };
}
