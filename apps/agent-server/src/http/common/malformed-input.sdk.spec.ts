import { randomUUID } from 'node:crypto';
import { errorAnswerFault } from '@platform/testing';
import { startTestAgentServer, type TestAgentServer } from '../agent-server.testing';

// PGlite (no DATABASE_URL) starts slowly, and the graphs are loaded from TypeScript.
jest.setTimeout(180_000);

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };
type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, Schema>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Wrong types, text Postgres cannot store (U+0000, a lone surrogate, in a value or a key), edge numbers.
const BAD_VALUES: unknown[] = [null, 'x', -1, 1e308, true, [], [null], {}, '\u0000', 'a\ud800', { k: 'v\u0000' }, { 'k\u0000': 1 }, 'not-a-uuid'];
const RAW_BODIES = ['{', '[]', '"text"', '123', 'null', '{"__proto__": {"polluted": true}}'];
// Path parameters sent as they are (not encoded again): percent-escapes that are not UTF-8.
const RAW_PARAMS = ['%ff', '%ff%fe', '%E0%A4%A'];
// Bodies whose Content-Encoding does not hold.
const ENCODED_BODIES: [string, string][] = [['br', '{"a": 1}'], ['gzip', 'garbage'], ['deflate', '{}'], ['zstd', '{}']];

/** The top-level properties a request body's schema names, through `$ref`s and combinators. */
function propertiesOf(doc: OpenApi, schema: Schema | undefined, depth = 0): string[] {
  if (!schema || depth > 8) return [];
  if (schema.$ref) {
    const target = schema.$ref.split('/').slice(2).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc.components);
    return propertiesOf(doc, target as Schema, depth + 1);
  }
  const nested = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) => propertiesOf(doc, s, depth + 1));
  return [...new Set([...Object.keys(schema.properties ?? {}), ...nested])];
}

/**
 * Every operation of the OpenAPI document, sent malformed path parameters, query parameters and bodies (each
 * property of its schema in turn given each of BAD_VALUES), against the whole server on a database. A client's
 * mistake is never a 5xx, and every error is `{"detail": ...}`, FastAPI-shaped when it is a 422.
 */
describe('malformed input to every operation (one server, Postgres or PGlite)', () => {
  let running: TestAgentServer;
  let doc: OpenApi;
  const ids: Record<string, string> = {};

  // `headers`: a Content-Encoding, an A2A-Version, ...
  const send = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${running.server.url}${path}`, {
      method,
      headers: { ...running.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    const sent = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join(' ');
    return { status: response.status, text, type: response.headers.get('content-type') ?? '', what: `${method} ${path} ${sent} ${body?.slice(0, 120) ?? ''} -> ${response.status} ${text.slice(0, 300)}` };
  };

  // A2A and MCP speak JSON-RPC: their errors are JSON-RPC error objects, not details.
  function fault(path: string, { status, text, what }: Awaited<ReturnType<typeof send>>): string | undefined {
    const problem = errorAnswerFault(status, text, { jsonRpc: /^\/(a2a|mcp)\b/.test(path) });
    return problem && `${problem}: ${what}`;
  }

  beforeAll(async () => {
    running = await startTestAgentServer();
    doc = JSON.parse((await send('GET', '/openapi.json')).text) as OpenApi;
    // Real ids, so that requests get past "not found" to the checks of their bodies and parameters.
    const json = async <T>(method: string, path: string, body?: unknown) => JSON.parse((await send(method, path, body === undefined ? undefined : JSON.stringify(body))).text) as T;
    const [assistant] = await json<{ assistant_id: string }[]>('POST', '/assistants/search', { graph_id: 'agent' });
    const thread = await json<{ thread_id: string }>('POST', '/threads', {});
    await json('POST', `/threads/${thread.thread_id}/runs/wait`, { assistant_id: 'agent', input: { messages: [] } });
    const [run] = await json<{ run_id: string }[]>('GET', `/threads/${thread.thread_id}/runs`);
    const cron = await json<{ cron_id: string }>('POST', '/runs/crons', { assistant_id: 'agent', schedule: '0 0 1 1 *' });
    Object.assign(ids, { assistant_id: assistant?.assistant_id, graph_id: 'agent', thread_id: thread.thread_id, run_id: run?.run_id, cron_id: cron.cron_id, version: '1' });
    expect(Object.values(ids).every((id) => typeof id === 'string')).toBe(true);
  });
  afterAll(() => running?.stop());

  it('never answers a client’s mistake with a 5xx, and always with a detail', async () => {
    const faults: string[] = [];
    /** Sends one malformed request of an operation, with the headers of the sweep's variant. */
    const sweep = async (template: string, verb: string, operation: Operation, variant: Record<string, string>) => {
      const check = async (path: string, body?: string, headers: Record<string, string> = {}) => {
        const problem = fault(path, await send(verb, path, body, { ...variant, ...headers }));
        if (problem) faults.push(problem);
      };
      const hasBody = verb === 'POST' || verb === 'PUT' || verb === 'PATCH';
      // `raw` values go into the path as they are, not percent-encoded again.
      const path = (overrides: Record<string, string> = {}, raw: Record<string, string> = {}) =>
        template.replace(/\{(\w+)\}/g, (_, name: string) => raw[name] ?? encodeURIComponent(overrides[name] ?? ids[name] ?? randomUUID()));
      const emptyBody = hasBody ? '{}' : undefined;
      for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
        for (const value of ['not-a-uuid', '\u0000', randomUUID()]) await check(path({ [name as string]: value }), emptyBody);
        for (const raw of RAW_PARAMS) await check(path({}, { [name as string]: raw }), emptyBody);
      }
      for (const { name } of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
        for (const value of ['\u0000', 'abc', '-1', '1e309']) await check(`${path()}?${name}=${encodeURIComponent(value)}`, emptyBody);
      }
      if (!hasBody) return;
      for (const raw of RAW_BODIES) await check(path(), raw);
      for (const [encoding, raw] of ENCODED_BODIES) await check(path(), raw, { 'content-encoding': encoding });
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      for (const property of propertiesOf(doc, schema)) {
        for (const value of BAD_VALUES) await check(path(), JSON.stringify({ assistant_id: ids['assistant_id'], [property]: value }));
      }
    };
    let operations = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      // A2A's routes speak 0.3 (no header) and 1.0 (`A2A-Version: 1.0`): each is swept in both.
      const variants: Record<string, string>[] = /^\/(a2a\/|\.well-known\/agent-card)/.test(template) ? [{}, { 'a2a-version': '1.0' }] : [{}];
      for (const [method, operation] of Object.entries(item).filter(([m]) => METHODS.includes(m))) {
        operations++;
        for (const variant of variants) await sweep(template, method.toUpperCase(), operation, variant);
      }
    }
    expect(operations).toBeGreaterThan(50);
    expect(faults).toEqual([]);
  });

  // A2A's methods in both protocol versions, each given bad params (and versions it does not speak): JSON-RPC
  // errors that name the problem, never an internal error (-32603) or a 5xx, in one response or in an SSE stream.
  it('answers bad A2A params with JSON-RPC errors in protocol 1.0 and 0.3, never an internal error', async () => {
    const versions: [Record<string, string>, string[]][] = [
      [{}, ['message/send', 'message/stream', 'tasks/get', 'tasks/cancel', 'tasks/resubscribe']],
      [{ 'a2a-version': '1.0' }, ['SendMessage', 'SendStreamingMessage', 'GetTask', 'ListTasks', 'CancelTask', 'SubscribeToTask']],
      [{ 'a2a-version': '9.9' }, ['SendMessage', 'message/send']],
      [{ 'a2a-version': 'one' }, ['SendMessage']],
    ];
    const keys = ['message', 'id', 'configuration', 'contextId', 'historyLength', 'pageSize', 'status', 'metadata'];
    const params: unknown[] = [undefined, ...BAD_VALUES, ...keys.flatMap((key) => BAD_VALUES.map((value) => ({ [key]: value })))];
    const faults: string[] = [];
    let requests = 0;
    for (const [headers, methods] of versions) {
      for (const method of methods) {
        for (const value of params) {
          requests++;
          const answer = await send('POST', '/a2a/agent', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: value }), headers);
          const messages = answer.type.startsWith('text/event-stream')
            ? answer.text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)) as { jsonrpc?: string; error?: { code?: number } })
            : [JSON.parse(answer.text) as { jsonrpc?: string; error?: { code?: number } }];
          // Only ListTasks has params that are all optional filters: a list is a fine answer there.
          const answered = (m: { error?: unknown }) => m.error !== undefined || method === 'ListTasks';
          const wrong = answer.status >= 500 || messages.length === 0 || messages.some((m) => m.jsonrpc !== '2.0' || m.error?.code === -32603 || !answered(m));
          if (wrong) faults.push(answer.what);
        }
      }
    }
    expect(requests).toBeGreaterThan(1000);
    expect(faults).toEqual([]);
  });
});
