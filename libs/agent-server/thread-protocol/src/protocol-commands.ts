import { z } from 'zod';
import { MULTITASK_STRATEGIES, type MultitaskStrategy, type StreamMode, type RunCreateRequest } from '@platform/agent-server-run-records';

/**
 * The commands of the streaming protocol (`POST /threads/{id}/commands`, `@langchain/protocol` `Command`) that
 * start runs, as the run requests they make. Their runs stream every mode the protocol has a channel for, from
 * every subgraph, into the durable event log. Parameters are read leniently, as LangGraph's API server reads them.
 */
export const PROTOCOL_STREAM_MODES: StreamMode[] = ['values', 'updates', 'messages-tuple', 'custom', 'tasks'];

export const protocolCommandSchema = z.looseObject({
  id: z.number().int().min(0),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).nullish(),
});

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const recordOr = (value: unknown) => (isRecord(value) ? value : undefined);

/** A command's parameters, or what is wrong with them (an `invalid_argument` answer). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export interface RunStartParams {
  assistant_id: string;
  input: unknown;
  config?: Json;
  metadata?: Json;
  multitask_strategy?: MultitaskStrategy;
}

export interface InputRespondParams {
  /** `{interrupt_id: response}` for each interrupt answered. */
  resume: Json;
  update?: unknown;
  goto?: unknown;
  config?: Json;
  metadata?: Json;
}

const strategy = (value: unknown) => (MULTITASK_STRATEGIES as readonly unknown[]).includes(value) ? (value as MultitaskStrategy) : undefined;

export function parseRunStart(params: Json | null | undefined): Parsed<RunStartParams> {
  const p = params ?? {};
  if (typeof p['assistant_id'] !== 'string' || p['assistant_id'] === '') return { ok: false, message: 'run.start requires an assistant_id.' };
  return {
    ok: true,
    value: {
      assistant_id: p['assistant_id'],
      input: p['input'],
      config: recordOr(p['config']),
      metadata: recordOr(p['metadata']),
      multitask_strategy: strategy(p['multitask_strategy']) ?? strategy(p['multitaskStrategy']),
    },
  };
}

export function parseInputRespond(params: Json | null | undefined): Parsed<InputRespondParams> {
  const p = params ?? {};
  const resume: Json = {};
  if (Array.isArray(p['responses'])) {
    for (const entry of p['responses']) {
      if (!isRecord(entry) || typeof entry['interrupt_id'] !== 'string') return { ok: false, message: 'input.respond responses entries require an interrupt_id.' };
      resume[entry['interrupt_id']] = entry['response'];
    }
    if (Object.keys(resume).length === 0) return { ok: false, message: 'input.respond requires at least one response.' };
  } else if (typeof p['interrupt_id'] === 'string') resume[p['interrupt_id']] = p['response'];
  else return { ok: false, message: 'input.respond requires an interrupt_id.' };
  const update = isRecord(p['update']) || Array.isArray(p['update']) ? p['update'] : undefined;
  const goto = typeof p['goto'] === 'string' || Array.isArray(p['goto']) || isRecord(p['goto']) ? p['goto'] : undefined;
  return { ok: true, value: { resume, update, goto, config: recordOr(p['config']), metadata: recordOr(p['metadata']) } };
}

const STREAMING = { stream_mode: PROTOCOL_STREAM_MODES, stream_subgraphs: true, stream_resumable: true, if_not_exists: 'create' } as const;

// `RemoteGraph` sends a `Command` input as its JSON (`{lg_name: "Command", resume, update, goto}`).
function commandOf(input: unknown): RunCreateRequest['command'] | undefined {
  if (!isRecord(input) || input['lg_name'] !== 'Command') return undefined;
  return { resume: input['resume'], update: input['update'] as never, goto: input['goto'] as never };
}

/**
 * `run.start`: a run on the thread, created if it does not exist yet. On a thread waiting on interrupts the input
 * is the answer (the run resumes with it), as LangGraph's API server has it.
 */
export function runStartRequest(params: RunStartParams, threadInterrupted: boolean): RunCreateRequest {
  const command = commandOf(params.input) ?? (threadInterrupted && params.input != null ? { resume: params.input } : undefined);
  return {
    assistant_id: params.assistant_id,
    ...(command ? { command } : { input: params.input ?? null }),
    config: params.config,
    metadata: params.metadata,
    multitask_strategy: params.multitask_strategy ?? 'enqueue',
    ...STREAMING,
  };
}

/** `input.respond`: a run of the thread's assistant resuming the named interrupts (with an update and a jump, if given). */
export function inputRespondRequest(params: InputRespondParams, assistantId: string): RunCreateRequest {
  return {
    assistant_id: assistantId,
    command: { resume: params.resume, update: params.update as never, goto: params.goto as never },
    config: params.config,
    metadata: params.metadata,
    multitask_strategy: 'enqueue',
    ...STREAMING,
  };
}
