import { randomUUID } from 'node:crypto';
import type { Access } from '@platform/agent-server-auth';

/** The header that carries a handed-over caller from the project's HTTP app to the core routes (in-process only). */
export const CALLER_HEADER = 'x-platform-caller';

/**
 * The caller the front (the project's HTTP app) authenticated, handed to the core routes it forwards to, so a request
 * is authenticated once and has one caller record. The key is a random id known only to this process: a client that
 * sends the header itself hands over nothing.
 */
export class CallerHandoff {
  private readonly pending = new Map<string, Access>();

  hand(access: Access): string {
    const key = randomUUID();
    this.pending.set(key, access);
    return key;
  }

  /** The caller handed over under `key`, once. */
  take(key: unknown): Access | undefined {
    if (typeof key !== 'string') return undefined;
    const access = this.pending.get(key);
    this.pending.delete(key);
    return access;
  }

  drop(key: string): void {
    this.pending.delete(key);
  }
}
