import { parseEpochMicros } from './run-time';

/** Token counts and costs of one run (its own usage, not its descendants'). Costs are null when unknown. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  promptCost: number | null;
  completionCost: number | null;
  totalCost: number | null;
}

export const NO_USAGE: TokenUsage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  promptCost: null,
  completionCost: null,
  totalCost: null,
});

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function count(v: unknown): number {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

function cost(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** `{input_tokens, output_tokens, total_tokens, input_cost?, output_cost?, total_cost?}` (LangChain usage_metadata). */
function fromUsageMetadata(u: Json): TokenUsage {
  const prompt = count(u.input_tokens);
  const completion = count(u.output_tokens);
  return withTotals({
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: count(u.total_tokens),
    promptCost: cost(u.input_cost),
    completionCost: cost(u.output_cost),
    totalCost: cost(u.total_cost),
  });
}

/** `{prompt_tokens, completion_tokens, total_tokens}` (OpenAI-style token_usage). */
function fromTokenUsage(u: Json): TokenUsage {
  return withTotals({
    promptTokens: count(u.prompt_tokens),
    completionTokens: count(u.completion_tokens),
    totalTokens: count(u.total_tokens),
    promptCost: null,
    completionCost: null,
    totalCost: null,
  });
}

function withTotals(u: TokenUsage): TokenUsage {
  const totalTokens = u.totalTokens || u.promptTokens + u.completionTokens;
  const totalCost = u.totalCost ?? (u.promptCost !== null || u.completionCost !== null ? (u.promptCost ?? 0) + (u.completionCost ?? 0) : null);
  return { ...u, totalTokens, totalCost };
}

function add(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum = (x: number | null, y: number | null) => (x === null && y === null ? null : (x ?? 0) + (y ?? 0));
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    promptCost: sum(a.promptCost, b.promptCost),
    completionCost: sum(a.completionCost, b.completionCost),
    totalCost: sum(a.totalCost, b.totalCost),
  };
}

/** A chat message's usage_metadata, serialized (`{lc, kwargs: {...}}`) or plain. */
function messageUsage(message: unknown): Json | undefined {
  if (!isObject(message)) return undefined;
  const direct = message.usage_metadata;
  if (isObject(direct)) return direct;
  const kwargs = message.kwargs;
  return isObject(kwargs) && isObject(kwargs.usage_metadata) ? kwargs.usage_metadata : undefined;
}

/** Usage of the messages in an LLMResult's `generations` (a list per prompt of generations). */
function fromGenerations(generations: unknown): TokenUsage | undefined {
  if (!Array.isArray(generations)) return undefined;
  let total: TokenUsage | undefined;
  for (const perPrompt of generations) {
    for (const generation of Array.isArray(perPrompt) ? perPrompt : [perPrompt]) {
      const usage = isObject(generation) ? messageUsage(generation.message) : undefined;
      if (usage) total = total ? add(total, fromUsageMetadata(usage)) : fromUsageMetadata(usage);
    }
  }
  return total;
}

/**
 * The usage an LLM run reports, looked up where the SDKs put it: `outputs.usage_metadata`, the usage_metadata of the
 * messages in `outputs.generations` (LangChain), `outputs.llm_output.token_usage`, an output message's usage_metadata,
 * then `extra.metadata.usage_metadata`. Undefined when none is there.
 */
export function usageFromRun(outputs: unknown, extra: unknown): TokenUsage | undefined {
  if (isObject(outputs)) {
    if (isObject(outputs.usage_metadata)) return fromUsageMetadata(outputs.usage_metadata);
    const generations = fromGenerations(outputs.generations);
    if (generations) return generations;
    const llmOutput = outputs.llm_output;
    if (isObject(llmOutput) && isObject(llmOutput.token_usage)) return fromTokenUsage(llmOutput.token_usage);
    for (const key of ['message', 'output'] as const) {
      const usage = messageUsage(outputs[key]);
      if (usage) return fromUsageMetadata(usage);
    }
  }
  const metadata = isObject(extra) ? extra.metadata : undefined;
  if (isObject(metadata) && isObject(metadata.usage_metadata)) return fromUsageMetadata(metadata.usage_metadata);
  return undefined;
}

/** Costs sent as run fields (`prompt_cost`, `completion_cost`, `total_cost`) replace those found in the usage. */
export function withRunCosts(usage: TokenUsage, costs: { prompt?: unknown; completion?: unknown; total?: unknown }): TokenUsage {
  const prompt = cost(costs.prompt) ?? usage.promptCost;
  const completion = cost(costs.completion) ?? usage.completionCost;
  const explicitTotal = cost(costs.total);
  const changed = cost(costs.prompt) !== null || cost(costs.completion) !== null;
  const total = explicitTotal ?? (changed ? (prompt ?? 0) + (completion ?? 0) : usage.totalCost);
  return { ...usage, promptCost: prompt, completionCost: completion, totalCost: total };
}

/** Time of the first `new_token` event (the earliest), as epoch microseconds. */
export function firstTokenMicros(events: unknown): number | undefined {
  if (!Array.isArray(events)) return undefined;
  let first: number | undefined;
  for (const event of events) {
    if (!isObject(event) || event.name !== 'new_token') continue;
    const at = parseEpochMicros(event.time);
    if (at !== undefined && (first === undefined || at < first)) first = at;
  }
  return first;
}
