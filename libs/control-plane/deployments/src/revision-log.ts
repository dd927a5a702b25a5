import { z } from 'zod';
import { REVISION_LOG_TYPES, type RevisionLogPage } from '@platform/control-plane-data-access';

/** `GET …/revisions/{id}/logs` query, as LangSmith's: `type`, `limit` (1–1000), `offset` (the cursor), `order`. */
export const revisionLogsQuery = z.object({
  type: z.enum(REVISION_LOG_TYPES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.string().regex(/^\d{1,19}$/, 'must be the next_offset of an earlier page').optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export function revisionLogsJson(page: RevisionLogPage) {
  return {
    logs: page.entries.map((e) => ({ id: e.id.toString(), type: e.type, level: e.level, message: e.message, timestamp: e.timestamp.toISOString() })),
    next_offset: page.next === null ? null : page.next.toString(),
  };
}

export type RevisionLogsJson = ReturnType<typeof revisionLogsJson>;
