import { z } from 'zod';
import type { StoreTtlConfig } from '@platform/agent-server-data-access/store';

// `langgraph.json` → `store`: `{index?: {embed, dims, fields?}, ttl?: {refresh_on_read, default_ttl, sweep_interval_minutes}}`.
const storeSection = z
  .object({
    index: z
      .object({
        // `provider:model` (e.g. `openai:text-embedding-3-small`) or `./path/to/module.ts:export`.
        embed: z.string().trim().min(1),
        dims: z.number().int().positive(),
        // JSON paths into an item's value whose text is embedded; `$` is the whole value. Default `["$"]`.
        fields: z.array(z.string().trim().min(1)).min(1).optional(),
      })
      .loose()
      .nullable()
      .optional(),
    ttl: z
      .object({
        refresh_on_read: z.boolean().optional(),
        default_ttl: z.number().positive().nullable().optional(),
        sweep_interval_minutes: z.number().positive().nullable().optional(),
      })
      .loose()
      .nullable()
      .optional(),
  })
  .loose();

/** `store.index`: what semantic search embeds, and with what. */
export interface StoreIndexSettings {
  /** `provider:model` or `path:export`, as written. */
  embed: string;
  /** Length of every embedding. */
  dims: number;
  /** Paths of the value embedded when a put names none. */
  fields: string[];
}

export interface StoreSettings {
  ttl: StoreTtlConfig;
  /** How often the TTL sweeper runs. */
  sweepIntervalMs: number;
  /** Semantic search, when `store.index` is set. */
  index?: StoreIndexSettings;
}

/** Sweep every 5 minutes unless `store.ttl.sweep_interval_minutes` says otherwise (reads hide expired items anyway). */
export const DEFAULT_SWEEP_INTERVAL_MINUTES = 5;

/**
 * The store settings in a `langgraph.json`'s `store` section (absent: items never expire unless a put gives a
 * TTL; reads refresh TTLs; no semantic search). Throws an Error naming the bad key.
 */
export function parseStoreSettings(section: unknown): StoreSettings {
  const parsed = storeSection.safeParse(section ?? {});
  if (!parsed.success) {
    throw new Error(`langgraph.json store: ${parsed.error.issues.map((i) => `${['store', ...i.path].join('.')}: ${i.message}`).join('; ')}`);
  }
  const ttl = parsed.data.ttl ?? {};
  const index = parsed.data.index;
  return {
    ttl: { refreshOnRead: ttl.refresh_on_read ?? true, defaultTtlMinutes: ttl.default_ttl ?? undefined },
    sweepIntervalMs: (ttl.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES) * 60_000,
    ...(index ? { index: { embed: index.embed, dims: index.dims, fields: index.fields ?? ['$'] } } : {}),
  };
}
