import { arrayOf, bool, dateTime, dict, int, object, oneOfEnum, ref, str, uuid, type Schema } from './openapi-helpers';

const MULTITASK = ['reject', 'interrupt', 'rollback', 'enqueue'] as const;
const STREAM_MODES = ['values', 'updates', 'messages', 'messages-tuple', 'events', 'debug', 'custom', 'tasks', 'checkpoints'] as const;
const THREAD_STATUS = ['idle', 'busy', 'interrupted', 'error'] as const;
const RUN_STATUS = ['pending', 'running', 'success', 'error', 'timeout', 'interrupted'] as const;

const assistantFields = {
  assistant_id: uuid(),
  graph_id: str('The graph (from langgraph.json) the assistant runs'),
  config: ref('Config'),
  context: dict('Static context passed to the graph'),
  metadata: dict(),
  version: int('Current version'),
  name: str(),
  description: { type: ['string', 'null'] },
  created_at: dateTime,
};

const filters = { metadata: dict('JSON containment'), graph_id: str(), name: str('Case-insensitive substring') };
const paging = { limit: int('Page size', { minimum: 1, maximum: 1000, default: 10 }), offset: int('Rows to skip', { minimum: 0, default: 0 }) };
const sorting = (fields: readonly string[]) => ({ sort_by: oneOfEnum(fields), sort_order: oneOfEnum(['asc', 'desc']) });

const checkpoint = object({ thread_id: str(), checkpoint_ns: str(), checkpoint_id: str(), checkpoint_map: dict() });

const runFields: Record<string, Schema> = {
  assistant_id: str('Assistant id, or a graph id for its system assistant'),
  input: { description: 'Graph input, e.g. `{"messages": [{"role": "user", "content": "hi"}]}`' },
  command: ref('Command'),
  checkpoint_id: str(),
  checkpoint,
  metadata: dict(),
  config: ref('Config'),
  context: dict(),
  webhook: str('URL called when the run ends'),
  interrupt_before: { oneOf: [oneOfEnum(['*']), arrayOf(str())] },
  interrupt_after: { oneOf: [oneOfEnum(['*']), arrayOf(str())] },
  stream_mode: { oneOf: [oneOfEnum(STREAM_MODES), arrayOf(oneOfEnum(STREAM_MODES))] },
  stream_subgraphs: bool(),
  stream_resumable: bool('Keep events so the stream can be rejoined with Last-Event-ID'),
  on_disconnect: oneOfEnum(['cancel', 'continue'], 'Default continue'),
  multitask_strategy: oneOfEnum(MULTITASK, 'What to do when the thread is busy (default enqueue)'),
  after_seconds: { type: 'number' },
  feedback_keys: arrayOf(str()),
};

const cronFields: Record<string, Schema> = {
  assistant_id: str(),
  schedule: str('Cron expression, e.g. `*/5 * * * *`'),
  input: {},
  config: ref('Config'),
  context: dict(),
  metadata: dict(),
  webhook: str(),
  multitask_strategy: oneOfEnum(MULTITASK),
  enabled: bool(),
  timezone: str('IANA time zone'),
  end_time: dateTime,
  on_run_completed: oneOfEnum(['delete', 'keep']),
};

const item = { namespace: arrayOf(str()), key: str(), value: dict(), created_at: dateTime, updated_at: dateTime };

/** The component schemas of the Agent Server API. */
export const componentSchemas: Record<string, Schema> = {
  Config: {
    ...object({ tags: arrayOf(str()), recursion_limit: int(), configurable: dict() }),
    additionalProperties: true,
    description: "LangGraph's RunnableConfig",
  },
  Assistant: object({ ...assistantFields, updated_at: dateTime }, ['assistant_id', 'graph_id', 'config', 'metadata', 'version', 'name', 'created_at', 'updated_at']),
  AssistantVersion: object(assistantFields, ['assistant_id', 'graph_id', 'version', 'created_at']),
  AssistantCreate: object(
    {
      assistant_id: uuid('Generated when omitted'),
      graph_id: str(),
      config: ref('Config'),
      context: dict(),
      metadata: dict(),
      if_exists: oneOfEnum(['raise', 'do_nothing'], 'Default raise (409)'),
      name: str('Default "Untitled"'),
      description: str(),
    },
    ['graph_id'],
  ),
  AssistantPatch: object({ graph_id: str(), config: ref('Config'), context: dict(), metadata: dict('Merged into the current metadata'), name: str(), description: str() }),
  AssistantSearchRequest: object({
    ...filters,
    ...paging,
    ...sorting(['assistant_id', 'graph_id', 'name', 'created_at', 'updated_at']),
    select: arrayOf(oneOfEnum(['assistant_id', 'graph_id', 'name', 'description', 'config', 'context', 'created_at', 'updated_at', 'metadata', 'version'])),
  }),
  AssistantCountRequest: object(filters),
  AssistantVersionsRequest: object({ metadata: dict(), ...paging }),
  GraphSchemas: object({
    graph_id: str(),
    input_schema: dict('JSON Schema'),
    output_schema: dict('JSON Schema'),
    state_schema: dict('JSON Schema'),
    config_schema: dict('JSON Schema'),
    context_schema: dict('JSON Schema'),
  }),
  // As the reference answers subgraphs (the SDK's type names the keys as GraphSchemas does).
  SubgraphSchemas: object({ state: dict('JSON Schema'), input: dict('JSON Schema'), output: dict('JSON Schema'), config: dict('JSON Schema') }),
  GraphDrawing: object({
    nodes: arrayOf(object({ id: { oneOf: [str(), int()] }, type: str(), data: {}, metadata: dict() })),
    edges: arrayOf(object({ source: str(), target: str(), data: str(), conditional: bool() })),
  }),
  Thread: object(
    {
      thread_id: uuid(),
      created_at: dateTime,
      updated_at: dateTime,
      state_updated_at: dateTime,
      metadata: dict(),
      status: oneOfEnum(THREAD_STATUS),
      config: dict(),
      values: dict('Latest state values'),
      interrupts: dict('Pending interrupts by task id'),
    },
    ['thread_id', 'created_at', 'updated_at', 'metadata', 'status'],
  ),
  ThreadCreate: object({
    thread_id: uuid('Generated when omitted'),
    metadata: dict(),
    if_exists: oneOfEnum(['raise', 'do_nothing']),
    supersteps: arrayOf(object({ updates: arrayOf(object({ values: {}, command: ref('Command'), as_node: str() })) })),
  }),
  ThreadSearchRequest: object({
    metadata: dict(),
    values: dict(),
    status: oneOfEnum(THREAD_STATUS),
    ids: arrayOf(uuid()),
    ...paging,
    ...sorting(['thread_id', 'status', 'created_at', 'updated_at', 'state_updated_at']),
    select: arrayOf(str()),
  }),
  ThreadCountRequest: object({ metadata: dict(), values: dict(), status: oneOfEnum(THREAD_STATUS) }),
  ThreadPatch: object({ metadata: dict('Merged into the current metadata') }),
  ThreadPruneRequest: object({ thread_ids: arrayOf(uuid()), strategy: oneOfEnum(['delete', 'keep_latest']) }, ['thread_ids']),
  ThreadState: object({
    values: {},
    next: arrayOf(str()),
    tasks: arrayOf(object({ id: str(), name: str(), error: str(), interrupts: arrayOf(dict()), path: arrayOf({}), checkpoint, state: {}, result: {} })),
    metadata: dict(),
    created_at: dateTime,
    checkpoint,
    parent_checkpoint: checkpoint,
    interrupts: arrayOf(dict()),
  }),
  ThreadStateUpdate: object({ values: {}, as_node: str(), checkpoint_id: str(), checkpoint }),
  ThreadStateCheckpointRequest: object({ checkpoint, subgraphs: bool(), select: arrayOf(str()) }),
  ThreadHistoryRequest: object({ limit: int(undefined, { default: 10 }), before: {}, metadata: dict(), checkpoint, select: arrayOf(str()) }),
  Command: object({ goto: {}, update: {}, resume: {} }),
  Run: object(
    {
      run_id: uuid(),
      thread_id: uuid(),
      assistant_id: uuid(),
      created_at: dateTime,
      updated_at: dateTime,
      status: oneOfEnum(RUN_STATUS),
      metadata: dict(),
      kwargs: dict(),
      multitask_strategy: oneOfEnum(MULTITASK),
    },
    ['run_id', 'thread_id', 'assistant_id', 'status'],
  ),
  RunCreateStateful: object({ ...runFields, if_not_exists: oneOfEnum(['reject', 'create'], 'Create a missing thread (default reject: 404)') }, ['assistant_id']),
  RunCreateStateless: object({ ...runFields, on_completion: oneOfEnum(['delete', 'keep'], "The run's temporary thread (default delete)") }, ['assistant_id']),
  RunCancelRequest: object({ thread_id: uuid(), run_ids: arrayOf(uuid()), status: oneOfEnum(['pending', 'running', 'all']) }),
  RunWaitResult: { description: "The run's final state values, or `{\"__error__\": {error, message}}` for a failed run" },
  Cron: object({
    cron_id: uuid(),
    assistant_id: uuid(),
    thread_id: uuid(),
    schedule: str(),
    end_time: dateTime,
    created_at: dateTime,
    updated_at: dateTime,
    next_run_date: dateTime,
    payload: dict(),
    metadata: dict(),
    enabled: bool(),
    timezone: str(),
  }),
  CronCreate: object(cronFields, ['assistant_id', 'schedule']),
  CronPatch: object({ schedule: str(), end_time: dateTime, input: {}, metadata: dict(), config: ref('Config'), context: dict(), enabled: bool(), timezone: str() }),
  CronSearchRequest: object({ assistant_id: str(), thread_id: uuid(), enabled: bool(), ...paging, ...sorting(['cron_id', 'assistant_id', 'thread_id', 'created_at', 'updated_at', 'next_run_date']) }),
  CronCountRequest: object({ assistant_id: str(), thread_id: uuid() }),
  Item: object(item, ['namespace', 'key', 'value']),
  SearchItem: object({ ...item, score: { type: ['number', 'null'], description: 'Cosine similarity to the query; null when unranked' } }),
  StorePutRequest: object(
    { namespace: arrayOf(str()), key: str(), value: dict(), index: { oneOf: [{ type: 'boolean', const: false }, arrayOf(str())] }, ttl: { type: 'number', description: 'Minutes' } },
    ['namespace', 'key', 'value'],
  ),
  StoreDeleteRequest: object({ namespace: arrayOf(str()), key: str() }, ['key']),
  StoreSearchRequest: object({ namespace_prefix: arrayOf(str()), filter: dict('Equality or $eq $ne $gt $gte $lt $lte $in'), ...paging, query: str('With store.index: rank by similarity to this text'), refresh_ttl: bool() }),
  StoreListNamespacesRequest: object({ prefix: arrayOf(str()), suffix: arrayOf(str()), max_depth: int(), ...paging }),
  JsonRpcRequest: object(
    {
      jsonrpc: oneOfEnum(['2.0']),
      id: { oneOf: [str(), int(), { type: 'null' }], description: 'Absent on a notification (answered 202 without a body)' },
      method: str('A2A: message/send, message/stream, tasks/get, tasks/cancel. MCP: initialize, ping, tools/list, tools/call'),
      params: dict(),
    },
    ['jsonrpc', 'method'],
  ),
  JsonRpcResponse: object({ jsonrpc: str(), id: {}, result: {}, error: object({ code: int(), message: str(), data: {} }) }),
  AgentCard: object({ protocolVersion: str(), name: str(), description: str(), url: str(), version: str(), capabilities: dict(), skills: arrayOf(dict()) }),
  ErrorResponse: object({ detail: str() }, ['detail']),
  ValidationError: object({ loc: arrayOf({ oneOf: [str(), int()] }), msg: str(), type: str() }, ['loc', 'msg', 'type']),
  HTTPValidationError: object({ detail: arrayOf(ref('ValidationError')) }),
};
