import { z } from 'zod';
import {
  cancelManyQuerySchema,
  cancelQuerySchema,
  joinQuerySchema,
  joinStreamQuerySchema,
  listRunsQuerySchema,
  MULTITASK_STRATEGIES,
  RUN_STATUSES,
} from '@platform/agent-server-run-records';
import { uuidParam } from '../../common/responses.schema';

// The runs routes' path and query schemas; bodies are the run-records lib's (`runCreateSchema`, ...), which the
// use cases take parsed.

export const threadPath = z.object({ thread_id: uuidParam('Thread id') });
export const runPath = z.object({ thread_id: uuidParam('Thread id'), run_id: uuidParam('Run id') });
export const statelessRunPath = z.object({ run_id: uuidParam('Run id') });

// A lib's query schema with a description for some of its parameters (parsing unchanged).
function described<S extends z.ZodObject>(schema: S, descriptions: Partial<Record<keyof S['shape'] & string, string>>): S {
  const shape = schema.shape as Record<string, z.ZodType>;
  return schema.extend(Object.fromEntries(Object.entries(descriptions).map(([key, text]) => [key, shape[key].describe(text as string)]))) as unknown as S;
}

export const listQuery = described(listRunsQuerySchema, { status: 'Only runs in this status', select: 'Run fields to return' });
export const joinQuery = described(joinQuerySchema, { cancel_on_disconnect: 'Cancel the run when this request closes' });
export const joinStreamQuery = described(joinStreamQuerySchema, { cancel_on_disconnect: 'Cancel the run when this stream closes', stream_mode: 'Modes to receive' });
export const threadStreamQuery = described(joinStreamQuerySchema, { stream_mode: 'Modes to receive' });
export const cancelQuery = described(cancelQuerySchema, { wait: 'Wait for the run to stop (204) instead of 202', action: 'interrupt (keep progress) or rollback (delete the run)' });
export const cancelManyQuery = described(cancelManyQuerySchema, { action: 'interrupt or rollback' });

/** A run as the API shows it (`toRun`). */
export const runResponse = z.object({
  run_id: z.string().meta({ format: 'uuid' }),
  thread_id: z.string().meta({ format: 'uuid' }),
  assistant_id: z.string().meta({ format: 'uuid' }),
  created_at: z.string().meta({ format: 'date-time' }),
  updated_at: z.string().meta({ format: 'date-time' }),
  status: z.enum(RUN_STATUSES),
  metadata: z.record(z.string(), z.unknown()),
  kwargs: z.record(z.string(), z.unknown()).describe('What the run was created with: input or command, config, context, stream_mode, ...'),
  multitask_strategy: z.enum(MULTITASK_STRATEGIES),
});

/** What `/wait` and `/join` answer (JSON text the run left, sent as is). */
export const runOutput = z.unknown().describe('The run\'s final state values, or `{"__error__": {error, message}}` for a failed run');
