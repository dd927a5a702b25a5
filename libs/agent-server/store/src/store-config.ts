import { z } from 'zod';
import type { StoreTtlConfig } from './prisma-store';

// `langgraph.json` → `store`: `{index?: {...}, ttl?: {refresh_on_read, default_ttl, sweep_interval_minutes}}`.
const storeSection = z
  .object({
    index: z.unknown().optional(),
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

export interface StoreSettings {
  ttl: StoreTtlConfig;
  /** How often the TTL sweeper runs. */
  sweepIntervalMs: number;
  /** `store.index` was set: semantic search needs embeddings this server does not have (queries are ignored). */
  indexRequested: boolean;
}

/** Sweep every 5 minutes unless `store.ttl.sweep_interval_minutes` says otherwise (reads hide expired items anyway). */
export const DEFAULT_SWEEP_INTERVAL_MINUTES = 5;

/**
 * The store settings in a `langgraph.json`'s `store` section (absent: items never expire unless a put gives a
 * TTL; reads refresh TTLs). Throws an Error naming the bad key.
 */
export function parseStoreSettings(section: unknown): StoreSettings {
  const parsed = storeSection.safeParse(section ?? {});
  if (!parsed.success) {
    throw new Error(`langgraph.json store: ${parsed.error.issues.map((i) => `${['store', ...i.path].join('.')}: ${i.message}`).join('; ')}`);
  }
  const ttl = parsed.data.ttl ?? {};
  return {
    ttl: { refreshOnRead: ttl.refresh_on_read ?? true, defaultTtlMinutes: ttl.default_ttl ?? undefined },
    sweepIntervalMs: (ttl.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES) * 60_000,
    indexRequested: parsed.data.index !== undefined && parsed.data.index !== null,
  };
}
