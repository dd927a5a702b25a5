import type { ResolvedDeployment } from './deployment-resolver';

/**
 * Agent Server requests the gateway can carry on with on another replica when the one serving them fails.
 * - `join` (`GET /threads/{thread_id}/runs/{run_id}/join`): a read; sent again as it is.
 * - `wait` (`POST /threads/{thread_id}/runs/wait`, `POST /runs/wait`): creates a run, so it is never sent twice
 *   once it may have arrived; after the run exists (its response headers name it), waiting on it goes on as a join.
 * Other requests are not resumed: other reads are short, streams resume from the client (`Last-Event-ID`), and
 * anything else changes state.
 */
export type ResumableRequest = { kind: 'join'; path: string } | { kind: 'wait' };

const JOIN = /^\/threads\/[^/?#]+\/runs\/[^/?#]+\/join(\?.*)?$/;
const WAIT = /^(\/threads\/[^/?#]+)?\/runs\/wait(\?.*)?$/;

export function resumableRequest(method: string | undefined, upstreamPath: string): ResumableRequest | undefined {
  if (method === 'GET' && JOIN.test(upstreamPath)) return { kind: 'join', path: upstreamPath };
  if (method === 'POST' && WAIT.test(upstreamPath)) return { kind: 'wait' };
  return undefined;
}

const RUN_STREAM = /^\/threads\/([^/?#]+)\/runs\/([^/?#]+)\/stream$/;
const THREAD_RUN = /^\/threads\/([^/?#]+)\/runs\/([^/?#]+)$/;

/**
 * Where to join the run a wait created, from its response headers: `Location` (`/threads/{t}/runs/{r}/stream`, also
 * for stateless runs) or `Content-Location` (`/threads/{t}/runs/{r}`). Undefined when neither names one.
 */
export function joinPathOf(headers: { location?: string; 'content-location'?: string }, cancelOnDisconnect: boolean): string | undefined {
  const match = RUN_STREAM.exec(headers.location ?? '') ?? THREAD_RUN.exec(headers['content-location'] ?? '');
  if (!match) return undefined;
  return `/threads/${match[1]}/runs/${match[2]}/join${cancelOnDisconnect ? '?cancel_on_disconnect=true' : ''}`;
}

/** Replicas that failed lately, skipped for `downForMs` (passive health checking, as load balancers do). */
export class ReplicaHealth {
  private readonly downUntil = new Map<string, number>();

  constructor(
    private readonly downForMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  markFailed(url: string): void {
    if (this.downUntil.size >= 10_000) this.downUntil.delete(this.downUntil.keys().next().value as string);
    this.downUntil.set(trimmed(url), this.now() + this.downForMs);
  }

  isDown(url: string): boolean {
    const until = this.downUntil.get(trimmed(url));
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.downUntil.delete(trimmed(url));
    return false;
  }
}

const trimmed = (url: string) => (url.endsWith('/') ? url.replace(/\/+$/, '') : url);

/**
 * The replica to try next: the deployment's upstream first, then its other replicas, skipping those that already
 * failed this request and, while another is left, those that failed lately. Undefined when every one has failed.
 */
export function nextReplica(deployment: ResolvedDeployment, failed: ReadonlySet<string>, health?: ReplicaHealth): string | undefined {
  if (!deployment.replicaUrls?.length) {
    // One instance (every request of a deployment without replicas passes here): no list to build.
    const url = trimmed(deployment.upstreamUrl);
    return failed.has(url) ? undefined : url;
  }
  const candidates = [...new Set([deployment.upstreamUrl, ...(deployment.replicaUrls ?? [])].map(trimmed))].filter((url) => !failed.has(url));
  return candidates.find((url) => !health?.isDown(url)) ?? candidates[0];
}
