import type { RateLimit } from './token-buckets';

/** What one workspace may use: the gateway's request rate and tracing's ingestion rates and quota. */
export interface WorkspaceLimits {
  /** Requests per second through the gateway (every authenticated API call of the workspace). */
  requests: RateLimit;
  /** Runs (creates and updates) ingested per second. */
  ingestRuns: RateLimit;
  /** Ingest body bytes per second. */
  ingestBytes: RateLimit;
  /** Runs the workspace may have stored; 0 means no quota. */
  maxStoredRuns: number;
}

/** What tracing enforces of a workspace's limits. */
export type IngestLimits = Pick<WorkspaceLimits, 'ingestRuns' | 'ingestBytes' | 'maxStoredRuns'>;

/**
 * The header the gateway sends a workspace's ingestion limits to tracing in (it removes any a client sent): limits
 * set through the gateway's admin API are enforced where runs are counted.
 */
export const INGEST_LIMITS_HEADER = 'x-platform-ingest-limits';

const rate = (r: RateLimit) => `${r.perSecond}/${r.burst}`;

export function encodeIngestLimits(limits: IngestLimits): string {
  return `runs=${rate(limits.ingestRuns)}; bytes=${rate(limits.ingestBytes)}; stored=${limits.maxStoredRuns}`;
}

/** The limits in the header, or undefined when it is absent or not what the gateway writes. */
export function decodeIngestLimits(value: string | string[] | undefined): IngestLimits | undefined {
  if (typeof value !== 'string') return undefined;
  const fields = new Map(value.split(';').map((part) => part.trim().split('=') as [string, string]));
  const parseRate = (s: string | undefined): RateLimit | undefined => {
    const m = s ? /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(s) : null;
    return m ? { perSecond: Number(m[1]), burst: Number(m[2]) } : undefined;
  };
  const ingestRuns = parseRate(fields.get('runs'));
  const ingestBytes = parseRate(fields.get('bytes'));
  const stored = fields.get('stored');
  if (!ingestRuns || !ingestBytes || stored === undefined || !/^\d+$/.test(stored)) return undefined;
  return { ingestRuns, ingestBytes, maxStoredRuns: Number(stored) };
}

/** Seconds for `Retry-After` (whole, at least 1). */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
