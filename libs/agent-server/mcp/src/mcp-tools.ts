import { getAssistantSchemas, type Assistant, type AssistantRepository } from '@platform/agent-server-assistants';
import type { Access, AccessFilter } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import type { RunService } from '@platform/agent-server-runs';
import { runCreateSchema, type RunRecord } from '@platform/agent-server-run-records';
import { isPlatformError } from '@platform/errors';
import { JSON_RPC, JsonRpcError } from '@platform/json-rpc';
import { assignToolNames } from './mcp-tool-names';

export interface McpToolsDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  runs: RunService;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface CallToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

const LOAD_BATCH = 500;

/**
 * Every assistant the caller may see (`assistants:search` of the deployment's auth) with its tool name, oldest first.
 * Names are unique only over the whole set, so both listing and calling read all assistants (one light query per
 * 500); only a listed page loads graphs.
 */
async function namedAssistants(repo: AssistantRepository, access: Access): Promise<{ name: string; assistant: Assistant }[]> {
  const all: Assistant[] = [];
  const visible: AccessFilter | undefined = await access.authorize('assistants:search', { limit: LOAD_BATCH, offset: 0 });
  for (let offset = 0; ; offset += LOAD_BATCH) {
    const batch = await repo.search({ limit: LOAD_BATCH, offset, sortBy: 'created_at', sortOrder: 'asc' }, visible);
    all.push(...batch);
    if (batch.length < LOAD_BATCH) return assignToolNames(all);
  }
}

// The cursor is opaque to clients: a base64url offset into the oldest-first list.
const encodeCursor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');

function decodeCursor(cursor: string): number {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // Not ours: answered below.
  }
  throw new JsonRpcError(JSON_RPC.INVALID_PARAMS, `Invalid cursor: ${JSON.stringify(cursor)}`);
}

/** MCP wants an object schema; a graph without one still takes any object. */
function toInputSchema(schema: Record<string, unknown> | null): Record<string, unknown> {
  return schema ? { ...schema, type: 'object' } : { type: 'object', properties: {} };
}

async function inputSchemaOf(deps: McpToolsDeps, assistant: Assistant): Promise<Record<string, unknown>> {
  try {
    return toInputSchema((await getAssistantSchemas(deps, assistant.assistant_id)).input_schema ?? null);
  } catch {
    // A graph that no longer loads (e.g. removed from the config) must not hide every other tool; calling it
    // reports the cause.
    return toInputSchema(null);
  }
}

const descriptionOf = (assistant: Assistant) =>
  assistant.description?.trim() || `Runs the "${assistant.graph_id}" graph (assistant "${assistant.name}") and returns its final state.`;

/** One page of tools, oldest assistant first, with the cursor of the next page when there is one. */
export async function listTools(
  deps: McpToolsDeps,
  cursor: string | undefined,
  pageSize: number,
  access: Access,
): Promise<{ tools: McpTool[]; nextCursor?: string }> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const named = await namedAssistants(deps.assistants, access);
  const page = named.slice(offset, offset + pageSize);
  const tools = await Promise.all(
    page.map(async ({ name, assistant }) => ({ name, description: descriptionOf(assistant), inputSchema: await inputSchemaOf(deps, assistant) })),
  );
  return offset + pageSize < named.length ? { tools, nextCursor: encodeCursor(offset + pageSize) } : { tools };
}

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

// Caller-side failures (bad input, a vanished assistant or run, a busy resource) are the tool's result, so
// the model can read them; faults of ours stay JSON-RPC errors.
function asToolError(err: unknown): CallToolResult {
  if (isPlatformError(err) && err.code !== 'internal' && err.code !== 'unavailable') return toolError(`${err.name}: ${err.message}`);
  throw err;
}

/** The run's output as MCP content: its JSON as text and, when it is an object, as structured content. */
function toResult(output: string): CallToolResult {
  const value: unknown = JSON.parse(output);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { content: [{ type: 'text', text: output }], isError: false };
  const failure = (value as { __error__?: { error?: unknown; message?: unknown } }).__error__;
  if (failure !== undefined) {
    const name = typeof failure?.error === 'string' ? failure.error : 'Error';
    const message = typeof failure?.message === 'string' ? failure.message : JSON.stringify(failure);
    return toolError(`${name}: ${message}`);
  }
  return { content: [{ type: 'text', text: output }], structuredContent: value as Record<string, unknown>, isError: false };
}

/**
 * Runs the assistant named by the tool statelessly with the arguments as input and waits for its output.
 * `onRun` learns the run as soon as it exists (to cancel it when the client goes away).
 */
export async function callTool(
  deps: McpToolsDeps,
  call: { name: string; arguments?: Record<string, unknown> },
  onRun: (run: RunRecord) => void,
  access: Access,
): Promise<CallToolResult> {
  const found = (await namedAssistants(deps.assistants, access)).find((named) => named.name === call.name);
  if (!found) throw new JsonRpcError(JSON_RPC.INVALID_PARAMS, `Unknown tool: ${call.name}`);
  const request = runCreateSchema.parse({ assistant_id: found.assistant.assistant_id, input: call.arguments ?? {}, on_disconnect: 'cancel' });
  let run: RunRecord;
  try {
    run = await deps.runs.create({ threadId: null }, request, access);
  } catch (err) {
    return asToolError(err);
  }
  onRun(run);
  try {
    return toResult(await deps.runs.output(run, { fresh: true }));
  } catch (err) {
    return asToolError(err);
  }
}
