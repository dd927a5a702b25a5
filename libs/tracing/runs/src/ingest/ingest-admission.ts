import { TooManyRequestsError } from '@platform/errors';
import { TokenBuckets, retryAfterSeconds, type IngestLimits } from '@platform/rate-limit';

/** How many runs a workspace has stored (implemented by the runs repository). */
export interface StoredRunCounter {
  countRuns(tenantId: string): Promise<number>;
}

export interface IngestAdmissionOptions {
  /** The limits of a workspace whose requests carry none (no gateway in front: tests, a direct call). */
  defaults: IngestLimits;
  /** Tracing replicas: each holds its share of the rates. */
  replicas?: number;
  storedRuns?: StoredRunCounter;
  /** How long a workspace's stored-run count is reused before counting again (runs admitted since are added). */
  storedRunsRecountMs?: number;
  now?: () => number;
}

interface StoredCount {
  count: number;
  countedAt: number;
}

/**
 * Whether a workspace may ingest now: its runs per second and bytes per second (token buckets in this replica's
 * memory, each replica holding its share), and its stored-runs quota (counted in the database, recounted every few
 * seconds). A refusal is a 429 saying when the batch will fit.
 */
export class IngestAdmission {
  private readonly runs: TokenBuckets;
  private readonly bytes: TokenBuckets;
  private readonly stored = new Map<string, StoredCount>();
  private readonly now: () => number;

  constructor(private readonly options: IngestAdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.runs = new TokenBuckets({ replicas: options.replicas, now: this.now });
    this.bytes = new TokenBuckets({ replicas: options.replicas, now: this.now });
  }

  /**
   * Admits `bytes` of body before it is read (from Content-Length), so a refused flood is not even read; a body of
   * unknown size (0) is admitted unless the workspace is in debt, and charged once read (`chargeBytes`).
   */
  admitBytes(tenantId: string, limits: IngestLimits | undefined, bytes: number): void {
    const admission = this.bytes.take(tenantId, (limits ?? this.options.defaults).ingestBytes, bytes);
    if (!admission.ok) {
      throw new TooManyRequestsError('Ingest rate limit of this workspace exceeded (bytes per second); retry later', {
        retryAfterSeconds: retryAfterSeconds(admission.retryAfterMs),
      });
    }
  }

  /** Charges the size of a body read without announcing it (chunked): the next bodies wait while in debt. */
  chargeBytes(tenantId: string, limits: IngestLimits | undefined, bytes: number): void {
    this.bytes.charge(tenantId, (limits ?? this.options.defaults).ingestBytes, bytes);
  }

  /** Admits `creates` new runs and `operations` run creates and updates of a parsed batch. */
  async admitRuns(tenantId: string, limits: IngestLimits | undefined, operations: number, creates: number): Promise<void> {
    const effective = limits ?? this.options.defaults;
    if (effective.maxStoredRuns > 0 && creates > 0 && this.options.storedRuns) {
      const stored = await this.storedCount(tenantId);
      if (stored.count + creates > effective.maxStoredRuns) {
        throw new TooManyRequestsError(`Stored runs quota of this workspace reached (${effective.maxStoredRuns} runs)`, {
          retryAfterSeconds: retryAfterSeconds(this.options.storedRunsRecountMs ?? 10_000),
        });
      }
    }
    const admission = this.runs.take(tenantId, effective.ingestRuns, operations);
    if (!admission.ok) {
      throw new TooManyRequestsError('Ingest rate limit of this workspace exceeded (runs per second); retry later', {
        retryAfterSeconds: retryAfterSeconds(admission.retryAfterMs),
      });
    }
    const stored = this.stored.get(tenantId);
    if (stored) stored.count += creates;
  }

  private async storedCount(tenantId: string): Promise<StoredCount> {
    const known = this.stored.get(tenantId);
    const now = this.now();
    if (known && now - known.countedAt < (this.options.storedRunsRecountMs ?? 10_000)) return known;
    const counted = { count: await (this.options.storedRuns as StoredRunCounter).countRuns(tenantId), countedAt: now };
    if (this.stored.size >= 100_000 && !known) this.stored.delete(this.stored.keys().next().value as string);
    this.stored.set(tenantId, counted);
    return counted;
  }
}
