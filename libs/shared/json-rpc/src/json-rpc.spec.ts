import { z } from 'zod';
import { JSON_RPC, JsonRpcError, parseJsonRpcParams, requestIdOf, rpcError, toJsonRpcError } from './json-rpc';

describe('JSON-RPC messages', () => {
  const params = z.object({ name: z.string({ error: 'name must be a string' }), count: z.number().int().optional() });

  it('returns params that match the schema as parsed', () => {
    expect(parseJsonRpcParams(params, { name: 'echo', count: 2 }, 'tools/call')).toEqual({ name: 'echo', count: 2 });
  });

  it('refuses params that do not with one invalid-params error naming every wrong field', () => {
    let thrown: unknown;
    try {
      parseJsonRpcParams(params, { name: 1, count: 1.5 }, 'tools/call');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(JsonRpcError);
    const error = (thrown as JsonRpcError).toObject();
    expect(error.code).toBe(JSON_RPC.INVALID_PARAMS);
    expect(error.message).toMatch(/^Invalid params for tools\/call: name: name must be a string; count: /);
    expect((error.data as { issues: { path: string[] }[] }).issues.map((issue) => issue.path)).toEqual([['name'], ['count']]);
  });

  it('refuses text Postgres cannot store (a NUL character) as invalid params too', () => {
    expect(() => parseJsonRpcParams(params, { name: 'a\u0000b' }, 'tools/call')).toThrow(/^Invalid params for tools\/call: name: /);
  });

  it('echoes a readable id and null otherwise', () => {
    expect([requestIdOf({ id: 7 }), requestIdOf({ id: 'a' }), requestIdOf({ id: null }), requestIdOf({ id: {} }), requestIdOf([1]), requestIdOf('x')]).toEqual([
      7,
      'a',
      null,
      null,
      null,
      null,
    ]);
  });

  it('answers a JsonRpcError with its own object and anything else as an internal error', () => {
    expect(toJsonRpcError(new JsonRpcError(-32001, 'Task not found: t', { taskId: 't' }))).toEqual({ code: -32001, message: 'Task not found: t', data: { taskId: 't' } });
    expect(toJsonRpcError(new Error('boom'))).toEqual({ code: JSON_RPC.INTERNAL_ERROR, message: 'boom' });
    expect(rpcError(3, { code: JSON_RPC.METHOD_NOT_FOUND, message: 'Method not found: x' })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: x' },
    });
  });
});
