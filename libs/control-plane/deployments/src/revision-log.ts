import { z } from 'zod';

export const REVISION_LOG_TYPES = ['build', 'deploy'] as const;
export type RevisionLogType = (typeof REVISION_LOG_TYPES)[number];
export type RevisionLogLevel = 'INFO' | 'ERROR';

/** One line of a revision's log. */
export interface RevisionLogEntry {
  id: bigint;
  type: RevisionLogType;
  level: RevisionLogLevel;
  message: string;
  timestamp: Date;
}

export type NewRevisionLogLine = Omit<RevisionLogEntry, 'id'>;

export interface RevisionLogPage {
  entries: RevisionLogEntry[];
  /** The cursor of the next page; null when this page is the last one so far. */
  next: bigint | null;
}

/** Where revision logs are kept (the control plane's database, so every replica reads what any one wrote). */
export interface RevisionLogStore {
  append(revisionId: string, lines: NewRevisionLogLine[]): Promise<void>;
  list(revisionId: string, query: { type?: RevisionLogType; after?: bigint; limit: number; order: 'asc' | 'desc' }): Promise<RevisionLogPage>;
}

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
