import { randomUUID } from 'node:crypto';
import { errorAnswerFault } from '@platform/testing';
import { startTestAgentServer, type TestAgentServer } from './agent-server.testing';

// PGlite (no DATABASE_URL) starts slowly, and the graphs are loaded from TypeScript.
jest.setTimeout(180_000);

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };
type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, Schema>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Wrong types, text Postgres cannot store (U+0000, a lone surrogate, in a value or a key), edge numbers.
const BAD_VALUES: unknown[] = [null, 'x', -1, 1e308, true, [], [null], {}, '\u0000', 'a\ud800', { k: 'v\u0000' }, { 'k\u0000': 1 }, 'not-a-uuid'];
const RAW_BODIES = ['{', '[]', '"text"', '123', 'null', '{"__proto__": {"polluted": true}}'];

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

  const send = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${running.server.url}${path}`, {
      method,
      headers: { ...running.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    const text = await response.text();
    return { status: response.status, text, what: `${method} ${path} ${body?.slice(0, 120) ?? ''} -> ${response.status} ${text.slice(0, 300)}` };
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
    const check = async (method: string, path: string, body?: string) => {
      const problem = fault(path, await send(method, path, body));
      if (problem) faults.push(problem);
    };
    let operations = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item).filter(([m]) => METHODS.includes(m))) {
        operations++;
        const verb = method.toUpperCase();
        const hasBody = verb === 'POST' || verb === 'PUT' || verb === 'PATCH';
        const path = (overrides: Record<string, string> = {}) =>
          template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(overrides[name] ?? ids[name] ?? randomUUID()));
        const emptyBody = hasBody ? '{}' : undefined;
        for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
          for (const value of ['not-a-uuid', '\u0000', randomUUID()]) await check(verb, path({ [name as string]: value }), emptyBody);
        }
        for (const { name } of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
          for (const value of ['\u0000', 'abc', '-1', '1e309']) await check(verb, `${path()}?${name}=${encodeURIComponent(value)}`, emptyBody);
        }
        if (!hasBody) continue;
        for (const raw of RAW_BODIES) await check(verb, path(), raw);
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        for (const property of propertiesOf(doc, schema)) {
          for (const value of BAD_VALUES) await check(verb, path(), JSON.stringify({ assistant_id: ids['assistant_id'], [property]: value }));
        }
      }
    }
    expect(operations).toBeGreaterThan(50);
    expect(faults).toEqual([]);
  });
});
