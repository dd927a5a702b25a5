import { NotFoundError } from '@platform/errors';

export interface ResolvedDeployment {
  deploymentId: string;
  tenantId: string;
  upstreamUrl: string;
  /** Base URLs of its serving instances (Agent Server replicas), when the control plane knows them. */
  replicaUrls?: string[];
}

/** Looks a deployment up at its owner (the control plane over gRPC). Throws NotFoundError for unknown ids. */
export type ResolveDeployment = (deploymentId: string, tenantId: string, requestId?: string) => Promise<ResolvedDeployment>;

export interface CachedResolverOptions {
  /** How long a found upstream is reused. */
  ttlMs?: number;
  /** How long a "not found" is remembered, so a bad id cannot hammer the control plane. */
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

type Entry = { expires: number; value?: ResolvedDeployment; missing?: NotFoundError };

/**
 * Caches deployment upstreams per (tenant, deployment). Concurrent misses for one key share a single lookup;
 * errors other than NotFound (control plane down, deadline) are not cached.
 */
export function cachedResolver(resolve: ResolveDeployment, options: CachedResolverOptions = {}) {
  const { ttlMs = 30_000, negativeTtlMs = 5_000, maxEntries = 10_000, now = Date.now } = options;
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<ResolvedDeployment>>();

  const remember = (key: string, entry: Entry) => {
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  };

  // `requestId` only travels with a lookup that misses the cache (for the control plane's logs).
  const lookup = async (deploymentId: string, tenantId: string, requestId?: string): Promise<ResolvedDeployment> => {
    const key = `${tenantId}/${deploymentId}`;
    const hit = cache.get(key);
    if (hit && hit.expires > now()) {
      if (hit.missing) throw hit.missing;
      return hit.value as ResolvedDeployment;
    }
    const inFlight = pending.get(key);
    if (inFlight) return inFlight;
    const request = resolve(deploymentId, tenantId, requestId)
      .then((value) => {
        remember(key, { value, expires: now() + ttlMs });
        return value;
      })
      .catch((err: unknown) => {
        if (err instanceof NotFoundError) remember(key, { missing: err, expires: now() + negativeTtlMs });
        throw err;
      })
      .finally(() => pending.delete(key));
    pending.set(key, request);
    return request;
  };

  return Object.assign(lookup, {
    /** Drops a cached upstream, e.g. after the proxy could not reach it. */
    invalidate(deploymentId: string, tenantId: string) {
      cache.delete(`${tenantId}/${deploymentId}`);
    },
  });
}

export type CachedResolver = ReturnType<typeof cachedResolver>;
