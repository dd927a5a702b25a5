import { z } from 'zod';
import type { WorkspaceLimits } from './workspace-limits';

const rate = (fallback: number) => z.coerce.number().min(0).default(fallback);
const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/**
 * The default limits of every workspace (a workspace's own, set through the gateway's admin API, replace them),
 * for the config schema of each service that enforces them. Generous: they stop a flood, not ordinary use.
 */
export const workspaceLimitsEnv = () => ({
  /** Requests per second a workspace may make through the gateway; 0 = no limit. */
  WORKSPACE_REQUESTS_PER_SECOND: rate(5_000),
  /** Requests a workspace may make at once above that rate. */
  WORKSPACE_REQUESTS_BURST: count(10_000),
  /** Run creates and updates a workspace may ingest per second; 0 = no limit. */
  WORKSPACE_INGEST_RUNS_PER_SECOND: rate(20_000),
  /** Run creates and updates a workspace may ingest at once above that rate. */
  WORKSPACE_INGEST_RUNS_BURST: count(40_000),
  /** Ingest body bytes a workspace may send per second; 0 = no limit. */
  WORKSPACE_INGEST_BYTES_PER_SECOND: rate(104_857_600),
  /** Ingest body bytes a workspace may send at once above that rate. */
  WORKSPACE_INGEST_BYTES_BURST: count(209_715_200),
  /** Runs a workspace may have stored; 0 = no quota. */
  WORKSPACE_MAX_STORED_RUNS: count(0),
  /** Replicas of the service enforcing the rates: each holds its share (the load balancer spreads a workspace evenly). */
  RATE_LIMIT_REPLICAS: z.coerce.number().int().min(1).default(1),
});

type LimitsEnv = z.infer<z.ZodObject<ReturnType<typeof workspaceLimitsEnv>>>;

/** The default limits from a parsed config. */
export function defaultWorkspaceLimits(env: LimitsEnv): WorkspaceLimits {
  return {
    requests: { perSecond: env.WORKSPACE_REQUESTS_PER_SECOND, burst: env.WORKSPACE_REQUESTS_BURST },
    ingestRuns: { perSecond: env.WORKSPACE_INGEST_RUNS_PER_SECOND, burst: env.WORKSPACE_INGEST_RUNS_BURST },
    ingestBytes: { perSecond: env.WORKSPACE_INGEST_BYTES_PER_SECOND, burst: env.WORKSPACE_INGEST_BYTES_BURST },
    maxStoredRuns: env.WORKSPACE_MAX_STORED_RUNS,
  };
}

/** The built-in defaults (the variables unset). */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = defaultWorkspaceLimits(z.object(workspaceLimitsEnv()).parse({}));
