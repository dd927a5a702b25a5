import { callerConfigurable, type AuthCaller } from '@platform/agent-server-auth';
import type { RunConfig, RunKwargs, StreamMode } from './run';
import type { RunCreateRequest } from './run-request.schema';

/** The assistant a run executes, as its resolver returns it. */
export interface RunAssistant {
  assistant_id: string;
  graph_id: string;
  config: Record<string, unknown>;
  context?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
}

/** Finds an assistant by id, or the system assistant of a graph id; unknown → NotFoundError. */
export interface AssistantResolver {
  resolve(assistantIdOrGraphId: string): Promise<RunAssistant>;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function streamModes(requested: RunCreateRequest['stream_mode']): StreamMode[] {
  const modes = requested == null ? [] : Array.isArray(requested) ? requested : [requested];
  return modes.length > 0 ? [...new Set(modes)] : ['values'];
}

/**
 * A new run's metadata sources (see NewRun.metadata): the assistant's and the request's, or the request's as the
 * deployment's auth handler left it (`handled`, stamped with an owner, say). A thread the run creates (stateless, or
 * `if_not_exists: create`) gets the graph and assistant ids with the latter, as LangGraph writes it.
 */
export function newRunMetadata(
  assistant: RunAssistant,
  request: RunCreateRequest,
  handled?: Record<string, unknown>,
): { assistant: Record<string, unknown>; request: Record<string, unknown>; newThread: Record<string, unknown> } {
  const metadata = handled ?? asRecord(request.metadata);
  return {
    assistant: asRecord(assistant.metadata),
    request: metadata,
    newThread: { graph_id: assistant.graph_id, assistant_id: assistant.assistant_id, ...metadata },
  };
}

/**
 * The request's config as the run's thread keeps it (NewRun.configs.request): with the caller the deployment's auth
 * authenticated in `configurable`, as LangGraph stamps it before it stores the run and its thread.
 */
export function requestConfig(request: RunCreateRequest, caller?: AuthCaller): Record<string, unknown> {
  const own = asRecord(request.config);
  return caller ? { ...own, configurable: { ...asRecord(own['configurable']), ...callerConfigurable(caller) } } : own;
}

/**
 * The run's config: the assistant's, overlaid with the request's (configurable and metadata merged key by key,
 * tags appended), plus the ids the graph and the checkpointer read from `configurable`, and the caller the
 * deployment's auth authenticated (`langgraph_auth_user`, ...; `user_id` unless one is set), as LangGraph puts them.
 */
export function mergeRunConfig(
  assistant: RunAssistant,
  request: RunCreateRequest,
  ids: { runId: string; threadId: string },
  caller?: AuthCaller,
): RunConfig {
  const base = asRecord(assistant.config);
  const own = asRecord(request.config);
  const checkpoint = request.checkpoint ?? {};
  const configurable: Record<string, unknown> = {
    ...asRecord(base['configurable']),
    ...asRecord(own['configurable']),
    ...(checkpoint.checkpoint_id ? { checkpoint_id: checkpoint.checkpoint_id } : {}),
    ...(checkpoint.checkpoint_ns ? { checkpoint_ns: checkpoint.checkpoint_ns } : {}),
    ...(checkpoint.checkpoint_map ? { checkpoint_map: checkpoint.checkpoint_map } : {}),
    ...(request.checkpoint_id ? { checkpoint_id: request.checkpoint_id } : {}),
    ...(request.langsmith_tracer?.project_name ? { langsmith_project: request.langsmith_tracer.project_name } : {}),
    ...(request.langsmith_tracer?.example_id ? { langsmith_example_id: request.langsmith_tracer.example_id } : {}),
    ...(caller ? callerConfigurable(caller) : {}),
    run_id: ids.runId,
    thread_id: ids.threadId,
    assistant_id: assistant.assistant_id,
    graph_id: assistant.graph_id,
  };
  if (caller) configurable['user_id'] ??= caller.user.identity;
  const tags = [...((base['tags'] as string[] | undefined) ?? []), ...((own['tags'] as string[] | undefined) ?? [])];
  const metadata = { ...asRecord(base['metadata']), ...asRecord(own['metadata']) };
  const recursionLimit = (own['recursion_limit'] ?? base['recursion_limit']) as number | undefined | null;
  return {
    ...base,
    ...own,
    ...(tags.length > 0 ? { tags: [...new Set(tags)] } : { tags: undefined }),
    ...(recursionLimit != null ? { recursion_limit: recursionLimit } : { recursion_limit: undefined }),
    metadata,
    configurable,
  };
}

/** Everything the executor needs about one run, from the request and its assistant. */
export function buildRunKwargs(
  assistant: RunAssistant,
  request: RunCreateRequest,
  ids: { runId: string; threadId: string; temporary: boolean },
  caller?: AuthCaller,
): RunKwargs {
  const feedbackKeys = request.feedback_keys == null ? [] : Array.isArray(request.feedback_keys) ? request.feedback_keys : [request.feedback_keys];
  const durability = request.durability ?? (request.checkpoint_during === false ? 'exit' : undefined);
  const kwargs: RunKwargs = {
    input: request.input ?? null,
    command: request.command ?? null,
    config: JSON.parse(JSON.stringify(mergeRunConfig(assistant, request, ids, caller))) as RunConfig,
    context: { ...asRecord(assistant.context), ...asRecord(request.context) },
    stream_mode: streamModes(request.stream_mode),
    temporary: ids.temporary,
    subgraphs: request.stream_subgraphs ?? false,
    resumable: request.stream_resumable ?? false,
    on_disconnect: request.on_disconnect ?? 'continue',
  };
  if (request.interrupt_before != null) kwargs.interrupt_before = request.interrupt_before;
  if (request.interrupt_after != null) kwargs.interrupt_after = request.interrupt_after;
  if (request.webhook) kwargs.webhook = request.webhook;
  if (feedbackKeys.length > 0) kwargs.feedback_keys = feedbackKeys;
  if (durability) kwargs.durability = durability;
  return kwargs;
}
