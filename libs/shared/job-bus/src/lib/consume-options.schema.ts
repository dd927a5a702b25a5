import { z } from 'zod';
import type { ConsumeOptions } from './job-bus.types';

const positiveInt = z.number().int().positive();

// Defaults follow JetStream's own (30 s ack wait, unlimited deliveries).
const consumeOptionsSchema = z.object({
  durable: z.string().regex(/^[A-Za-z0-9_-]+$/, 'may only hold letters, digits, "-" and "_"'),
  concurrency: positiveInt.default(1),
  ackWaitMs: positiveInt.default(30_000),
  maxDeliver: positiveInt.optional(),
  defaultNakDelayMs: z.number().int().nonnegative().default(5_000),
});

export type ResolvedConsumeOptions = z.output<typeof consumeOptionsSchema>;

/** Applies defaults and rejects nonsense (a programming error, so a plain `Error`). */
export function resolveConsumeOptions(opts: ConsumeOptions): ResolvedConsumeOptions {
  const result = consumeOptionsSchema.safeParse(opts);
  if (result.success) return result.data;
  const detail = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new Error(`Invalid consume options: ${detail}`);
}
