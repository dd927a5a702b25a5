import type { JobBusLogger } from '../lib/job-bus.logger';

export interface LogEntry {
  level: keyof JobBusLogger;
  obj: Record<string, unknown>;
  msg: string;
}

/** A logger that records every entry so tests can assert on log lines. */
export function createCapturingLogger(): { logger: JobBusLogger; entries: LogEntry[]; find(level: LogEntry['level'], text: string): LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (obj: object, msg: string): void => {
      entries.push({ level, obj: obj as Record<string, unknown>, msg });
    };
  return {
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    entries,
    find: (level, text) => entries.filter((e) => e.level === level && e.msg.includes(text)),
  };
}
