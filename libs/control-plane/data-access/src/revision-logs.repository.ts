import type { PrismaClient } from './generated/prisma/client';
import type { NewRevisionLogLine, RevisionLogEntry, RevisionLogPage, RevisionLogType } from './revision-log';

/** Revision logs in the `revision_logs` table (the control plane's database, so every replica reads what any one wrote). */
export class RevisionLogsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async append(revisionId: string, lines: NewRevisionLogLine[]): Promise<void> {
    if (lines.length) await this.prisma.revisionLog.createMany({ data: lines.map((line) => ({ ...line, revisionId })) });
  }

  async list(revisionId: string, query: { type?: RevisionLogType; after?: bigint; limit: number; order: 'asc' | 'desc' }): Promise<RevisionLogPage> {
    const rows = await this.prisma.revisionLog.findMany({
      where: {
        revisionId,
        ...(query.type ? { type: query.type } : {}),
        ...(query.after !== undefined ? { id: query.order === 'asc' ? { gt: query.after } : { lt: query.after } } : {}),
      },
      orderBy: { id: query.order },
      take: query.limit + 1,
    });
    const entries = rows.slice(0, query.limit).map((row) => ({ ...row, type: row.type as RevisionLogType }) as RevisionLogEntry);
    // Ascending, the last page still has a cursor: lines written later (a build in progress) come after it.
    const last = entries.at(-1)?.id ?? query.after ?? null;
    const next = rows.length > query.limit || query.order === 'asc' ? last : null;
    return { entries, next };
  }
}
