import type { z } from 'zod';
import { ConflictError, InputError } from '@platform/errors';

/** A payload does not match its queue's schema (an `InputError`: the producer's mistake, never retried). */
export class JobPayloadError extends InputError {
  constructor(
    readonly queue: string,
    readonly issues: z.ZodError['issues'],
  ) {
    super(`Invalid payload for queue "${queue}": ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

/**
 * A second durable name on a queue. Work-queue streams allow one consumer per subject, so
 * replicas share work by using the same durable; a different one is rejected on both buses.
 */
export class DurableConflictError extends ConflictError {
  constructor(
    readonly queue: string,
    readonly durable: string,
    detail: string,
  ) {
    super(`Queue "${queue}" cannot take durable "${durable}": ${detail}`);
  }
}
