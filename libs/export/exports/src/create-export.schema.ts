import { z } from 'zod';
import { EXPORTABLE_RUN_FIELDS, isoToMicros, microsToDate } from '@platform/contracts';
import { isUuid } from '@platform/ids';

const uuid = (what: string) =>
  z
    .string()
    .refine(isUuid, `${what} must be a UUID`)
    .transform((v) => v.toLowerCase());

// ISO 8601; a time without a zone is UTC (as the SDKs send it).
const isoTime = z.string().transform((v, ctx) => {
  try {
    return microsToDate(isoToMicros(v));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'Input should be a valid ISO 8601 datetime' });
    return z.NEVER;
  }
});

const caseInsensitive = <T extends string>(values: readonly [T, ...T[]]) =>
  z.preprocess((v) => (typeof v === 'string' ? (values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v) : v), z.enum(values));

/** `POST /bulk-exports`: a one-off export (`end_time`) or a schedule (`interval_hours`, no `end_time`). */
export const createExportSchema = z
  .object({
    bulk_export_destination_id: uuid('bulk_export_destination_id'),
    session_id: uuid('session_id'),
    start_time: isoTime,
    end_time: isoTime.nullish(),
    filter: z.string().trim().max(10_000).nullish(),
    export_fields: z.array(z.enum(EXPORTABLE_RUN_FIELDS)).min(1).nullish(),
    interval_hours: z.number().int().min(1).max(168).nullish(),
    format: caseInsensitive(['Parquet']).default('Parquet'),
    format_version: caseInsensitive(['v1', 'v2_beta']).default('v1'),
    compression: caseInsensitive(['none', 'gzip', 'snappy', 'zstandard']).default('gzip'),
  })
  .superRefine((v, ctx) => {
    if (v.interval_hours != null) {
      if (v.end_time != null) ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must be omitted for scheduled exports (interval_hours)' });
      return;
    }
    if (v.end_time == null) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time is required unless interval_hours is set' });
    } else if (v.end_time.getTime() <= v.start_time.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must be after start_time' });
    }
  });

export type CreateExportRequest = z.infer<typeof createExportSchema>;

/** `PATCH /bulk-exports/{id}`: cancelling is the only update (any case of `Cancelled`). */
export const updateExportSchema = z.object({
  status: z
    .string()
    .refine((s) => s.trim().toLowerCase() === 'cancelled', 'Only status "Cancelled" can be set')
    .transform(() => 'Cancelled' as const),
});
