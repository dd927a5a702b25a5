import { ABSENT, type Difference } from './diff';
import type { Owner, Step } from './step';

/** One call's normalised answers, for rules that look beyond the differing value. */
export interface Answers {
  reference: unknown;
  ours: unknown;
}

/**
 * A difference this server makes on purpose. Each is listed with its reason in the README; the report names the
 * allowance wherever it applied, so nothing is hidden.
 */
export interface Allowance {
  id: string;
  why: string;
  applies?: (difference: Difference, step: Step, answers: Answers) => boolean;
  /** Rewrites both answers before they are compared (for differences a path cannot name, like an extra event). */
  prepare?: (answers: Answers, step: Step) => Answers | undefined;
}

/** Differences in a call of one section that another piece of work owes (e.g. auth keys in any run's config). */
export interface Attribution {
  owner: Owner;
  what: string;
  applies: (difference: Difference, step: Step) => boolean;
}

const lastKey = (path: string): string => {
  const match = /(?:\.([\w$]+)|\."((?:[^"\\]|\\.)*)")$/.exec(path);
  return match ? (match[1] ?? match[2]) : '';
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values on the way to `path`, outermost first, without the value at `path` itself. */
function ancestors(root: unknown, path: string): unknown[] {
  const tokens = [...path.matchAll(/\.([\w$]+)|\."((?:[^"\\]|\\.)*)"|\[(\d+)\]/g)].map((m) => m[1] ?? m[2] ?? Number(m[3]));
  const out: unknown[] = [root];
  let value = root;
  for (const token of tokens.slice(0, -1)) {
    if (value === null || typeof value !== 'object') break;
    value = (value as Record<string | number, unknown>)[token];
    out.push(value);
  }
  return out;
}

const parentOf = (root: unknown, path: string): unknown => ancestors(root, path).at(-1);

/** The HTTP status of the error answer that holds `path` (`{status, body}` or `{error: {status, message}}`). */
function errorStatus(root: unknown, path: string): unknown {
  for (const value of ancestors(root, path).reverse()) {
    if (isRecord(value) && typeof value['status'] === 'number') return value['status'];
    if (isRecord(value) && isRecord(value['error']) && typeof value['error']['status'] === 'number') return value['error']['status'];
  }
  return undefined;
}

const onlyInOurs = (d: Difference) => d.reference === ABSENT && d.ours !== ABSENT;

const isEnvelopeEvent = (event: unknown): boolean =>
  isRecord(event) && typeof event['event'] === 'string' && event['event'].startsWith('checkpoints') && isRecord(event['data']) && 'parent_id' in event['data'];

export const ALLOWANCES: Allowance[] = [
  {
    id: 'platform-thread-fields',
    why: 'Threads always carry `values`, `interrupts` and `state_updated_at`, as LangGraph Platform returns them and the SDK types them; the JS dev server leaves them out until a run wrote state.',
    applies: (d) => onlyInOurs(d) && ['values', 'interrupts', 'state_updated_at'].includes(lastKey(d.path)) && !Array.isArray(d.ours),
  },
  {
    id: 'state-interrupts',
    why: 'A thread state lists its pending interrupts (`interrupts`), as LangGraph Platform and the Python SDK do; the JS dev server does not.',
    // A thread's own state only: a subgraph's state nested in a task (`….tasks[i].state.interrupts`) must match.
    applies: (d) => onlyInOurs(d) && lastKey(d.path) === 'interrupts' && Array.isArray(d.ours) && !/\.state\.interrupts$/.test(d.path),
  },
  {
    id: 'default-multitask-enqueue',
    why: 'A run without `multitask_strategy` is queued (`enqueue`), as the platform specification says; the JS dev server rejects it.',
    applies: (d) => lastKey(d.path) === 'multitask_strategy' && d.reference === 'reject' && d.ours === 'enqueue',
  },
  {
    id: 'reject-409',
    why: 'A run refused because its thread is busy (`multitask_strategy: reject`) is a 409 Conflict; the JS dev server answers 422 with the same message.',
    applies: (d, _step, answers) => lastKey(d.path) === 'status' && d.reference === 422 && d.ours === 409 && /already running a task/.test(JSON.stringify(parentOf(answers.ours, d.path))),
  },
  {
    id: 'validation-422',
    why: 'Invalid input is a FastAPI-shaped 422 (`{"detail": [{loc, msg, type}]}`), as LangGraph Platform answers; the JS dev server answers 400/422 with zod\'s issue list or its own text.',
    applies: (d, _step, answers) => errorStatus(answers.ours, d.path) === 422 && ['status', 'message'].includes(lastKey(d.path)),
  },
  {
    id: 'run-on-missing-thread-404',
    why: 'A run on a thread that does not exist is a 404 naming the thread; the JS dev server answers 422 "Thread is already running a task" (its reject strategy mistakes the missing thread for a busy one).',
    applies: (d, step) => step.name === 'runs.wait on a missing thread' && (d.reference === 422 || /already running a task/.test(String(d.reference))),
  },
  {
    id: 'assistant-needs-graph',
    why: 'An assistant for a graph the deployment does not serve is refused (404); the JS dev server creates it.',
    applies: (_d, step) => step.name === 'assistants.create on an unknown graph',
  },
  {
    id: 'delete-204',
    why: 'DELETE /assistants/{id} answers 204 without a body, as LangGraph Platform does; the JS dev server answers 200 with the deleted ids.',
    applies: (d, step) => step.name === 'assistants.delete' && d.path === '$' && d.ours === undefined,
  },
  {
    id: 'history-before-object',
    why: 'POST /threads/{id}/history takes `before` as the SDK sends it (a config object); the JS dev server refuses anything but a checkpoint id string.',
    applies: (_d, step) => step.name === 'threads.getHistory limit and before (SDK)',
  },
  {
    id: 'run-starts-at-once',
    why: 'A run that this replica can start at once is created `running` (it skips the queue); the JS dev server always creates runs `pending`.',
    applies: (d, _step, answers) =>
      lastKey(d.path) === 'status' && d.reference === 'pending' && d.ours === 'running' && isRecord(parentOf(answers.ours, d.path)) && 'run_id' in (parentOf(answers.ours, d.path) as object),
  },
  {
    id: 'pagination-next',
    why: 'A search page that has a next page says where it starts (`X-Pagination-Next`); the JS dev server sends it only when the whole result happens to be exactly one page long.',
    applies: (d) => d.path === '$.headers."x-pagination-next"' && d.reference === null && typeof d.ours === 'string',
  },
  {
    id: 'assistant-search-sorted',
    why: 'Assistant searches honour `sort_by` and `sort_order`; the JS dev server always sorts newest first.',
    applies: (_d, step) => step.name === 'assistants.search sorted, with select',
  },
  {
    id: 'thread-interrupts-pending-only',
    why: "A thread's `interrupts` maps the tasks that have interrupts, as LangGraph Platform does; the JS dev server also lists every other task of the state, with an empty list.",
    applies: (d) => /\.interrupts\."[^"]*"$/.test(d.path) && Array.isArray(d.reference) && d.reference.length === 0 && d.ours === ABSENT,
  },
  {
    id: 'error-texts',
    why: "A failed task's `error` and a failed run's `__error__` carry the error's message and name as LangGraph Platform does; the JS dev server sends them as JSON text and double-encodes a wait's `__error__`.",
    applies: (d) =>
      (d.path.endsWith('.__error__.error') && d.reference === 'Error' && typeof d.ours === 'string') ||
      (typeof d.reference === 'string' &&
        typeof d.ours === 'string' &&
        ['error', 'message'].includes(lastKey(d.path)) &&
        d.reference.startsWith('{') &&
        (d.reference.includes(JSON.stringify(d.ours)) || d.reference.includes(`"${d.ours}"`))),
  },
  {
    id: 'resumable-replay',
    why: "Joining a resumable run's stream with `Last-Event-ID: -1` replays its events from the first, also after it ended; the JS dev server answers an ended run's stream with no events.",
    applies: (d, step) => step.name.startsWith('runs.joinStream of a resumable run') && d.reference === ABSENT && /^\$\.events\[\d+\]$/.test(d.path),
  },
  {
    id: 'store-score-null',
    why: 'Unranked store search results carry `score: null`, as LangGraph Platform sends; the JS dev server leaves `score` out.',
    applies: (d) => onlyInOurs(d) && lastKey(d.path) === 'score' && d.ours === null,
  },
  {
    id: 'unknown-route-404',
    why: 'A path no route serves is `404 {"detail": "Not Found"}`, as FastAPI answers; the JS dev server (Hono) answers the text `404 Not Found`.',
    applies: (d) => lastKey(d.path) === 'message' && d.reference === '404 Not Found' && d.ours === 'Not Found',
  },
  {
    id: 'info-server',
    why: '/info names this server\'s own version and deployment, and announces crons (this server runs them; the JS dev server has none).',
    applies: (d, step) =>
      step.name === 'GET /info' && ['$.body.version', '$.body.deployment_id', '$.body.flags.crons'].includes(d.path),
  },
  {
    id: 'stream-events-by-products',
    why: 'The JS dev server runs every graph under `streamEvents`, which leaves traces this server (running `graph.stream`) does not: chat-model message ids `run-<id>` (ours get a plain id when nothing streams the model), `tool_call_chunks: []` on messages a model streamed, no `run_name` in subgraph configs, and a checkpoint envelope (`{id, parent_id, step, source}`) before every subgraph `values` event.',
    applies: (d) =>
      (lastKey(d.path) === 'id' && typeof d.reference === 'string' && d.reference === `run-${String(d.ours)}`) ||
      (lastKey(d.path) === 'tool_call_chunks' && d.ours === ABSENT && Array.isArray(d.reference) && d.reference.length === 0) ||
      (lastKey(d.path) === 'run_name' && d.reference === ABSENT),
    prepare: (answers) => {
      const events = (answer: unknown) => (isRecord(answer) && Array.isArray(answer['events']) ? answer['events'] : undefined);
      const [reference, ours] = [events(answers.reference), events(answers.ours)];
      if (!reference || !ours || ours.some(isEnvelopeEvent) || !reference.some(isEnvelopeEvent)) return undefined;
      return { reference: { ...(answers.reference as object), events: reference.filter((e) => !isEnvelopeEvent(e)) }, ours: answers.ours };
    },
  },
  {
    id: 'auth-refusal-detail',
    why: "A call the deployment's auth filters out (404) or refuses (a handler returning `false`: 403) answers `{\"detail\": ...}` as every other error: the message a missing resource gets (`Thread with ID <id> not found`), `Forbidden`; the JS dev server answers these two with an empty body.",
    applies: (d, _step, answers) =>
      lastKey(d.path) === 'message' && d.reference === 'null' && typeof d.ours === 'string' && [403, 404].includes(errorStatus(answers.ours, d.path) as number),
  },
  {
    id: 'copy-not-found-404',
    why: 'Copying a thread that is missing or that the deployment\'s auth hides is a 404 "Thread not found", as every other call on such a thread (issue 17: what a filter hides is a 404); the JS dev server answers its copy with 409 and the same message.',
    applies: (d, step, answers) =>
      /\bcopy\b/.test(step.name) &&
      lastKey(d.path) === 'status' &&
      d.reference === 409 &&
      d.ours === 404 &&
      JSON.stringify(parentOf(answers.ours, d.path)).includes('"message":"Thread not found"'),
  },
  {
    id: 'protocol-seq',
    why: "Streaming-protocol events are numbered per thread from the durable run event log, the same on every replica, so an HTTP command cannot know which of them it applied through: it answers `applied_through_seq: 0`, as LangGraph Platform's HTTP commands do (the SDK then finds the run's start on the stream); the JS dev server reports its in-process counter.",
    applies: (d) => lastKey(d.path) === 'applied_through_seq' && typeof d.reference === 'number' && d.ours === 0,
  },
  {
    id: 'protocol-model-output',
    why: "The JS dev server runs protocol runs under `streamEvents(..., {version: \"v3\"})`, which switches chat models to LangChain's v1 output (content as blocks, `content_blocks`, `finish_reason` and `output_version` in `response_metadata`, a `reason` on `message-finish`) and tags message events with the chat model's callback `run_id`; this server runs them with `graph.stream` (as every run) and translates its message stream, so a model's output keeps the format the model gives.",
    applies: (d, step) => {
      if (step.section !== 'v3') return false;
      const key = lastKey(d.path);
      const textOf = (blocks: unknown) => (Array.isArray(blocks) ? blocks.map((b) => (isRecord(b) && b['type'] === 'text' ? String(b['text']) : '\u0000')).join('') : undefined);
      // The SDK's message class keeps the v1 content as `contentBlocks`, not `content`, in `lc_kwargs`.
      if (/\.lc_kwargs\.content$/.test(d.path)) return d.reference === ABSENT && typeof d.ours === 'string';
      if (key === 'content') return typeof d.ours === 'string' && textOf(d.reference) === d.ours;
      if (['run_id', 'reason', 'content_blocks', 'contentBlocks', 'finish_reason', 'output_version'].includes(key)) return d.ours === ABSENT;
      if (key === 'response_metadata') return d.ours === ABSENT && isRecord(d.reference) && d.reference['output_version'] === 'v1';
      return key === 'tool_call_chunks' && d.reference === ABSENT && Array.isArray(d.ours) && d.ours.length === 0;
    },
  },
];

export const ATTRIBUTIONS: Attribution[] = [
  {
    owner: 'auth',
    what: "the authenticated user in a run's config and metadata (`langgraph_auth_user*`, `user_id`)",
    applies: (d) => /\.(langgraph_auth_user|langgraph_auth_user_id|langgraph_auth_permissions|user_id)\b/.test(d.path),
  },
  {
    owner: 'http',
    what: "request headers copied into a run's `configurable` (`x-*`, `user-agent`)",
    applies: (d) => !d.path.startsWith('$.headers.') && /\."(x-[^"]*|user-agent)"/.test(d.path),
  },
  {
    owner: 'introspect',
    what: "a thread's `config` taking the config of the runs on it (what factory graphs are built with on state reads and updates)",
    applies: (d) => /^\$(\.body|\[\d+\])?\.config\.configurable/.test(d.path),
  },
];
