import { dottedOrderSegment } from './dotted-order';
import { ownUsage, type StoredRun } from './own-usage';
import type { Placement, RunFields } from './run-operation';
import type { RunWrite } from './run-write';
import type { TokenUsage } from './token-usage';

/** Bits of `RunRowValues.ovr`: fields an update sent, which replace stored values (others only fill NULLs). */
export const OVERRIDE_BITS = {
  name: 1,
  run_type: 2,
  start_time: 4,
  end_time: 8,
  inputs: 16,
  outputs: 32,
  error: 64,
  extra: 128,
  events: 256,
  serialized: 512,
  tags: 1024,
  reference_example_id: 2048,
  trace_tier: 4096,
  session_id: 8192,
} as const satisfies Record<keyof RunFields | 'session_id', number>;

/** Token totals as columns (rolled-up, or a change of them). Cost changes are null when no cost changed. */
export interface UsageColumns {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_cost: number | null;
  completion_cost: number | null;
  total_cost: number | null;
}

/** One run's values for the set-based insert or update (JSON, read in SQL with `jsonb_to_recordset`). */
export interface RunRowValues extends RunFields {
  id: string;
  ovr: number;
  session_id?: string;
  trace_id?: string;
  parent_run_id?: string;
  parent_run_ids?: string[];
  dotted_order?: string;
  is_root?: boolean;
  status?: string;
  first_token_time?: string;
  own_prompt_tokens: number;
  own_completion_tokens: number;
  own_total_tokens: number;
  own_prompt_cost: number | null;
  own_completion_cost: number | null;
  own_total_cost: number | null;
  has_create: boolean;
  /** Inserts: the rolled-up totals. Updates: what the descendants in this batch add to them. */
  totals: UsageColumns;
  /** Inserts: feedback that arrived before the run. */
  feedback_stats?: unknown;
  /** Updates of a stored ancestor outside the batch: only `totals` is added, nothing else changes. */
  delta_only?: boolean;
}

export interface WritePlan {
  inserts: RunRowValues[];
  /** Stored runs of the batch, then stored ancestors whose totals change (`delta_only`). */
  updates: RunRowValues[];
}

/** What was read, under the traces' locks, besides the stored runs themselves. */
export interface StoredContext {
  runs: Map<string, StoredRun>;
  /** Per run of the batch: the own usage of its stored descendants, summed. */
  descendantUsage: Map<string, UsageColumns>;
  /** Per run of the batch: `feedback_stats` of feedback stored before it. */
  feedbackStats: Map<string, unknown>;
}

/** Project ids for a write's create and update (resolved from names before planning). */
export interface SessionLookup {
  idFor(sessionId: string | undefined, sessionName: string | undefined): string | undefined;
  defaultId: string;
}

const costDelta = (next: number | null, prev: number | null) => (next === null && prev === null ? null : (next ?? 0) - (prev ?? 0));
const costSum = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);

const ZERO: UsageColumns = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, prompt_cost: null, completion_cost: null, total_cost: null };

function delta(next: TokenUsage, prev: TokenUsage | undefined): UsageColumns {
  return {
    prompt_tokens: next.promptTokens - (prev?.promptTokens ?? 0),
    completion_tokens: next.completionTokens - (prev?.completionTokens ?? 0),
    total_tokens: next.totalTokens - (prev?.totalTokens ?? 0),
    prompt_cost: costDelta(next.promptCost, prev?.promptCost ?? null),
    completion_cost: costDelta(next.completionCost, prev?.completionCost ?? null),
    total_cost: costDelta(next.totalCost, prev?.totalCost ?? null),
  };
}

const isZero = (d: UsageColumns) =>
  !d.prompt_tokens && !d.completion_tokens && !d.total_tokens && d.prompt_cost === null && d.completion_cost === null && d.total_cost === null;

function add(a: UsageColumns, b: UsageColumns | undefined): UsageColumns {
  if (!b) return a;
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
    prompt_cost: costSum(a.prompt_cost, b.prompt_cost),
    completion_cost: costSum(a.completion_cost, b.completion_cost),
    total_cost: costSum(a.total_cost, b.total_cost),
  };
}

/**
 * Places runs that came without a dotted order but with a parent (legacy clients) under that parent, when the
 * parent is in this batch or stored and placed itself.
 */
function placementResolver(writes: Map<string, RunWrite>, stored: Map<string, StoredRun>) {
  const memo = new Map<string, Placement | undefined>();
  const resolve = (id: string, depth: number): Placement | undefined => {
    if (memo.has(id)) return memo.get(id);
    const run = stored.get(id);
    if (run?.parentRunIds && run.traceId && run.dottedOrder) {
      return { traceId: run.traceId, parentRunIds: run.parentRunIds, dottedOrder: run.dottedOrder, isRoot: run.parentRunIds.length === 0 };
    }
    const write = writes.get(id);
    let placement = write?.patch?.placement ?? write?.post?.placement;
    const parentId = write?.post?.parentRunId ?? write?.patch?.parentRunId;
    const start = write?.post?.fields.start_time ?? write?.patch?.fields.start_time;
    if (!placement && parentId && start && depth < 100) {
      const parent = resolve(parentId, depth + 1);
      if (parent) {
        placement = {
          traceId: parent.traceId,
          parentRunIds: [...parent.parentRunIds, parentId],
          dottedOrder: `${parent.dottedOrder}.${dottedOrderSegment(start, id)}`,
          isRoot: false,
        };
      }
    }
    memo.set(id, placement);
    return placement;
  };
  return (id: string) => resolve(id, 0);
}

function statusOf(fields: RunFields): string {
  if (fields.error !== undefined) return 'error';
  return fields.end_time !== undefined ? 'success' : 'pending';
}

const fromUsage = (u: TokenUsage): UsageColumns => delta(u, undefined);

/**
 * Plans how a batch's writes change the `runs` table, given what is stored (read under the traces' locks): rows to
 * insert and rows to update. Totals stay "own + all descendants" whatever order runs arrive in. Each run placed in
 * its trace contributes the change of its own usage to its ancestors (all of it when it is new, or placed only now:
 * they never counted it). A new run's totals are its own usage, its stored descendants' and the contributions of
 * this batch; a stored run's totals move by the change of its own usage and the contributions.
 */
export function planWrites(writes: RunWrite[], stored: StoredContext, sessions: SessionLookup): WritePlan {
  const byId = new Map(writes.map((w) => [w.id, w]));
  const placementOf = placementResolver(byId, stored.runs);
  const rows: RunRowValues[] = [];
  const contributions = new Map<string, UsageColumns>();
  const contribute = (ancestors: string[], d: UsageColumns) => {
    if (isZero(d)) return;
    for (const ancestor of ancestors) contributions.set(ancestor, add(contributions.get(ancestor) ?? ZERO, d));
  };

  for (const write of writes) {
    const { post, patch } = write;
    const old = stored.runs.get(write.id);
    const fields: RunFields = { ...post?.fields, ...patch?.fields };
    let ovr = 0;
    for (const name of Object.keys(patch?.fields ?? {}) as (keyof RunFields)[]) ovr |= OVERRIDE_BITS[name];

    let sessionId: string | undefined;
    const patchSession = patch && sessions.idFor(patch.sessionId, patch.sessionName);
    if (patchSession) {
      sessionId = patchSession;
      ovr |= OVERRIDE_BITS.session_id;
    } else if (post) {
      sessionId = sessions.idFor(post.sessionId, post.sessionName) ?? sessions.defaultId;
    }

    const own = ownUsage(write, old, patch?.fields.run_type ?? old?.runType ?? post?.fields.run_type);
    const oldAncestors = old?.parentRunIds ?? undefined;
    const placement = oldAncestors ? undefined : placementOf(write.id);
    rows.push({
      id: write.id,
      ovr,
      ...fields,
      session_id: sessionId,
      trace_id: placement?.traceId ?? patch?.traceId ?? post?.traceId,
      parent_run_id: placement ? placement.parentRunIds[placement.parentRunIds.length - 1] : (post?.parentRunId ?? patch?.parentRunId),
      parent_run_ids: placement?.parentRunIds,
      dotted_order: placement?.dottedOrder,
      is_root: placement?.isRoot,
      first_token_time: [post?.firstTokenTime, patch?.firstTokenTime].filter((t) => t !== undefined).sort()[0],
      own_prompt_tokens: own.promptTokens,
      own_completion_tokens: own.completionTokens,
      own_total_tokens: own.totalTokens,
      own_prompt_cost: own.promptCost,
      own_completion_cost: own.completionCost,
      own_total_cost: own.totalCost,
      has_create: post !== undefined,
      totals: old ? ZERO : fromUsage(own),
    });
    if (old && oldAncestors) contribute(oldAncestors, delta(own, old.own));
    // New, or placed only now: its ancestors never counted it, so they get all of its own usage.
    else if (placement) contribute(placement.parentRunIds, fromUsage(own));
  }

  const plan: WritePlan = { inserts: [], updates: [] };
  for (const row of rows) {
    if (stored.runs.has(row.id)) {
      row.totals = contributions.get(row.id) ?? ZERO;
      plan.updates.push(row);
    } else {
      row.status = statusOf(row);
      row.totals = add(add(row.totals, stored.descendantUsage.get(row.id)), contributions.get(row.id));
      row.feedback_stats = stored.feedbackStats.get(row.id);
      plan.inserts.push(row);
    }
    contributions.delete(row.id);
  }
  // What is left are ancestors outside the batch: stored ones take the change; missing ones are skipped in SQL.
  for (const [id, totals] of contributions) {
    plan.updates.push({ ...DELTA_ONLY, id, totals });
  }
  return plan;
}

const DELTA_ONLY: Omit<RunRowValues, 'id' | 'totals'> = {
  ovr: 0,
  own_prompt_tokens: 0,
  own_completion_tokens: 0,
  own_total_tokens: 0,
  own_prompt_cost: null,
  own_completion_cost: null,
  own_total_cost: null,
  has_create: false,
  delta_only: true,
};
