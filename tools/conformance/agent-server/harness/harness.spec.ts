import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ABSENT, diff } from './diff';
import { judge } from './judge';
import { normalize } from './normalize';
import { ALLOWANCES } from './rules';
import { section } from './step';

const SERVER = 'http://127.0.0.1:4321';
const THREAD = '0190f0c2-1c5b-7e3a-9a41-3b5d2f1e8c77';

describe('normalize', () => {
  it('names kept ids, blanks other ids, interrupt ids, times and the server URL, sorts keys, drops gateway headers', () => {
    const names = new Map([[THREAD, '<thread:chat>']]);
    const value = {
      z: `${SERVER}/threads/${THREAD.toUpperCase()}`,
      a: { created_at: '2026-11-25T16:50:56.822Z', id: 'e3c7d1a2-5b6f-4c8d-9e0f-1a2b3c4d5e6f', interrupt: '8da820192e8379dc505b50d3509aa9e6' },
      configurable: { 'x-request-id': 'r', 'x-tenant-id': 't', 'x-conformance-flavour': 'kept' },
      [`child:${THREAD}`]: 1,
      schema: { properties: { '__@toStringTag@1440': {} } },
    };
    const normalized = normalize(value, { names, serverUrl: SERVER }) as Record<string, unknown>;
    expect(normalized).toEqual({
      a: { created_at: '<time>', id: '<uuid>', interrupt: '<hex>' },
      'child:<thread:chat>': 1,
      configurable: { 'x-conformance-flavour': 'kept' },
      schema: { properties: { '__@toStringTag@<n>': {} } },
      z: '<server>/threads/<thread:chat>',
    });
    expect(Object.keys(normalized)).toEqual(['a', 'child:<thread:chat>', 'configurable', 'schema', 'z']);
  });
});

describe('diff', () => {
  it('finds every differing leaf, missing keys and array items included', () => {
    expect(diff({ a: 1, b: [1, 2], c: { d: 'x' } }, { a: 1, b: [1], c: { d: 'y' }, e: null })).toEqual([
      { path: '$.b[1]', reference: 2, ours: ABSENT },
      { path: '$.c.d', reference: 'x', ours: 'y' },
      { path: '$.e', reference: ABSENT, ours: null },
    ]);
    expect(diff({ 'x-a': [{}] }, { 'x-a': [{}] })).toEqual([]);
  });
});

describe('judge', () => {
  const [step] = section('core', { 'runs.get': async () => null });

  it('counts a call the same when every difference is allowed, and names who owes the others', () => {
    const allowed = judge(step, { multitask_strategy: 'reject' }, { multitask_strategy: 'enqueue' });
    expect(allowed).toMatchObject({ same: true, owners: [] });
    expect(allowed.differences[0].allowed).toBe('default-multitask-enqueue');

    const owed = judge(
      step,
      { kwargs: { config: { configurable: { langgraph_auth_user_id: 'anonymous', 'user-agent': 'node' } } }, status: 'success' },
      { kwargs: { config: { configurable: {} } }, status: 'error' },
    );
    expect(owed.same).toBe(false);
    expect(owed.owners.sort()).toEqual(['auth', 'conform', 'http']);
  });

  it('lets an allowance drop the checkpoint envelopes only the reference streams', () => {
    const envelope = { event: 'checkpoints|child:<uuid>', data: { id: '<uuid>', parent_id: '<uuid>', step: 0, source: 'loop' } };
    const values = { event: 'values', data: { log: [] } };
    const verdict = judge(step, { status: 200, events: [envelope, values] }, { status: 200, events: [values] });
    expect(verdict).toMatchObject({ same: true, prepared: ['stream-events-by-products'] });
  });
});

describe('the README', () => {
  it('lists and explains every allowance the harness applies', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    for (const allowance of ALLOWANCES) expect(readme).toContain(`| \`${allowance.id}\` |`);
  });
});
