import { createHash } from 'node:crypto';
import type { FeedbackRecord } from './feedback';
import type { StoredRun } from './own-usage';
import type { RunWrite } from './run-write';

/**
 * The 64-bit key of a transaction-scoped advisory lock. Writers of one trace take its key, so the rolled-up totals
 * of the trace's runs are read and changed by one transaction at a time; a stored run whose trace is still unknown
 * is guarded by a key of its own.
 */
export function lockKey(tenantId: string, kind: 'trace' | 'run', id: string): bigint {
  return createHash('sha1').update(`${tenantId}:${kind}:${id}`).digest().readBigInt64BE(0);
}

/**
 * The keys a batch must hold, given what is stored of its runs (and of the parents of runs placed by parent, and of
 * the runs its feedback is about: feedback and a run's create must not race past each other's `feedback_stats`).
 */
export function requiredLockKeys(
  tenantId: string,
  writes: RunWrite[],
  stored: Map<string, StoredRun>,
  feedback: FeedbackRecord[] = [],
): Set<bigint> {
  const traces = new Set<string>();
  const keys = new Set<bigint>();
  for (const { id, post, patch } of writes) {
    for (const traceId of [post?.traceId, patch?.traceId]) if (traceId) traces.add(traceId);
    const run = stored.get(id);
    if (run?.traceId) traces.add(run.traceId);
    else if (run) keys.add(lockKey(tenantId, 'run', id));
    const parent = stored.get(post?.parentRunId ?? patch?.parentRunId ?? '');
    if (parent?.traceId) traces.add(parent.traceId);
  }
  for (const f of feedback) {
    const traceId = f.trace_id ?? stored.get(f.run_id)?.traceId;
    if (traceId) traces.add(traceId);
  }
  for (const traceId of traces) keys.add(lockKey(tenantId, 'trace', traceId));
  return keys;
}

/** Keys in the one order every transaction takes them in, so two batches never wait on each other in a cycle. */
export function sortedKeys(keys: Iterable<bigint>): string[] {
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}
