import type { PrismaClient } from '../generated/prisma/client';

/** The primary key of a `checkpoints` row. */
export interface CheckpointKey {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/** What `list()` and the "latest checkpoint" lookup select on; every field is optional. */
export interface CheckpointKeyFilter {
  threadId?: string;
  checkpointNs?: string;
  checkpointId?: string;
  /** Only checkpoints whose id sorts before this one (ids are uuid6, so: older). */
  beforeId?: string;
  /** JSON containment on the stored metadata. */
  metadata?: Record<string, unknown>;
  limit?: number;
}

/**
 * Keys of matching checkpoints, newest first. Raw SQL because Prisma's query API has neither JSONB `@>` nor
 * per-expression collations; ids compare with COLLATE "C" so order is byte order whatever the database's
 * collation. Every value is a bound parameter.
 */
export async function selectCheckpointKeys(prisma: PrismaClient, filter: CheckpointKeyFilter): Promise<CheckpointKey[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const bind = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.threadId !== undefined) bind((p) => `thread_id = ${p}`, filter.threadId);
  if (filter.checkpointNs !== undefined) bind((p) => `checkpoint_ns = ${p}`, filter.checkpointNs);
  if (filter.checkpointId !== undefined) bind((p) => `checkpoint_id = ${p}`, filter.checkpointId);
  if (filter.beforeId !== undefined) bind((p) => `checkpoint_id COLLATE "C" < ${p}`, filter.beforeId);
  if (filter.metadata && Object.keys(filter.metadata).length > 0) {
    bind((p) => `metadata @> ${p}::jsonb`, JSON.stringify(filter.metadata));
  }
  let sql =
    'SELECT thread_id AS "threadId", checkpoint_ns AS "checkpointNs", checkpoint_id AS "checkpointId" FROM checkpoints' +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ' ORDER BY checkpoint_id COLLATE "C" DESC, thread_id, checkpoint_ns';
  if (filter.limit !== undefined) {
    params.push(Math.max(0, Math.floor(filter.limit)));
    sql += ` LIMIT $${params.length}`;
  }
  return prisma.$queryRawUnsafe<CheckpointKey[]>(sql, ...params);
}
