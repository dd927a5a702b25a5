import type { RunWrite } from './run-write';
import { NO_USAGE, usageFromRun, withRunCosts, type TokenUsage } from './token-usage';

/** What the planner knows of a run already stored, read under the trace's lock. */
export interface StoredRun {
  id: string;
  traceId: string | null;
  /** Null while the run's place in its trace is unknown (an update arrived before its create). */
  parentRunIds: string[] | null;
  dottedOrder: string | null;
  runType: string | null;
  hasOutputs: boolean;
  hasExtra: boolean;
  /** Read only while `runType` is unknown: a later create may make the run an LLM run whose usage they hold. */
  outputs?: unknown;
  extra?: unknown;
  own: TokenUsage;
}

// The stored document is there but was not read: its usage is what `own` already holds.
const STORED = Symbol('stored');
type Doc = unknown | typeof STORED;

/** A field's value after the write: the update's, else the stored one, else the create's (creates only fill). */
function effective(patch: unknown, stored: StoredRun | undefined, read: unknown, has: boolean | undefined, post: unknown): Doc {
  if (patch !== undefined) return patch;
  if (stored && read !== undefined && read !== null) return read;
  if (has) return STORED;
  return post;
}

const isEmpty = (u: TokenUsage) =>
  u.promptTokens === 0 && u.completionTokens === 0 && u.totalTokens === 0 && u.totalCost === null && u.promptCost === null && u.completionCost === null;

/**
 * The run's own token counts and costs once this write is applied. Only LLM runs count (a chain's outputs may
 * repeat its LLM children's messages, which would count them twice); a run whose type is not known yet counts
 * nothing until its create says. Usage comes from the outputs, else `extra.metadata.usage_metadata`; cost fields
 * sent with the run replace the costs found there, and costs already stored stay when the new usage has none.
 */
export function ownUsage(write: RunWrite, stored: StoredRun | undefined, runType: string | null | undefined): TokenUsage {
  if (runType !== 'llm') return NO_USAGE;
  const outputs = effective(write.patch?.fields.outputs, stored, stored?.outputs, stored?.hasOutputs, write.post?.fields.outputs);
  const extra = effective(write.patch?.fields.extra, stored, stored?.extra, stored?.hasExtra, write.post?.fields.extra);

  // STORED is only ever returned when there is a stored run.
  const storedOwn = stored?.own ?? NO_USAGE;
  let usage: TokenUsage | undefined;
  if (outputs === STORED) {
    // Stored outputs take precedence over extra; only when they gave nothing may a new extra count.
    usage = isEmpty(storedOwn) && extra !== STORED ? (usageFromRun(undefined, extra) ?? storedOwn) : storedOwn;
  } else {
    usage = usageFromRun(outputs, extra === STORED ? undefined : extra);
    if (usage === undefined && extra === STORED) usage = storedOwn;
  }
  const costs = {
    prompt: write.patch?.costs.prompt ?? write.post?.costs.prompt,
    completion: write.patch?.costs.completion ?? write.post?.costs.completion,
    total: write.patch?.costs.total ?? write.post?.costs.total,
  };
  // Costs sent with the create stay when the update's usage has none.
  const base = usage ?? NO_USAGE;
  const withStoredCosts =
    stored && base.promptCost === null && base.completionCost === null && base.totalCost === null
      ? { ...base, promptCost: stored.own.promptCost, completionCost: stored.own.completionCost, totalCost: stored.own.totalCost }
      : base;
  return withRunCosts(withStoredCosts, costs);
}
