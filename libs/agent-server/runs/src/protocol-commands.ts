import { z } from 'zod';
import { MULTITASK_STRATEGIES, type StreamMode } from './run';
import type { RunCreateRequest } from './run-request.schema';

/**
 * The commands of the streaming protocol (`POST /threads/{id}/commands`, `@langchain/protocol` `Command`) that
 * start runs, as the run requests they make. Their runs stream every mode the protocol has a channel for, from
 * every subgraph, into the durable event log.
 */
export const PROTOCOL_STREAM_MODES: StreamMode[] = ['values', 'updates', 'messages-tuple', 'custom', 'tasks'];

const record = z.record(z.string(), z.unknown());

export const protocolCommandSchema = z.looseObject({
  id: z.number().int().min(0),
  method: z.string().min(1),
  params: record.nullish(),
});

export const runStartParamsSchema = z.looseObject({
  assistant_id: z.string().min(1),
  input: z.unknown().optional(),
  config: record.nullish(),
  metadata: record.nullish(),
  multitask_strategy: z.enum(MULTITASK_STRATEGIES).nullish(),
  langsmith_tracer: z.object({ project_name: z.string().nullish(), example_id: z.string().nullish() }).nullish(),
});

const respondEntry = z.object({ namespace: z.array(z.string()), interrupt_id: z.string().min(1), response: z.unknown() });

export const inputRespondParamsSchema = z.union([
  respondEntry.extend({ update: record.nullish(), goto: z.unknown().optional(), config: record.nullish(), metadata: record.nullish() }),
  z.object({ responses: z.array(respondEntry).min(1), update: record.nullish(), goto: z.unknown().optional(), config: record.nullish(), metadata: record.nullish() }),
]);

export type RunStartParams = z.infer<typeof runStartParamsSchema>;
export type InputRespondParams = z.infer<typeof inputRespondParamsSchema>;

const STREAMING = { stream_mode: PROTOCOL_STREAM_MODES, stream_subgraphs: true, stream_resumable: true } as const;

// `RemoteGraph` sends a `Command` input as its JSON (`{lg_name: "Command", resume, update, goto}`).
function commandOf(input: unknown): RunCreateRequest['command'] | undefined {
  if (typeof input !== 'object' || input === null || (input as { lg_name?: unknown }).lg_name !== 'Command') return undefined;
  const { resume, update, goto } = input as Record<string, unknown>;
  return { resume, update: update as never, goto: goto as never };
}

/** `run.start`: a run on the thread, which is created if it does not exist yet. */
export function runStartRequest(params: RunStartParams): RunCreateRequest {
  const command = commandOf(params.input);
  return {
    assistant_id: params.assistant_id,
    ...(command ? { command } : { input: params.input ?? null }),
    config: params.config ?? undefined,
    metadata: params.metadata ?? undefined,
    multitask_strategy: params.multitask_strategy ?? undefined,
    langsmith_tracer: params.langsmith_tracer ?? undefined,
    if_not_exists: 'create',
    ...STREAMING,
  };
}

/** `input.respond`: a run of the thread's assistant that resumes the named interrupts with their responses. */
export function inputRespondRequest(params: InputRespondParams, assistantId: string): RunCreateRequest {
  const entries = 'responses' in params ? params.responses : [params];
  const resume = Object.fromEntries(entries.map((entry) => [entry.interrupt_id, entry.response]));
  return {
    assistant_id: assistantId,
    command: { resume, update: (params.update ?? undefined) as never, goto: params.goto as never },
    config: params.config ?? undefined,
    metadata: params.metadata ?? undefined,
    ...STREAMING,
  };
}
