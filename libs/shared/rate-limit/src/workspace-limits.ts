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

/** A workspace's limits as the admin API names them (snake_case, as LangSmith's API does). */
export const LIMIT_FIELDS = [
  'requests_per_second',
  'requests_burst',
  'ingest_runs_per_second',
  'ingest_runs_burst',
  'ingest_bytes_per_second',
  'ingest_bytes_burst',
  'max_stored_runs',
] as const;

export type LimitField = (typeof LIMIT_FIELDS)[number];

/** The limits a workspace sets for itself; a field absent takes the service's default. */
export type WorkspaceLimitOverrides = Partial<Record<LimitField, number>>;

/** The known, numeric fields of a stored value (anything else is dropped). */
export function limitOverridesFrom(value: unknown): WorkspaceLimitOverrides {
  const overrides: WorkspaceLimitOverrides = {};
  if (typeof value !== 'object' || value === null) return overrides;
  for (const field of LIMIT_FIELDS) {
    const v = (value as Record<string, unknown>)[field];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) overrides[field] = v;
  }
  return overrides;
}

/** The limits that hold for a workspace: its own where set, else the defaults. */
export function effectiveLimits(defaults: WorkspaceLimits, o: WorkspaceLimitOverrides): WorkspaceLimits {
  return {
    requests: { perSecond: o.requests_per_second ?? defaults.requests.perSecond, burst: o.requests_burst ?? defaults.requests.burst },
    ingestRuns: { perSecond: o.ingest_runs_per_second ?? defaults.ingestRuns.perSecond, burst: o.ingest_runs_burst ?? defaults.ingestRuns.burst },
    ingestBytes: { perSecond: o.ingest_bytes_per_second ?? defaults.ingestBytes.perSecond, burst: o.ingest_bytes_burst ?? defaults.ingestBytes.burst },
    maxStoredRuns: o.max_stored_runs ?? defaults.maxStoredRuns,
  };
}

/** Limits in the admin API's shape. */
export function limitsJson(l: WorkspaceLimits): Record<LimitField, number> {
  return {
    requests_per_second: l.requests.perSecond,
    requests_burst: l.requests.burst,
    ingest_runs_per_second: l.ingestRuns.perSecond,
    ingest_runs_burst: l.ingestRuns.burst,
    ingest_bytes_per_second: l.ingestBytes.perSecond,
    ingest_bytes_burst: l.ingestBytes.burst,
    max_stored_runs: l.maxStoredRuns,
  };
}
