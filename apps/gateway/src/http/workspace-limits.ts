import type { Request } from 'express';
import { TooManyRequestsError } from '@platform/errors';
import type { Caller, IdentityStore } from '@platform/gateway-identity';
import type { Upstream } from '@platform/gateway-routing';
import {
  INGEST_LIMITS_HEADER,
  TokenBuckets,
  effectiveLimits,
  encodeIngestLimits,
  retryAfterSeconds,
  type WorkspaceLimits,
} from '@platform/rate-limit';

export interface WorkspaceLimitsOptions {
  store: IdentityStore;
  /** Every workspace's limits but those it sets for itself (WORKSPACE_* variables). */
  defaults: WorkspaceLimits;
  /** Gateway replicas: each holds its share of the request rate. */
  replicas?: number;
  now?: () => number;
}

/**
 * Fair sharing at the edge: each workspace's requests per second (a token bucket per workspace in this replica,
 * holding its share of the limit), and its ingestion limits handed to tracing, which counts runs and bytes. The
 * workspace (with its own limits) comes from the identity cache that authentication filled, so a request costs no
 * database query; a change of limits reaches every replica through the identity change feed.
 */
export class WorkspaceRateLimiter {
  private readonly requests: TokenBuckets;

  constructor(private readonly options: WorkspaceLimitsOptions) {
    this.requests = new TokenBuckets({ replicas: options.replicas, now: options.now });
  }

  /** The limits that hold for a workspace now. */
  async limitsOf(workspaceId: string): Promise<WorkspaceLimits> {
    const workspace = await this.options.store.findWorkspace(workspaceId);
    return effectiveLimits(this.options.defaults, workspace?.limits ?? {});
  }

  /**
   * Takes one request of the caller's workspace (429 with Retry-After past its rate) and tells tracing the
   * workspace's ingestion limits. A header of that name from the client never passes.
   */
  async admit(req: Request, caller: Caller | undefined, upstream: Upstream): Promise<void> {
    delete req.headers[INGEST_LIMITS_HEADER];
    const workspaceId = caller?.identity.tenantId;
    if (!workspaceId) return;
    const limits = await this.limitsOf(workspaceId);
    const admission = this.requests.take(workspaceId, limits.requests);
    if (!admission.ok) {
      throw new TooManyRequestsError('Rate limit of this workspace exceeded (requests per second); retry later', {
        retryAfterSeconds: retryAfterSeconds(admission.retryAfterMs),
      });
    }
    if (upstream === 'tracing') req.headers[INGEST_LIMITS_HEADER] = encodeIngestLimits(limits);
  }
}
