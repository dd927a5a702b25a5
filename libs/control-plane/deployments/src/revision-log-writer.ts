import type { NewRevisionLogLine, RevisionLogLevel, RevisionLogsRepository, RevisionLogType } from '@platform/control-plane-data-access';

const FLUSH_AFTER_MS = 300;
const FLUSH_AT_LINES = 200;
const MAX_LINE = 8_000;

/**
 * Turns a process's output (chunks, cut anywhere) into log lines written in batches: at most every 300 ms, so a
 * build's log can be followed live without one insert per chunk. `close()` writes what is left, the last partial
 * line included. A failed write is reported to `onError` and never stops the build.
 */
export class RevisionLogWriter {
  private partial = '';
  private pending: NewRevisionLogLine[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RevisionLogsRepository,
    private readonly revisionId: string,
    private readonly type: RevisionLogType,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Output as it comes; complete lines are queued, the rest waits for its end. */
  write(text: string, level: RevisionLogLevel = 'INFO'): void {
    const lines = (this.partial + text).split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.queue(line, level);
  }

  /** One whole line (a message of the control plane's own). */
  line(message: string, level: RevisionLogLevel = 'INFO'): void {
    for (const line of message.split(/\r?\n/)) this.queue(line, level);
  }

  async close(): Promise<void> {
    if (this.partial) this.queue(this.partial, 'INFO');
    this.partial = '';
    await this.flush();
  }

  private queue(message: string, level: RevisionLogLevel): void {
    this.pending.push({ type: this.type, level, message: message.slice(0, MAX_LINE), timestamp: new Date() });
    if (this.pending.length >= FLUSH_AT_LINES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Batches are written one after the other, so lines keep their order.
    this.writing = this.writing.then(() => (batch.length ? this.store.append(this.revisionId, batch).catch(this.onError) : undefined));
    return this.writing;
  }
}
