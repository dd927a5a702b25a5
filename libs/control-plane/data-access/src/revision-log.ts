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
